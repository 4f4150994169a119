// CronJob admission and controller sync (docs/reference/lifecycle.md §12).
#include <algorithm>
#include <tuple>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "src/lifecycle/field_reader.h"
#include "src/lifecycle/k8s_values.h"
#include "src/lifecycle/saturating.h"
#include "vcsched/lifecycle/admission.h"
#include "vcsched/lifecycle/cron.h"

namespace vcsched::lifecycle {

using internal::FieldReader;

namespace {

std::optional<absl::TimeZone> Resolve(const std::string& name, const TimeZoneResolver& zones) {
  if (name.empty() || name == "UTC" || name == "Etc/UTC") return absl::UTCTimeZone();
  if (zones) return zones(name);
  return std::nullopt;
}

bool WellFormedZone(const std::string& z) {
  if (z.empty() || z == "Local" || z.front() == '/' || z.find("..") != std::string::npos) return false;
  for (char c : z) {
    if (!(absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-' || c == '+')) return false;
  }
  return true;
}

// Activations in (from, to], counted up to `cap`.
int64_t CountActivations(const CronSchedule& s, absl::TimeZone zone, int64_t from, int64_t to, int64_t cap) {
  int64_t n = 0;
  for (std::optional<absl::Time> t = s.Next(absl::FromUnixSeconds(from), zone);
       t && absl::ToUnixSeconds(*t) <= to && n < cap; t = s.Next(*t, zone)) {
    ++n;
  }
  return n;
}

// The last activation in (from, to]. A long backlog is not walked from its start: the
// search looks back over growing windows, so an every-minute schedule missed for years
// costs a few steps.
std::optional<int64_t> MostRecentActivation(const CronSchedule& s, absl::TimeZone zone, int64_t from, int64_t to) {
  if (s.is_interval()) {  // @every d: activations are from + k*d
    const absl::int128 d = s.interval_seconds(), span = absl::int128(to) - from;
    if (span < d) return std::nullopt;
    return internal::Clamp64(from + span / d * d);
  }
  static const int64_t kWindows[] = {3600, 86400, 32 * 86400, 367 * 86400, 5 * 367 * 86400, 30 * 367 * 86400};
  for (int64_t window : kWindows) {
    const int64_t start = internal::SubSat(to, window);
    const bool whole = start <= from;
    std::optional<int64_t> last;
    for (std::optional<absl::Time> t = s.Next(absl::FromUnixSeconds(whole ? from : start), zone);
         t && absl::ToUnixSeconds(*t) <= to; t = s.Next(*t, zone)) {
      last = absl::ToUnixSeconds(*t);
    }
    if (last || whole) return last;
  }
  return std::nullopt;  // nothing in the last 30 years
}

}  // namespace

VolcanoCronJob ReadCronJob(const Value& doc, Findings* findings) {
  FieldReader r(findings);
  VolcanoCronJob c;
  c.metadata = ReadObjectMeta(doc, findings);
  const Value* spec = r.Map(doc, "spec", "");
  if (spec == nullptr) {
    findings->Error("spec", "is required");
    return c;
  }
  c.schedule = r.String(*spec, "schedule", "spec").value_or("");
  if (auto tz = r.String(*spec, "timeZone", "spec")) {
    c.time_zone = *tz;
    c.has_time_zone = true;
  }
  c.starting_deadline_seconds = r.Int(*spec, "startingDeadlineSeconds", "spec");
  c.concurrency_policy = r.String(*spec, "concurrencyPolicy", "spec").value_or("Allow");
  c.suspend = r.Bool(*spec, "suspend", "spec").value_or(false);
  if (const Value* t = r.Map(*spec, "jobTemplate", "spec")) c.job_template = *t;
  else findings->Error("spec.jobTemplate", "is required");
  c.successful_jobs_history_limit = r.Int32(*spec, "successfulJobsHistoryLimit", "spec").value_or(3);
  c.failed_jobs_history_limit = r.Int32(*spec, "failedJobsHistoryLimit", "spec").value_or(1);
  return c;
}

Findings ValidateCronJob(const VolcanoCronJob& c, const TimeZoneResolver& zones) {
  Findings f;
  if (c.schedule.empty()) {
    f.Error("spec.schedule", "schedule is required, but got empty");
  } else if (c.schedule.find("TZ") != std::string::npos) {
    f.Error("spec.schedule", "cannot use TZ or CRON_TZ in schedule, use timeZone field instead; TZ should only be set "
                             "in the timeZone field");
  } else if (absl::StatusOr<CronSchedule> s = CronSchedule::Parse(c.schedule); !s.ok()) {
    f.Error("spec.schedule", absl::StrCat("schedule is not a valid cron expression: ", s.status().message()));
  }
  if (c.has_time_zone) {
    if (!WellFormedZone(c.time_zone)) {
      f.Error("spec.timeZone", absl::StrCat("unknown or invalid time zone \"", c.time_zone, "\""));
    } else if (!Resolve(c.time_zone, zones)) {
      f.Error("spec.timeZone", absl::StrCat("unknown time zone \"", c.time_zone, "\""));
    }
  }
  if (c.concurrency_policy != "Allow" && c.concurrency_policy != "Forbid" && c.concurrency_policy != "Replace") {
    f.Error("spec.concurrencyPolicy", absl::StrCat("Unsupported value: \"", c.concurrency_policy,
                                                   "\": supported values: \"Allow\", \"Forbid\", \"Replace\""));
  }
  if (c.starting_deadline_seconds && *c.starting_deadline_seconds < 0) {
    f.Error("spec.startingDeadlineSeconds", "must be greater than or equal to 0");
  }
  if (c.successful_jobs_history_limit < 0) f.Error("spec.successfulJobsHistoryLimit", "must be greater than or equal to 0");
  if (c.failed_jobs_history_limit < 0) f.Error("spec.failedJobsHistoryLimit", "must be greater than or equal to 0");
  if (c.metadata.name.size() > 52) {
    f.Error("metadata.name", "must be no more than 52 characters");
  } else if (auto problems = QualifiedNameProblems(c.metadata.name); !problems.empty()) {
    f.Error("metadata.name", absl::StrJoin(problems, "; "));
  }
  if (!c.job_template.is_null()) {
    Findings read;
    const Value* spec = c.job_template.Find("spec");
    ObjectMeta meta;
    meta.name = absl::StrCat(c.metadata.name, "-00000000");  // the longest name a scheduled job gets
    meta.namespace_ = c.metadata.namespace_;
    VolcanoJob job = ReadJobSpec(spec != nullptr ? *spec : Value::Map(), "spec.jobTemplate.spec", meta, &read);
    AdmissionContext context;
    MutateJob(job, context);
    Findings checked = ValidateJob(job, context);
    for (Violation& v : checked.errors) {
      if (v.field.rfind("spec", 0) == 0) v.field = absl::StrCat("spec.jobTemplate.", v.field);
    }
    // The queue is checked when a job is created, not on the template.
    checked.warnings.clear();
    f.Append(read);
    f.Append(checked);
  }
  return f;
}

CronSyncResult SyncCronJob(const VolcanoCronJob& c, int64_t creation_time, const CronJobStatus& status,
                           const std::vector<CronChildJob>& children, int64_t now, const TimeZoneResolver& zones) {
  CronSyncResult out;
  out.status = status;
  // 1. Finished children leave `active`; history beyond the limits is deleted, oldest first.
  std::vector<const CronChildJob*> succeeded, failed;
  for (const CronChildJob& j : children) {
    if (j.phase != "Completed" && j.phase != "Failed" && j.phase != "Terminated") continue;
    out.status.active.erase(std::remove(out.status.active.begin(), out.status.active.end(), j.name),
                            out.status.active.end());
    if (j.phase == "Completed") {
      succeeded.push_back(&j);
      if (!out.status.last_successful_time || j.last_transition_time > *out.status.last_successful_time) {
        out.status.last_successful_time = j.last_transition_time;
      }
    } else if (j.phase == "Failed") {
      failed.push_back(&j);
    }
  }
  auto trim = [&](std::vector<const CronChildJob*>& list, int32_t limit) {
    std::sort(list.begin(), list.end(), [](const CronChildJob* a, const CronChildJob* b) {
      return std::tie(a->creation_time, a->name) < std::tie(b->creation_time, b->name);
    });
    for (size_t i = 0; i + std::max(limit, 0) < list.size(); ++i) out.delete_jobs.push_back(list[i]->name);
  };
  trim(succeeded, c.successful_jobs_history_limit);
  trim(failed, c.failed_jobs_history_limit);
  // 2. Active entries whose job is gone.
  out.status.active.erase(std::remove_if(out.status.active.begin(), out.status.active.end(),
                                         [&](const std::string& name) {
                                           return std::none_of(children.begin(), children.end(),
                                                               [&](const CronChildJob& j) { return j.name == name; });
                                         }),
                          out.status.active.end());
  absl::StatusOr<CronSchedule> schedule = CronSchedule::Parse(c.schedule);
  const std::optional<absl::TimeZone> zone = Resolve(c.time_zone, zones);
  if (!schedule.ok() || !zone) {
    out.notes.push_back(!schedule.ok() ? "unparsable schedule" : absl::StrCat("unknown time zone ", c.time_zone));
    return out;
  }
  const absl::Time t_now = absl::FromUnixSeconds(now);
  if (auto n = schedule->Next(t_now, *zone)) out.next_time = absl::ToUnixSeconds(*n);
  if (c.suspend) {  // 3.
    out.notes.push_back("suspended");
    return out;
  }
  // 4. The most recent missed time.
  int64_t earliest = status.last_schedule_time.value_or(creation_time);
  if (c.starting_deadline_seconds) {
    earliest = std::max(earliest, internal::SubSat(now, *c.starting_deadline_seconds));
  }
  const std::optional<int64_t> missed = MostRecentActivation(*schedule, *zone, earliest, now);
  if (const int64_t count = CountActivations(*schedule, *zone, earliest, now, 101); count > 100) {
    out.notes.push_back("too many missed start times (over 100)");
  }
  if (!missed) {
    out.notes.push_back("no schedule time due");
    return out;
  }
  // 5.
  const std::string name = absl::StrCat(c.metadata.name, "-", *missed / 60);
  if (std::find(out.status.active.begin(), out.status.active.end(), name) != out.status.active.end() ||
      status.last_schedule_time == missed) {
    out.notes.push_back(absl::StrCat("job ", name, " already started"));
    return out;
  }
  // 6. Concurrency.
  if (c.concurrency_policy == "Forbid" && !out.status.active.empty()) {
    out.notes.push_back(absl::StrCat("concurrencyPolicy Forbid: ", out.status.active.size(), " job(s) still active"));
    return out;
  }
  if (c.concurrency_policy == "Replace") {
    for (const std::string& a : out.status.active) out.delete_jobs.push_back(a);
    out.status.active.clear();
  }
  // 7. The job.
  Value job = internal::NewObject("batch.volcano.sh/v1alpha1", "Job", name, c.metadata.namespace_);
  if (const Value* tm = c.job_template.Find("metadata")) {
    for (const char* key : {"labels", "annotations"}) {
      if (const Value* v = tm->Find(key)) job["metadata"].Set(key, *v);
    }
  }
  job["metadata"]["annotations"].Set("volcano.sh/cronjob-scheduled-timestamp",
                                     Value::String(absl::FormatTime(absl::RFC3339_sec, absl::FromUnixSeconds(*missed),
                                                                    absl::UTCTimeZone())));
  Value owner = Value::Map();
  owner.Set("apiVersion", Value::String("batch.volcano.sh/v1alpha1"));
  owner.Set("kind", Value::String("CronJob"));
  owner.Set("name", Value::String(c.metadata.name));
  owner.Set("uid", Value::String(c.metadata.uid.empty() ? DerivedUid("CronJob", c.metadata.namespace_, c.metadata.name)
                                                        : c.metadata.uid));
  owner.Set("controller", Value::Bool(true));
  job["metadata"]["ownerReferences"].Push(std::move(owner));
  if (const Value* spec = c.job_template.Find("spec")) job.Set("spec", *spec);
  out.create_job = std::move(job);
  out.scheduled_time = missed;
  out.status.active.push_back(name);
  out.status.last_schedule_time = missed;
  return out;
}

}  // namespace vcsched::lifecycle
