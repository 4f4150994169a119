// What a session decided: binds, evictions, pipelined tasks, PodGroup statuses and the
// reasons behind them. Every list is sorted, and ToString() is stable for diffs.
#ifndef VCSCHED_DECISIONS_H_
#define VCSCHED_DECISIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"

namespace vcsched {

struct Bind {
  std::string task;  // "namespace/name" of the pod
  std::string node;
};

struct Eviction {
  std::string task;       // the victim, "namespace/name"
  std::string action;     // preempt, reclaim, shuffle, ...
  std::string preemptor;  // the task the eviction makes room for; empty for shuffle
  std::string reason;
};

struct Pipelined {
  std::string task;
  std::string node;  // the node the task waits on (its nominated node)
};

struct PodGroupCondition {
  std::string type;    // Scheduled or Unschedulable
  std::string status;  // "True"
  std::string reason;  // e.g. NotEnoughResources
  std::string message;
  std::string transition_id;
};

struct PodGroupStatus {
  std::string job;  // "namespace/name" of the PodGroup
  std::string old_phase;
  std::string phase;
  int32_t running = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  // Written by this session; inline because a session writes one (Scheduled or
  // Unschedulable) for almost every PodGroup.
  using Conditions = absl::InlinedVector<PodGroupCondition, 1>;
  Conditions conditions;
};

// Why a pending task was left unplaced.
struct TaskReason {
  std::string task;
  std::string reason;  // Unschedulable or Schedulable (placed, but the gang was not)
  std::string message;
};

struct Decisions {
  std::vector<Bind> binds;
  std::vector<Eviction> evictions;
  std::vector<Pipelined> pipelined;
  std::vector<PodGroupStatus> pod_groups;
  std::vector<TaskReason> task_reasons;
  std::vector<std::string> warnings;

  // Sorts every list by its key (task or job); RunSession returns sorted Decisions.
  void Sort();
  // One line per item: "bind ns/p -> n1", "evict ...", "podgroup ns/pg Inqueue -> Running".
  std::string ToString() const;
};

}  // namespace vcsched

#endif  // VCSCHED_DECISIONS_H_
