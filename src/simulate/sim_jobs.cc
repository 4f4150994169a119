// Jobs in the loop: arrivals, admission and expansion, the Job controller's commands
// carried out on the cluster, pods starting, failing and finishing, and the progress
// of a distributed job at its barrier.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "src/simulate/simulator.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"
#include "vcsched/lifecycle/admit.h"
#include "vcsched/lifecycle/expand.h"

namespace vcsched::simulate_internal {
namespace {

using lifecycle::JobCommand;
using lifecycle::JobCommandKind;
using lifecycle::JobStep;
using lifecycle::SimulatorStep;
using State = PodSlot::State;

std::string Rfc3339(int64_t seconds) {
  return absl::FormatTime(absl::RFC3339_sec, absl::FromUnixSeconds(seconds), absl::UTCTimeZone());
}

// The job's instance manifest: the template renamed, stamped with its creation time.
Value Instance(const Value& manifest, const std::string& name, int64_t created) {
  Value v = manifest;
  Value& meta = v["metadata"];
  if (!name.empty()) meta.Set("name", Value::String(name));
  meta.Set("creationTimestamp", Value::String(Rfc3339(created)));
  return v;
}

}  // namespace

absl::Status Simulator::CheckTemplates() {
  // Instance 0 of every template is admitted and expanded up front: a workload error
  // stops the run before any time passes, naming the template.
  for (const WorkloadJob& t : workload_.jobs) {
    lifecycle::Findings f;
    const Value v = Instance(t.template_, t.name + "-0", workload_.start_seconds);
    const lifecycle::VolcanoJob job = lifecycle::AdmitJobDocument(v, {}, &f);
    if (!f.ok()) return absl::InvalidArgumentError(lifecycle::FormatFindings(t.where + ".template", f));
    const int64_t pods = job.TotalReplicas();
    const int64_t barrier = t.barrier.value_or(job.min_available.value_or(static_cast<int32_t>(pods)));
    if (barrier > pods) {
      return absl::InvalidArgumentError(absl::StrCat(t.where, ".barrier: ", barrier, " is more than the job's ", pods,
                                                     " pods: it could never make progress"));
    }
  }
  int64_t total = 0;
  for (const WorkloadJob& t : workload_.jobs) total += t.count;
  if (total > options_.max_jobs) {
    return absl::InvalidArgumentError(
        absl::StrCat("the workload creates ", total, " jobs, over the limit of ", options_.max_jobs));
  }
  return absl::OkStatus();
}

int64_t Simulator::ArrivalTime(int t, int64_t instance) {
  const ArrivalPattern& a = workload_.jobs[static_cast<size_t>(t)].arrival;
  switch (a.kind) {
    case ArrivalPattern::Kind::kAt:
      return a.at_ms[static_cast<size_t>(instance)];
    case ArrivalPattern::Kind::kEvery:
      return a.start_ms + instance * a.interval_ms;
    case ArrivalPattern::Kind::kPoisson:
      break;
  }
  const int64_t from = instance == 0 ? a.start_ms : now_ms_;
  return from + ExponentialMillis(static_cast<double>(a.interval_ms), arrival_rng_[static_cast<size_t>(t)]);
}

absl::Status Simulator::Arrive(int t, int64_t instance) {
  const WorkloadJob& tmpl = workload_.jobs[static_cast<size_t>(t)];
  if (instance + 1 < tmpl.count) Push(ArrivalTime(t, instance + 1), EventKind::kArrival, t, instance + 1);
  const int64_t duration = Draw(tmpl.duration, duration_rng_[static_cast<size_t>(t)]);
  return CreateJob(tmpl.template_, absl::StrCat(tmpl.name, "-", instance), duration, tmpl.barrier,
                   tmpl.pod_interval_ms, tmpl.failures, tmpl.where)
      .status();
}

absl::StatusOr<int> Simulator::CreateJob(const Value& manifest, const std::string& name, int64_t duration_ms,
                                         std::optional<int32_t> barrier, int64_t pod_interval_ms,
                                         std::optional<PodFailures> failures, const std::string& where) {
  if (static_cast<int64_t>(jobs_.size()) >= options_.max_jobs) {
    return absl::ResourceExhaustedError(absl::StrCat(Where(), ": ", where, ": the simulation would create more than ",
                                                     options_.max_jobs, " jobs (SimulationOptions::max_jobs)"));
  }
  lifecycle::Findings f;
  const Value v = Instance(manifest, name, NowSeconds());
  lifecycle::VolcanoJob job = lifecycle::AdmitJobDocument(v, {}, &f);
  const std::string key = absl::StrCat(job.metadata.namespace_, "/", job.metadata.name);
  if (!f.ok()) {
    result_.notes.push_back(absl::StrCat(Where(), ": ", lifecycle::FormatFindings(where + ": job " + key, f)));
    return -1;
  }
  if (job_of_.count(key)) {
    result_.notes.push_back(absl::StrCat(Where(), ": ", where, ": job ", key, " exists; not created again"));
    return -1;
  }
  lifecycle::ExpandOptions eo;
  eo.ssh_keys = [](const lifecycle::VolcanoJob&) -> absl::StatusOr<lifecycle::SshKeyPair> {
    return lifecycle::SshKeyPair{"(not generated for simulation)", "(not generated for simulation)"};
  };
  absl::StatusOr<lifecycle::Expansion> ex = lifecycle::ExpandJob(job, eo);
  if (!ex.ok()) return absl::InvalidArgumentError(absl::StrCat(where, ": job ", key, ": ", ex.status().message()));
  const int index = static_cast<int>(jobs_.size());
  SimJob s;
  s.key = key;
  s.name = job.metadata.name;
  s.namespace_ = job.metadata.namespace_;
  s.queue = job.queue.empty() ? "default" : job.queue;
  s.queue_index = QueueIndex(s.queue);
  s.held.assign(resources_.size(), 0);
  s.created_ms = now_ms_;
  s.duration_ms = duration_ms;
  s.pod_interval_ms = pod_interval_ms;
  s.failures = failures;
  s.pod_group_manifest = ex->pod_group;
  for (const Value& pod : ex->pods) {
    absl::StatusOr<ScenarioObjects> o = ReadObjectValue(pod, absl::StrCat(where, ": job ", key));
    if (!o.ok()) return o.status();
    if (o->pods.size() != 1) continue;
    PodSlot slot;
    slot.spec = std::move(o->pods.front());
    slot.name = slot.spec.name;
    slot.key = absl::StrCat(slot.spec.namespace_, "/", slot.name);
    s.slot_of.emplace(slot.name, static_cast<int>(s.pods.size()));
    slot_of_pod_.emplace(slot.key, std::make_pair(index, static_cast<int>(s.pods.size())));
    s.pods.push_back(std::move(slot));
  }
  absl::StatusOr<ScenarioObjects> pg = ReadObjectValue(ex->pod_group, absl::StrCat(where, ": job ", key));
  if (!pg.ok()) return pg.status();
  if (pg->pod_groups.size() == 1) {
    s.pod_group_key = absl::StrCat(pg->pod_groups[0].namespace_, "/", pg->pod_groups[0].name);
  }
  const int32_t total = static_cast<int32_t>(s.pods.size());
  s.pod_count = total;
  s.barrier = std::clamp(barrier.value_or(job.min_available.value_or(total)), 1, std::max(total, 1));
  absl::StatusOr<lifecycle::JobSimulator> controller = lifecycle::JobSimulator::Create(job, NowSeconds());
  if (!controller.ok()) return controller.status();
  s.controller = std::make_unique<lifecycle::JobSimulator>(*std::move(controller));
  job_of_.emplace(key, index);
  if (!s.pod_group_key.empty()) {
    job_of_group_.emplace(s.pod_group_key, index);
    unstarted_groups_.insert(s.pod_group_key);
  }
  jobs_.push_back(std::move(s));
  VCSCHED_RETURN_IF_ERROR(Deliver(index, jobs_.back().controller->Sync()));
  return index;
}

void Simulator::CatchUpClock(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  // Advance(0) still runs actions due now (a policy timeout of 0s, or a timer that
  // fired within the controller's current second).
  const int64_t ahead = std::max<int64_t>(0, NowSeconds() - job.controller->now());
  absl::StatusOr<std::vector<SimulatorStep>> steps = job.controller->Advance(ahead);
  if (!steps.ok()) return;
  for (const SimulatorStep& s : *steps) {
    if (s.executed) (void)ApplyCommands(j, *s.executed);
    for (const JobStep& f : s.follow_ups) (void)ApplyCommands(j, f);
  }
}

absl::Status Simulator::Deliver(int j, absl::StatusOr<SimulatorStep> step) {
  if (!step.ok()) {
    if (absl::IsNotFound(step.status())) return absl::OkStatus();  // the pod went in an earlier step
    return absl::InternalError(absl::StrCat(Where(), ": job ", jobs_[static_cast<size_t>(j)].key, ": ",
                                            step.status().message()));
  }
  if (step->executed) VCSCHED_RETURN_IF_ERROR(ApplyCommands(j, *step->executed));
  for (const JobStep& f : step->follow_ups) VCSCHED_RETURN_IF_ERROR(ApplyCommands(j, f));
  return AfterStep(j);
}

absl::Status Simulator::ApplyCommands(int j, const JobStep& step) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  for (const JobCommand& c : step.commands) {
    switch (c.kind) {
      case JobCommandKind::kCreatePodGroup:
        if (!job.pod_group_key.empty() && !cluster_.pod_groups().count(job.pod_group_key)) {
          absl::StatusOr<ScenarioObjects> pg = ReadObjectValue(job.pod_group_manifest, job.key);
          if (!pg.ok() || pg->pod_groups.size() != 1) break;
          PodGroupSpec spec = std::move(pg->pod_groups[0]);
          spec.creation_time = NowSeconds();
          ScheduleSlaWake(j, spec);
          VCSCHED_RETURN_IF_ERROR(cluster_.PutPodGroup(std::move(spec)));
        }
        break;
      case JobCommandKind::kDeletePodGroup:
        DeletePodGroupOf(job);
        break;
      case JobCommandKind::kCreatePod: {
        auto it = job.slot_of.find(c.target);
        if (it == job.slot_of.end()) break;
        PodSlot& slot = job.pods[static_cast<size_t>(it->second)];
        if (slot.state != State::kAbsent && slot.state != State::kDone) break;
        if (slot.state == State::kDone) DeletePod(j, it->second, false);
        ++slot.incarnation;
        const int64_t at = std::max(now_ms_, job.next_create_ms);
        job.next_create_ms = at + job.pod_interval_ms;
        if (at <= now_ms_) {
          CreatePod(j, it->second);
        } else {
          slot.state = State::kScheduledCreate;
          Push(at, EventKind::kCreatePod, j, it->second, slot.incarnation);
        }
        break;
      }
      case JobCommandKind::kDeletePod: {
        auto it = job.slot_of.find(c.target);
        if (it != job.slot_of.end()) DeletePod(j, it->second, true);
        break;
      }
      case JobCommandKind::kDeleteJob:
        FinishJob(j);
        break;
      case JobCommandKind::kDeletePluginObjects:
        break;
    }
  }
  return absl::OkStatus();
}

void Simulator::CreatePod(int j, int s) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  PodSlot& slot = job.pods[static_cast<size_t>(s)];
  PodSpec pod = slot.spec;
  pod.creation_time = NowSeconds();
  if (!cluster_.PutPod(std::move(pod)).ok()) {
    slot.state = State::kAbsent;
    return;
  }
  slot.state = State::kPending;
  slot.evicted = false;
  ++pending_pods_;
}

void Simulator::DeletePod(int j, int s, bool by_controller) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  PodSlot& slot = job.pods[static_cast<size_t>(s)];
  ++slot.incarnation;  // pending events of the pod are void
  switch (slot.state) {
    case State::kAbsent:
    case State::kReleasing:
      return;
    case State::kScheduledCreate:
      slot.state = State::kAbsent;
      return;
    case State::kPending:
    case State::kDone:
      if (slot.state == State::kPending) --pending_pods_;
      (void)cluster_.DeletePod(slot.spec.namespace_, slot.name);
      slot.state = State::kAbsent;
      return;
    case State::kBound:
    case State::kRunning: {
      PodStopped(j, s, slot.state == State::kRunning);
      if (slot.state == State::kBound) --pending_pods_;
      slot.state = State::kReleasing;
      slot.evicted = !by_controller;
      if (workload_.grace_period_ms > 0) UpdateClusterPod(slot, [](PodSpec& p) { p.deleting = true; });
      Push(now_ms_ + workload_.grace_period_ms, EventKind::kRelease, j, s, slot.incarnation);
      return;
    }
  }
}

void Simulator::PodStarted(int j, int s) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  PodSlot& slot = job.pods[static_cast<size_t>(s)];
  if (slot.state != State::kBound) return;
  auto it = cluster_.pods().find(slot.key);
  if (it == cluster_.pods().end() || it->second->deleting) return;
  const int64_t started = NowSeconds();  // status.startTime: the usage plugin's shadow load reads it
  if (!UpdateClusterPod(slot, [started](PodSpec& p) {
        p.phase = "Running";
        p.start_time = started;
      })) {
    return;
  }
  slot.state = State::kRunning;
  --pending_pods_;
  ++running_pods_;
  ++job.running;
  UpdateProgress(j);
  if (job.failures && job.failures->probability > 0) {
    RandomStream rng = RandomStream::For(seed_, absl::StrCat("failure/", job.key, "/", job.pod_runs++));
    if (rng.Uniform() < job.failures->probability) {
      const int64_t after = static_cast<int64_t>(rng.Uniform() * static_cast<double>(job.duration_ms));
      Push(now_ms_ + after, EventKind::kPodFail, j, s, slot.incarnation);
    }
  }
  if (!job.finished) {
    CatchUpClock(j);
    (void)Deliver(j, job.controller->SetPodPhase(slot.name, "Running"));
  }
}

void Simulator::PodStopped(int j, int s, bool was_running) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  (void)s;
  if (!was_running) return;
  --running_pods_;
  --job.running;
  UpdateProgress(j);
}

void Simulator::UpdateProgress(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  const bool at_barrier = job.running >= job.barrier && !job.work_done;
  if (job.at_barrier_since >= 0 && at_barrier) return;  // still progressing
  if (job.at_barrier_since >= 0) {
    job.progress_ms += now_ms_ - job.at_barrier_since;
    job.at_barrier_since = -1;
    ++job.progress_epoch;
    SyncGoodput(j);
  }
  if (!at_barrier) return;
  if (job.running_ms < 0) {
    job.running_ms = now_ms_;
    unstarted_groups_.erase(job.pod_group_key);
  }
  job.at_barrier_since = now_ms_;
  ++job.progress_epoch;
  SyncGoodput(j);
  Push(now_ms_ + std::max<int64_t>(0, job.duration_ms - job.progress_ms), EventKind::kWorkDone, j, 0,
       job.progress_epoch);
}

absl::Status Simulator::WorkDone(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  job.progress_ms += now_ms_ - job.at_barrier_since;
  job.at_barrier_since = -1;
  job.work_done = true;
  ++job.progress_epoch;
  SyncGoodput(j);
  // Every live pod of the job finishes now: the work they shared is done.
  std::vector<std::string> names;
  for (size_t s = 0; s < job.pods.size(); ++s) {
    PodSlot& slot = job.pods[s];
    if (slot.state == State::kAbsent || slot.state == State::kReleasing || slot.state == State::kDone) continue;
    names.push_back(slot.name);
    if (slot.state == State::kRunning || slot.state == State::kBound) {
      Hold(j, slot, false);
      PodStopped(j, static_cast<int>(s), slot.state == State::kRunning);
      if (slot.state == State::kBound) --pending_pods_;
    } else if (slot.state == State::kPending) {
      --pending_pods_;
    }
    ++slot.incarnation;
    if (slot.state == State::kScheduledCreate) {
      slot.state = State::kAbsent;
      continue;
    }
    slot.state = State::kDone;
    UpdateClusterPod(slot, [](PodSpec& p) { p.phase = "Succeeded"; });
  }
  for (const std::string& name : names) {
    if (job.finished) break;
    CatchUpClock(j);
    VCSCHED_RETURN_IF_ERROR(Deliver(j, jobs_[static_cast<size_t>(j)].controller->SetPodPhase(name, "Succeeded")));
  }
  return absl::OkStatus();
}

absl::Status Simulator::PodFailed(int j, int s) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  PodSlot& slot = job.pods[static_cast<size_t>(s)];
  if (slot.state != State::kRunning) return absl::OkStatus();
  Hold(j, slot, false);
  PodStopped(j, s, true);
  slot.state = State::kDone;
  ++slot.incarnation;
  UpdateClusterPod(slot, [](PodSpec& p) { p.phase = "Failed"; });
  if (job.finished) return absl::OkStatus();
  CatchUpClock(j);
  return Deliver(j, job.controller->SetPodPhase(slot.name, "Failed", job.failures ? job.failures->exit_code : 1));
}

absl::Status Simulator::Released(int j, int s) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  PodSlot& slot = job.pods[static_cast<size_t>(s)];
  if (slot.state != State::kReleasing) return absl::OkStatus();
  Hold(j, slot, false);
  (void)cluster_.DeletePod(slot.spec.namespace_, slot.name);
  slot.state = State::kAbsent;
  ++slot.incarnation;
  if (job.finished) to_retire_.push_back(j);
  if (!slot.evicted || job.finished) return absl::OkStatus();
  slot.evicted = false;
  CatchUpClock(j);
  return Deliver(j, job.controller->EvictPod(slot.name));
}

absl::Status Simulator::AfterStep(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  if (!job.controller || job.finished) return absl::OkStatus();
  const lifecycle::JobStatus& st = job.controller->status();
  if (st.retry_count > job.retries_seen) {
    // A restart of the job starts its work over.
    job.retries_seen = st.retry_count;
    job.progress_ms = 0;
    job.work_done = false;
    if (job.at_barrier_since >= 0) {
      job.at_barrier_since = -1;
      ++job.progress_epoch;
    }
    UpdateProgress(j);
    SyncGoodput(j);
  }
  if (st.phase != job.phase_seen) {
    job.phase_seen = st.phase;
    if (lifecycle::IsFinishedPhase(st.phase)) FinishJob(j);
    if (job.flow >= 0) VCSCHED_RETURN_IF_ERROR(SyncFlow(job.flow));
  }
  ScheduleTimer(j);
  return absl::OkStatus();
}

void Simulator::ScheduleTimer(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  if (!job.controller) return;
  int64_t due = INT64_MAX;
  for (const lifecycle::DelayedAction& d : job.controller->delayed()) due = std::min(due, d.due);
  if (due == INT64_MAX) return;
  Push((due - workload_.start_seconds) * 1000, EventKind::kControllerTimer, j);
}

void Simulator::ScheduleSlaWake(int j, const PodGroupSpec& pod_group) {
  // The sla plugin lets a job that waited past its waiting time go first: a session
  // must run when that happens, though nothing else changes then.
  const PluginOption* sla = nullptr;
  for (const Tier& t : config_.tiers) {
    for (const PluginOption& p : t.plugins) {
      if (p.name == "sla") sla = &p;
    }
  }
  if (sla == nullptr) return;
  std::string text;
  for (const char* key : {"volcano.sh/sla-waiting-time", "sla-waiting-time"}) {
    auto it = pod_group.annotations.find(key);
    if (it != pod_group.annotations.end() && text.empty()) text = it->second;
  }
  if (text.empty()) text = sla->arguments.GetString("sla-waiting-time", "").value_or("");
  absl::StatusOr<int64_t> seconds = text.empty() ? absl::StatusOr<int64_t>(-1) : ParseGoDurationSeconds(text);
  if (!seconds.ok() || *seconds <= 0) return;
  Push(now_ms_ + *seconds * 1000, EventKind::kWake, j);
}

void Simulator::FinishJob(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  if (job.finished) return;
  job.finished = true;
  job.finished_ms = now_ms_;
  if (job.at_barrier_since >= 0) {
    job.progress_ms += now_ms_ - job.at_barrier_since;
    job.at_barrier_since = -1;
  }
  ++job.progress_epoch;
  SyncGoodput(j);
  // A finished job's objects leave the cluster: nothing of them matters to a session.
  for (size_t s = 0; s < job.pods.size(); ++s) DeletePod(j, static_cast<int>(s), true);
  DeletePodGroupOf(job);
  to_retire_.push_back(j);
}

bool Simulator::UpdateClusterPod(const PodSlot& slot, const std::function<void(PodSpec&)>& change) {
  auto it = cluster_.pods().find(slot.key);
  if (it == cluster_.pods().end()) return false;
  PodSpec p = *it->second;
  change(p);
  return cluster_.PutPod(std::move(p)).ok();
}

void Simulator::DeletePodGroupOf(const SimJob& job) {
  if (job.pod_group_key.empty()) return;
  const size_t slash = job.pod_group_key.find('/');
  (void)cluster_.DeletePodGroup(job.pod_group_key.substr(0, slash), job.pod_group_key.substr(slash + 1));
}

void Simulator::Retire(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  if (job.retired || !job.finished) return;
  for (const PodSlot& slot : job.pods) {
    if (slot.state == State::kReleasing) return;  // its release retires the job
  }
  job.final_phase = PhaseOf(job);
  job.final_retries = RetriesOf(job);
  job.final_transition = TransitionOf(job);
  job.retired = true;
  for (const PodSlot& slot : job.pods) slot_of_pod_.erase(slot.key);
  if (!job.pod_group_key.empty()) {
    job_of_group_.erase(job.pod_group_key);
    unstarted_groups_.erase(job.pod_group_key);
  }
  job.controller.reset();
  std::vector<PodSlot>().swap(job.pods);
  job.slot_of = {};
  job.pod_group_manifest = Value();
}

std::string Simulator::PhaseOf(const SimJob& job) const {
  if (job.retired) return job.final_phase;
  return job.controller ? job.controller->status().phase : "";
}

int32_t Simulator::RetriesOf(const SimJob& job) const {
  if (job.retired) return job.final_retries;
  return job.controller ? job.controller->status().retry_count : 0;
}

int64_t Simulator::TransitionOf(const SimJob& job) const {
  if (job.retired) return job.final_transition;
  return job.controller ? job.controller->status().last_transition_time : 0;
}

}  // namespace vcsched::simulate_internal
