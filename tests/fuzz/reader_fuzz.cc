// Fuzzes the YAML and JSON readers alone: the input is read as a .yaml source (and, when
// it opens like JSON, as a .json one) into manifests (Value trees); each object but a
// Volcano Job (job_fuzz expands those) is read as the loader reads it; the manifests
// print as YAML and read back to the same trees. Reading must never crash, and a
// failure always says something. A JSON Pod read alone (as a watch event's object, by
// the loader's shorter route) and read as its file's document agree word for word.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/testing/read_outcome.h"
#include "vcsched/io/manifests.h"
#include "vcsched/io/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Text that does not open like JSON reads as YAML under either name: read it once.
  const size_t first = text.find_first_not_of(" \t\r\n");
  const bool json_like = first != std::string::npos && (text[first] == '{' || text[first] == '[');
  for (const char* name : {"fuzz.yaml", "fuzz.json"}) {
    if (!json_like && std::string(name) == "fuzz.json") continue;
    absl::StatusOr<std::vector<vcsched::Manifest>> manifests = vcsched::LoadManifests({{name, text}});
    if (!manifests.ok()) {
      if (manifests.status().message().empty()) std::abort();  // errors always say something
      continue;
    }
    if (std::string(name) == "fuzz.json" && manifests->size() == 1 && manifests->front().kind == "Pod" &&
        manifests->front().where == "fuzz.json: document 1") {
      // Text that is not JSON reads as YAML, whose messages place the problem ("line 1:16"),
      // which a tree read alone cannot: the places are left out of the comparison.
      const vcsched::Manifest& m = manifests->front();
      if (vcsched::testing::ReadOutcome(vcsched::ReadObjectValue(m.object, m.where)) !=
          vcsched::testing::ReadOutcome(vcsched::LoadObjects({{name, text}}), /*unplaced=*/true)) {
        std::abort();
      }
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
