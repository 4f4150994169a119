#include <catch2/catch.hpp>

#include "absl/time/civil_time.h"
#include "tests/lifecycle/test_manifests.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/jobflow.h"

namespace vcsched::lifecycle {
namespace {

using testing::LifecycleData;
using testing::Manifests;

int64_t Utc(int y, int mo, int d, int h, int mi) {
  return absl::ToUnixSeconds(absl::FromCivil(absl::CivilMinute(y, mo, d, h, mi), absl::UTCTimeZone()));
}

int64_t NextAfter(const std::string& spec, int64_t t, absl::TimeZone zone = absl::UTCTimeZone()) {
  absl::StatusOr<CronSchedule> s = CronSchedule::Parse(spec);
  REQUIRE(s.ok());
  std::optional<absl::Time> n = s->Next(absl::FromUnixSeconds(t), zone);
  REQUIRE(n.has_value());
  return absl::ToUnixSeconds(*n);
}

TEST_CASE("cron schedules") {
  const int64_t t = Utc(2026, 11, 29, 10, 7);  // a Sunday
  CHECK(NextAfter("*/5 * * * *", t) == Utc(2026, 11, 29, 10, 10));
  CHECK(NextAfter("0 2 * * *", t) == Utc(2026, 11, 30, 2, 0));
  CHECK(NextAfter("@hourly", t) == Utc(2026, 11, 29, 11, 0));
  CHECK(NextAfter("@monthly", t) == Utc(2026, 12, 1, 0, 0));
  CHECK(NextAfter("@yearly", t) == Utc(2027, 1, 1, 0, 0));
  CHECK(NextAfter("30 9 * * MON-FRI", t) == Utc(2026, 11, 30, 9, 30));
  CHECK(NextAfter("0 0 * * 7", t) == Utc(2026, 12, 6, 0, 0));   // 7 is Sunday
  CHECK(NextAfter("0 0 13 * 5", t) == Utc(2026, 12, 4, 0, 0));  // day-of-month OR day-of-week
  CHECK(NextAfter("0 0 29 2 *", t) == Utc(2028, 2, 29, 0, 0));
  CHECK(NextAfter("15 10 * JAN,DEC *", t) == Utc(2026, 12, 1, 10, 15));
  CHECK(NextAfter("@every 90s", t) == t + 90);
  // In a zone: 02:00 in Shanghai is 18:00 UTC the day before.
  CHECK(NextAfter("0 2 * * *", t, absl::FixedTimeZone(8 * 3600)) == Utc(2026, 11, 29, 18, 0));
  CHECK(NextAfter("*/2147483647 * * * *", t) == Utc(2026, 11, 29, 11, 0));  // a huge step: the first value only
  for (const char* bad : {"", "* * * *", "60 * * * *", "* * 0 * *", "*/0 * * * *", "@fortnightly", "a b c d e"}) {
    INFO(bad);
    CHECK_FALSE(CronSchedule::Parse(bad).ok());
  }
}

VolcanoCronJob ExampleCron() {
  Findings f;
  VolcanoCronJob c = ReadCronJob(Manifests(LifecycleData("volcano-examples/cronjob/cronjob.yaml")).at(0).object, &f);
  REQUIRE(f.ok());
  return c;
}

// Issue 57, class 11: near the end of representable time the next activation is none,
// never a saturated time that is neither on the schedule nor after the given one.
TEST_CASE("cron schedules at the end of representable time") {
  const absl::TimeZone utc = absl::UTCTimeZone();
  const int64_t max = INT64_MAX;
  const CronSchedule five = *CronSchedule::Parse("*/5 * * * *");
  const CronSchedule hourly = *CronSchedule::Parse("@every 1h");
  for (int64_t after : {max - 1, max - 59, max - 299}) {
    INFO(after);
    const std::optional<absl::Time> next = five.Next(absl::FromUnixSeconds(after), utc);
    if (next) {
      CHECK(*next > absl::FromUnixSeconds(after));
      CHECK(absl::ToUnixSeconds(*next) % 300 == 0);
    }
    CHECK_FALSE(hourly.Next(absl::FromUnixSeconds(after), utc).has_value());
  }
  CHECK_FALSE(five.Next(absl::FromUnixSeconds(max - 1), utc).has_value());
  CHECK(absl::ToUnixSeconds(*five.Next(absl::FromUnixSeconds(max - 60), utc)) == max - max % 300);
  CHECK_FALSE(five.Next(absl::InfiniteFuture(), utc).has_value());
}

TEST_CASE("CronJob admission") {
  VolcanoCronJob c = ExampleCron();
  CHECK(ValidateCronJob(c).ok());
  c.schedule = "TZ=UTC */5 * * * *";
  CHECK(ValidateCronJob(c).errors.at(0).field == "spec.schedule");
  c.schedule = "*/5 * * *";
  CHECK(ValidateCronJob(c).errors.at(0).message.find("schedule is not a valid cron expression") == 0);
  c = ExampleCron();
  c.time_zone = "Local";
  c.has_time_zone = true;
  CHECK(ValidateCronJob(c).errors.at(0).field == "spec.timeZone");
  c.time_zone = "Asia/Shanghai";
  CHECK_FALSE(ValidateCronJob(c).ok());  // unknown without a resolver
  CHECK(ValidateCronJob(c, [](const std::string&) { return std::optional<absl::TimeZone>(absl::UTCTimeZone()); }).ok());
  c = ExampleCron();
  c.metadata.name = std::string(53, 'a');
  CHECK(ValidateCronJob(c).errors.at(0).field == "metadata.name");
}

TEST_CASE("CronJob sync: start, Forbid, Replace, deadline and history") {
  VolcanoCronJob c = ExampleCron();  // every 5 minutes, Forbid, deadline 60s, history 5/3
  const int64_t created = Utc(2026, 11, 29, 10, 0);
  CronJobStatus status;
  // 10:05:30: the 10:05 run is due and within the 60 s deadline.
  CronSyncResult r = SyncCronJob(c, created, status, {}, Utc(2026, 11, 29, 10, 5) + 30);
  REQUIRE(r.scheduled_time.has_value());
  CHECK(*r.scheduled_time == Utc(2026, 11, 29, 10, 5));
  const std::string name = "volcano-cronjob-example-" + std::to_string(Utc(2026, 11, 29, 10, 5) / 60);
  CHECK(FindPath(r.create_job, "metadata.name")->text() == name);
  CHECK(FindPath(r.create_job, "spec.tasks") != nullptr);
  CHECK(r.status.active == std::vector<std::string>{name});
  CHECK(r.next_time == Utc(2026, 11, 29, 10, 10));
  // 10:10:30 with the job still running: Forbid skips.
  std::vector<CronChildJob> children = {{name, "Running", Utc(2026, 11, 29, 10, 5), 0}};
  CronSyncResult forbid = SyncCronJob(c, created, r.status, children, Utc(2026, 11, 29, 10, 10) + 30);
  CHECK(forbid.create_job.is_null());
  // Replace deletes the running job and starts the new one.
  c.concurrency_policy = "Replace";
  CronSyncResult replace = SyncCronJob(c, created, r.status, children, Utc(2026, 11, 29, 10, 10) + 30);
  CHECK(replace.delete_jobs == std::vector<std::string>{name});
  CHECK_FALSE(replace.create_job.is_null());
  // Missed by more than startingDeadlineSeconds: nothing starts.
  CronSyncResult late = SyncCronJob(c, created, r.status, {}, Utc(2026, 11, 29, 10, 11) + 30);
  CHECK(late.create_job.is_null());
  // Suspended: nothing starts.
  c.suspend = true;
  CHECK(SyncCronJob(c, created, status, {}, Utc(2026, 11, 29, 10, 5) + 30).create_job.is_null());
  // History: only the newest 3 failed jobs are kept (limit from the manifest).
  c = ExampleCron();
  std::vector<CronChildJob> finished;
  for (int i = 0; i < 5; ++i) finished.push_back({"f" + std::to_string(i), "Failed", 100 + i, 200 + i});
  finished.push_back({"ok", "Completed", 50, 777});
  CronSyncResult trimmed = SyncCronJob(c, created, status, finished, created + 30);
  CHECK(trimmed.delete_jobs == std::vector<std::string>{"f0", "f1"});
  CHECK(trimmed.status.last_successful_time == 777);
}

TEST_CASE("CronJob sync after a long outage starts only the most recent run") {
  VolcanoCronJob c = ExampleCron();
  c.starting_deadline_seconds.reset();
  c.schedule = "* * * * *";
  const int64_t created = Utc(2020, 1, 1, 0, 0);
  const int64_t now = Utc(2026, 11, 29, 10, 7) + 5;
  CronSyncResult r = SyncCronJob(c, created, {}, {}, now);
  REQUIRE(r.scheduled_time.has_value());
  CHECK(*r.scheduled_time == Utc(2026, 11, 29, 10, 7));
  CHECK(r.notes.at(0).find("too many missed start times") == 0);
  c.schedule = "@every 1h";
  r = SyncCronJob(c, created, {}, {}, now);
  CHECK(*r.scheduled_time == created + (now - created) / 3600 * 3600);
  c.starting_deadline_seconds = INT64_MIN;  // nonsense from a host: no overflow
  CHECK_NOTHROW(SyncCronJob(c, INT64_MIN, {}, {}, INT64_MAX));
  c.starting_deadline_seconds.reset();
  c.schedule = "0 0 30 2 *";  // never happens
  CHECK(SyncCronJob(c, created, {}, {}, now).create_job.is_null());
}

TEST_CASE("JobFlow: DAG admission and which jobs start") {
  Findings f;
  VolcanoJobFlow flow = ReadJobFlow(Manifests(LifecycleData("volcano-examples/jobflow/JobFlow.yaml")).at(0).object, &f);
  REQUIRE(f.ok());
  CHECK(ValidateJobFlow(flow).ok());
  std::map<std::string, Value> templates;
  for (const Manifest& m : Manifests(LifecycleData("volcano-examples/jobflow/JobTemplate.yaml"))) {
    templates[FindPath(m.object, "metadata.name")->text()] = m.object;
  }
  JobFlowSync first = SyncJobFlow(flow, "", {}, templates);
  REQUIRE(first.create_jobs.size() == 1);
  CHECK(FindPath(first.create_jobs[0], "metadata.name")->text() == "test-a");
  CHECK(FindPath(first.create_jobs[0], "metadata.labels")->Find("volcano.sh/createdByJobFlow")->text() == "default.test");
  CHECK(first.phase == "Pending");
  JobFlowSync second = SyncJobFlow(flow, "Pending", {{"test-a", "Completed"}}, templates);
  REQUIRE(second.create_jobs.size() == 1);
  CHECK(FindPath(second.create_jobs[0], "metadata.name")->text() == "test-b");
  CHECK(second.phase == "Running");
  JobFlowSync fan = SyncJobFlow(flow, "Running", {{"test-a", "Completed"}, {"test-b", "Completed"}}, templates);
  CHECK(fan.create_jobs.size() == 2);  // c and d
  std::map<std::string, std::string> all;
  for (const char* s : {"a", "b", "c", "d", "e"}) all[std::string("test-") + s] = "Completed";
  JobFlowSync done = SyncJobFlow(flow, "Running", all, templates);
  CHECK(done.phase == "Succeed");
  JobFlowSync cleanup = SyncJobFlow(flow, "Succeed", all, templates);  // jobRetainPolicy: delete
  CHECK(cleanup.delete_jobs.size() == 5);
  all["test-c"] = "Failed";
  CHECK(SyncJobFlow(flow, "Running", all, templates).phase == "Failed");

  flow.flows.push_back({"x", {"y"}});
  CHECK(ValidateJobFlow(flow).errors.at(0).message == "jobflow Flow is not DAG: vertex is not defined: y");
  flow.flows.back() = {"x", {"e"}};
  flow.flows[0].targets = {"x"};
  CHECK(ValidateJobFlow(flow).errors.at(0).message.find("jobflow Flow is not DAG") == 0);
}

}  // namespace
}  // namespace vcsched::lifecycle
