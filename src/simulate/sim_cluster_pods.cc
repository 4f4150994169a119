// The cluster file's pods when their runtimes are followed (SimulationOptions::
// cluster_runtimes; docs/ETA.md): running pods end at their start plus their runtime,
// pending ones start when a session binds them and end a runtime later, evicted ones go
// after the grace period. Their jobs' starts are what start-time estimates read.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "src/simulate/cluster_runtimes.h"
#include "src/simulate/simulator.h"
#include "src/util/status_macros.h"
#include "vcsched/resource.h"
#include "vcsched/explain.h"

namespace vcsched::simulate_internal {
namespace {

// The runtime a pod runs for: drawn (one draw per object that gives it) or the middle.
int64_t RuntimeMillis(const PodRuntime& r, bool draw, uint64_t seed) {
  if (r.runtime.kind == DurationDistribution::Kind::kFixed) return r.runtime.a_ms;
  if (!draw) return r.runtime.a_ms + (r.runtime.b_ms - r.runtime.a_ms) / 2;
  RandomStream rng = RandomStream::For(seed, absl::StrCat("runtime/", r.source));
  return Draw(r.runtime, rng);
}

int64_t Millis(int64_t seconds) {
  if (seconds > INT64_MAX / 1000) return INT64_MAX;
  if (seconds < INT64_MIN / 1000) return INT64_MIN;
  return seconds * 1000;
}

// Writes the pod's phase (and start time) as the kubelet reports it; false when it is gone.
bool SetPhase(Cluster& cluster, const std::string& key, const char* phase, const int64_t* start_time) {
  auto it = cluster.pods().find(key);
  if (it == cluster.pods().end()) return false;
  PodSpec p = *it->second;
  p.phase = phase;
  if (start_time != nullptr) p.start_time = *start_time;
  return cluster.PutPod(std::move(p)).ok();
}

}  // namespace

absl::Status Simulator::InitClusterPods() {
  const SimulationOptions::ClusterRuntimes& how = *options_.cluster_runtimes;
  absl::StatusOr<Snapshot> snapshot = cluster_.Snapshot();
  if (!snapshot.ok()) return snapshot.status();
  const int64_t start_ms = Millis(workload_.start_seconds);
  for (const auto& [key, spec] : cluster_.pods()) {
    const PodSpec& p = *spec;
    if (p.phase != "Running" && p.phase != "Pending") continue;
    ClusterPod c;
    c.key = key;
    c.namespace_ = p.namespace_;
    c.name = p.name;
    c.node = p.node_name;
    absl::StatusOr<std::optional<PodRuntime>> runtime = RuntimeOfPod(cluster_, p, how.default_ms);
    if (!runtime.ok()) return runtime.status();
    if (runtime->has_value()) c.runtime_ms = RuntimeMillis(**runtime, how.draw, seed_);
    if (const std::optional<TaskIndex> t = snapshot->FindTask(key)) {
      const JobIndex job = snapshot->tasks()[static_cast<size_t>(*t)].job;
      if (job != kNone) {
        const JobInfo& info = snapshot->jobs()[static_cast<size_t>(job)];
        auto [it, added] = cluster_group_of_.try_emplace(info.key, static_cast<int>(cluster_groups_.size()));
        if (added) {
          ClusterGroup g;
          g.key = info.key;
          g.queue = info.queue != kNone ? snapshot->queues()[static_cast<size_t>(info.queue)].spec.name
                                        : info.pod_group.queue;
          g.min_member = std::max<int32_t>(1, info.pod_group.min_member);
          cluster_groups_.push_back(std::move(g));
        }
        c.group = it->second;
      }
    }
    const int i = static_cast<int>(cluster_pods_.size());
    if (c.group >= 0) cluster_groups_[static_cast<size_t>(c.group)].pods.push_back(i);
    if (p.deleting) {
      c.state = ClusterPod::State::kReleasing;
      Push(workload_.grace_period_ms, EventKind::kClusterPodRelease, i, 0, c.incarnation);
    } else if (p.phase == "Running") {
      c.state = ClusterPod::State::kRunning;
      if (c.group >= 0) ++cluster_groups_[static_cast<size_t>(c.group)].running;
      if (c.runtime_ms >= 0) {
        // Started at status.startTime (else when bound, else now); ends a runtime later.
        const int64_t started = p.start_time ? *p.start_time : (p.scheduled_time ? *p.scheduled_time : workload_.start_seconds);
        const int64_t end = SaturatingAdd(SaturatingSub(Millis(started), start_ms), c.runtime_ms);
        Push(std::max<int64_t>(0, end), EventKind::kClusterPodEnd, i, 0, c.incarnation);
      }
    } else if (!p.node_name.empty()) {
      c.state = ClusterPod::State::kStarting;  // bound, not started yet
      Push(workload_.bind_latency_ms, EventKind::kClusterPodStart, i, 0, c.incarnation);
    }
    cluster_pod_of_[key] = i;
    cluster_pods_.push_back(std::move(c));
  }
  for (ClusterGroup& g : cluster_groups_) {
    if (g.running >= g.min_member) continue;
    g.tracked = true;
    ++cluster_unstarted_;
    unstarted_groups_.insert(g.key);
  }
  return absl::OkStatus();
}

void Simulator::ClusterPodBound(int i, const std::string& node) {
  ClusterPod& c = cluster_pods_[static_cast<size_t>(i)];
  if (c.state != ClusterPod::State::kPending) return;
  c.state = ClusterPod::State::kStarting;
  c.node = node;
  ++c.incarnation;
  Push(now_ms_ + workload_.bind_latency_ms, EventKind::kClusterPodStart, i, 0, c.incarnation);
}

void Simulator::ClusterPodStarted(int i) {
  ClusterPod& c = cluster_pods_[static_cast<size_t>(i)];
  if (c.state != ClusterPod::State::kStarting) return;
  const int64_t now = NowSeconds();
  if (!SetPhase(cluster_, c.key, "Running", &now)) return;
  c.state = ClusterPod::State::kRunning;
  ++c.incarnation;
  --pending_pods_;
  ++running_pods_;
  if (c.runtime_ms >= 0) Push(SaturatingAdd(now_ms_, c.runtime_ms), EventKind::kClusterPodEnd, i, 0, c.incarnation);
  if (c.group < 0) return;
  ClusterGroup& g = cluster_groups_[static_cast<size_t>(c.group)];
  ++g.running;
  if (g.tracked && g.started_ms < 0 && g.running >= g.min_member) {
    g.started_ms = now_ms_;
    --cluster_unstarted_;
    unstarted_groups_.erase(g.key);
  }
}

void Simulator::RecordClusterRelease(const ClusterPod& pod, bool evicted) {
  auto held = foreign_held_.find(pod.key);
  if (held == foreign_held_.end()) return;
  cluster_releases_.push_back(ClusterRelease{pod.group, now_ms_, pod.node, held->second, evicted});
}

void Simulator::ClusterPodEnded(int i) {
  ClusterPod& c = cluster_pods_[static_cast<size_t>(i)];
  if (c.state != ClusterPod::State::kRunning) return;
  if (!SetPhase(cluster_, c.key, "Succeeded", nullptr)) return;
  c.state = ClusterPod::State::kDone;
  ++c.incarnation;
  --running_pods_;
  if (c.group >= 0) --cluster_groups_[static_cast<size_t>(c.group)].running;
  RecordClusterRelease(c, false);
  ReleaseForeign(c.key);
}

void Simulator::ClusterPodEvicted(int i) {
  ClusterPod& c = cluster_pods_[static_cast<size_t>(i)];
  if (c.state != ClusterPod::State::kRunning && c.state != ClusterPod::State::kStarting) return;
  ++result_.evictions;
  if (c.state == ClusterPod::State::kRunning) {
    --running_pods_;
    if (c.group >= 0) --cluster_groups_[static_cast<size_t>(c.group)].running;
  } else {
    --pending_pods_;
  }
  c.state = ClusterPod::State::kReleasing;
  ++c.incarnation;
  Push(now_ms_ + workload_.grace_period_ms, EventKind::kClusterPodRelease, i, 0, c.incarnation);
}

// An evicted (or deleting) pod goes; nothing makes it again: its controller is not in the
// cluster file.
void Simulator::ClusterPodReleased(int i) {
  ClusterPod& c = cluster_pods_[static_cast<size_t>(i)];
  if (c.state != ClusterPod::State::kReleasing) return;
  c.state = ClusterPod::State::kDone;
  ++c.incarnation;
  RecordClusterRelease(c, true);
  ReleaseForeign(c.key);
  (void)cluster_.DeletePod(c.namespace_, c.name);
}

absl::Status Simulator::ExplainUnstartedClusterJobs() {
  std::vector<std::string> keys;
  for (const ClusterGroup& g : cluster_groups_) {
    if (g.tracked && g.started_ms < 0) keys.push_back(g.key);
  }
  if (keys.empty()) return absl::OkStatus();
  absl::StatusOr<Snapshot> snapshot = cluster_.Snapshot();
  if (!snapshot.ok()) return snapshot.status();
  SchedulerMemory memory = memory_;  // a look, not a session of the run: the run's memory stays
  ExplainOptions eo;
  eo.run.now_seconds = NowSeconds();
  eo.run.memory = &memory;
  eo.max_reruns = 0;
  eo.jobs = std::move(keys);
  absl::StatusOr<ExplainResult> r = Explain(*snapshot, config_, eo);
  if (!r.ok()) return r.status();
  for (const JobExplanation& e : r->explanation.jobs) {
    NeverStarted& why = cluster_verdicts_[e.job];
    why.reason = e.reason;
    why.message = e.message;
    why.check = e.check;
  }
  return absl::OkStatus();
}

const NeverStarted* Simulator::ClusterGroupVerdict(const std::string& key) const {
  auto it = cluster_verdicts_.find(key);
  return it == cluster_verdicts_.end() ? nullptr : &it->second;
}

void Simulator::AddClusterJobRecords() {
  for (const ClusterGroup& g : cluster_groups_) {
    if (!g.tracked) continue;
    JobRecord r;
    r.job = g.key;
    r.queue = g.queue;
    r.created_s = 0;
    r.running_s = g.started_ms < 0 ? -1 : static_cast<double>(g.started_ms) / 1000;
    r.phase = g.started_ms < 0 ? "Pending" : "Running";
    result_.jobs.push_back(std::move(r));
    if (g.started_ms >= 0) continue;
    NeverStarted why;
    if (const NeverStarted* v = ClusterGroupVerdict(g.key)) why = *v;
    else why = {"NeverInSession", "no session saw the job's PodGroup before the end", {}, 0, 0, 0};
    why.running = g.running;
    why.pods = static_cast<int32_t>(g.pods.size());
    why.barrier = g.min_member;
    result_.never_started[g.key] = std::move(why);
  }
}

}  // namespace vcsched::simulate_internal
