// The CronJob and JobFlow controllers in the loop: a CronJob syncs at each of its
// schedule times and creates, replaces and trims its Jobs; a JobFlow syncs whenever one
// of its Jobs changes phase and starts the steps whose dependencies completed.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "src/simulate/simulator.h"
#include "src/util/status_macros.h"

namespace vcsched::simulate_internal {

absl::Status Simulator::InitCronJobs() {
  for (size_t c = 0; c < workload_.cron_jobs.size(); ++c) {
    const WorkloadCronJob& w = workload_.cron_jobs[c];
    lifecycle::Findings f;
    CronState s;
    s.cron = lifecycle::ReadCronJob(w.template_, &f);
    f.Append(lifecycle::ValidateCronJob(s.cron));
    if (!f.ok()) return absl::InvalidArgumentError(lifecycle::FormatFindings(w.where + ".template", f));
    s.rng = RandomStream::For(seed_, absl::StrCat("cron/", s.cron.metadata.namespace_, "/", s.cron.metadata.name));
    s.created = workload_.start_seconds;
    crons_.push_back(std::move(s));
    // The first sync happens at the start; it finds the first schedule time.
    Push(0, EventKind::kCronTick, static_cast<int64_t>(c));
  }
  return absl::OkStatus();
}

absl::Status Simulator::CronTick(int c) {
  CronState& s = crons_[static_cast<size_t>(c)];
  const WorkloadCronJob& w = workload_.cron_jobs[static_cast<size_t>(c)];
  std::vector<lifecycle::CronChildJob> children;
  for (int j : s.children) {
    const SimJob& job = jobs_[static_cast<size_t>(j)];
    if (job.deleted) continue;
    lifecycle::CronChildJob child;
    child.name = job.name;
    child.phase = PhaseOf(job);
    child.creation_time = workload_.start_seconds + job.created_ms / 1000;
    child.last_transition_time = std::max(TransitionOf(job), child.creation_time);
    children.push_back(std::move(child));
  }
  const lifecycle::CronSyncResult r = lifecycle::SyncCronJob(s.cron, s.created, s.status, children, NowSeconds());
  s.status = r.status;
  for (const std::string& name : r.delete_jobs) {
    auto it = job_of_.find(absl::StrCat(s.cron.metadata.namespace_, "/", name));
    if (it == job_of_.end()) continue;
    SimJob& job = jobs_[static_cast<size_t>(it->second)];
    job.deleted = true;
    if (!job.finished) {
      job.phase_override = "Terminated";  // deleted by its CronJob (Replace)
      FinishJob(it->second);
    }
  }
  for (const std::string& note : r.notes) {
    result_.notes.push_back(absl::StrCat(Where(), ": CronJob ", s.cron.metadata.name, ": ", note));
  }
  if (!r.create_job.is_null()) {
    const int64_t duration = Draw(w.duration, s.rng);
    absl::StatusOr<int> j = CreateJob(r.create_job, "", duration, w.barrier, w.pod_interval_ms, w.failures, w.where);
    if (!j.ok()) return j.status();
    if (*j >= 0) {
      jobs_[static_cast<size_t>(*j)].cron = c;
      s.children.push_back(*j);
    }
  }
  // The next tick, unless it lies past what the clock can count (milliseconds since the
  // start in 64 bits): the CronJob then fires no more, and the run ends at --until.
  int64_t offset_s = 0, offset_ms = 0;
  if (r.next_time && *r.next_time > NowSeconds() &&
      !__builtin_sub_overflow(*r.next_time, workload_.start_seconds, &offset_s) &&
      !__builtin_mul_overflow(offset_s, int64_t{1000}, &offset_ms)) {
    Push(offset_ms, EventKind::kCronTick, c);
  }
  return absl::OkStatus();
}

absl::Status Simulator::InitJobFlows() {
  for (size_t i = 0; i < workload_.job_flows.size(); ++i) {
    const WorkloadJobFlow& w = workload_.job_flows[i];
    lifecycle::Findings f;
    FlowState s;
    s.flow = lifecycle::ReadJobFlow(w.flow, &f);
    f.Append(lifecycle::ValidateJobFlow(s.flow));
    if (!f.ok()) return absl::InvalidArgumentError(lifecycle::FormatFindings(w.where + ".flow", f));
    for (const Value& t : w.templates) {
      const lifecycle::ObjectMeta meta = lifecycle::ReadObjectMeta(t, &f);
      s.templates[meta.name] = t;
    }
    for (const lifecycle::FlowStep& step : s.flow.flows) {
      if (!s.templates.count(step.name)) {
        return absl::InvalidArgumentError(
            absl::StrCat(w.where, ".templates: no JobTemplate named ", step.name, " (a step of the flow)"));
      }
      if (!w.durations.count(step.name)) {
        return absl::InvalidArgumentError(absl::StrCat(w.where, ".durations.", step.name,
                                                       ": is required (how long the step's job runs)"));
      }
    }
    s.rng = RandomStream::For(seed_, absl::StrCat("flow/", s.flow.metadata.namespace_, "/", s.flow.metadata.name));
    flows_.push_back(std::move(s));
    VCSCHED_RETURN_IF_ERROR(SyncFlow(static_cast<int>(i)));
  }
  return absl::OkStatus();
}

absl::Status Simulator::SyncFlow(int f) {
  FlowState& s = flows_[static_cast<size_t>(f)];
  const WorkloadJobFlow& w = workload_.job_flows[static_cast<size_t>(f)];
  std::map<std::string, std::string> phases;
  for (const auto& [name, j] : s.jobs) {
    const SimJob& job = jobs_[static_cast<size_t>(j)];
    phases[name] = PhaseOf(job);
  }
  lifecycle::JobFlowSync r = lifecycle::SyncJobFlow(s.flow, s.phase, phases, s.templates);
  s.phase = r.phase;
  for (Value& manifest : r.create_jobs) {
    const Value* name = FindPath(manifest, "metadata.name");
    if (name == nullptr) continue;
    std::string step;
    for (const lifecycle::FlowStep& fs : s.flow.flows) {
      if (lifecycle::FlowJobName(s.flow, fs.name) == name->text()) step = fs.name;
    }
    auto d = w.durations.find(step);
    if (d == w.durations.end() || s.jobs.count(name->text())) continue;
    const int64_t duration = Draw(d->second, s.rng);
    absl::StatusOr<int> j = CreateJob(manifest, "", duration, std::nullopt, 0, std::nullopt, w.where);
    if (!j.ok()) return j.status();
    if (*j < 0) continue;
    jobs_[static_cast<size_t>(*j)].flow = f;
    s.jobs[name->text()] = *j;
  }
  return absl::OkStatus();
}

}  // namespace vcsched::simulate_internal
