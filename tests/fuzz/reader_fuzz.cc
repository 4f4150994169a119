// Fuzzes the YAML and JSON readers alone, fast enough for millions of inputs: the input is
// read as a .yaml and as a .json source into manifests (Value trees); each object but a
// Volcano Job (job_fuzz expands those) is read as the loader reads it; the manifests
// print as YAML and read back to the same trees. Reading must never crash, and a
// failure always says something.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "vcsched/io/manifests.h"
#include "vcsched/io/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* name : {"fuzz.yaml", "fuzz.json"}) {
    absl::StatusOr<std::vector<vcsched::Manifest>> manifests = vcsched::LoadManifests({{name, text}});
    if (!manifests.ok()) {
      if (manifests.status().message().empty()) std::abort();  // errors always say something
      continue;
    }
    std::vector<const vcsched::Value*> objects;
    for (const vcsched::Manifest& m : *manifests) {
      objects.push_back(&m.object);
      if (vcsched::IsVolcanoJob(m)) continue;
      absl::StatusOr<vcsched::ScenarioObjects> read = vcsched::ReadObjectValue(m.object, m.where);
      if (!read.ok() && read.status().message().empty()) std::abort();
    }
    // What prints reads back the same.
    absl::StatusOr<std::vector<vcsched::Manifest>> again = vcsched::LoadManifests({{"again.yaml", vcsched::ToYaml(objects)}});
    if (!again.ok() || again->size() != manifests->size()) std::abort();
    for (size_t i = 0; i < again->size(); ++i) {
      if ((*again)[i].object != (*manifests)[i].object) std::abort();
    }
  }
  return 0;
}
