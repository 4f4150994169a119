#include "src/simulate/simulator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "src/util/status_macros.h"
#include "vcsched/explain.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/scheduler.h"

namespace vcsched::simulate_internal {

Simulator::Simulator(const Workload& workload, const SchedulerConfig& config, const SimulationOptions& options)
    : workload_(workload), config_(config), options_(options), seed_(options.seed.value_or(workload.seed)) {}

std::string Simulator::Where() const { return absl::StrCat("at ", static_cast<double>(now_ms_) / 1000, "s"); }

void Simulator::Push(int64_t time_ms, EventKind kind, int64_t a, int64_t b, int64_t c) {
  events_.push(Event{std::max(time_ms, now_ms_), seq_++, kind, a, b, c});
}

absl::Status Simulator::Init(const ScenarioObjects& cluster) {
  if (!workload_.cron_jobs.empty() && !options_.until_ms) {
    return absl::InvalidArgumentError("a workload with CronJobs runs for ever: give an end (--until, until=)");
  }
  ScenarioObjects objects = cluster;
  VCSCHED_RETURN_IF_ERROR(PutObjects(objects, cluster_));
  VCSCHED_RETURN_IF_ERROR(SetupResources(cluster));
  VCSCHED_RETURN_IF_ERROR(CheckTemplates());
  for (size_t t = 0; t < workload_.jobs.size(); ++t) {
    arrival_rng_.push_back(RandomStream::For(seed_, "arrival/" + workload_.jobs[t].name));
    duration_rng_.push_back(RandomStream::For(seed_, "duration/" + workload_.jobs[t].name));
    if (workload_.jobs[t].count > 0) Push(ArrivalTime(static_cast<int>(t), 0), EventKind::kArrival, static_cast<int64_t>(t), 0);
  }
  for (size_t i = 0; i < workload_.nodes.size(); ++i) {
    Push(workload_.nodes[i].at_ms, EventKind::kNodeEvent, static_cast<int64_t>(i));
  }
  VCSCHED_RETURN_IF_ERROR(InitCronJobs());
  VCSCHED_RETURN_IF_ERROR(InitJobFlows());
  for (const Tier& t : config_.tiers) {
    for (const PluginOption& p : t.plugins) {
      if (p.name != "tdm") continue;
      for (const auto& [key, value] : p.arguments.root().entries()) {
        if (key.find("tdm.revocable-zone.") == std::string::npos || !value.is_scalar()) continue;
        if (absl::StatusOr<internal::RevocableWindow> w = internal::ParseRevocableWindow(value.text()); w.ok()) {
          tdm_windows_.push_back(*w);
        }
      }
    }
  }
  ScheduleTdmWake();
  if (options_.cluster_runtimes) VCSCHED_RETURN_IF_ERROR(InitClusterPods());
  // The first session sees the cluster file's pending pods and the flows' first jobs.
  dirty_ = true;
  dirty_since_ms_ = 0;
  AddTimelineRow();
  return absl::OkStatus();
}

void Simulator::ScheduleTdmWake() {
  const int64_t now = NowSeconds();
  int64_t next = INT64_MAX;
  for (const internal::RevocableWindow& w : tdm_windows_) {
    // Today's opening and closing (the first second it is closed), and tomorrow's opening.
    for (const int64_t t : {w.OpensAt(now), SaturatingAdd(w.ClosesAt(now), 1), w.OpensAt(SaturatingAdd(now, 86400))}) {
      if (t > now) next = std::min(next, t);
    }
  }
  const int64_t after_start = SaturatingAdd(next, -workload_.start_seconds);
  if (next == INT64_MAX || after_start > INT64_MAX / 1000) return;
  Push(after_start * 1000, EventKind::kWake, kTdmWake);
}

absl::Status Simulator::Handle(const Event& e) {
  const int j = static_cast<int>(e.a), slot = static_cast<int>(e.b);
  auto live = [&]() {
    return j >= 0 && j < static_cast<int>(jobs_.size()) && slot >= 0 &&
           slot < static_cast<int>(jobs_[static_cast<size_t>(j)].pods.size()) &&
           jobs_[static_cast<size_t>(j)].pods[static_cast<size_t>(slot)].incarnation == e.c;
  };
  switch (e.kind) {
    case EventKind::kArrival:
      return Arrive(j, e.b);
    case EventKind::kCronTick:
      return CronTick(j);
    case EventKind::kNodeEvent:
      return NodeEventAt(j);
    case EventKind::kCreatePod:
      if (live()) CreatePod(j, slot);
      return absl::OkStatus();
    case EventKind::kPodStart:
      if (live()) PodStarted(j, slot);
      return absl::OkStatus();
    case EventKind::kPodFail:
      return live() ? PodFailed(j, slot) : absl::OkStatus();
    case EventKind::kRelease:
      return live() ? Released(j, slot) : absl::OkStatus();
    case EventKind::kWorkDone:
      return jobs_[static_cast<size_t>(j)].progress_epoch == e.c ? WorkDone(j) : absl::OkStatus();
    case EventKind::kWake:
      if (!dirty_) {
        dirty_ = true;
        dirty_since_ms_ = now_ms_;
      }
      if (e.a == kTdmWake) {
        // Only pending pods left: two days of windows at most, then the run may stall.
        const bool idle = events_.empty() && running_pods_ == 0;
        tdm_idle_wakes_ = idle ? tdm_idle_wakes_ + 1 : 0;
        const size_t two_days = 4 * tdm_windows_.size();  // each window opens and closes once a day
        if (!idle || (pending_pods_ > 0 && tdm_idle_wakes_ <= two_days)) ScheduleTdmWake();
      }
      return absl::OkStatus();
    case EventKind::kClusterPodStart:
    case EventKind::kClusterPodEnd:
    case EventKind::kClusterPodRelease: {
      if (e.a < 0 || e.a >= static_cast<int64_t>(cluster_pods_.size())) return absl::OkStatus();
      if (cluster_pods_[static_cast<size_t>(e.a)].incarnation != e.c) return absl::OkStatus();
      if (e.kind == EventKind::kClusterPodStart) ClusterPodStarted(j);
      else if (e.kind == EventKind::kClusterPodEnd) ClusterPodEnded(j);
      else ClusterPodReleased(j);
      return absl::OkStatus();
    }
    case EventKind::kControllerTimer: {
      SimJob& job = jobs_[static_cast<size_t>(j)];
      if (!job.controller) return absl::OkStatus();
      CatchUpClock(j);
      return AfterStep(j);
    }
  }
  return absl::OkStatus();
}

absl::Status Simulator::Run() {
  const int64_t until = options_.until_ms.value_or(-1);
  int64_t handled = 0;
  while (!events_.empty() || dirty_) {
    const int64_t next_event = events_.empty() ? INT64_MAX : events_.top().time_ms;
    int64_t session_at = INT64_MAX;
    if (dirty_) {
      const int64_t p = workload_.period_ms;
      const int64_t boundary = (dirty_since_ms_ + p - 1) / p * p;
      session_at = std::max(boundary, last_session_ms_ < 0 ? 0 : last_session_ms_ + p);
    }
    const int64_t next = std::min(next_event, session_at);
    if (until >= 0 && next > until) break;
    Account(next);
    now_ms_ = next;
    if (next_event <= session_at) {
      while (!events_.empty() && events_.top().time_ms == next) {
        const Event e = events_.top();
        events_.pop();
        const int64_t generation = cluster_.generation();
        VCSCHED_RETURN_IF_ERROR(Handle(e));
        if (++result_.events > options_.max_events && options_.max_events > 0 && until < 0) {
          return absl::ResourceExhaustedError(absl::StrCat(
              "the simulation has handled ", options_.max_events, " events (", Where(),
              ") and its work has not ended (a job that fails and restarts for ever?): give an end (--until, until=), "
              "or a larger --max-events"));
        }
        if (cluster_.generation() != generation && !dirty_) {
          dirty_ = true;
          dirty_since_ms_ = now_ms_;
        }
      }
    } else {
      VCSCHED_RETURN_IF_ERROR(RunSession());
    }
    AddTimelineRow();
    for (int j : to_retire_) Retire(j);
    to_retire_.clear();
    if (stop_when_cluster_started_ && cluster_unstarted_ == 0) break;
    if (options_.progress && ++handled % 4096 == 0) options_.progress(now_ms_, until);
  }
  if (events_.empty() && !dirty_) stalled_ms_ = now_ms_;  // nothing left that could change anything
  if (until >= 0) {
    Account(until);
    now_ms_ = until;
    AddTimelineRow();
  }
  if (options_.progress) options_.progress(now_ms_, until);
  return absl::OkStatus();
}

absl::Status Simulator::RunSession() {
  dirty_ = false;
  last_session_ms_ = now_ms_;
  ++result_.sessions;
  absl::StatusOr<Snapshot> snapshot = cluster_.Snapshot();
  if (!snapshot.ok()) return snapshot.status();
  if (SyncQuotaUsage(*snapshot, cluster_)) {
    snapshot = cluster_.Snapshot();
    if (!snapshot.ok()) return snapshot.status();
  }
  ExplainOptions eo;
  eo.run.now_seconds = NowSeconds();
  eo.run.memory = &memory_;
  eo.max_reruns = 0;
  // Reasons are kept for jobs never started (TakeResult): only they are explained.
  eo.jobs.emplace(unstarted_groups_.begin(), unstarted_groups_.end());
  absl::StatusOr<ExplainResult> r;
  if (lean_sessions_) {
    absl::StatusOr<Decisions> decided = vcsched::RunSession(*snapshot, config_, eo.run);
    if (!decided.ok()) return decided.status();
    r = ExplainResult{*std::move(decided), {}};
  } else {
    r = Explain(*snapshot, config_, eo);
  }
  if (!r.ok()) return r.status();
  const Decisions& d = r->decisions;
  const ApplyReport report = cluster_.Apply(d, NowSeconds());
  for (const std::string& c : report.conflicts) result_.notes.push_back(absl::StrCat(Where(), ": ", c));
  SampleCards();
  for (const Bind& b : d.binds) {
    auto it = slot_of_pod_.find(absl::string_view(b.task));
    if (it == slot_of_pod_.end()) {  // a pod of the cluster file: placed (and started, when runtimes are followed)
      if (cluster_.pods().count(absl::string_view(b.task))) HoldForeign(*snapshot, b.task);
      if (auto c = cluster_pod_of_.find(absl::string_view(b.task)); c != cluster_pod_of_.end()) {
        ClusterPodBound(c->second, b.node.str());
      }
      continue;
    }
    auto [j, s] = it->second;
    PodSlot& slot = jobs_[static_cast<size_t>(j)].pods[static_cast<size_t>(s)];
    if (slot.state != PodSlot::State::kPending) continue;
    slot.state = PodSlot::State::kBound;
    slot.request = RequestOf(*snapshot, b.task);
    Hold(j, slot, true);
    Push(now_ms_ + workload_.bind_latency_ms, EventKind::kPodStart, j, s, slot.incarnation);
  }
  for (const Eviction& e : d.evictions) {
    auto it = slot_of_pod_.find(absl::string_view(e.task));
    if (it == slot_of_pod_.end()) {
      if (auto c = cluster_pod_of_.find(absl::string_view(e.task)); c != cluster_pod_of_.end()) ClusterPodEvicted(c->second);
      continue;
    }
    auto [j, s] = it->second;
    PodSlot& slot = jobs_[static_cast<size_t>(j)].pods[static_cast<size_t>(s)];
    if (slot.state != PodSlot::State::kBound && slot.state != PodSlot::State::kRunning) continue;
    ++result_.evictions;
    if (slot.state == PodSlot::State::kRunning) PodStopped(j, s, true);
    else --pending_pods_;
    slot.state = PodSlot::State::kReleasing;
    slot.evicted = true;
    ++slot.incarnation;
    Push(now_ms_ + workload_.grace_period_ms, EventKind::kRelease, j, s, slot.incarnation);
  }
  const int64_t applied = cluster_.generation();
  for (const PodGroupStatus& g : d.pod_groups) {
    if (g.phase == g.old_phase) continue;
    auto it = job_of_group_.find(absl::string_view(g.job));
    if (it == job_of_group_.end()) continue;
    SimJob& job = jobs_[static_cast<size_t>(it->second)];
    if (job.inqueue_ms < 0 && (g.phase == "Inqueue" || g.phase == "Running")) job.inqueue_ms = now_ms_;
    if (!job.controller || job.finished) continue;
    CatchUpClock(it->second);
    VCSCHED_RETURN_IF_ERROR(Deliver(it->second, job.controller->SetPodGroupPhase(std::string(g.phase))));
  }
  if (cluster_.generation() != applied) {  // the controllers acted on the new phases
    dirty_ = true;
    dirty_since_ms_ = now_ms_;
  }
  const size_t n = resources_.size();
  for (const QueueView& q : r->explanation.queues) {
    SeriesColumns& c = queue_series_;
    const int qi = QueueIndex(q.name);
    queue_weights_[q.name] = q.weight;
    c.time_s.push_back(static_cast<double>(now_ms_) / 1000);
    c.counts.push_back(qi);
    c.share.push_back(q.share);
    const size_t row = c.amounts.size();
    c.amounts.resize(row + 3 * n, 0);
    const std::vector<double>& good = queue_goodput_[static_cast<size_t>(qi)];
    std::copy(good.begin(), good.end(), c.amounts.begin() + static_cast<std::ptrdiff_t>(row + 2 * n));
    auto fill = [&](const std::vector<std::pair<std::string, std::string>>& amounts, size_t half) {
      for (const auto& [name, text] : amounts) {
        auto at = std::find(resources_.begin(), resources_.end(), name);
        if (at == resources_.end()) continue;
        const auto k = static_cast<size_t>(at - resources_.begin());
        bool tracked = false;
        absl::StatusOr<int64_t> v = ParseResourceQuantity(name, text, &tracked);
        if (v.ok()) c.amounts[row + half * n + k] = static_cast<double>(*v) * scale_[k];
      }
    };
    fill(q.allocated, 0);
    fill(q.deserved, 1);
  }
  for (const JobExplanation& e : r->explanation.jobs) {
    auto it = job_of_group_.find(e.job);
    if (it == job_of_group_.end()) {
      if (auto c = cluster_group_of_.find(e.job); c != cluster_group_of_.end()) {
        NeverStarted& why = cluster_verdicts_[e.job];
        why.reason = e.reason;
        why.message = e.message;
        why.check = e.check;
      }
      continue;
    }
    NeverStarted& why = last_explanation_[jobs_[static_cast<size_t>(it->second)].key];
    why.reason = e.reason;
    why.message = e.message;
    why.check = e.check;
  }
  ScheduleMemoryWake();
  return absl::OkStatus();
}

void Simulator::ScheduleMemoryWake() {
  if (running_pods_ == 0) return;  // the periodic work (shuffle's victims) moves running pods only
  int64_t due = INT64_MAX;
  for (const auto& [key, t] : memory_.due_ms) due = std::min(due, t);
  if (due == INT64_MAX) return;
  const __int128 at = static_cast<__int128>(due) - static_cast<__int128>(workload_.start_seconds) * 1000;
  if (at <= now_ms_ || at > INT64_MAX || at == memory_wake_ms_) return;
  memory_wake_ms_ = static_cast<int64_t>(at);
  Push(memory_wake_ms_, EventKind::kWake, kMemoryWake);
}

void Simulator::RecordStall() {
  Stall stall;
  stall.since_s = static_cast<double>(stalled_ms_) / 1000;
  stall.held.assign(resources_.size(), 0);
  for (const SimJob& job : jobs_) {
    if (job.finished || job.deleted) continue;
    ++stall.unfinished;
    const bool holds = std::any_of(job.held.begin(), job.held.end(), [](double h) { return h > 1e-9; });
    if (!holds || job.productive) continue;
    stall.deadlocked.push_back(job.key);
    for (size_t i = 0; i < job.held.size() && i < stall.held.size(); ++i) stall.held[i] += job.held[i];
  }
  if (stall.unfinished > 0) result_.stall = std::move(stall);
}

SimulationResult Simulator::TakeResult() {
  result_.resources = resources_;
  result_.end_s = static_cast<double>(now_ms_) / 1000;
  for (size_t i = 0; i < resources_.size(); ++i) {
    result_.utilization.push_back(capacity_area_[i] > 0 ? allocated_area_[i] / capacity_area_[i] : 0);
    result_.goodput.push_back(capacity_area_[i] > 0 ? goodput_area_[i] / capacity_area_[i] : 0);
  }
  for (size_t q = 0; q < queue_names_.size(); ++q) {
    QueueUsage& u = result_.queue_usage[queue_names_[q]];
    if (auto w = queue_weights_.find(queue_names_[q]); w != queue_weights_.end()) u.weight = w->second;
    for (size_t i = 0; i < resources_.size(); ++i) {
      const double cap = capacity_area_[i];
      u.utilization.push_back(cap > 0 ? queue_held_area_[q][i] / cap : 0);
      u.goodput.push_back(cap > 0 ? queue_goodput_area_[q][i] / cap : 0);
    }
  }
  if (stalled_ms_ >= 0) RecordStall();
  AddClusterJobRecords();
  result_.jobs.reserve(result_.jobs.size() + jobs_.size());
  for (const SimJob& job : jobs_) {
    JobRecord r;
    r.job = job.key;
    r.queue = job.queue;
    auto secs = [](int64_t ms) { return ms < 0 ? -1.0 : static_cast<double>(ms) / 1000; };
    r.created_s = secs(job.created_ms);
    r.inqueue_s = secs(job.inqueue_ms);
    r.running_s = secs(job.running_ms);
    r.finished_s = secs(job.finished_ms);
    r.phase = !job.phase_override.empty() ? job.phase_override : PhaseOf(job);
    r.retries = RetriesOf(job);
    r.duration_ms = job.duration_ms;
    int64_t progress = job.progress_ms;
    if (job.at_barrier_since >= 0) progress += now_ms_ - job.at_barrier_since;
    r.progress_s = static_cast<double>(progress) / 1000;
    if (job.running_ms < 0) {
      auto e = last_explanation_.find(job.key);
      NeverStarted why;
      if (e != last_explanation_.end()) why = e->second;
      else why = {"NeverInSession", "no session saw the job's PodGroup before the end", {}, 0, 0, 0};
      why.running = job.running;
      why.pods = job.pod_count;
      why.barrier = job.barrier;
      result_.never_started[job.key] = std::move(why);
    }
    result_.jobs.push_back(std::move(r));
  }
  // The job records go before the series turn into rows: a long run's peak memory is
  // the rows and whatever is still held beside them.
  std::deque<SimJob>().swap(jobs_);
  MakeSeriesRows();
  return std::move(result_);
}

}  // namespace vcsched::simulate_internal

namespace vcsched {

absl::StatusOr<SimulationResult> Simulate(const ScenarioObjects& cluster, const Workload& workload,
                                          const SchedulerConfig& config, const SimulationOptions& options) {
  simulate_internal::Simulator sim(workload, config, options);
  VCSCHED_RETURN_IF_ERROR(sim.Init(cluster));
  VCSCHED_RETURN_IF_ERROR(sim.Run());
  return sim.TakeResult();
}

}  // namespace vcsched
