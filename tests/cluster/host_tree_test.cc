// Watch events read in place from a host's own tree (HostTree) read exactly as the same
// events held as Value trees, and a host's problems refuse an event whole.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/manifests.h"
#include "vcsched/io/watch.h"
#include "tests/testing/value_host_tree.h"

namespace vcsched {
namespace {

using testing::ValueHostTree;

Value Event(const char* type, const Value& object) {
  Value e = Value::Map();
  e["type"] = Value::String(type);
  e["object"] = object;
  return e;
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_CASE("Events read in place from a host's tree build the state Value events build") {
  const char* kinds[] = {"Node", "Pod", "PodGroup", "Queue", "PriorityClass", "Namespace", "HyperNode", "Job"};
  int compared = 0;
  for (const char* dir : {VCSCHED_CONFORMANCE_DIR, VCSCHED_VOLCANO_CASES_DIR, VCSCHED_EXAMPLES_DIR}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.path().extension() != ".yaml") continue;
      absl::StatusOr<std::vector<Manifest>> manifests =
          LoadManifests({{entry.path().string(), ReadFile(entry.path())}});
      if (!manifests.ok()) continue;
      Cluster from_values, from_host;
      ValueHostTree tree;
      bool all_ok = true;
      for (const Manifest& m : *manifests) {
        if (std::find(std::begin(kinds), std::end(kinds), m.kind) == std::end(kinds)) continue;
        const Value event = Event("ADDED", m.object);
        const absl::Status a = ApplyWatchEvent(from_values, event, m.where, nullptr);
        const absl::Status b = ApplyWatchEvent(from_host, tree, &event, m.where, nullptr);
        INFO(m.where);
        REQUIRE(a == b);
        all_ok = all_ok && a.ok();
      }
      INFO(entry.path());
      CHECK(ClusterToYaml(from_host) == ClusterToYaml(from_values));
      compared += all_ok ? 1 : 0;
    }
  }
  CHECK(compared >= 150);
}

Value SmallPod() {
  Value pod = Value::Map();
  pod["apiVersion"] = Value::String("v1");
  pod["kind"] = Value::String("Pod");
  pod["metadata"]["name"] = Value::String("p");
  pod["metadata"]["namespace"] = Value::String("ns");
  pod["metadata"]["annotations"]["scheduling.k8s.io/group-name"] = Value::String("g");
  pod["spec"]["schedulerName"] = Value::String("volcano");
  pod["status"]["phase"] = Value::String("Pending");
  return pod;
}

TEST_CASE("A host's problem or an unreadable field refuses the event and changes nothing") {
  Cluster c;
  ValueHostTree tree;
  const Value added = Event("ADDED", SmallPod());
  tree.problem_text = "a map key is not a string: 2";
  const absl::Status refused = ApplyWatchEvent(c, tree, &added, "event 1", nullptr);
  CHECK(refused.message() == "event 1: a map key is not a string: 2");
  CHECK(c.pods().empty());
  CHECK(c.generation() == 0);

  tree.problem_text.clear();
  const Value odd_event = Event("ADDED", SmallPod());
  tree.unreadable = odd_event.Find("object")->Find("status")->Find("phase");
  const absl::Status unreadable = ApplyWatchEvent(c, tree, &odd_event, "event 2", nullptr);
  CHECK(absl::StrContains(unreadable.message(), "status.phase"));
  CHECK(absl::StrContains(unreadable.message(), "a value YAML cannot hold"));
  CHECK(c.pods().empty());

  tree.unreadable = nullptr;
  REQUIRE(ApplyWatchEvent(c, tree, &odd_event, "event 3", nullptr).ok());
  CHECK(c.pods().size() == 1);
}

}  // namespace
}  // namespace vcsched
