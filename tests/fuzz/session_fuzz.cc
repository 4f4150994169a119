// Fuzzes whole sessions: the input bytes drive the random scenario generator, so the
// fuzzer explores clusters, queues, gangs and configurations; every session must keep
// the invariants and be deterministic, and explaining it must decide the same and give
// every job a reason; with resources no node offers, folding them into one dimension
// decides the same.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tests/testing/invariants.h"
#include "tests/testing/random_scenario.h"
#include "vcsched/explain.h"
#include "vcsched/scheduler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  vcsched::testing::Choices choices(data, size);
  const vcsched::testing::RandomScenario sc = vcsched::testing::MakeRandomScenario(choices);
  const vcsched::Snapshot snap = sc.Build();
  absl::StatusOr<vcsched::Decisions> d = vcsched::RunSession(snap, sc.config);
  if (!d.ok()) std::abort();  // generated input is always valid
  const std::vector<std::string> bad = vcsched::testing::CheckInvariants(snap, sc.config, *d);
  if (!bad.empty()) {
    std::fprintf(stderr, "invariant violated: %s\n", bad.front().c_str());
    std::abort();
  }
  absl::StatusOr<vcsched::Decisions> again = vcsched::RunSession(sc.Build(size + 1), sc.config);
  if (!again.ok() || again->ToString() != d->ToString()) std::abort();
  vcsched::ExplainOptions explain;
  explain.max_reruns = 1;  // a hint search step, kept short per input
  absl::StatusOr<vcsched::ExplainResult> e = vcsched::Explain(snap, sc.config, explain);
  if (!e.ok() || e->decisions.ToString() != d->ToString()) std::abort();
  for (const vcsched::JobExplanation& j : e->explanation.jobs) {
    if (j.reason.empty()) std::abort();
  }
  // Resources no node offers, folded into one dimension or one each: the same decisions.
  vcsched::testing::RandomScenario unoffered = sc;
  vcsched::testing::AddUnofferedResources(unoffered, choices);
  vcsched::SnapshotOptions fold;
  fold.fold_unoffered_resources = true;
  absl::StatusOr<vcsched::Decisions> apart = vcsched::RunSession(unoffered.Build(), sc.config);
  absl::StatusOr<vcsched::Decisions> folded = vcsched::RunSession(unoffered.Build(0, fold), sc.config);
  if (!apart.ok() || !folded.ok()) std::abort();
  if (vcsched::testing::DecisionLines(*apart) != vcsched::testing::DecisionLines(*folded)) {
    std::fprintf(stderr, "folded resources decided otherwise:\n%s---\n%s", apart->ToString().c_str(),
                 folded->ToString().c_str());
    std::abort();
  }
  return 0;
}
