// Fuzzes the scenario loader and, for what loads, a whole session: never crashes, and
// every session keeps the invariants.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/testing/invariants.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<vcsched::Scenario> sc = vcsched::LoadScenario({{"fuzz.yaml", text}});
  if (!sc.ok()) {
    if (sc.status().message().empty()) std::abort();  // errors always say something
    return 0;
  }
  if (sc->snapshot.tasks().size() > 2000 || sc->snapshot.nodes().size() > 2000) return 0;
  const vcsched::SchedulerConfig config = sc->config.value_or(vcsched::DefaultSchedulerConfig());
  absl::StatusOr<vcsched::Decisions> d = vcsched::RunSession(sc->snapshot, config);
  if (!d.ok()) return 0;  // e.g. a configuration naming an unknown plugin
  const std::vector<std::string> bad = vcsched::testing::CheckInvariants(sc->snapshot, config, *d);
  if (!bad.empty()) {
    std::fprintf(stderr, "invariant violated: %s\n", bad.front().c_str());
    std::abort();
  }
  return 0;
}
