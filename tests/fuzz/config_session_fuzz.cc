// Fuzzes configurations through sessions: a configuration that loads and validates runs a
// session on a small fixed cluster that must keep the invariants (config_fuzz: the reader).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tests/testing/invariants.h"
#include "tests/testing/random_scenario.h"
#include "vcsched/io/scenario.h"
#include "vcsched/registry.h"
#include "vcsched/scheduler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<vcsched::SchedulerConfig> config = vcsched::LoadSchedulerConfig({"fuzz.conf", text});
  if (!config.ok()) return 0;
  static const vcsched::Registry* const kRegistry = new vcsched::Registry(vcsched::Registry::BuiltIn());
  if (!kRegistry->ValidateConfig(*config).ok()) return 0;
  static const vcsched::testing::RandomScenario* const kScenario = [] {
    vcsched::testing::Choices c(42);
    return new vcsched::testing::RandomScenario(vcsched::testing::MakeRandomScenario(c));
  }();
  const vcsched::Snapshot snap = kScenario->Build();
  absl::StatusOr<vcsched::Decisions> d = vcsched::RunSession(snap, *config);
  if (!d.ok()) return 0;
  if (!vcsched::testing::CheckInvariants(snap, *config, *d).empty()) std::abort();
  return 0;
}
