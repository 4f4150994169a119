// The per-queue amounts proportion and capacity share: taken per job when the sums are
// exact in doubles, they must be what summing every task's request gives, to the bit.
#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "src/plugins/queue_amounts.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"
#include "vcsched/session.h"

namespace vcsched::internal {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;
using testing::MakeQueue;

// Per queue: allocated and request summed task by task, as Volcano sums them.
std::map<QueueIndex, std::pair<Amount, Amount>> TaskByTask(const Session& s) {
  std::map<QueueIndex, std::pair<Amount, Amount>> out;
  for (JobIndex j = 0; j < s.num_jobs(); ++j) {
    const QueueIndex q = s.queue_of(j);
    if (q == kNone) continue;
    auto [it, added] = out.try_emplace(q);
    if (added) it->second = {Amount(static_cast<size_t>(s.dims()), 0), Amount(static_cast<size_t>(s.dims()), 0)};
    for (TaskIndex t : s.job_tasks(j)) {
      if (IsAllocatedStatus(s.task_status(t))) {
        Add(it->second.first, s.task_resreq(t));
        Add(it->second.second, s.task_resreq(t));
      } else if (s.task_status(t) == TaskStatus::kPending) {
        Add(it->second.second, s.task_resreq(t));
      }
    }
  }
  return out;
}

Snapshot Mixed(const std::string& big_memory) {
  SnapshotBuilder b;
  b.AddNode(MakeNode("n1", "cpu=64,memory=256Gi,pods=110"));
  b.AddNode(MakeNode("n2", "cpu=64,memory=256Gi,pods=110"));
  b.AddQueue(MakeQueue("q1", 1));
  b.AddQueue(MakeQueue("q2", 3));
  const char* phases[] = {"Running", "Pending", "Succeeded", "Running", "Failed", "Pending"};
  for (int j = 0; j < 6; ++j) {
    const std::string group = absl::StrCat("g", j);
    b.AddPodGroup(MakePodGroup(absl::StrCat("ns/", group), 1, j % 2 ? "q2" : "q1"));
    for (int i = 0; i < 5; ++i) {
      const std::string phase = phases[(i + j) % 6];
      const std::string requests = absl::StrCat("cpu=", 137 * (i + 1) + j, "m,memory=", i == 4 && j == 5 ? big_memory : "3333Ki");
      b.AddPod(MakePod(absl::StrCat("ns/", group, "-", i), group, requests,
                       phase == "Pending" ? "" : (i % 2 ? "n1" : "n2"), phase));
    }
  }
  return *std::move(b).Build();
}

TEST_CASE("queue amounts: per-job totals give what per-task sums give", "[plugins][queue_amounts]") {
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  // Exact sums (small requests), then sums past 2^53 (a pod of 64Pi: every sum is taken
  // task by task again).
  for (const std::string& big : {std::string("5Gi"), std::string("64Pi")}) {
    INFO("memory " << big);
    const Snapshot snap = Mixed(big);
    Session s(snap, cfg, 0, "s");
    CHECK(s.request_sums_exact() == (big == "5Gi"));
    const std::map<QueueIndex, QueueAmounts> got = BuildQueueAmounts(s);
    const auto want = TaskByTask(s);
    REQUIRE(got.size() == want.size());
    for (const auto& [q, sums] : want) {
      CHECK(got.at(q).allocated == sums.first);
      CHECK(got.at(q).request == sums.second);
    }
  }
}

}  // namespace
}  // namespace vcsched::internal
