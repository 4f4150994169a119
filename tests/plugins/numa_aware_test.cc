// numa-aware: the kubelet arithmetic Volcano's plugin runs (cpu_mng_test.go's
// Test_GetTopologyHints and Test_Allocate, the policy tests of best-effort, restricted and
// single-numa-node; pkg/scheduler/plugins/numaaware, HEAD ed72c7c81), Go's sort where
// kubelet comparators are not strict orders, and the plugin in sessions.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/model/cpu_topology.h"
#include "src/model/go_sort.h"
#include "tests/testing/builders.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

using internal::CpuSet;
using internal::NumaHint;

TEST_CASE("numa-aware: Go's sort.Slice, comparisons and swaps alike, under a comparator that is no order",
          "[plugins][numa-aware]") {
  // Inputs and Go 1.26's output (sort.Slice with this comparator), recorded.
  const auto less = [](int a, int b) { return (a * 7 + b * 3) % 5 < 2 || (a % 4 < b % 4); };
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> recorded = {
      {{33, 42, 21, 30, 0, 33, 44, 38, 3, 9, 7, 49, 0, 5, 18, 43, 17, 36, 5, 30, 16, 11, 47, 46, 11, 27, 6,
        37, 43, 44, 11, 47, 32, 44, 13, 22, 7, 24, 48, 17, 35, 46, 20, 23, 14, 36, 19, 15, 0, 2, 12, 14, 48,
        29, 15, 44, 28, 46, 4, 13, 19, 11, 9, 40},
       {27, 7, 17, 2, 37, 7, 22, 12, 47, 47, 42, 17, 32, 44, 9, 19, 4, 44, 44, 29, 14, 9, 14, 19, 49, 24,
        44, 6, 36, 46, 21, 46, 46, 16, 36, 0, 48, 28, 48, 0, 20, 43, 40, 33, 33, 13, 13, 5, 0, 5, 38, 43,
        23, 18, 30, 30, 3, 35, 15, 15, 11, 11, 11, 11}},
      {{29, 42, 9, 41, 0, 32, 6, 21, 16, 44, 14, 31, 48, 13, 47, 14, 7, 23, 2, 2, 39, 40, 39, 31, 38, 4, 10,
        29, 49, 25, 3, 32, 10, 7, 44, 16, 9, 21, 49, 39, 6, 19, 48, 45, 11, 35, 22, 26, 7, 26, 47, 7, 7, 29,
        40, 41, 19, 6, 42, 1, 22, 1, 9, 14, 26, 23, 37, 31, 44, 21, 41, 26, 15, 17},
       {32, 32, 9, 4, 49, 14, 19, 39, 19, 29, 14, 44, 9, 9, 29, 49, 44, 29, 44, 1, 21, 41, 1, 41, 21, 41,
        16, 16, 48, 48, 40, 0, 40, 14, 6, 6, 26, 26, 26, 26, 6, 39, 39, 31, 31, 11, 31, 21, 37, 13, 25, 45,
        17, 23, 23, 3, 38, 10, 15, 35, 10, 42, 42, 22, 47, 7, 7, 2, 7, 22, 2, 7, 7, 47}},
  };
  for (const auto& [input, want] : recorded) {
    std::vector<int> v = input;
    internal::GoSortSlice(v, [&](const std::vector<int>& w, int i, int j) {
      return less(w[static_cast<size_t>(i)], w[static_cast<size_t>(j)]);
    });
    CHECK(v == want);
  }
}

// cpu_mng_test.go's machine: two sockets, one NUMA node each, two cores of two threads.
internal::CpuDetails TestMachine() {
  internal::CpuDetails d;
  for (int32_t cpu = 0; cpu < 8; ++cpu) d[cpu] = NumaCpuSpec{cpu / 4, cpu / 4, cpu / 2};
  return d;
}

NumaHint Hint(uint64_t mask, bool preferred) { return NumaHint{mask, preferred}; }

std::vector<std::pair<uint64_t, bool>> Plain(const std::vector<NumaHint>& hints) {
  std::vector<std::pair<uint64_t, bool>> out;
  for (const NumaHint& h : hints) out.emplace_back(h.mask.value_or(~uint64_t{0}), h.preferred);
  return out;
}

TEST_CASE("numa-aware (Volcano's Test_GetTopologyHints): the CPU hints", "[plugins][numa-aware]") {
  const internal::CpuDetails d = TestMachine();
  using Want = std::vector<std::pair<uint64_t, bool>>;
  CHECK(Plain(internal::CpuTopologyHints({0, 1, 2, 3, 4, 5, 6, 7}, d, 4)) == Want{{1, true}, {2, true}, {3, false}});
  CHECK(Plain(internal::CpuTopologyHints({1, 2, 3, 4, 5, 6, 7}, d, 4)) == Want{{2, true}, {3, false}});
  CHECK(Plain(internal::CpuTopologyHints({0, 1, 2, 3, 4, 5, 6, 7}, d, 5)) == Want{{3, true}});
  CHECK(Plain(internal::CpuTopologyHints({0, 1, 2, 3, 4, 5, 6, 7}, d, 8)) == Want{{3, true}});
  CHECK(internal::CpuTopologyHints({0, 1, 2, 3, 4, 5, 6, 7}, d, 9).empty());
  CHECK(Plain(internal::CpuTopologyHints({2, 3, 4, 5}, d, 4)) == Want{{3, false}});
}

TEST_CASE("numa-aware (Volcano's Test_Allocate): the CPUs a container gets", "[plugins][numa-aware]") {
  const internal::CpuTopology topo(TestMachine());
  CHECK(internal::AllocateCpus(topo, {0, 1, 2, 3, 4, 5, 6, 7}, Hint(1, true), 4) == CpuSet{0, 1, 2, 3});
  CHECK(internal::AllocateCpus(topo, {1, 2, 3, 4, 5, 6, 7}, Hint(2, true), 4) == CpuSet{4, 5, 6, 7});
  CHECK(internal::AllocateCpus(topo, {0, 1, 2, 3, 4, 5, 6, 7}, Hint(3, true), 5) == CpuSet{0, 1, 2, 3, 4});
  CHECK(internal::AllocateCpus(topo, {1, 2, 3, 4, 5, 6, 7}, Hint(3, true), 5) == CpuSet{1, 4, 5, 6, 7});
  CHECK(internal::AllocateCpus(topo, {1, 2, 3, 4, 5, 6, 7}, Hint(3, true), 8).empty());
}

TEST_CASE("numa-aware (Volcano's policy tests): the topology manager's merge of hints", "[plugins][numa-aware]") {
  struct Case {
    const char* policy;
    const char* name;
    std::vector<std::optional<std::vector<NumaHint>>> resources;
    NumaHint want;
  };
  using L = std::vector<NumaHint>;
  const std::vector<Case> cases = {
      {"best-effort", "test-1", {L{Hint(3, false), Hint(1, true)}, L{Hint(3, false), Hint(1, true)}}, Hint(1, true)},
      {"best-effort", "test-2", {L{Hint(3, false), Hint(2, true)}, L{Hint(3, false), Hint(2, true)}}, Hint(2, true)},
      {"best-effort", "test-3", {L{Hint(3, false), Hint(1, true), Hint(2, true)},
        L{Hint(3, false), Hint(1, true), Hint(2, true)}}, Hint(1, true)},
      {"best-effort", "test-4", {L{Hint(3, false), Hint(1, true)}, L{Hint(3, false), Hint(2, true)}}, Hint(1, false)},
      {"best-effort", "test-5", {L{Hint(3, false), Hint(1, true)}, L{Hint(3, true)}}, Hint(1, true)},
      {"best-effort", "test-6", {L{Hint(3, true)}, L{Hint(3, true)}}, Hint(3, true)},
      {"restricted", "test-1", {L{Hint(3, false), Hint(1, true)}, L{Hint(3, false), Hint(1, true)}}, Hint(1, true)},
      {"restricted", "test-2", {L{Hint(3, false), Hint(2, true)}, L{Hint(3, false), Hint(2, true)}}, Hint(2, true)},
      {"restricted", "test-3", {L{Hint(3, false), Hint(1, true), Hint(2, true)},
        L{Hint(3, false), Hint(1, true), Hint(2, true)}}, Hint(1, true)},
      {"restricted", "test-4", {L{Hint(3, false), Hint(1, true)}, L{Hint(3, false), Hint(2, true)}}, Hint(1, false)},
      {"restricted", "test-5", {L{Hint(3, false), Hint(1, true)}, L{Hint(3, true)}}, Hint(1, true)},
      {"restricted", "test-6", {L{Hint(3, true)}, L{Hint(3, true)}}, Hint(3, true)},
      {"single-numa-node", "test-1", {L{Hint(3, false), Hint(1, true)},
        L{Hint(3, false), Hint(1, true)}}, Hint(1, true)},
      {"single-numa-node", "test-2", {L{Hint(3, false), Hint(2, true)},
        L{Hint(3, false), Hint(2, true)}}, Hint(2, true)},
      {"single-numa-node", "test-3", {L{Hint(3, false), Hint(1, true), Hint(2, true)},
        L{Hint(3, false), Hint(1, true), Hint(2, true)}}, Hint(1, true)},
      {"single-numa-node", "test-4", {L{Hint(3, false), Hint(1, true)},
        L{Hint(3, false), Hint(2, true)}}, Hint(3, false)},
      {"single-numa-node", "test-5", {L{Hint(3, false), Hint(1, true)}, L{Hint(3, true)}}, Hint(3, false)},
  };
  for (const Case& c : cases) {
    INFO(c.policy << " " << c.name);
    const internal::PolicyVerdict v = internal::ApplyTopologyPolicy(c.policy, {0, 1}, c.resources);
    CHECK(v.best.mask == c.want.mask);
    CHECK(v.best.preferred == c.want.preferred);
    CHECK(v.admit == (std::string(c.policy) == "best-effort" || c.want.preferred));
  }
  // policy_none_test.go: no hint, admitted.
  const internal::PolicyVerdict none = internal::ApplyTopologyPolicy("none", {0, 1}, {});
  CHECK_FALSE(none.best.mask.has_value());
  CHECK(none.admit);
}

TEST_CASE("numa-aware: CPU lists read as Go's cpuset reads them", "[plugins][numa-aware]") {
  CHECK(*internal::ParseCpuList("0-3,8,10-11") == CpuSet{0, 1, 2, 3, 8, 10, 11});
  CHECK(internal::ParseCpuList("")->empty());
  CHECK(internal::FormatCpuList({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
  CHECK_FALSE(internal::ParseCpuList("3-1").ok());
  CHECK_FALSE(internal::ParseCpuList("0, 1").ok());  // Go's Atoi takes no spaces
  CHECK_FALSE(internal::ParseCpuList("-1").ok());
  CHECK_FALSE(internal::ParseCpuList("0-4000000000").ok());
}

// Sessions: nodes of the test machine (8 CPUs, two NUMA nodes) with Numatopologies.
std::string Topology(const std::string& node, const std::string& cpu_policy, const std::string& topo_policy,
                     const std::string& free) {
  std::string cpus;
  for (int cpu = 0; cpu < 8; ++cpu) {
    absl::StrAppend(&cpus, "    '", cpu, "': {numa: ", cpu / 4, ", socket: ", cpu / 4, ", core: ", cpu / 2, "}\n");
  }
  return absl::StrCat("---\napiVersion: nodeinfo.volcano.sh/v1alpha1\nkind: Numatopology\nmetadata: {name: ", node,
                      "}\nspec:\n  policies: {CPUManagerPolicy: ", cpu_policy, ", TopologyManagerPolicy: ", topo_policy,
                      "}\n  numares:\n    cpu: {allocatable: '", free, "', capacity: 8}\n  cpuDetail:\n", cpus);
}

std::string Node(const std::string& name) {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name,
                      "}\nstatus: {allocatable: {cpu: '8', memory: 16Gi, pods: '10'}}\n");
}

std::string Pod(const std::string& name, const std::string& cpu, const std::string& policy, bool guaranteed = true) {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: c1, annotations: {scheduling.k8s.io/group-name: pg1",
                      policy.empty() ? "" : absl::StrCat(", volcano.sh/numa-topology-policy: ", policy),
                      "}}\nspec: {schedulerName: volcano, containers: [{name: c, resources: {requests: {cpu: '", cpu,
                      "', memory: 1Gi}, limits: {cpu: '", cpu, "', memory: ", guaranteed ? "1Gi" : "2Gi",
                      "}}}]}\nstatus: {phase: Pending}\n");
}

constexpr const char* kConfig =
    "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n- plugins:\n"
    "  - name: gang\n  - name: predicates\n  - name: numa-aware\n    arguments: {weight: 1}\n"
    "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg1, namespace: c1}\n"
    "spec: {minMember: 1}\nstatus: {phase: Inqueue}\n";

std::string Why(const testing::OpenedSession& o, const std::string& pod, const std::string& node) {
  const FitResult r = o.ssn->Predicate(*o.sc.snapshot.FindTask("c1/" + pod), *o.sc.snapshot.FindNode(node));
  return r.ok() ? "" : o.ssn->ReasonText(r.reasons.front());
}

TEST_CASE("numa-aware: which nodes a Guaranteed pod with a topology policy may use", "[plugins][numa-aware]") {
  const std::string nodes =
      Node("bare") + Node("dynamic") + Topology("dynamic", "none", "restricted", "0-7") + Node("other") +
      Topology("other", "static", "best-effort", "0-7") + Node("full") + Topology("full", "static", "single-numa-node", "") +
      Node("split") + Topology("split", "static", "single-numa-node", "2-5") + Node("ok") +
      Topology("ok", "static", "single-numa-node", "0-7");
  auto o = testing::OpenInline(std::string(kConfig) + nodes + Pod("p", "3", "single-numa-node") +
                               Pod("burst", "3", "single-numa-node", false) + Pod("plain", "3", ""));
  CHECK(Why(*o, "p", "bare") == "numa info is empty");
  CHECK(Why(*o, "p", "dynamic") == "cpu manager policy isn't static");
  CHECK(Why(*o, "p", "other") == "task topology policy[single-numa-node] is different with node[best-effort]");
  CHECK(Why(*o, "p", "full") == "cpu allocatable map is empty");
  CHECK(Why(*o, "p", "split") == "container c cannot be assigned by numa");  // 2 free CPUs per NUMA node
  CHECK(Why(*o, "p", "ok").empty());
  for (const char* node : {"bare", "dynamic", "other", "split", "ok"}) {
    CHECK(Why(*o, "burst", node).empty());  // not Guaranteed: not checked
  }
  CHECK(Why(*o, "plain", "bare").empty());                                   // no policy, no topology
  CHECK(Why(*o, "plain", "split") == "container c cannot be assigned by numa");  // the node's policy still applies
}

TEST_CASE("numa-aware: fewer NUMA nodes score higher, and a placement takes its CPUs", "[plugins][numa-aware]") {
  // "a" has 3 free CPUs on each NUMA node: 4 CPUs span both. "b" has a whole NUMA node free.
  const Scenario sc = testing::LoadInline(std::string(kConfig) + Node("a") +
                                          Topology("a", "static", "best-effort", "1-3,5-7") + Node("b") +
                                          Topology("b", "static", "best-effort", "0-5") + Pod("p1", "4", "best-effort") +
                                          Pod("p2", "4", "best-effort"));
  RunOptions opts;
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
  REQUIRE(d.ok());
  // p1 gets b's NUMA node 0 (one NUMA node: 50 against a's 0). Then b has two free CPUs:
  // the CPU manager's assignment for p2 there comes back empty, which spans no NUMA node
  // and scores best (Volcano's arithmetic; the kubelet would refuse the pod later).
  const std::vector<std::string> binds = testing::BindStrings(*d);
  REQUIRE(binds.size() == 2);
  CHECK(binds[0] == "c1/p1->b");
  CHECK(binds[1] == "c1/p2->b");
}

TEST_CASE("numa-aware: CPUs given in one session stay taken until the Numatopology reports the pod",
          "[plugins][numa-aware]") {
  // A node of 16 cpu by its status, whose Numatopology frees 0-7 (two NUMA nodes of 4).
  const std::string node =
      "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '16', memory: 16Gi, pods: '10'}}\n";
  const auto topology = [](const std::string& reported) {
    std::string t = Topology("n1", "static", "single-numa-node", "0-7");
    return reported.empty() ? t : t + "  podAllocations:\n  - {" + reported + "}\n";
  };
  const auto session = [](const std::string& yaml, SchedulerMemory* memory) {
    const Scenario sc = testing::LoadInline(yaml);
    RunOptions opts;
    opts.memory = memory;
    absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
    REQUIRE(d.ok());
    return testing::BindStrings(*d);
  };
  SchedulerMemory memory;
  REQUIRE(session(std::string(kConfig) + node + topology("") + Pod("p1", "4", "single-numa-node"), &memory) ==
          std::vector<std::string>{"c1/p1->n1"});
  REQUIRE(memory.numa_claims.count("n1") == 1);
  const NumaClaim& claim = memory.numa_claims.at("n1").at(0);
  CHECK(claim.name == "p1");
  CHECK(claim.sets.at("cpu") == std::vector<int32_t>{0, 1, 2, 3});
  // The next session: p1 runs on n1, the exporter has not caught up (still 0-7 free).
  std::string running = Pod("p1", "4", "single-numa-node");
  running.replace(running.find("phase: Pending"), 14, "phase: Running");
  running.replace(running.find("schedulerName: volcano"), 22, "schedulerName: volcano, nodeName: n1");
  const std::string next = std::string(kConfig) + node + running + Pod("p2", "4", "single-numa-node") +
                           Pod("p3", "4", "single-numa-node");
  SECTION("unreported: p1's CPUs stay taken, so only one NUMA node is left") {
    SchedulerMemory carried = memory;
    CHECK(session(next + topology(""), &carried).size() == 1);
    CHECK(carried.numa_claims.at("n1").size() == 2);  // p1's, and the new pod's
    SchedulerMemory none;
    CHECK(session(next + topology(""), &none).size() == 2);  // a fresh scheduler sees 0-7
  }
  SECTION("reported (by uid, or by namespace and name): forgotten") {
    for (const std::string reported : {"uid: c1-p1", "name: p1, namespace: c1"}) {
      SchedulerMemory carried = memory;
      CHECK(session(next + topology(reported), &carried).size() == 2);
    }
  }
}

TEST_CASE("numa-aware: a Numatopology's problems name the object and the field", "[plugins][numa-aware][bad-input]") {
  const auto load = [](const std::string& spec) {
    return LoadScenario({{"numa.yaml", absl::StrCat("apiVersion: nodeinfo.volcano.sh/v1alpha1\nkind: Numatopology\n"
                                                    "metadata: {name: n1}\nspec:\n", spec)}});
  };
  absl::StatusOr<Scenario> bad_list = load("  numares: {cpu: {allocatable: '0-3,x'}}\n");
  REQUIRE_FALSE(bad_list.ok());
  CHECK_THAT(std::string(bad_list.status().message()),
             Catch::Contains("Numatopology \"n1\": spec.numares[cpu].allocatable: \"x\" is not a CPU id or range"));
  absl::StatusOr<Scenario> bad_numa = load("  cpuDetail: {'0': {numa: 64, socket: 0, core: 0}}\n");
  REQUIRE_FALSE(bad_numa.ok());
  CHECK_THAT(std::string(bad_numa.status().message()), Catch::Contains("spec.cpuDetail[0].numa: must be 0 to 63"));
  absl::StatusOr<Scenario> bad_key = load("  cpuDetail: {x: {numa: 0}}\n");
  REQUIRE_FALSE(bad_key.ok());
  CHECK_THAT(std::string(bad_key.status().message()), Catch::Contains("spec.cpuDetail[x]"));
  absl::StatusOr<Scenario> bad_reserved = load("  resReserved: {cpu: lots}\n");
  REQUIRE_FALSE(bad_reserved.ok());
  CHECK_THAT(std::string(bad_reserved.status().message()), Catch::Contains("spec.resReserved[cpu]"));
}

}  // namespace
}  // namespace vcsched
