// Resource names that no node offers and no queue names can stand for one dimension
// (SnapshotOptions::fold_unoffered_resources, and on their own when there are more than 16,
// or one column each would pass the tables' limit): a pod requesting any of them fits nowhere, and every rule
// compares such amounts with a cluster total of zero, so the decisions are the same.
#include <catch2/catch.hpp>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "tests/testing/random_scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

TEST_CASE("Folded resources: random sessions decide as with one dimension per name", "[core][resources]") {
  constexpr uint64_t kScenarios = 4000;
  uint64_t folded_sessions = 0, binds = 0, evictions = 0, unplaced_folded = 0;
  SnapshotOptions fold;
  fold.fold_unoffered_resources = true;
  for (uint64_t seed = 1; seed <= kScenarios; ++seed) {
    testing::Choices choices(seed);
    testing::RandomScenario sc = testing::MakeRandomScenario(choices);
    testing::AddUnofferedResources(sc, choices);
    const Snapshot apart = sc.Build();
    const Snapshot folded = sc.Build(0, fold);
    INFO("seed " << seed);
    const ResourceSpace& space = folded.space();
    if (space.folded_dim() >= 0) {
      ++folded_sessions;
      CHECK(space.size() + static_cast<int>(space.folded_count()) - 1 == apart.space().size());
    }
    absl::StatusOr<Decisions> a = RunSession(apart, sc.config);
    absl::StatusOr<Decisions> f = RunSession(folded, sc.config);
    REQUIRE(a.ok());
    REQUIRE(f.ok());
    CHECK(testing::DecisionLines(*f) == testing::DecisionLines(*a));
    binds += f->binds.size();
    evictions += f->evictions.size();
    for (const TaskReason& r : f->task_reasons) unplaced_folded += absl::StrContains(r.message, kUnofferedResource);
  }
  // The comparison proves something only if folding happened and decisions were made.
  CHECK(folded_sessions > kScenarios / 2);
  CHECK(binds > kScenarios);
  CHECK(evictions > 50);
  CHECK(unplaced_folded > 100);
}

TEST_CASE("Folded resources: thousands of names only pods request fold on their own, with a warning", "[core][resources]") {
  // 2,000 pods naming 12 resources each that no node offers: one column per name would
  // take 24,000 columns over some 6,000 rows, past the tables' limit.
  SnapshotBuilder b;
  b.AddNode(testing::MakeNode("n1", "cpu=64,memory=256Gi,pods=110,nvidia.com/gpu=32"));
  for (int i = 0; i < 2000; ++i) {
    const std::string key = absl::StrCat("ns/p", i);
    if (i % 100 == 0) {
      b.AddPod(testing::MakePod(key, "", "cpu=1,nvidia.com/gpu=1"));
      continue;
    }
    PodSpec p = testing::MakePod(key, "", "cpu=1");
    for (int r = 0; r < 12; ++r) p.containers.front().requests[absl::StrCat("example.com/r", i * 12 + r)] = 1000;
    b.AddPod(std::move(p));
  }
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE(s.ok());
  CHECK(s->space().size() == 5);  // cpu, memory, pods, nvidia.com/gpu, the folded one
  CHECK(s->space().folded_count() == 1980 * 12);
  bool warned = false;
  for (const std::string& w : s->warnings()) warned = warned || absl::StrContains(w, "23760 resource names");
  CHECK(warned);
  absl::StatusOr<Decisions> d = RunSession(*s, DefaultSchedulerConfig());
  REQUIRE(d.ok());
  CHECK(d->binds.size() == 20);  // the GPU pods; the others fit no node
}

// Issue 57: 4,000 pods each naming its own resource took 30 times the memory of the same
// pods without (1 GiB against 31 MiB): past 16 such names they fold on their own.
TEST_CASE("Folded resources: more than 16 names only pods request fold on their own", "[core][resources]") {
  const auto build = [](int names) {
    SnapshotBuilder b;
    b.AddNode(testing::MakeNode("n1", "cpu=64,memory=256Gi,pods=110"));
    for (int i = 0; i < 40; ++i) {
      PodSpec p = testing::MakePod(absl::StrCat("ns/p", i), "", "cpu=1");
      if (i < names) p.init_containers.push_back(Container{"init", {{absl::StrCat("example.com/r", i), 1000}}});
      b.AddPod(std::move(p));
    }
    return std::move(b).Build();
  };
  absl::StatusOr<Snapshot> few = build(16), many = build(17);
  REQUIRE(few.ok());
  REQUIRE(many.ok());
  CHECK(few->space().folded_dim() < 0);
  CHECK(many->space().folded_dim() >= 0);
  CHECK(many->space().folded_count() == 17);
  bool warned = false;
  for (const std::string& w : many->warnings()) warned = warned || absl::StrContains(w, "more than 16 such names");
  CHECK(warned);
  absl::StatusOr<Decisions> d = RunSession(*many, DefaultSchedulerConfig());
  REQUIRE(d.ok());
  CHECK(d->binds.size() == 23);  // the pods that ask for no such resource
}

// Issue 57: one Queue naming 2,000 resources in its capability took 464 MiB (a column each
// in every table); past 16 such names, named by queues alone, they stay out of the tables.
TEST_CASE("Resource names only queues name stay out of the tables past 16", "[core][resources]") {
  const auto build = [](int names) {
    SnapshotBuilder b;
    b.AddNode(testing::MakeNode("n1", "cpu=8,memory=16Gi,pods=110"));
    QueueSpec q;
    q.name = "q";
    q.weight = 1;
    q.capability["cpu"] = 4000;
    for (int i = 0; i < names; ++i) q.capability[absl::StrCat("example.com/q", i)] = 1000;
    b.AddQueue(q);
    for (int i = 0; i < 6; ++i) {
      PodSpec p = testing::MakePod(absl::StrCat("ns/p", i), "", "cpu=1");
      p.annotations["scheduling.volcano.sh/queue-name"] = "q";
      b.AddPod(std::move(p));
    }
    return std::move(b).Build();
  };
  absl::StatusOr<Snapshot> few = build(16), many = build(2000), none = build(0);
  REQUIRE(few.ok());
  REQUIRE(many.ok());
  REQUIRE(none.ok());
  CHECK(few->space().Find("example.com/q3") >= 0);
  CHECK(many->space().Find("example.com/q3") < 0);
  CHECK(many->space().size() == none->space().size());
  bool warned = false;
  for (const std::string& w : many->warnings()) warned = warned || absl::StrContains(w, "named only by queues");
  CHECK(warned);
  absl::StatusOr<Decisions> a = RunSession(*many, DefaultSchedulerConfig());
  absl::StatusOr<Decisions> b = RunSession(*none, DefaultSchedulerConfig());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(testing::DecisionLines(*a) == testing::DecisionLines(*b));
  CHECK(a->binds.size() == 4);  // the queue's cpu capability
}

TEST_CASE("Folded resources: the reserved name may not be a real one when folding", "[core][resources]") {
  SnapshotOptions fold;
  fold.fold_unoffered_resources = true;
  SnapshotBuilder b(fold);
  b.AddNode(testing::MakeNode("n1", "cpu=4"));
  PodSpec p = testing::MakePod("ns/p", "", "cpu=1");
  p.containers.front().requests[std::string(kUnofferedResource)] = 1000;
  p.containers.front().requests["example.com/x"] = 1000;
  b.AddPod(std::move(p));
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(std::string(s.status().message()), Catch::Contains("reserved"));
}

}  // namespace
}  // namespace vcsched
