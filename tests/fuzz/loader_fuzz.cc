// Fuzzes the readers alone (YAML through libyaml into the document tree, which checks
// merge keys, repeated keys and aliases as it is built; JSON through simdjson): the
// input is loaded as a .yaml and as a .json source. Loading must
// never crash, and a failure always says something. No session runs, so this target
// reaches millions of inputs where scenario_fuzz, which also schedules, reaches thousands.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "vcsched/io/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* name : {"fuzz.yaml", "fuzz.json"}) {
    absl::StatusOr<vcsched::Scenario> sc = vcsched::LoadScenario({{name, text}});
    if (!sc.ok() && sc.status().message().empty()) std::abort();  // errors always say something
  }
  return 0;
}
