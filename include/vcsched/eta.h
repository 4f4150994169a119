// Start-time estimates (docs/ETA.md): from a cluster state, when each pending job will
// start. The state's pods run for their expected runtimes (vcsched.io/expected-runtime,
// activeDeadlineSeconds or a default), the real scheduler runs over virtual time as the
// simulator runs it (vcsched/simulate.h), and each pending job's start is read off.
//
//   absl::StatusOr<ScenarioObjects> state = LoadObjects({{"state.yaml", text}});
//   EtaOptions o;
//   o.default_runtime_ms = 3600 * 1000;
//   absl::StatusOr<EtaResult> r = EstimateStarts(*state, config, o);
//   std::cout << EtaText(*r);
//
// With fixed runtimes and no workload, a job's start_s is exactly the time the simulator,
// continuing from the same state, starts it (within nothing: the same loop decides both).
#ifndef VCSCHED_ETA_H_
#define VCSCHED_ETA_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vcsched/cluster.h"
#include "vcsched/config.h"
#include "vcsched/explain.h"
#include "vcsched/io/scenario.h"
#include "vcsched/simulate.h"

namespace vcsched {

struct EtaOptions {
  // The state's clock, seconds since the epoch. Default: the newest time the state holds
  // (creationTimestamp, startTime, a PodScheduled condition), so that the same files give
  // the same answer.
  std::optional<int64_t> now_seconds;
  // The runtime of a pod none is known for. Default: such pods never end.
  std::optional<int64_t> default_runtime_ms;
  // How far ahead to look. A job that has not started by then has start_s unset.
  int64_t horizon_ms = 7 * 24 * 3600 * 1000LL;
  // Jobs that arrive after now (a Workload, vcsched/simulate.h); its `start` is now. The
  // period, bind latency and grace period come from it. Default: no arrivals, a period of 1s.
  const Workload* workload = nullptr;
  // > 1: this many futures, each drawing runtimes ("1h±20m", the workload's duration
  // models) from its own seed (derived from `seed`), reported as p10/p50/p90 start times.
  int32_t samples = 1;
  uint64_t seed = 0;
  // The index of the first future: futures [first_sample, first_sample + samples) are run,
  // each with the seed its index gives, so that chunks run apart (on many machines) are
  // the futures one run would have made.
  int64_t first_sample = 0;
  // Threads the samples run on (the host's to give; 0: one per processor, at most 8).
  int32_t threads = 1;
  // Stop with an error after this many simulated events per future (0: no bound).
  int64_t max_events = 10000000;
};

// A job whose end frees room the estimated job then takes.
struct EtaWait {
  std::string job;    // namespace/name of its PodGroup
  double ends_s = 0;  // seconds after now
  // What its pods free on the nodes the estimated job goes to: cpu in cores, memory in
  // bytes, other resources in their own units.
  std::map<std::string, double> frees;
  bool evicted = false;  // it was preempted or reclaimed to make the room, not ended
};

struct EtaJob {
  std::string job;    // namespace/name of its PodGroup
  std::string queue;
  std::optional<double> start_s;  // seconds after now; unset: not within the horizon
  std::optional<int64_t> start;   // seconds since the epoch
  int32_t position = 0;           // its place among its queue's pending jobs, in job order (1: next)
  std::vector<EtaWait> waits_for; // in the order they end
  std::string reason;             // explain's reason code at now
  std::string note;               // one sentence: why then, or why not within the horizon
  // With samples > 1: the 10th, 50th and 90th percentile of start_s over the futures;
  // unset where that percentile does not start within the horizon.
  std::optional<double> p10_s, p50_s, p90_s;
  int32_t samples_started = 0;    // futures in which it started
  // With samples > 1: each future's start_s in future order, -1 where it did not start.
  std::vector<double> sample_starts_s;
};

struct EtaResult {
  int64_t now_seconds = 0;
  int64_t horizon_ms = 0;
  int32_t samples = 1;
  std::vector<EtaJob> jobs;  // by queue, then position
  std::vector<std::string> notes;  // refused objects, controller warnings
};

// kInvalidArgument for a runtime annotation that does not parse (naming the object), a
// configuration the registry refuses, or options out of range.
absl::StatusOr<EtaResult> EstimateStarts(const ScenarioObjects& state, const SchedulerConfig& config,
                                         const EtaOptions& options = {});

// The same from a living cluster's state (its objects are copied; the cluster is not changed).
absl::StatusOr<EtaResult> EstimateStarts(const Cluster& cluster, const SchedulerConfig& config,
                                         const EtaOptions& options = {});

// Each pending job's estimate as a line of its explanation (JobExplanation::eta), as
// `vcsched explain` prints it when runtimes are known.
void AddEstimates(const EtaResult& estimates, Explanation& explanation);
// One job's estimate in words, without its name: "starts in ~3h20m (14:20Z), after ml/a ends
// and frees 6 nvidia.com/gpu", or "not within 7d: still ...".
std::string EtaLine(const EtaResult& result, const EtaJob& job);

// `vcsched eta -o json`: {"now": RFC 3339, "jobs": [{"job", "queue", "start_s", "start",
// "position", "waits_for", "reason", "note", ...}]}.
// `with_samples`: each job's sample_starts_s too.
std::string EtaJson(const EtaResult& result, bool with_samples = false);
// One line per pending job: `ml/train-b  starts in ~3h20m (14:20Z), after ml/train-a ends
// and frees 6 nvidia.com/gpu`.
std::string EtaText(const EtaResult& result);

}  // namespace vcsched

#endif  // VCSCHED_ETA_H_
