// gangpreempt / gangreclaim with network topology: victims come from one domain at a
// time, the gang is planned inside it, and allocate redeems a nominated HyperNode
// (Volcano HEAD's actions/utils/simulate.go and allocateFromNomination).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vcsched/action.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

std::string Node(const std::string& name) {
  return absl::StrCat("apiVersion: v1\nkind: Node\nmetadata: {name: ", name,
                      "}\nstatus: {allocatable: {cpu: '2', memory: 8Gi, pods: '10'}}\n---\n");
}
std::string Exact(const std::string& type, const std::string& name) {
  return absl::StrCat("{type: ", type, ", selector: {exactMatch: {name: ", name, "}}}");
}
std::string HyperNode(const std::string& name, int tier, const std::string& a, const std::string& b,
                      const std::string& type) {
  return absl::StrCat("apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata: {name: ", name,
                      "}\nspec:\n  tier: ", tier, "\n  members: [", Exact(type, a), ", ", Exact(type, b), "]\n---\n");
}

// Racks r0 (n0, n1) and r1 (n2, n3) of 2-cpu nodes under one spine.
std::string Topology() {
  std::string out;
  for (const char* n : {"n0", "n1", "n2", "n3"}) out += Node(n);
  out += HyperNode("r0", 1, "n0", "n1", "Node") + HyperNode("r1", 1, "n2", "n3", "Node");
  out += HyperNode("spine", 2, "r0", "r1", "HyperNode");
  return out;
}

std::string Group(const std::string& name, int min, const std::string& priority_class, const std::string& phase,
                  const std::string& topology = "") {
  return absl::StrCat("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
                      ", namespace: ns}\nspec:\n  minMember: ", min, "\n  queue: default\n  priorityClassName: ",
                      priority_class, topology.empty() ? "" : absl::StrCat("\n  networkTopology: ", topology),
                      "\nstatus: {phase: ", phase, "}\n---\n");
}

std::string Pod(const std::string& group, int i, const std::string& node, const std::string& nominated = "") {
  const bool placed = !node.empty();
  return absl::StrCat("apiVersion: v1\nkind: Pod\nmetadata: {name: ", group, "-", i,
                      ", namespace: ns, annotations: {scheduling.k8s.io/group-name: ", group,
                      "}}\nspec:\n  schedulerName: volcano\n", placed ? absl::StrCat("  nodeName: ", node, "\n") : "",
                      "  containers: [{resources: {requests: {cpu: '1'}}}]\nstatus: {phase: ",
                      placed ? "Running" : "Pending",
                      nominated.empty() ? "" : absl::StrCat(", nominatedNodeName: ", nominated), "}\n---\n");
}

constexpr char kClasses[] = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 100
---
)";

std::string Config(const std::string& actions, const std::string& topology_args = "{}") {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"", actions,
                      "\"\ntiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: predicates\n"
                      "  - name: network-topology-aware\n    arguments: ",
                      topology_args, "\n");
}

// A low-priority job (min 1) fills the cluster with eight 1-cpu pods, interleaved over
// the racks so that its pods in name order alternate between them.
std::string FullCluster() {
  const char* nodes[] = {"n0", "n2", "n1", "n3"};
  std::string out = absl::StrCat(kClasses, Topology(), Group("low", 1, "low", "Running"));
  for (int i = 0; i < 8; ++i) out += Pod("low", i, nodes[i % 4]);
  return out;
}

std::string HighGang(int pods, const std::string& topology, int running = 0) {
  std::string out = Group("high", pods - running > 0 && running > 0 ? running : pods, "high",
                          running > 0 ? "Running" : "Inqueue", topology);
  for (int i = 0; i < pods; ++i) out += Pod("high", i, "");
  return out;
}

Decisions Run(const std::string& text, const RunOptions& options = {}) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"test.yaml", text}});
  INFO((sc.ok() ? std::string() : std::string(sc.status().message())));
  REQUIRE(sc.ok());
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, *sc->config, options);
  INFO((d.ok() ? std::string() : std::string(d.status().message())));
  REQUIRE(d.ok());
  return *std::move(d);
}

// The nodes of the evicted pods of job low: pod i runs on {n0, n2, n1, n3}[i % 4].
std::set<std::string> EvictedNodes(const Decisions& d) {
  const char* nodes[] = {"n0", "n2", "n1", "n3"};
  std::set<std::string> out;
  for (const Eviction& e : d.evictions) {
    const std::string name(e.task);
    out.insert(nodes[std::stoi(name.substr(name.rfind('-') + 1)) % 4]);
  }
  return out;
}
std::set<std::string> PipelinedNodes(const Decisions& d) {
  std::set<std::string> out;
  for (const Pipelined& p : d.pipelined) out.insert(std::string(p.node));
  return out;
}

const char kTier1[] = "{mode: hard, highestTierAllowed: 1}";

TEST_CASE("GangPreempt with a hard tier-1 limit evicts and places inside one rack", "[topology][gangpreempt]") {
  const Decisions d = Run(FullCluster() + HighGang(4, kTier1) + Config("gangpreempt"));
  // The eviction domains are the racks, widest tier first and by name: r0 is planned first.
  CHECK(d.evictions.size() == 4);
  CHECK(EvictedNodes(d) == std::set<std::string>{"n0", "n1"});
  CHECK(d.pipelined.size() == 4);
  CHECK(PipelinedNodes(d) == std::set<std::string>{"n0", "n1"});
  for (const Eviction& e : d.evictions) CHECK(std::string(e.action) == "gangpreempt");
}

TEST_CASE("GangPreempt: hypernode.gradient.evict.max-hypernodes keeps the last domains of a tier",
          "[topology][gangpreempt]") {
  const Decisions d =
      Run(FullCluster() + HighGang(4, kTier1) + Config("gangpreempt", "{hypernode.gradient.evict.max-hypernodes: 1}"));
  CHECK(EvictedNodes(d) == std::set<std::string>{"n2", "n3"});
  CHECK(PipelinedNodes(d) == std::set<std::string>{"n2", "n3"});
}

TEST_CASE("GangPreempt: a tier-2 limit tries the spine first and takes a whole safe bundle",
          "[topology][gangpreempt]") {
  // Six pods need three nodes: only the spine holds them. Volcano adds whole bundles,
  // so the victim job's safe bundle (7 of its 8 pods: it must keep 1) goes at once.
  const Decisions d = Run(FullCluster() + HighGang(6, "{mode: hard, highestTierAllowed: 2}") + Config("gangpreempt"));
  CHECK(d.evictions.size() == 7);
  CHECK(d.pipelined.size() == 6);
}

TEST_CASE("GangPreempt: a gang no rack can hold evicts nothing", "[topology][gangpreempt]") {
  const Decisions d = Run(FullCluster() + HighGang(6, kTier1) + Config("gangpreempt"));
  CHECK(d.evictions.empty());
  CHECK(d.pipelined.empty());
}

TEST_CASE("GangReclaim with a hard limit takes victims from one rack", "[topology][gangreclaim]") {
  std::string text = FullCluster() + HighGang(4, kTier1) + Config("gangreclaim");
  // The gang moves to its own queue; the victims' queue is reclaimable by default.
  const std::string from = "name: high, namespace: ns}\nspec:\n  minMember: 4\n  queue: default";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), "name: high, namespace: ns}\nspec:\n  minMember: 4\n  queue: q2");
  text += "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q2}\nspec: {weight: 1}\n";
  text += "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: default}\nspec: {weight: 1}\n";
  const Decisions d = Run(text);
  CHECK(d.evictions.size() == 4);
  CHECK(EvictedNodes(d).size() == 2);
  CHECK((EvictedNodes(d) == std::set<std::string>{"n0", "n1"} || EvictedNodes(d) == std::set<std::string>{"n2", "n3"}));
  CHECK(PipelinedNodes(d) == EvictedNodes(d));
}

TEST_CASE("GangPreempt keeps a victim's minSubGroups: one sub-group is safe to break", "[topology][gangpreempt]") {
  // Job low runs four sub-groups of two pods (part a..d) and needs three of them ready:
  // only one sub-group may be broken, so only its two pods are a safe bundle.
  std::string text = absl::StrCat(kClasses, Topology(),
                                  "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: low, "
                                  "namespace: ns}\nspec:\n  minMember: 1\n  queue: default\n  priorityClassName: low\n"
                                  "  subGroupPolicy:\n  - {name: part, matchLabelKeys: [part], subGroupSize: 2, "
                                  "minSubGroups: 3}\nstatus: {phase: Running}\n---\n");
  for (int i = 0; i < 8; ++i) {
    std::string pod = Pod("low", i, absl::StrCat("n", i / 2));
    const std::string at = "namespace: ns, annotations:";
    pod.replace(pod.find(at), at.size(), absl::StrCat("namespace: ns, labels: {part: ", std::string(1, "abcd"[i / 2]),
                                                      "}, annotations:"));
    text += pod;
  }
  const Decisions d = Run(text + HighGang(2, "") + Config("gangpreempt"));
  std::set<std::string> evicted;
  for (const Eviction& e : d.evictions) evicted.insert(std::string(e.task));
  CHECK(evicted == std::set<std::string>{"ns/low-0", "ns/low-1"});
  CHECK(PipelinedNodes(d) == std::set<std::string>{"n0"});
}

TEST_CASE("Preempt leaves jobs with network topology to the gang evictions", "[topology][preempt]") {
  // Volcano's preempt skips them (volcano-sh/volcano#4374); the same gang without a limit preempts.
  CHECK(Run(FullCluster() + HighGang(4, kTier1) + Config("preempt")).evictions.empty());
  CHECK_FALSE(Run(FullCluster() + HighGang(4, "") + Config("preempt")).evictions.empty());
}

// An action that nominates a HyperNode for the default sub-group of job ns/high, as
// gangpreempt does when its statement commits.
class NominateAction : public Action {
 public:
  explicit NominateAction(std::string hyper_node) : hyper_node_(std::move(hyper_node)) {}
  absl::Status Execute(Session& ssn) override {
    const Snapshot& snap = ssn.snapshot();
    ssn.SetSubJobNominatedHyperNode(*snap.FindJob("ns/high"), 0, *snap.FindHyperNode(hyper_node_));
    return absl::OkStatus();
  }

 private:
  std::string hyper_node_;
};

std::map<std::string, std::string> BindMap(const Decisions& d) {
  std::map<std::string, std::string> out;
  for (const Bind& b : d.binds) out[std::string(b.task)] = std::string(b.node);
  return out;
}

TEST_CASE("Allocate redeems a nominated HyperNode on the pods' nominated nodes", "[topology][allocate]") {
  Registry registry = Registry::BuiltIn();
  REQUIRE(registry.RegisterAction("nominate", [](const Arguments&) -> absl::StatusOr<std::unique_ptr<Action>> {
    return std::unique_ptr<Action>(new NominateAction("r1"));
  }).ok());
  RunOptions options;
  options.registry = &registry;
  const std::string base = absl::StrCat(kClasses, Topology(), Group("high", 2, "high", "Inqueue", kTier1));
  SECTION("every pod nominated inside the HyperNode") {
    const std::string text = base + Pod("high", 0, "", "n3") + Pod("high", 1, "", "n2");
    // Without the nomination the search takes the first rack by name.
    CHECK(BindMap(Run(text + Config("allocate"), options)) ==
          std::map<std::string, std::string>{{"ns/high-0", "n0"}, {"ns/high-1", "n0"}});
    CHECK(BindMap(Run(text + Config("nominate, allocate"), options)) ==
          std::map<std::string, std::string>{{"ns/high-0", "n3"}, {"ns/high-1", "n2"}});
  }
  SECTION("a pod nominated outside it: the nomination is dropped") {
    const std::string text = base + Pod("high", 0, "", "n3") + Pod("high", 1, "", "n0");
    const std::map<std::string, std::string> binds = BindMap(Run(text + Config("nominate, allocate"), options));
    REQUIRE(binds.size() == 2);
    CHECK(binds != std::map<std::string, std::string>{{"ns/high-0", "n3"}, {"ns/high-1", "n0"}});
  }
}

}  // namespace
}  // namespace vcsched
