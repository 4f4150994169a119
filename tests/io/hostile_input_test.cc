// Inputs real clusters and attackers produce that once crashed, wrapped or were misread:
// each test pins the behaviour of a whole class (see README "Robustness").
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "src/internal/toleration_index.h"
#include "src/model/k8s_match.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr char kNode[] = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}
)";

Decisions Run(const std::string& yaml) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"case.yaml", yaml}});
  REQUIRE(sc.ok());
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, sc->config ? *sc->config : DefaultSchedulerConfig());
  REQUIRE(d.ok());
  return *std::move(d);
}

std::string Pod(const std::string& name, const std::string& requests) {
  return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
         ", namespace: default}\nspec:\n  schedulerName: volcano\n  containers:\n  - {name: a, resources: {requests: " +
         requests + "}}\n  - {name: b, resources: {requests: " + requests + "}}\n";
}

TEST_CASE("Hostile: resource sums saturate instead of wrapping", "[io][hostile]") {
  // Two containers of 7Ei memory (or 5e15 cpus) would wrap int64 to a negative request
  // that fits a 1 Gi, 1-cpu node.
  const Decisions d = Run(std::string(kNode) + Pod("mem", "{memory: 7Ei}") + Pod("cpu", "{cpu: \"5000000000000000\"}"));
  CHECK(d.binds.empty());
  // Two legal 7Ei nodes: the cluster total saturates, and a small pod is still admitted.
  std::string big = R"(apiVersion: v1
kind: Node
metadata: {name: big1}
status: {allocatable: {cpu: "4", memory: 7Ei, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: big2}
status: {allocatable: {cpu: "4", memory: 7Ei, pods: "10"}}
)";
  const Decisions ok = Run(big + Pod("small", "{cpu: 100m, memory: 1Gi}"));
  CHECK(ok.binds.size() == 1);
}

TEST_CASE("Hostile: per-node sums over the cluster or a HyperNode saturate", "[io][hostile]") {
  // Three nodes each with 6Ei of memory in use: overcommit's cluster-wide used amount and
  // network-topology's per-HyperNode sums pass the int64 limit (undefined behaviour that
  // the sanitizer run catches). A small gang is still admitted and placed.
  std::string doc = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate"
tiers:
- plugins: [{name: gang}, {name: overcommit}]
- plugins: [{name: predicates}, {name: proportion}, {name: nodeorder}, {name: network-topology-aware}]
---
apiVersion: topology.volcano.sh/v1alpha1
kind: HyperNode
metadata: {name: rack}
spec:
  tier: 1
  members: [{type: Node, selector: {regexMatch: {pattern: "^big"}}}]
)";
  for (int i = 0; i < 3; ++i) {
    const std::string n = "big" + std::to_string(i);
    doc += "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + n +
           "}\nstatus: {allocatable: {cpu: \"4\", memory: 7Ei, pods: \"10\"}}\n"
           "---\napiVersion: v1\nkind: Pod\nmetadata: {name: hog-" + n +
           ", namespace: default}\nspec:\n  schedulerName: volcano\n  nodeName: " + n +
           "\n  containers: [{name: c, resources: {requests: {memory: 6Ei}}}]\nstatus: {phase: Running}\n";
  }
  doc += R"(---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: small, namespace: default}
spec:
  minMember: 1
  minResources: {cpu: 100m, memory: 1Mi}
  networkTopology: {mode: hard, highestTierAllowed: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: small-0, namespace: default, annotations: {scheduling.k8s.io/group-name: small}}
spec:
  schedulerName: volcano
  containers: [{name: c, resources: {requests: {cpu: 100m, memory: 1Mi}}}]
)";
  const Decisions d = Run(doc);
  REQUIRE(d.pod_groups.size() >= 1);
  bool admitted = false;
  for (const PodGroupStatus& g : d.pod_groups) admitted |= g.job == "default/small" && g.phase != "Pending";
  CHECK(admitted);
}

TEST_CASE("Hostile: YAML merge keys are expanded as Kubernetes' decoder expands them", "[io][hostile]") {
  const std::string doc = std::string(kNode) + R"(---
apiVersion: v1
kind: Pod
metadata: {name: merged, namespace: default}
spec:
  schedulerName: volcano
  containers:
  - name: c
    resources:
      requests:
        <<: [{cpu: "50"}, {cpu: 100m, memory: 1Mi}]
        memory: 2Mi
)";
  absl::StatusOr<Scenario> sc = LoadScenario({{"case.yaml", doc}});
  REQUIRE(sc.ok());
  const TaskInfo& t = sc->snapshot.tasks()[0];
  CHECK(t.resreq[kCpu] == 50000);                // the first merged map wins over the second
  CHECK(t.resreq[kMemory] == 2 * 1024 * 1024);   // the map's own key wins over merged ones
  CHECK(Run(doc).binds.empty());                 // a 50-cpu pod does not fit a 1-cpu node
}

TEST_CASE("Hostile: a merge through an anchor reused many times stays bounded", "[io][hostile]") {
  std::string doc = std::string(kNode) + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
                    "x0: &a0 {k: v}\n";
  for (int i = 1; i < 40; ++i) {
    doc += "x" + std::to_string(i) + ": &a" + std::to_string(i) + " {<<: [*a" + std::to_string(i - 1) + ", *a" +
           std::to_string(i - 1) + "]}\n";
  }
  doc += "spec: {containers: [{name: c}]}\n";
  absl::StatusOr<Scenario> sc = LoadScenario({{"case.yaml", doc}});
  // Either read (each anchor merged once) or refused with the document named; never a hang.
  if (!sc.ok()) CHECK_THAT(std::string(sc.status().message()), Catch::Contains("document 2"));
}

TEST_CASE("Hostile: a repeated key is an error in YAML and in JSON", "[io][hostile]") {
  absl::StatusOr<Scenario> y = LoadScenario({{"y.yaml", std::string(kNode) +
                                                            "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, "
                                                            "name: q}\nspec: {containers: []}\n"}});
  REQUIRE_FALSE(y.ok());
  CHECK_THAT(std::string(y.status().message()), Catch::Contains("y.yaml: document 2, line 8:21") &&
                                                    Catch::Contains("duplicate key \"name\""));
  absl::StatusOr<Scenario> j = LoadScenario(
      {{"j.json", R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"a":"1","a":"2"}}})"}});
  REQUIRE_FALSE(j.ok());
  CHECK_THAT(std::string(j.status().message()), Catch::Contains("j.json: document 1") &&
                                                    Catch::Contains("metadata.labels: duplicate key \"a\""));
}

TEST_CASE("Hostile: a long JSON list is read in linear time", "[io][hostile]") {
  // 200,000 values: list items are reached in one pass, not by index from the front.
  std::string values;
  for (int i = 0; i < 200000; ++i) values += (i ? ",\"v" : "\"v") + std::to_string(i) + "\"";
  const std::string doc = R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},"status":{"allocatable":{"cpu":"1","memory":"1Gi","pods":"10"}}},)"
                          R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"schedulerName":"volcano","affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"NotIn","values":[)" +
                          values + R"(]}]}]}}},"containers":[{"name":"c"}]}}]})";
  absl::StatusOr<Scenario> sc = LoadScenario({{"long.json", doc}});
  REQUIRE(sc.ok());
  CHECK(sc->snapshot.tasks()[0].pod->affinity.required_node_terms[0].match_expressions[0].values.size() == 200000);
}

TEST_CASE("Hostile: the toleration index decides as the pairwise rule", "[internal][hostile]") {
  std::mt19937 rng(7);
  const char* keys[] = {"", "a", "b", "c"};
  const char* values[] = {"", "x", "y"};
  const char* effects[] = {"", "NoSchedule", "PreferNoSchedule", "NoExecute", "Odd"};
  const char* ops[] = {"Equal", "Exists", ""};
  for (int round = 0; round < 300; ++round) {
    std::vector<Toleration> tols(static_cast<size_t>(rng() % 40));
    for (Toleration& t : tols) {
      t.key = keys[rng() % 4];
      t.value = values[rng() % 3];
      t.effect = effects[rng() % 5];
      t.op = ops[rng() % 3];
    }
    const internal::TolerationIndex index(&tols);
    for (int k = 0; k < 40; ++k) {
      Taint taint{keys[1 + rng() % 3], values[rng() % 3], effects[1 + rng() % 4]};
      INFO("round " << round << " taint " << taint.key << "=" << taint.value << ":" << taint.effect);
      CHECK(index.Tolerates(taint) == internal::ToleratesTaint(tols, taint));
    }
  }
}

TEST_CASE("Hostile: a guarantee above the capability is warned about, naming both", "[io][hostile]") {
  const Decisions d = Run(std::string(kNode) + R"(---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: q}
spec:
  weight: 1
  capability: {cpu: "2"}
  guarantee: {resource: {cpu: "4"}}
)");
  bool found = false;
  for (const std::string& w : d.warnings) {
    found = found || (w.find("Queue \"q\"") != std::string::npos && w.find("guarantee (4)") != std::string::npos &&
                      w.find("capability (2)") != std::string::npos);
  }
  CHECK(found);
}

TEST_CASE("Hostile: pods on a node the snapshot lacks are never gang victims", "[actions][hostile]") {
  // A Running pod whose node was deleted (and one with no node at all) sit on Volcano's
  // placeholder node: gangpreempt and gangreclaim must neither crash nor evict them.
  std::string doc = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate, gangpreempt, gangreclaim"
tiers:
- plugins: [{name: priority}, {name: gang}, {name: conformance}]
- plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: low, namespace: default}
spec: {minMember: 1}
status: {phase: Running}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: hi, namespace: default}
spec: {minMember: 2, priorityClassName: high}
)";
  doc += std::string("---\n") + kNode;
  auto pod = [](const std::string& name, const std::string& group, const std::string& node, const std::string& extra) {
    return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
           ", namespace: default, annotations: {scheduling.k8s.io/group-name: " + group +
           "}}\nspec:\n  schedulerName: volcano\n" + (node.empty() ? "" : "  nodeName: " + node + "\n") + extra +
           "  containers: [{name: c, resources: {requests: {cpu: \"1\", memory: 100Mi}}}]\n" +
           (group == "low" ? "status: {phase: Running}\n" : "");
  };
  doc += pod("low-gone", "low", "gone", "") + pod("low-nowhere", "low", "", "") + pod("low-here", "low", "n1", "");
  doc += pod("hi-0", "hi", "", "  priorityClassName: high\n") + pod("hi-1", "hi", "", "  priorityClassName: high\n");
  const Decisions d = Run(doc);
  for (const Eviction& e : d.evictions) {
    CHECK(e.task != "default/low-gone");
    CHECK(e.task != "default/low-nowhere");
  }
}

TEST_CASE("Hostile: a plain pod's PodGroup may not take the name of a PodGroup of the input", "[io][hostile]") {
  std::ifstream in(std::string(VCSCHED_TEST_DATA_DIR) + "/implicit-podgroup-name-clash.yaml");
  std::stringstream buf;
  buf << in.rdbuf();
  absl::StatusOr<Scenario> sc = LoadScenario({{"clash.yaml", buf.str()}});
  REQUIRE_FALSE(sc.ok());
  CHECK_THAT(std::string(sc.status().message()),
             Catch::Contains("Pod \"default/p\"") && Catch::Contains("\"podgroup-uid-1\", is already a PodGroup"));
}

TEST_CASE("Hostile: thousands of resource names only pods request count as one, thousands that nodes offer are refused",
          "[io][hostile]") {
  std::string doc = kNode;
  for (int i = 0; i < 8000; ++i) {
    doc += "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p" + std::to_string(i) +
           ", namespace: default}\nspec:\n  schedulerName: volcano\n  containers: [{name: c, resources: {requests: "
           "{example.com/a" + std::to_string(i) + ": \"1\", example.com/b" + std::to_string(i) + ": \"1\"}}}]\n";
  }
  // One table column each would take 16,003 columns over some 24,000 rows: the names no
  // node offers are folded into one (a pod requesting any fits nowhere either way).
  absl::StatusOr<Scenario> sc = LoadScenario({{"dims.yaml", doc}});
  REQUIRE(sc.ok());
  CHECK(sc->snapshot.space().size() == 4);
  bool warned = false;
  for (const std::string& w : sc->snapshot.warnings()) {
    warned = warned || absl::StrContains(w, "16000 resource names are requested by pods");
  }
  CHECK(warned);
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, DefaultSchedulerConfig());
  REQUIRE(d.ok());
  CHECK(d->binds.empty());
  // Names that a node offers are columns of their own: thousands of them over thousands of
  // pods are refused with the numbers, not by running out of memory.
  std::string offered = "apiVersion: v1\nkind: Node\nmetadata: {name: big}\nstatus:\n  allocatable:\n";
  for (int i = 0; i < 16000; ++i) offered += "    example.com/a" + std::to_string(i) + ": \"1\"\n";
  absl::StatusOr<Scenario> refused = LoadScenario({{"dims.yaml", offered + "---\n" + doc}});
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(std::string(refused.status().message()), Catch::Contains("distinct resources over 8000 pods"));
}

}  // namespace
}  // namespace vcsched
