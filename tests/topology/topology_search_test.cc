// Allocate's HyperNode search takes shortcuts that must never change a decision: a job
// whose queue refuses every pending task is tried once instead of in every HyperNode,
// and a try that the search keeps is left applied instead of undone and made again.
// Explaining turns the first shortcut off, so a session explained and one not must
// decide the same, reasons for unplaced pods included; and the node-choice cache, which
// ranks nodes within HyperNode groups, must choose as scoring every node does.
#include <catch2/catch.hpp>

#include <string>

#include "absl/strings/str_cat.h"
#include "vcsched/explain.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

std::string Node(int i, int cpu) {
  return absl::StrCat("apiVersion: v1\nkind: Node\nmetadata: {name: n", i, "}\nstatus: {allocatable: {cpu: '", cpu,
                      "', memory: 64Gi, pods: '50'}}\n---\n");
}

// Racks of `per_rack` nodes (tier 1) under spines of two racks (tier 2). Interleaved,
// rack r holds nodes r, r + racks, ...: no rack's nodes are neighbours by name.
std::string Topology(int racks, int per_rack, int cpu, bool interleaved = false) {
  std::string out;
  for (int i = 0; i < racks * per_rack; ++i) out += Node(i, cpu);
  for (int r = 0; r < racks; ++r) {
    std::string members;
    for (int k = 0; k < per_rack; ++k) {
      absl::StrAppend(&members, k == 0 ? "" : ", ", "{type: Node, selector: {exactMatch: {name: n",
                      interleaved ? r + k * racks : r * per_rack + k, "}}}");
    }
    absl::StrAppend(&out, "apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata: {name: rack", r,
                    "}\nspec: {tier: 1, members: [", members, "]}\n---\n");
  }
  for (int s = 0; s * 2 < racks; ++s) {
    std::string members = absl::StrCat("{type: HyperNode, selector: {exactMatch: {name: rack", 2 * s, "}}}");
    if (2 * s + 1 < racks) absl::StrAppend(&members, ", {type: HyperNode, selector: {exactMatch: {name: rack", 2 * s + 1, "}}}");
    absl::StrAppend(&out, "apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata: {name: spine", s,
                    "}\nspec: {tier: 2, members: [", members, "]}\n---\n");
  }
  return out;
}

std::string Queue(const std::string& name, int weight, int capability_cpu) {
  return absl::StrCat("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: ", name,
                      "}\nspec: {weight: ", weight, ", capability: {cpu: '", capability_cpu, "'}}\nstatus: {state: Open}\n---\n");
}

// A gang of `pods` pods of `cpu` cpus each, with a hard limit at `tier` (0: none).
std::string Job(const std::string& name, const std::string& queue, int pods, int cpu, int tier) {
  std::string out = absl::StrCat(
      "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
      ", namespace: ns}\nspec:\n  minMember: ", pods, "\n  queue: ", queue,
      tier > 0 ? absl::StrCat("\n  networkTopology: {mode: hard, highestTierAllowed: ", tier, "}") : "",
      "\nstatus: {phase: Inqueue}\n---\n");
  for (int i = 0; i < pods; ++i) {
    absl::StrAppend(&out, "apiVersion: v1\nkind: Pod\nmetadata: {name: ", name, "-", i,
                    ", namespace: ns, annotations: {scheduling.k8s.io/group-name: ", name,
                    "}}\nspec:\n  schedulerName: volcano\n  containers: [{resources: {requests: {cpu: '", cpu,
                    "'}}}]\nstatus: {phase: Pending}\n---\n");
  }
  return out;
}

constexpr char kConfig[] =
    "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate, backfill\"\ntiers:\n"
    "- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
    "- plugins:\n  - name: drf\n  - name: predicates\n  - name: capacity\n  - name: nodeorder\n"
    "  - name: network-topology-aware\n---\n";

Decisions Run(const std::string& text) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"case.yaml", text}});
  CAPTURE(sc.status().ToString());
  REQUIRE(sc.ok());
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, *sc->config);
  REQUIRE(d.ok());
  return *std::move(d);
}

TEST_CASE("Topology search: a job its queue refuses is placed nowhere and says why", "[topology]") {
  // Queue q may use 4 cpus: job a (tier 1, 4 x 1 cpu) takes them, job b (tier 1) is
  // refused by the queue in every rack.
  const std::string text = absl::StrCat(kConfig, Topology(4, 2, 4), Queue("q", 1, 4), Job("a", "q", 4, 1, 1),
                                        Job("b", "q", 2, 1, 1));
  const std::string out = Run(text).ToString();
  CAPTURE(out);
  CHECK(out.find("bind ns/a-0") != std::string::npos);
  CHECK(out.find("bind ns/b-") == std::string::npos);
  CHECK(out.find("unplaced ns/b-0") != std::string::npos);
  CHECK(out.find("no HyperNode of tier <= 1") != std::string::npos);
}

TEST_CASE("Topology search: HyperNode groups tie to the lower node name", "[topology]") {
  // Interleaved racks: rack0 holds n0 and n2, rack1 n1 and n3. A running 4-cpu pod fills
  // n0 and another n3, so both racks are as full, and n1 and n2 are alike: the tie goes
  // to n1, the lower index, though n2's rack comes first.
  std::string text = absl::StrCat(kConfig, Topology(2, 2, 4, /*interleaved=*/true), Queue("q", 1, 64));
  for (const char* node : {"n0", "n3"}) {
    absl::StrAppend(&text, "apiVersion: v1\nkind: Pod\nmetadata: {name: busy-", node,
                    ", namespace: ns}\nspec:\n  nodeName: ", node,
                    "\n  containers: [{resources: {requests: {cpu: '4'}}}]\nstatus: {phase: Running}\n---\n");
  }
  text += Job("s", "q", 1, 1, 0);
  const Decisions cached = Run(text);
  CAPTURE(cached.ToString());
  CHECK(cached.ToString().find("bind ns/s-0 -> n1") != std::string::npos);
}

TEST_CASE("Topology search: its shortcuts decide as the full search (explained sessions run it)", "[topology]") {
  int refused = 0;
  for (int racks = 2; racks <= 5; ++racks) {
    for (int capability = 2; capability <= 12; capability += 5) {
      for (int variant = 0; variant < 4; ++variant) {
        const int tier = 1 + variant % 2;
        const bool interleaved = variant >= 2;
        std::string text = absl::StrCat(kConfig, Topology(racks, 2, 4, interleaved), Queue("q", 1, capability),
                                        Queue("r", 2, 64));
        // Jobs in both queues, with and without limits, of mixed sizes: some fit their
        // rack, some only a spine, some are refused by the queue.
        text += Job("a", "q", 3, 1, tier) + Job("b", "q", 2, 2, tier) + Job("c", "r", 5, 1, tier);
        text += Job("d", "r", 3, 3, 0) + Job("e", "q", 4, 1, 3 - tier) + Job("f", "r", 2, 4, tier);
        CAPTURE(racks, capability, tier, interleaved);
        absl::StatusOr<Scenario> sc = LoadScenario({{"case.yaml", text}});
        REQUIRE(sc.ok());
        absl::StatusOr<Decisions> plain = RunSession(sc->snapshot, *sc->config);
        absl::StatusOr<ExplainResult> explained = Explain(sc->snapshot, *sc->config, ExplainOptions{});
        RunOptions every_node;
        every_node.node_choice_cache = false;  // jobs without limits: HyperNode fill by group
        absl::StatusOr<Decisions> scored = RunSession(sc->snapshot, *sc->config, every_node);
        REQUIRE(plain.ok());
        REQUIRE(explained.ok());
        REQUIRE(scored.ok());
        CHECK(explained->decisions.ToString() == plain->ToString());
        CHECK(scored->ToString() == plain->ToString());
        if (plain->ToString().find("no HyperNode of tier") != std::string::npos) ++refused;
      }
    }
  }
  CHECK(refused > 0);  // the family reaches the shortcut
}

}  // namespace
}  // namespace vcsched
