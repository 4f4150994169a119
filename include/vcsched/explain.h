// Why work waits, and what would make it run (docs/EXPLAIN.md).
//
//   absl::StatusOr<ExplainResult> r = Explain(snapshot, config);
//   for (const JobExplanation& j : r->explanation.jobs) std::cout << j.job << " " << j.reason;
//
// An explanation is built from the session's own records: the session runs as
// RunSession would (the same decisions, bit for bit) while its plugins and actions note
// the checks that refused work. Hints come from re-running the session on changed
// copies of the snapshot, never from guesses.
#ifndef VCSCHED_EXPLAIN_H_
#define VCSCHED_EXPLAIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/config.h"
#include "vcsched/decisions.h"
#include "vcsched/explain_records.h"
#include "vcsched/scheduler.h"
#include "vcsched/snapshot.h"

namespace vcsched {

// A change that let the job run when the session was run again with it.
struct Hint {
  std::string kind;     // add-nodes, raise-capability, raise-weight, raise-quota, allow-disruptions, preempt,
                        // tolerate-taint, csi-driver, add-volumes, widen-shard, wait-for-window,
                        // mark-preemptable
  std::string change;   // what to change, precisely ("add 2 nodes like gpu-0")
  std::string target;   // the object changed: a node, queue, taint, NodeShard or pod list
  int64_t amount = 0;   // nodes added (to the cluster or the shard), the new weight, pods evicted, seconds to
                        // wait; 0 when not a count
};

struct JobExplanation {
  std::string job;    // the PodGroup's "namespace/name"
  std::string volcano_job;  // the Volcano Job's "namespace/name" when one owns the PodGroup
  std::string queue;
  std::string stage;  // enqueue, allocate, backfill, preempt, reclaim; empty when Scheduled
  std::string reason; // a reason_code
  std::vector<std::string> causes;  // every code that applied, in session order
  std::string message;
  int32_t min_member = 0;
  int32_t pods = 0;       // pods of the job that exist
  int32_t placed = 0;     // pods holding a node after the session (running, bound, allocated)
  int32_t pipelined = 0;  // pods waiting on resources being released
  int32_t fit = 0;        // pending pods that found a node (placed or placed and undone)
  CheckNumbers check;     // the deciding check's numbers
  std::string nodes_task; // the pod the node verdicts are for
  // Node verdicts by exact cause (cause text, node count), counts descending then text.
  std::vector<std::pair<std::string, int32_t>> nodes;
  // With one job asked (ExplainOptions::job): each refusing node's causes, by node name.
  std::vector<std::pair<std::string, std::vector<std::string>>> node_causes;
  std::vector<Hint> hints;
  // When it will start, as a start-time estimate says (vcsched/eta.h AddEstimates): "starts
  // in ~1h20m (14:00Z), after ml/a ends and frees 6 nvidia.com/gpu". Empty when none was made.
  std::string eta;
};

struct Explanation {
  std::vector<JobExplanation> jobs;  // by job key
  std::vector<QueueView> queues;     // by name
  // Pending pods left out because another scheduler serves their schedulerName.
  int64_t other_scheduler_pods = 0;
  std::string other_scheduler_example;  // "ns/pod (schedulerName default-scheduler)", one of them
};

struct ExplainOptions {
  RunOptions run;
  // Only this job: a PodGroup's "namespace/name", or a Volcano Job's (its pods'
  // volcano.sh/job-name). Empty: every job in the session.
  std::string job;
  // Hint search: at most this many session re-runs for the whole call, spent on the
  // jobs not scheduled in job order (0: no hints). With `job`, all go to that job.
  int32_t max_reruns = 32;
  // When set, only these jobs (PodGroup keys; absent ones are passed over) are explained,
  // at a cost that follows their number; the queues are described all the same. A host
  // that follows many jobs asks for those it still waits on (the simulator: the jobs not
  // started yet).
  std::optional<std::vector<std::string>> jobs;
};

struct ExplainResult {
  Decisions decisions;  // the same as RunSession's
  Explanation explanation;
};

absl::StatusOr<ExplainResult> Explain(const Snapshot& snapshot, const SchedulerConfig& config,
                                      const ExplainOptions& options = {});

// The queues after one session, as Explain reports them.
absl::StatusOr<std::vector<QueueView>> DescribeQueues(const Snapshot& snapshot, const SchedulerConfig& config,
                                                      const RunOptions& options = {});

// One feasible node's score for a task: each plugin's part after normalisation and
// weights, and the total.
struct NodeScore {
  std::string node;
  std::vector<std::pair<std::string, double>> plugins;  // in registration order
  double total = 0;
};
// Every feasible node's score for `task` ("namespace/name") against the snapshot as the
// session opens, sorted by total (highest first), ties by node name.
absl::StatusOr<std::vector<NodeScore>> ScoreTask(const Snapshot& snapshot, const SchedulerConfig& config,
                                                 absl::string_view task, const RunOptions& options = {});

// "Would this job fit now, and where": a session's answer for one job.
struct FitAnswer {
  bool fits = false;  // every pod of the job placed or pipelined
  std::vector<std::pair<std::string, std::string>> placements;  // pod -> node, by pod
  JobExplanation explanation;
};
absl::StatusOr<FitAnswer> WouldFit(const Snapshot& snapshot, const SchedulerConfig& config, absl::string_view job,
                                   const RunOptions& options = {});

// Output forms: JSON (docs/EXPLAIN.md) and text for people.
std::string ExplanationToJson(const Explanation& explanation);
std::string ExplanationToText(const Explanation& explanation);
std::string QueuesToJson(const std::vector<QueueView>& queues);
std::string QueuesToText(const std::vector<QueueView>& queues);
std::string ScoresToJson(absl::string_view task, const std::vector<NodeScore>& scores);
std::string ScoresToText(absl::string_view task, const std::vector<NodeScore>& scores);

}  // namespace vcsched

#endif  // VCSCHED_EXPLAIN_H_
