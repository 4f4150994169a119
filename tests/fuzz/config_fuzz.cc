// Fuzzes the scheduler configuration reader and validation alone (no session, so it runs
// millions of inputs): a configuration loads or fails with a message, and one that loads
// prints as YAML and loads back to the same text. config_session_fuzz runs sessions.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "vcsched/io/scenario.h"
#include "vcsched/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<vcsched::SchedulerConfig> config = vcsched::LoadSchedulerConfig({"fuzz.conf", text});
  if (!config.ok()) {
    if (config.status().message().empty()) std::abort();  // errors always say something
    return 0;
  }
  static const vcsched::Registry* const kRegistry = new vcsched::Registry(vcsched::Registry::BuiltIn());
  const absl::Status valid = kRegistry->ValidateConfig(*config);
  if (!valid.ok() && valid.message().empty()) std::abort();
  const std::string printed = config->ToYaml();
  absl::StatusOr<vcsched::SchedulerConfig> again = vcsched::LoadSchedulerConfig({"again.conf", printed});
  if (!again.ok() || again->ToYaml() != printed) std::abort();
  return 0;
}
