// Allocate's per-job task heaps share one array; each job's pops must still come in the
// session's TaskOrderLess order, whatever the other jobs do in between.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/actions/job_task_heaps.h"
#include "tests/testing/builders.h"

namespace vcsched::internal {
namespace {

using testing::MakePod;
using testing::MakePodGroup;

TEST_CASE("JobTaskHeaps: each job pops its tasks in TaskOrderLess order, jobs interleaved",
          "[actions][allocate]") {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> priority(0, 3), created(0, 5), size(0, 9);
  SnapshotBuilder b;
  for (int j = 0; j < 12; ++j) {
    const std::string group = absl::StrCat("j", j);
    b.AddPodGroup(MakePodGroup(absl::StrCat("ns/", group), 1));
    for (int t = 0, n = size(rng); t < n; ++t) {  // some jobs have no task
      PodSpec p = MakePod(absl::StrCat("ns/", group, "-", t), group, "cpu=1");
      p.priority = priority(rng);
      p.creation_time = created(rng);
      b.AddPod(p);
    }
  }
  const Snapshot snap = *std::move(b).Build();
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  // Higher priority first (a comparison opinion, as the priority plugin gives), then the
  // session's own tie rules.
  ssn.AddTaskOrderFn([&](TaskIndex l, TaskIndex r) {
    const int32_t a = *SessionInternals::Of(ssn).task(l).pod->priority, c = *SessionInternals::Of(ssn).task(r).pod->priority;
    return a > c ? -1 : (a < c ? 1 : 0);
  });

  JobTaskHeaps heaps(ssn, snap.jobs().size());
  std::map<JobIndex, std::vector<TaskIndex>> want;
  for (const JobInfo& job : snap.jobs()) {
    heaps.Open(job.index);
    std::vector<TaskIndex> tasks = job.tasks;
    std::shuffle(tasks.begin(), tasks.end(), rng);  // the push order must not matter
    for (TaskIndex t : tasks) heaps.Push(t);
    CHECK(heaps.empty(job.index) == tasks.empty());
    std::sort(tasks.begin(), tasks.end(), [&](TaskIndex l, TaskIndex r) { return ssn.TaskOrderLess(l, r); });
    if (!tasks.empty()) want[job.index] = tasks;
  }
  REQUIRE(want.size() > 6);
  std::map<JobIndex, std::vector<TaskIndex>> got;
  std::vector<JobIndex> live;
  for (const auto& [j, tasks] : want) live.push_back(j);
  while (!live.empty()) {  // pop from a random job each time
    const size_t at = std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng);
    const JobIndex j = live[at];
    got[j].push_back(heaps.Pop(j));
    if (heaps.empty(j)) live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
  }
  CHECK(got == want);
}

}  // namespace
}  // namespace vcsched::internal
