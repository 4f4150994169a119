// Start-time estimates (vcsched/eta.h, docs/ETA.md): the state's pods end on their
// runtimes, the simulator's loop runs forward, and each pending job's start is read off,
// with the jobs whose ends made its room.
#include "vcsched/eta.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "src/simulate/eta_text.h"
#include "src/simulate/simulator.h"
#include "src/util/status_macros.h"
#include "vcsched/explain.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/registry.h"
#include "vcsched/resource.h"
#include "vcsched/scheduler.h"
#include "vcsched/session.h"

namespace vcsched {
namespace {

using simulate_internal::ClusterGroup;
using simulate_internal::ClusterRelease;
using simulate_internal::Simulator;

// The newest time the state holds: the default "now", so that the same files give the
// same answer whenever they are read.
int64_t NewestTime(const ScenarioObjects& state) {
  int64_t newest = 0;
  for (const PodSpec& p : state.pods) {
    newest = std::max(newest, p.creation_time);
    if (p.start_time) newest = std::max(newest, *p.start_time);
    if (p.scheduled_time) newest = std::max(newest, *p.scheduled_time);
  }
  for (const PodGroupSpec& g : state.pod_groups) newest = std::max(newest, g.creation_time);
  return newest;
}

// An action that runs nothing and writes down, per queue, the session's job order: the
// order allocate takes a queue's jobs in at `now`.
class JobOrderRecorder : public Action {
 public:
  explicit JobOrderRecorder(std::map<std::string, std::vector<std::string>>* out) : out_(out) {}
  absl::Status Execute(Session& session) override {
    std::map<std::string, std::vector<JobIndex>> by_queue;
    for (JobIndex j = 0; j < session.num_jobs(); ++j) {
      const QueueIndex q = session.queue_of(j);
      by_queue[q == kNone ? session.job(j).pod_group.queue : session.queue(q).spec.name].push_back(j);
    }
    for (auto& [queue, jobs] : by_queue) {
      std::stable_sort(jobs.begin(), jobs.end(), [&](JobIndex l, JobIndex r) { return session.JobOrderLess(l, r); });
      std::vector<std::string>& keys = (*out_)[queue];
      for (JobIndex j : jobs) keys.push_back(session.job(j).key);
    }
    return absl::OkStatus();
  }

 private:
  std::map<std::string, std::vector<std::string>>* out_;
};

// What one future gave: per tracked job, its start (ms after now, -1: none) and the rest.
struct Future {
  absl::flat_hash_map<std::string, int64_t> start_ms;
  std::vector<EtaJob> jobs;  // filled for the base future only
  std::vector<std::string> notes;
};

// A result resource amount in the units EtaWait::frees uses.
double OutputAmount(const std::string& resource, double amount) {
  return resource == "memory" ? std::round(amount * 1024.0 * 1024 * 1024) : amount;
}

// Whether a job waited on its queue (a capability, a share, a quota) rather than on nodes:
// then room freed anywhere in its queue counts.
bool WaitsOnQueue(absl::string_view reason) {
  return reason == reason_code::kQueueCapabilityExceeded || reason == reason_code::kQueueShareExceeded ||
         reason == reason_code::kResourceQuotaExceeded || reason == reason_code::kClusterOvercommitted ||
         reason == reason_code::kEnqueueRejected;
}

void FillWaits(const Simulator& sim, const ClusterGroup& g, bool queue_bound, EtaJob& out) {
  std::set<std::string> nodes;
  for (int p : g.pods) {
    const auto& pod = sim.cluster_pods()[static_cast<size_t>(p)];
    if (!pod.node.empty()) nodes.insert(pod.node);
  }
  const std::vector<std::string>& resources = sim.resource_names();
  std::map<std::string, EtaWait> by_job;
  for (const ClusterRelease& r : sim.cluster_releases()) {
    if (r.at_ms > g.started_ms || r.group < 0) continue;
    const ClusterGroup& other = sim.cluster_groups()[static_cast<size_t>(r.group)];
    if (other.key == g.key) continue;
    // Room on the nodes it went to, or room in its queue (a capability or share it waited under).
    if (!nodes.count(r.node) && !(queue_bound && other.queue == g.queue)) continue;
    EtaWait& w = by_job[other.key];
    w.job = other.key;
    w.ends_s = std::max(w.ends_s, static_cast<double>(r.at_ms) / 1000);
    w.evicted = w.evicted || r.evicted;
    if (!nodes.count(r.node)) continue;  // freed elsewhere: it counts for the queue, not the nodes
    for (size_t i = 0; i < resources.size() && i < r.freed.size(); ++i) {
      if (r.freed[i] > 0) w.frees[resources[i]] += OutputAmount(resources[i], r.freed[i]);
    }
  }
  for (auto& [key, w] : by_job) out.waits_for.push_back(std::move(w));
  std::stable_sort(out.waits_for.begin(), out.waits_for.end(),
                   [](const EtaWait& a, const EtaWait& b) { return a.ends_s < b.ends_s; });
  constexpr size_t kMaxWaits = 8;  // the last ones to end: those it waited on longest
  if (out.waits_for.size() > kMaxWaits) out.waits_for.erase(out.waits_for.begin(), out.waits_for.end() - kMaxWaits);
}

std::string WhyNot(const Simulator& sim, const ClusterGroup& g) {
  std::string note = "not started within the horizon";
  if (const NeverStarted* v = sim.ClusterGroupVerdict(g.key)) {
    note = absl::StrCat("still ", v->reason, " at the horizon", v->message.empty() ? "" : ": ", v->message);
  }
  bool ends = false;
  for (const auto& p : sim.cluster_pods()) ends = ends || p.runtime_ms >= 0;
  if (!ends) absl::StrAppend(&note, " (no pod of the state has a known end: give vcsched.io/expected-runtime or a default runtime)");
  return note;
}

// One future. `reasons` (explain's codes at now) is given for the base future, whose
// jobs are described; the others only give their starts.
absl::StatusOr<Future> RunFuture(const ScenarioObjects& state, const SchedulerConfig& config, const EtaOptions& options,
                                 const Workload& workload, std::optional<uint64_t> seed, bool draw,
                                 const absl::flat_hash_map<std::string, std::string>* reasons) {
  const bool base = reasons != nullptr;
  SimulationOptions so;
  so.until_ms = options.horizon_ms;
  so.seed = seed;
  so.max_events = options.max_events;
  so.cluster_runtimes = SimulationOptions::ClusterRuntimes{options.default_runtime_ms, draw};
  Simulator sim(workload, config, so);
  VCSCHED_RETURN_IF_ERROR(sim.Init(state));
  sim.StopWhenClusterJobsStart();
  sim.LeanSessions();
  VCSCHED_RETURN_IF_ERROR(sim.Run());
  if (base) VCSCHED_RETURN_IF_ERROR(sim.ExplainUnstartedClusterJobs());
  Future f;
  for (const ClusterGroup& g : sim.cluster_groups()) {
    if (!g.tracked) continue;
    f.start_ms[g.key] = g.started_ms;
    if (!base) continue;
    EtaJob j;
    j.job = g.key;
    j.queue = g.queue;
    if (g.started_ms >= 0) {
      j.start_s = static_cast<double>(g.started_ms) / 1000;
      auto reason = reasons->find(g.key);
      FillWaits(sim, g, reason != reasons->end() && WaitsOnQueue(reason->second), j);
    } else {
      j.note = WhyNot(sim, g);
    }
    f.jobs.push_back(std::move(j));
  }
  if (base) f.notes = sim.TakeResult().notes;
  return f;
}

// The reason code explain gives each job at now, and each queue's job order.
absl::Status ReadNow(const ScenarioObjects& state, const SchedulerConfig& config, int64_t now,
                     absl::flat_hash_map<std::string, std::string>& reasons,
                     std::map<std::string, std::vector<std::string>>& order) {
  Cluster cluster;
  ScenarioObjects objects = state;
  VCSCHED_RETURN_IF_ERROR(PutObjects(objects, cluster));
  absl::StatusOr<Snapshot> snapshot = cluster.Snapshot();
  if (!snapshot.ok()) return snapshot.status();
  ExplainOptions eo;
  eo.run.now_seconds = now;
  eo.max_reruns = 0;
  absl::StatusOr<ExplainResult> r = Explain(*snapshot, config, eo);
  if (!r.ok()) return r.status();
  for (const JobExplanation& e : r->explanation.jobs) reasons[e.job] = e.reason;
  Registry registry = Registry::BuiltIn();
  VCSCHED_RETURN_IF_ERROR(registry.RegisterAction("vcsched-eta-order", [&order](const Arguments&) {
    return absl::StatusOr<std::unique_ptr<Action>>(std::make_unique<JobOrderRecorder>(&order));
  }));
  SchedulerConfig ordering = config;
  ordering.actions = {"vcsched-eta-order"};
  ordering.configurations.clear();
  RunOptions ro;
  ro.registry = &registry;
  ro.now_seconds = now;
  absl::StatusOr<Decisions> d = RunSession(*snapshot, ordering, ro);
  return d.ok() ? absl::OkStatus() : d.status();
}

// The p-th percentile (nearest rank) of sorted starts; -1 (never) stays -1.
std::optional<double> Percentile(const std::vector<int64_t>& sorted_never_last, double p) {
  if (sorted_never_last.empty()) return std::nullopt;
  const size_t n = sorted_never_last.size();
  size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(n)));
  rank = std::clamp<size_t>(rank, 1, n);
  const int64_t v = sorted_never_last[rank - 1];
  if (v == INT64_MAX) return std::nullopt;
  return static_cast<double>(v) / 1000;
}

}  // namespace

absl::StatusOr<EtaResult> EstimateStarts(const ScenarioObjects& state, const SchedulerConfig& config,
                                         const EtaOptions& options) {
  if (options.horizon_ms <= 0) return absl::InvalidArgumentError("horizon: expected a positive duration");
  if (options.samples < 1 || options.samples > 100000) return absl::InvalidArgumentError("samples: expected 1 to 100000");
  if (options.first_sample < 0) return absl::InvalidArgumentError("first sample: expected 0 or more");
  if (options.default_runtime_ms && *options.default_runtime_ms < 0) {
    return absl::InvalidArgumentError("default runtime: expected a duration of zero or more");
  }
  EtaResult result;
  result.now_seconds = options.now_seconds.value_or(NewestTime(state));
  result.horizon_ms = options.horizon_ms;
  result.samples = options.samples;
  Workload workload = options.workload != nullptr ? *options.workload : Workload{};
  workload.start_seconds = result.now_seconds;

  absl::flat_hash_map<std::string, std::string> reasons;
  std::map<std::string, std::vector<std::string>> order;
  VCSCHED_RETURN_IF_ERROR(ReadNow(state, config, result.now_seconds, reasons, order));
  absl::StatusOr<Future> base = RunFuture(state, config, options, workload, std::nullopt, false, &reasons);
  if (!base.ok()) return base.status();

  std::vector<std::vector<int64_t>> starts;  // per job of base->jobs, per sample
  if (options.samples > 1) {
    const size_t n = static_cast<size_t>(options.samples);
    std::vector<absl::StatusOr<Future>> futures(n, absl::UnknownError("not run"));
    int threads = options.threads > 0 ? options.threads
                                      : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    threads = std::clamp(threads, 1, options.samples);
    auto run = [&](size_t first) {
      for (size_t i = first; i < n; i += static_cast<size_t>(threads)) {
        // One stream per future, from its index.
        const uint64_t seed = (options.seed + 1) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(options.first_sample) + i;
        futures[i] = RunFuture(state, config, options, workload, seed, true, nullptr);
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(run, static_cast<size_t>(t));
    run(0);
    for (std::thread& t : pool) t.join();
    starts.assign(base->jobs.size(), {});
    for (size_t i = 0; i < n; ++i) {
      if (!futures[i].ok()) return futures[i].status();
      for (size_t k = 0; k < base->jobs.size(); ++k) {
        auto it = futures[i]->start_ms.find(base->jobs[k].job);
        const int64_t s = it == futures[i]->start_ms.end() || it->second < 0 ? INT64_MAX : it->second;
        starts[k].push_back(s);
      }
    }
  }

  absl::flat_hash_map<std::string, int32_t> position;
  absl::flat_hash_map<std::string, bool> pending;
  for (const EtaJob& j : base->jobs) pending[j.job] = true;
  for (const auto& [queue, keys] : order) {
    int32_t place = 0;
    for (const std::string& k : keys) {
      if (pending.count(k)) position[k] = ++place;
    }
  }
  for (size_t k = 0; k < base->jobs.size(); ++k) {
    EtaJob& j = base->jobs[k];
    if (auto r = reasons.find(j.job); r != reasons.end()) j.reason = r->second;
    if (auto p = position.find(j.job); p != position.end()) j.position = p->second;
    if (j.start_s) {
      j.start = SaturatingAdd(result.now_seconds, static_cast<int64_t>(std::floor(*j.start_s)));
      j.note = simulate_internal::StartNote(j);
    }
    if (!starts.empty()) {
      std::vector<int64_t>& s = starts[k];
      for (int64_t v : s) j.sample_starts_s.push_back(v == INT64_MAX ? -1 : static_cast<double>(v) / 1000);
      std::sort(s.begin(), s.end());
      j.samples_started = static_cast<int32_t>(std::count_if(s.begin(), s.end(), [](int64_t v) { return v != INT64_MAX; }));
      j.p10_s = Percentile(s, 0.10);
      j.p50_s = Percentile(s, 0.50);
      j.p90_s = Percentile(s, 0.90);
    }
    result.jobs.push_back(std::move(j));
  }
  std::stable_sort(result.jobs.begin(), result.jobs.end(), [](const EtaJob& a, const EtaJob& b) {
    if (a.queue != b.queue) return a.queue < b.queue;
    const int32_t pa = a.position > 0 ? a.position : INT32_MAX, pb = b.position > 0 ? b.position : INT32_MAX;
    return pa != pb ? pa < pb : a.job < b.job;
  });
  result.notes = std::move(base->notes);
  return result;
}

absl::StatusOr<EtaResult> EstimateStarts(const Cluster& cluster, const SchedulerConfig& config, const EtaOptions& options) {
  return EstimateStarts(ClusterObjects(cluster), config, options);
}

}  // namespace vcsched
