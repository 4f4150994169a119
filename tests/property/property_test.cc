// 10,000 seeded random scenarios: after every session the invariants hold, the snapshot
// is unchanged, and the decisions are byte-identical twice and with the objects added in
// another order.
#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "tests/testing/invariants.h"
#include "tests/testing/random_scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

TEST_CASE("Property: random sessions keep every invariant and are deterministic", "[property][slow]") {
  constexpr uint64_t kScenarios = 10000;
  uint64_t sessions = 0, binds = 0, evictions = 0, pipelined = 0;
  for (uint64_t seed = 1; seed <= kScenarios; ++seed) {
    testing::Choices choices(seed);
    const testing::RandomScenario sc = testing::MakeRandomScenario(choices);
    const Snapshot snap = sc.Build();
    const std::string before = testing::SnapshotDigest(snap);
    absl::StatusOr<Decisions> d = RunSession(snap, sc.config);
    INFO("seed " << seed);
    REQUIRE(d.ok());
    ++sessions;
    binds += d->binds.size();
    evictions += d->evictions.size();
    pipelined += d->pipelined.size();
    const std::vector<std::string> bad = testing::CheckInvariants(snap, sc.config, *d);
    if (!bad.empty()) FAIL(bad.front() << "\n" << d->ToString());
    CHECK(testing::SnapshotDigest(snap) == before);
    const std::string text = d->ToString();
    absl::StatusOr<Decisions> again = RunSession(snap, sc.config);
    REQUIRE(again.ok());
    CHECK(again->ToString() == text);
    absl::StatusOr<Decisions> shuffled = RunSession(sc.Build(seed * 7919), sc.config);
    REQUIRE(shuffled.ok());
    CHECK(shuffled->ToString() == text);
    RunOptions reference;
    reference.node_choice_cache = false;  // the optimisation must not change a decision
    absl::StatusOr<Decisions> uncached = RunSession(snap, sc.config, reference);
    REQUIRE(uncached.ok());
    CHECK(uncached->ToString() == text);
  }
  // The generator must exercise every kind of decision, or the test proves little.
  CHECK(sessions == kScenarios);
  CHECK(binds > kScenarios);
  CHECK(evictions > 100);
  CHECK(pipelined > 100);
}

// The checker itself: best-effort pods past a node's pod slots are a violation with the
// predicates plugin or without it (Volcano's cache refuses such a bind at dispatch), and
// so are pods with requests past allocatable.
TEST_CASE("Invariants: best-effort pods past a node's pod slots are a violation", "[property]") {
  SnapshotBuilder b;
  b.AddNode(testing::MakeNode("n1", "cpu=4,pods=2"));
  b.AddPodGroup(testing::MakePodGroup("ns/g", 1));
  for (int i = 0; i < 3; ++i) b.AddPod(testing::MakePod(absl::StrCat("ns/be-", i), "g", ""));
  b.AddPod(testing::MakePod("ns/big", "g", "cpu=5"));
  const Snapshot snap = *std::move(b).Build();
  Decisions three_best_effort;
  for (int i = 0; i < 3; ++i) three_best_effort.binds.push_back({three_best_effort.Keep(absl::StrCat("ns/be-", i)), "n1"});
  SchedulerConfig no_predicates;
  no_predicates.actions = {"backfill"};
  no_predicates.ApplyDefaults();
  const std::vector<std::string> overfilled{"node over its allocatable after binds: n1"};
  CHECK(testing::CheckInvariants(snap, no_predicates, three_best_effort) == overfilled);
  CHECK(testing::CheckInvariants(snap, DefaultSchedulerConfig(), three_best_effort) == overfilled);
  Decisions too_big;
  too_big.binds.push_back({"ns/big", "n1"});
  CHECK_FALSE(testing::CheckInvariants(snap, no_predicates, too_big).empty());
}

// A plugin with the switch of its extension point off constrains nothing in Volcano, and
// the checker must not hold a session to it: predicates without enablePredicate lets a
// pod bind against its node selector; gang without enableJobReady lets a gang bind in part.
TEST_CASE("Invariants: a plugin whose switch is off constrains nothing", "[property]") {
  SnapshotBuilder b;
  NodeSpec node = testing::MakeNode("n1", "cpu=1,pods=10");
  node.labels["zone"] = "a";
  b.AddNode(node);
  b.AddPodGroup(testing::MakePodGroup("ns/g", 2));
  PodSpec picky = testing::MakePod("ns/picky", "g", "cpu=1");
  picky.node_selector["zone"] = "b";
  b.AddPod(picky);
  b.AddPod(testing::MakePod("ns/other", "g", "cpu=1"));
  const Snapshot snap = *std::move(b).Build();
  Decisions one_bind;
  one_bind.binds.push_back({"ns/picky", "n1"});
  const auto config_with = [](const char* plugin, Switch s, bool on) {
    SchedulerConfig c;
    c.actions = {"allocate"};
    PluginOption p{plugin};
    p.switches[static_cast<size_t>(s)] = on;
    c.tiers.push_back({{p}});
    c.ApplyDefaults();
    return c;
  };
  CHECK(testing::CheckInvariants(snap, config_with("predicates", Switch::kPredicate, false), one_bind).empty());
  CHECK(testing::CheckInvariants(snap, config_with("predicates", Switch::kPredicate, true), one_bind) ==
        std::vector<std::string>{"bind against node selector/affinity: ns/picky -> n1"});
  CHECK(testing::CheckInvariants(snap, config_with("gang", Switch::kJobReady, false), one_bind).empty());
  CHECK(testing::CheckInvariants(snap, config_with("gang", Switch::kJobReady, true), one_bind) ==
        std::vector<std::string>{"gang bound below minMember: ns/g holds 1 of 2"});
}

}  // namespace
}  // namespace vcsched
