// Helpers for the lifecycle tests: the manifests under tests/data/lifecycle.
#ifndef VCSCHED_TESTS_LIFECYCLE_TEST_MANIFESTS_H_
#define VCSCHED_TESTS_LIFECYCLE_TEST_MANIFESTS_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "vcsched/io/manifests.h"

namespace vcsched::testing {

inline std::string LifecycleData(const std::string& rel) { return std::string(VCSCHED_TEST_DATA_DIR) + "/lifecycle/" + rel; }

inline std::vector<Manifest> Manifests(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<Manifest>> m = LoadManifests({{path, text.str()}});
  return m.ok() ? *m : std::vector<Manifest>{};
}

inline std::vector<Manifest> ManifestFromText(const std::string& text) {
  absl::StatusOr<std::vector<Manifest>> m = LoadManifests({{"inline.yaml", text}});
  return m.ok() ? *m : std::vector<Manifest>{};
}

// Every *.yaml file under tests/data/lifecycle/<dir>, sorted.
inline std::vector<std::string> YamlFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(LifecycleData(dir))) {
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_LIFECYCLE_TEST_MANIFESTS_H_
