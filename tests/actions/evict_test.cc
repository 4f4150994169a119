#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "src/internal/victims.h"
#include "tests/testing/builders.h"

namespace vcsched {
namespace {

std::string Pod(const std::string& ns, const std::string& name, const std::string& group, const std::string& cpu,
                const std::string& node, int priority = 0) {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name, ", namespace: ", ns,
                      ", annotations: {scheduling.k8s.io/group-name: ", group, "}}\nspec:\n  schedulerName: volcano\n",
                      node.empty() ? "" : absl::StrCat("  nodeName: ", node, "\n"),
                      priority ? absl::StrCat("  priority: ", priority, "\n") : "",
                      "  containers: [{name: c, resources: {requests: {cpu: \"", cpu, "\"}}}]\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

std::string Group(const std::string& ns, const std::string& name, int min, const std::string& queue,
                  const std::string& pc, const std::string& phase) {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
                      ", namespace: ", ns, "}\nspec: {minMember: ", min, ", queue: ", queue,
                      pc.empty() ? "" : absl::StrCat(", priorityClassName: ", pc), "}\nstatus: {phase: ", phase, "}\n");
}

std::string Node(const std::string& name, const std::string& cpu) {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name, "}\nstatus: {allocatable: {cpu: \"",
                      cpu, "\", pods: \"10\"}}\n");
}

std::string Queue(const std::string& name, bool reclaimable = true) {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: ", name,
                      "}\nspec: {weight: 1, reclaimable: ", reclaimable ? "true" : "false", "}\n");
}

constexpr const char* kClasses = R"(---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 100
)";

std::string Config(const std::string& actions) {
  return absl::StrCat("---\napiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"", actions,
                      "\"\ntiers:\n- plugins: [{name: priority}, {name: gang}, {name: conformance}]\n"
                      "- plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]\n");
}

std::vector<std::string> Evicted(const Decisions& d) {
  std::vector<std::string> out;
  for (const Eviction& e : d.evictions) out.emplace_back(e.task);
  return out;
}

Decisions Run(const std::string& yaml) {
  const Scenario sc = testing::LoadInline(yaml);
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config);
  if (!d.ok()) FAIL(d.status().message());
  return *d;
}

// A full node: a low-priority gang of 4 (min 2) runs; a high-priority gang of 2 waits.
std::string FullNode(const std::string& actions, bool same_queue) {
  std::string y = absl::StrCat(kClasses, Node("n1", "4"), Queue("qa"), Queue("qb"),
                               Group("ns", "low", 2, "qa", "low", "Running"),
                               Group("ns", "high", 2, same_queue ? "qa" : "qb", "high", "Inqueue"));
  for (int i = 0; i < 4; ++i) y += Pod("ns", absl::StrCat("low-w-", i), "low", "1", "n1");
  for (int i = 0; i < 2; ++i) y += Pod("ns", absl::StrCat("high-w-", i), "high", "1", "");
  return y + Config(actions);
}

TEST_CASE("GangPreempt: evicts only the victim gang's surplus", "[actions][gangpreempt]") {
  const Decisions d = Run(FullNode("gangpreempt", true));
  CHECK(Evicted(d) == std::vector<std::string>{"ns/low-w-0", "ns/low-w-1"});
  CHECK(d.binds.empty());
  CHECK(d.pipelined.size() == 2);
  // Room made by evictions: the nodes become the pods' nominated nodes.
  for (const Pipelined& p : d.pipelined) CHECK(p.eviction_occurred);
}

TEST_CASE("Allocate pipelining onto releasing room nominates no node", "[actions][allocate]") {
  std::string y = absl::StrCat(kClasses, Node("n1", "2"), Queue("qa"), Group("ns", "old", 1, "qa", "low", "Running"),
                               Group("ns", "new", 1, "qa", "high", "Inqueue"));
  std::string leaving = Pod("ns", "old-0", "old", "2", "n1");
  leaving.replace(leaving.find("metadata: {"), 11, "metadata: {deletionTimestamp: '2026-01-01T00:00:00Z', ");
  y += leaving + Pod("ns", "new-0", "new", "2", "");
  const Decisions d = Run(y + Config("allocate"));
  REQUIRE(d.pipelined.size() == 1);
  CHECK_FALSE(d.pipelined[0].eviction_occurred);
}

TEST_CASE("GangReclaim: takes the surplus of another queue's gang", "[actions][gangreclaim]") {
  const Decisions d = Run(FullNode("gangreclaim", false));
  CHECK(Evicted(d) == std::vector<std::string>{"ns/low-w-0", "ns/low-w-1"});
  CHECK(d.pipelined.size() == 2);
}

TEST_CASE("GangReclaim: a queue that is not reclaimable keeps its pods", "[actions][gangreclaim]") {
  std::string y = FullNode("gangreclaim", false);
  const std::string from = "metadata: {name: qa}\nspec: {weight: 1, reclaimable: true}";
  y.replace(y.find(from), from.size(), "metadata: {name: qa}\nspec: {weight: 1, reclaimable: false}");
  CHECK(Run(y).evictions.empty());
}

TEST_CASE("GangPreempt: allowWholeBundle false keeps victim gangs whole", "[actions][gangpreempt]") {
  // The victim has no surplus (min 4 of 4), so only a whole bundle could help.
  std::string y = absl::StrCat(kClasses, Node("n1", "4"), Queue("qa"), Group("ns", "low", 4, "qa", "low", "Running"),
                               Group("ns", "high", 2, "qa", "high", "Inqueue"));
  for (int i = 0; i < 4; ++i) y += Pod("ns", absl::StrCat("low-w-", i), "low", "1", "n1");
  for (int i = 0; i < 2; ++i) y += Pod("ns", absl::StrCat("high-w-", i), "high", "1", "");
  SECTION("whole bundles allowed") { CHECK(Run(y + Config("gangpreempt")).evictions.size() == 4); }
  SECTION("whole bundles refused") {
    CHECK(Run(y + Config("gangpreempt") + "configurations:\n- name: gangpreempt\n  arguments: {allowWholeBundle: false}\n")
              .evictions.empty());
  }
}

TEST_CASE("Preempt: tries the next node when evictions on the first do not make room", "[actions][preempt]") {
  // n1 holds a pod the preemptor may not evict (same priority), so evicting the small
  // victim there is rolled back; n2 works.
  std::string y = absl::StrCat(kClasses, Node("n1", "2"), Node("n2", "2"), Queue("qa"),
                               Group("ns", "low", 1, "qa", "low", "Running"), Group("ns", "peer", 1, "qa", "high", "Running"),
                               Group("ns", "high", 1, "qa", "high", "Inqueue"));
  y += Pod("ns", "peer-w-0", "peer", "1", "n1");
  y += Pod("ns", "low-w-0", "low", "1", "n1");
  y += Pod("ns", "low-w-1", "low", "2", "n2");
  y += Pod("ns", "high-w-0", "high", "2", "");
  const Decisions d = Run(y + Config("preempt"));
  CHECK(Evicted(d) == std::vector<std::string>{"ns/low-w-1"});
  REQUIRE(d.pipelined.size() == 1);
  CHECK(d.pipelined[0].node == "n2");
}

TEST_CASE("Preempt: victims of one job go lowest task priority first", "[actions][preempt][victims]") {
  std::string y = absl::StrCat(kClasses, Node("n1", "4"), Queue("qa"), Group("ns", "low", 0, "qa", "low", "Running"),
                               Group("ns", "high", 1, "qa", "high", "Inqueue"));
  y += Pod("ns", "low-w-0", "low", "1", "n1", 5);
  y += Pod("ns", "low-w-1", "low", "1", "n1", 1);
  y += Pod("ns", "low-w-2", "low", "1", "n1", 3);
  y += Pod("ns", "high-w-0", "high", "2", "");  // one cpu is idle: one eviction suffices
  const Scenario sc = testing::LoadInline(y + Config("preempt"));
  Session ssn(sc.snapshot, *sc.config, 0, "s");
  std::vector<std::unique_ptr<Plugin>> plugins;
  testing::OpenPluginsForTesting(ssn, *sc.config, plugins);
  const TaskIndex p = *sc.snapshot.FindTask("ns/high-w-0");
  std::vector<TaskIndex> v = {*sc.snapshot.FindTask("ns/low-w-0"), *sc.snapshot.FindTask("ns/low-w-1"),
                              *sc.snapshot.FindTask("ns/low-w-2")};
  v = internal::InVictimOrder(ssn, p, v);
  std::vector<std::string> names;
  for (TaskIndex t : v) names.push_back(sc.snapshot.tasks()[t].key);
  CHECK(names == std::vector<std::string>{"ns/low-w-1", "ns/low-w-2", "ns/low-w-0"});
  // The full action evicts exactly one, the lowest priority task, to fit the preemptor.
  CHECK(Evicted(Run(y + Config("preempt"))) == std::vector<std::string>{"ns/low-w-1"});
}

TEST_CASE("Capacity: a parent queue's capability bounds its children together", "[plugins][capacity]") {
  std::string y = absl::StrCat(Node("n1", "16"), R"(---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: eng}
spec: {capability: {cpu: "4"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: eng-ml}
spec: {parent: eng, deserved: {cpu: "2"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: eng-infra}
spec: {parent: eng, deserved: {cpu: "2"}}
)");
  for (const char* q : {"eng-ml", "eng-infra"}) {
    for (int i = 0; i < 3; ++i) {
      const std::string g = absl::StrCat(q, "-", i);
      y += Group("ns", g, 1, q, "", "Inqueue");
      y += Pod("ns", g + "-p", g, "1", "");
    }
  }
  y += R"(---
apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "allocate"
tiers:
- plugins: [{name: gang}, {name: predicates}, {name: capacity, enableHierarchy: true}]
)";
  const Decisions d = Run(y);
  CHECK(d.binds.size() == 4);  // 6 pods of 1 cpu, but eng may use 4
  int ml = 0;
  for (const Bind& b : d.binds) ml += b.task.find("eng-ml") != std::string::npos;
  CHECK(ml == 2);  // leaf shares order the queues: each child gets its deserved 2
}

TEST_CASE("Capacity: jobs in a parent queue make the hierarchy unusable", "[plugins][capacity]") {
  std::string y = absl::StrCat(Node("n1", "16"), R"(---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: eng}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: eng-ml}
spec: {parent: eng}
)");
  y += Group("ns", "g", 1, "eng", "", "Inqueue") + Pod("ns", "g-p", "g", "1", "");
  y += Group("ns", "h", 1, "eng-ml", "", "Inqueue") + Pod("ns", "h-p", "h", "1", "");
  y += R"(---
apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "allocate"
tiers:
- plugins: [{name: gang}, {name: capacity, enableHierarchy: true}]
)";
  CHECK(Run(y).binds.empty());
}

}  // namespace
}  // namespace vcsched
