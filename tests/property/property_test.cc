// 10,000 seeded random scenarios: after every session the invariants hold, the snapshot
// is unchanged, and the decisions are byte-identical twice and with the objects added in
// another order.
#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace vcsched
