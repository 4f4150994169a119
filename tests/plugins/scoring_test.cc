#include <catch2/catch.hpp>

#include "tests/testing/builders.h"

namespace vcsched {
namespace {

// Reference §15 C: node 4000m / 8Gi with 1000m / 2Gi requested; the pod asks 1000m / 1Gi.
constexpr const char* kScoringCluster = R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: running, namespace: ns, annotations: {scheduling.k8s.io/group-name: pg}}
spec:
  schedulerName: volcano
  nodeName: n1
  containers: [{name: c, resources: {requests: {cpu: "1", memory: 2Gi}}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: pending, namespace: ns, annotations: {scheduling.k8s.io/group-name: pg}}
spec:
  schedulerName: volcano
  containers: [{name: c, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: ns}
spec: {minMember: 1}
status: {phase: Running}
)";

SchedulerConfig OnePluginConfig(const std::string& name, Arguments args = {}) {
  SchedulerConfig c;
  c.actions = {"allocate"};
  c.tiers.push_back({{{name, {}, std::move(args)}}});
  c.ApplyDefaults();
  return c;
}

double ScoreOn(const Scenario& sc, const SchedulerConfig& cfg, const std::string& task) {
  Session ssn(sc.snapshot, cfg, 0, "s");
  std::vector<std::unique_ptr<Plugin>> plugins;
  testing::OpenPluginsForTesting(ssn, cfg, plugins);
  const NodeIndex nodes[] = {0};
  double score = 0;
  ssn.ScoreNodes(*sc.snapshot.FindTask(task), nodes, absl::MakeSpan(&score, 1));
  return score;
}

TEST_CASE("NodeOrder: the worked example's integer arithmetic", "[plugins][nodeorder]") {
  const Scenario sc = testing::LoadInline(kScoringCluster);
  auto only = [](const char* key, int64_t w) {
    Arguments a;
    for (const char* k : {"leastrequested.weight", "mostrequested.weight", "balancedresource.weight",
                          "nodeaffinity.weight", "podaffinity.weight", "tainttoleration.weight",
                          "imagelocality.weight", "podtopologyspread.weight"}) {
      a.Set(k, Value::Plain(std::string(k) == key ? std::to_string(w) : "0"));
    }
    return a;
  };
  CHECK(ScoreOn(sc, OnePluginConfig("nodeorder", only("leastrequested.weight", 1)), "ns/pending") == 56);
  // Balance with the pod: fractions 0.5 and 0.375, int((1 - 0.0625) * 100) = 93; without
  // it: 0.25 and 0.25, 100. Kubernetes v1.36 scores the change: 50 + (50 + 93 - 100) / 2.
  CHECK(ScoreOn(sc, OnePluginConfig("nodeorder", only("balancedresource.weight", 1)), "ns/pending") == 71);
  CHECK(ScoreOn(sc, OnePluginConfig("nodeorder", only("tainttoleration.weight", 3)), "ns/pending") == 300);
  CHECK(ScoreOn(sc, OnePluginConfig("nodeorder", only("mostrequested.weight", 1)), "ns/pending") == 43);
}

TEST_CASE("Binpack: fill fraction averaged over weighted resources", "[plugins][binpack]") {
  const Scenario sc = testing::LoadInline(kScoringCluster);
  CHECK(ScoreOn(sc, OnePluginConfig("binpack"), "ns/pending") == Approx(43.75));
  Arguments heavy_cpu;
  heavy_cpu.Set("binpack.cpu", Value::Plain("3"));
  heavy_cpu.Set("binpack.weight", Value::Plain("2"));
  // (3 * 0.5 + 1 * 0.375) / 4 * 100 * 2
  CHECK(ScoreOn(sc, OnePluginConfig("binpack", heavy_cpu), "ns/pending") == Approx(93.75));
}

TEST_CASE("NodeOrder plus binpack: the helm configuration's total", "[plugins][nodeorder]") {
  const Scenario sc = testing::LoadInline(kScoringCluster);
  SchedulerConfig c;
  c.actions = {"allocate"};
  c.tiers.push_back({{{"nodeorder", {}, {}}, {"binpack", {}, {}}}});
  c.ApplyDefaults();
  CHECK(ScoreOn(sc, c, "ns/pending") == Approx(470.75));
}

TEST_CASE("Binpack: an over-full requested resource zeroes the node", "[plugins][binpack]") {
  Scenario sc = testing::LoadInline(std::string(kScoringCluster) + R"(
---
apiVersion: v1
kind: Pod
metadata: {name: big, namespace: ns, annotations: {scheduling.k8s.io/group-name: pg}}
spec:
  schedulerName: volcano
  containers: [{name: c, resources: {requests: {cpu: "4"}}}]
)");
  CHECK(ScoreOn(sc, OnePluginConfig("binpack"), "ns/big") == 0);
}

}  // namespace
}  // namespace vcsched
