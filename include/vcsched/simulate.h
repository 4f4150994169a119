// Simulation over virtual time (docs/SIMULATE.md): a cluster, a workload of Volcano Jobs,
// CronJobs and JobFlows arriving over time, the real scheduler and the real Job
// controller (vcsched/lifecycle) in one deterministic discrete-event loop.
//
//   absl::StatusOr<Workload> w = ReadWorkload({{"workload.yaml", text}});
//   absl::StatusOr<ScenarioObjects> c = LoadObjects({{"cluster.yaml", cluster_text}});
//   absl::StatusOr<SimulationResult> r = Simulate(*c, *w, config, {});
//   std::string jobs_csv = JobsCsv(*r);
//
// Time is virtual and counted in milliseconds from the workload's `start`. A session runs
// at the first period boundary after a change and never while nothing has changed, so
// the cost grows with events, not with simulated seconds. The same inputs and seed give
// the same result, bit for bit; every random draw comes from the project's own samplers.
#ifndef VCSCHED_SIMULATE_H_
#define VCSCHED_SIMULATE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/config.h"
#include "vcsched/io/scenario.h"
#include "vcsched/value.h"

namespace vcsched {

// A random duration (milliseconds), drawn by the workload's samplers.
struct DurationDistribution {
  enum class Kind { kFixed, kUniform, kExponential, kLognormal };
  Kind kind = Kind::kFixed;
  int64_t a_ms = 0;    // fixed: the value; uniform: low; exponential: mean; lognormal: median
  int64_t b_ms = 0;    // uniform: high
  double sigma = 0;    // lognormal
};

struct ArrivalPattern {
  enum class Kind { kAt, kEvery, kPoisson };
  Kind kind = Kind::kAt;
  std::vector<int64_t> at_ms;  // kAt
  int64_t interval_ms = 0;     // kEvery: the period; kPoisson: the mean gap
  int64_t start_ms = 0;        // kEvery, kPoisson: the first arrival's earliest time
};

struct PodFailures {
  double probability = 0;  // per pod run
  int32_t exit_code = 1;
};

// One `jobs:` entry: `count` instances of a Volcano Job template.
struct WorkloadJob {
  std::string name;  // instances are <name>-0, <name>-1, ...
  int64_t count = 0;
  ArrivalPattern arrival;
  DurationDistribution duration;
  std::optional<int32_t> barrier;  // default: the job's minAvailable
  int64_t pod_interval_ms = 0;
  std::optional<PodFailures> failures;
  Value template_;  // a batch.volcano.sh/v1alpha1 Job manifest
  std::string where;  // "workload.yaml: document 1: jobs[0]", for messages
};

struct WorkloadCronJob {
  DurationDistribution duration;
  std::optional<int32_t> barrier;
  int64_t pod_interval_ms = 0;
  std::optional<PodFailures> failures;
  Value template_;  // a batch.volcano.sh/v1alpha1 CronJob manifest
  std::string where;
};

struct WorkloadJobFlow {
  std::map<std::string, DurationDistribution> durations;  // JobTemplate name -> duration
  Value flow;                     // a flow.volcano.sh/v1alpha1 JobFlow manifest
  std::vector<Value> templates;   // its JobTemplate manifests
  std::string where;
};

struct NodeEvent {
  enum class Kind { kAdd, kRemove, kCordon, kUncordon };
  int64_t at_ms = 0;
  Kind kind = Kind::kAdd;
  std::string node;  // kRemove, kCordon, kUncordon
  Value manifest;    // kAdd: a Node manifest
  std::string where;
};

struct Workload {
  uint64_t seed = 0;
  int64_t period_ms = 1000;
  int64_t bind_latency_ms = 0;
  int64_t grace_period_ms = 0;
  int64_t start_seconds = 0;  // wall time of simulated 0, seconds since the epoch
  std::vector<WorkloadJob> jobs;
  std::vector<WorkloadCronJob> cron_jobs;
  std::vector<WorkloadJobFlow> job_flows;
  std::vector<NodeEvent> nodes;
};

// Reads `kind: Workload` documents (apiVersion vcsched/v1); several documents or files
// add their jobs, CronJobs, JobFlows and node events together, and may set each scalar
// (seed, period, ...) once. Every error names the source, document and field.
absl::StatusOr<Workload> ReadWorkload(const std::vector<ScenarioSource>& sources);

struct SimulationOptions {
  // Stop here. Default: when no work remains (required with CronJobs).
  std::optional<int64_t> until_ms;
  std::optional<uint64_t> seed;  // overrides the workload's
  // Called now and then with the simulated time and the end (or -1 when open-ended).
  std::function<void(int64_t now_ms, int64_t until_ms)> progress;
  // Refuse a workload that would create more jobs than this (its entries' counts, and
  // at run time the jobs CronJobs and JobFlows create too). Default: 1,000,000.
  int64_t max_jobs = 1000000;
  // Without until_ms, stop with an error after this many events: work that cannot end
  // (a Job that always fails, with a huge maxRetry) would otherwise run for ever. A day
  // of 20,000 jobs is about 260,000 events. 0: no bound.
  int64_t max_events = 10000000;
  // The cluster file's pods end too (docs/ETA.md "Runtimes"). Without this they hold their
  // nodes for the whole run. A pod runs for its expected runtime: the annotation
  // vcsched.io/expected-runtime (a Go duration, or "1h±20m") on the pod, else on its
  // PodGroup, else on its Volcano Job; else spec.activeDeadlineSeconds; else default_ms;
  // else it never ends. A running pod ends at status.startTime plus that (not before the
  // start); a pending one starts when bound (after the bind latency) and runs for it. An
  // evicted pod goes after the grace period and is not made again. jobs.csv then also has
  // a row per PodGroup of the cluster file that had not started (created_s 0).
  struct ClusterRuntimes {
    std::optional<int64_t> default_ms;
    // "1h±20m" is a draw, uniform over [1h-20m, 1h+20m], from the run's seed; when false,
    // the middle (1h).
    bool draw = false;
  };
  std::optional<ClusterRuntimes> cluster_runtimes;
};

// An expected runtime as the vcsched.io/expected-runtime annotation gives it: a Go duration
// ("90m"), or one with a spread ("1h±20m" or "1h+-20m": uniform over the range, never below
// zero). kInvalidArgument on bad text.
absl::StatusOr<DurationDistribution> ParseExpectedRuntime(absl::string_view text);

// jobs.csv: one row per job, in creation order. Times are seconds from `start`; -1 where
// not reached.
struct JobRecord {
  std::string job;  // namespace/name
  std::string queue;
  double created_s = -1, inqueue_s = -1, running_s = -1, finished_s = -1;
  std::string phase;  // the Volcano Job phase at the end
  int32_t retries = 0;
  int64_t duration_ms = 0;  // the drawn duration
  double progress_s = 0;    // time spent at the barrier (all runs)
};

// timeline.csv: one row per session and per event time.
struct TimelineRow {
  double time_s = 0;
  int64_t pending_pods = 0, running_pods = 0;
  std::vector<double> allocated, capacity;  // per SimulationResult::resources
  // Held by jobs at their barrier (running and making progress), per resource.
  std::vector<double> goodput;
};

// cards.csv: a shared GPU card's use (deviceshare's cards, from the pods' card index
// annotations), one row whenever it changed, sampled after each session.
struct CardUseRow {
  double time_s = 0;
  std::string node;
  int64_t card = 0;
  int64_t memory = 0;       // the card's memory (volcano.sh/gpu-memory units)
  int64_t used_memory = 0;  // what the pods on it ask
  int32_t pods = 0;         // pods on it (a card with none is idle)
};

// queues.csv: one row per queue per session.
struct QueueRow {
  double time_s = 0;
  std::string queue;
  std::vector<double> allocated, deserved;  // per SimulationResult::resources
  std::vector<double> goodput;  // held by the queue's jobs at their barrier
  double share = 0;
};

// Why a job never reached its barrier: explain's verdict in the last session that saw it.
struct NeverStarted {
  std::string reason;   // an explain reason code (docs/EXPLAIN.md); "NeverInSession" when none saw it
  std::string message;  // explain's message
  std::vector<std::pair<std::string, std::string>> check;  // the deciding check's numbers
  int32_t running = 0;  // its pods running at the end
  int32_t pods = 0;     // its pods
  int32_t barrier = 0;  // the pods it needs running to make progress
};

// The run reached a state no event or session could change while work remained.
struct Stall {
  double since_s = 0;  // the time of the last change
  int64_t unfinished = 0;  // jobs not finished
  // Jobs that hold resources without reaching their barrier: together, a deadlock.
  std::vector<std::string> deadlocked;
  std::vector<double> held;  // what the deadlocked jobs hold, per resource
};

// Per queue, over the whole run (time-weighted, as fractions of the cluster's capacity).
struct QueueUsage {
  int32_t weight = 0;  // as the last session saw it
  std::vector<double> utilization;  // held by the queue's pods
  std::vector<double> goodput;      // held by the queue's jobs at their barrier
};

struct SimulationResult {
  // cpu (cores), memory (GiB), then every scalar resource in name order.
  std::vector<std::string> resources;
  std::vector<JobRecord> jobs;
  std::vector<TimelineRow> timeline;
  std::vector<QueueRow> queues;
  std::vector<CardUseRow> cards;  // empty when no node shares GPU cards
  std::vector<double> utilization;  // per resource: time-weighted allocated / capacity
  // Per resource: time-weighted goodput / capacity. Allocation is not progress: a job
  // holding 8 of the 10 GPUs it needs counts in utilization, not here.
  std::vector<double> goodput;
  std::map<std::string, QueueUsage> queue_usage;  // queue -> its usage
  std::optional<Stall> stall;  // set when nothing could change while jobs were unfinished
  int64_t evictions = 0;
  int64_t sessions = 0;
  int64_t events = 0;
  double end_s = 0;  // the simulated time at the end
  std::map<std::string, NeverStarted> never_started;  // job -> why
  std::vector<std::string> notes;  // controller warnings, refused objects
};

absl::StatusOr<SimulationResult> Simulate(const ScenarioObjects& cluster, const Workload& workload,
                                          const SchedulerConfig& config, const SimulationOptions& options = {});

// The output files (docs/SIMULATE.md), byte-identical for the same result.
std::string JobsCsv(const SimulationResult& result);
std::string TimelineCsv(const SimulationResult& result);
std::string QueuesCsv(const SimulationResult& result);
std::string SummaryJson(const SimulationResult& result);
// The headline numbers in a few lines of text: jobs, makespan, allocation against
// goodput, a stall or deadlock, and why jobs never started.
std::string SummaryText(const SimulationResult& result);
// Plots the project draws itself: utilisation over time, queue shares against deserved,
// the wait-time distribution; and a page that shows them.
std::string UtilizationSvg(const SimulationResult& result);
std::string QueueSharesSvg(const SimulationResult& result);
std::string WaitTimesSvg(const SimulationResult& result);
// Shared GPU cards: per node, the share of its cards' memory in use over time (the
// nodes used most, up to 12); empty when the run had no shared cards.
std::string CardsCsv(const SimulationResult& result);
std::string CardsSvg(const SimulationResult& result);
std::string ReportHtml(const SimulationResult& result);

}  // namespace vcsched

#endif  // VCSCHED_SIMULATE_H_
