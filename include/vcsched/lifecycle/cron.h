// Volcano CronJob (`batch.volcano.sh/v1alpha1`, docs/reference/lifecycle.md §12): the cron
// schedule, admission, and the controller's sync as a pure function of "now" and the
// child jobs.
#ifndef VCSCHED_LIFECYCLE_CRON_H_
#define VCSCHED_LIFECYCLE_CRON_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "vcsched/lifecycle/findings.h"
#include "vcsched/lifecycle/job.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle {

// A five-field schedule (minute hour day-of-month month day-of-week) with lists, ranges,
// steps, month/day names, or a shortcut (@yearly @annually @monthly @weekly @daily
// @midnight @hourly, @every <duration>).
class CronSchedule {
 public:
  static absl::StatusOr<CronSchedule> Parse(const std::string& text);
  // The first activation strictly after `t`, in `zone`; nullopt when none within 5 years.
  std::optional<absl::Time> Next(absl::Time t, absl::TimeZone zone) const;
  // An @every schedule: activations every interval_seconds() from a starting time.
  bool is_interval() const { return every_seconds_ > 0; }
  int64_t interval_seconds() const { return every_seconds_; }

 private:
  uint64_t minutes_ = 0;  // bit sets
  uint32_t hours_ = 0, days_ = 0, months_ = 0, weekdays_ = 0;
  bool day_star_ = false, weekday_star_ = false;
  int64_t every_seconds_ = 0;  // @every
};

// Resolves an IANA time zone name. The library does no I/O: the host passes a resolver
// (absl::LoadTimeZone, say). Without one only "UTC" and "Etc/UTC" are known.
using TimeZoneResolver = std::function<std::optional<absl::TimeZone>(const std::string& name)>;

struct VolcanoCronJob {
  ObjectMeta metadata;
  std::string schedule;
  std::string time_zone;  // empty: UTC (the controller's zone)
  bool has_time_zone = false;
  std::optional<int64_t> starting_deadline_seconds;
  std::string concurrency_policy = "Allow";  // Allow, Forbid, Replace
  bool suspend = false;
  Value job_template;  // metadata + spec of the Volcano Job
  int32_t successful_jobs_history_limit = 3;
  int32_t failed_jobs_history_limit = 1;
};

VolcanoCronJob ReadCronJob(const Value& doc, Findings* findings);
// Admission: schedule present, parsable and without TZ, time zone valid and loadable,
// name ≤ 52 characters and qualified, and the job template a valid Job spec.
Findings ValidateCronJob(const VolcanoCronJob& cron, const TimeZoneResolver& zones = nullptr);

struct CronJobStatus {
  std::vector<std::string> active;  // names of active child jobs
  std::optional<int64_t> last_schedule_time;
  std::optional<int64_t> last_successful_time;
};

struct CronChildJob {
  std::string name;
  std::string phase;                 // Volcano Job phase
  int64_t creation_time = 0;
  int64_t last_transition_time = 0;  // when it reached its phase
};

struct CronSyncResult {
  CronJobStatus status;
  std::vector<std::string> delete_jobs;  // history trimming, then Replace
  std::optional<int64_t> scheduled_time;  // the time a job is created for
  Value create_job;                       // the Job to create (null when none)
  std::optional<int64_t> next_time;       // the next activation after now (requeue)
  std::vector<std::string> notes;         // why nothing was started, missed-start warnings
};

// One controller sync at `now` (seconds since the epoch). `creation_time` is the
// CronJob's.
CronSyncResult SyncCronJob(const VolcanoCronJob& cron, int64_t creation_time, const CronJobStatus& status,
                           const std::vector<CronChildJob>& children, int64_t now,
                           const TimeZoneResolver& zones = nullptr);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_CRON_H_
