// What a session notes for Explain (docs/EXPLAIN.md): kept only when asked for, so a
// session that is not explaining carries a null pointer and nothing else.
#ifndef VCSCHED_SRC_FRAMEWORK_EXPLAIN_LOG_H_
#define VCSCHED_SRC_FRAMEWORK_EXPLAIN_LOG_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vcsched/explain_records.h"
#include "vcsched/snapshot.h"

namespace vcsched {

// One check that held a job (or a queue's jobs): in the stage (action) that made it.
struct ExplainRecord {
  std::string stage;
  std::string code;
  std::string message;
  CheckNumbers numbers;
};

// A task's node verdicts: exact cause text -> nodes, over `nodes` nodes tried.
struct NodeVerdicts {
  std::map<std::string, int32_t> causes;
  // Each refusing node's causes, when the log keeps them (ExplainLog::keep_by_node).
  std::vector<std::pair<NodeIndex, std::vector<std::string>>> by_node;
  int32_t nodes = 0;
  std::string stage;
};

struct ExplainLog {
  std::string stage;  // the running action
  bool keep_by_node = false;  // one job explained: each node's verdict is kept, not only counts
  std::vector<std::vector<ExplainRecord>> jobs;   // by job, in the order made
  std::map<QueueIndex, ExplainRecord> queues;     // queue-wide holds (Overused)
  std::map<TaskIndex, NodeVerdicts> verdicts;     // the widest record per task
  std::map<std::string, QueueView> views;         // by queue name
  std::vector<std::string> pipelined_by;          // per task: the action that pipelined it
};

}  // namespace vcsched

#endif  // VCSCHED_SRC_FRAMEWORK_EXPLAIN_LOG_H_
