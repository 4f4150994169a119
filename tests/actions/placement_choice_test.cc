// Allocate's node choice for tasks with pod affinity and spread terms (placement parts
// asked per task over node-local answers cached by shape, and bounded placement parts
// standing the untouched nodes for one) must decide exactly as the pass that evaluates
// every predicate and scorer on every node. Clusters here are large enough (16-48 nodes)
// for the bounded path to serve, unlike the property test's.
#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "tests/testing/random_scenario.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

using testing::Choices;
using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;
using testing::MakeQueue;

PodAffinityTerm Term(Choices& c, const std::string& own_app, uint32_t jobs) {
  PodAffinityTerm t;
  t.has_label_selector = true;
  t.label_selector.match_labels["app"] = c.Chance(70) ? own_app : absl::StrCat("app", c.Below(jobs));
  t.topology_key = c.Chance(65) ? "kubernetes.io/hostname" : "zone";
  return t;
}

// The terms a job's pods share: none, or one or two of every kind Kubernetes has.
void AddTerms(Choices& c, const std::string& app, uint32_t jobs, PodSpec& p) {
  if (c.Chance(25)) return;
  const uint32_t kinds = 1 + c.Below(2);
  for (uint32_t k = 0; k < kinds; ++k) {
    switch (c.Below(6)) {
      case 0: p.affinity.required_pod_affinity.push_back(Term(c, app, jobs)); break;
      case 1: p.affinity.required_pod_anti_affinity.push_back(Term(c, app, jobs)); break;
      case 2:
        p.affinity.preferred_pod_affinity.push_back({static_cast<int32_t>(1 + c.Below(100)), Term(c, app, jobs)});
        break;
      case 3:
        p.affinity.preferred_pod_anti_affinity.push_back({static_cast<int32_t>(1 + c.Below(100)), Term(c, app, jobs)});
        break;
      default: {
        TopologySpreadConstraint s;
        s.max_skew = static_cast<int32_t>(1 + c.Below(2));
        s.topology_key = c.Chance(50) ? "kubernetes.io/hostname" : "zone";
        s.do_not_schedule = c.Chance(60);
        s.has_label_selector = true;
        s.label_selector.match_labels["app"] = app;
        p.topology_spread_constraints.push_back(s);
      }
    }
  }
}

Snapshot RandomCluster(uint64_t seed) {
  Choices c(seed);
  SnapshotBuilder b;
  const uint32_t nodes = 16 + c.Below(33), zones = 2 + c.Below(3);
  for (uint32_t i = 0; i < nodes; ++i) {
    NodeSpec n = MakeNode(absl::StrCat("node-", i), absl::StrCat("cpu=", 4 + c.Below(13), ",memory=", 8 + c.Below(24),
                                                                 "Gi,pods=", 3 + c.Below(10)));
    if (!c.Chance(8)) n.labels["zone"] = absl::StrCat("z", c.Below(zones));
    n.labels["kubernetes.io/hostname"] = n.name;
    if (c.Chance(10)) n.taints.push_back({"dedicated", "batch", "NoSchedule"});
    b.AddNode(n);
  }
  b.AddQueue(MakeQueue("default"));
  const uint32_t jobs = 4 + c.Below(9);
  PodSpec tmpl;
  for (uint32_t j = 0; j < jobs; ++j) {
    const std::string group = absl::StrCat("job", j);
    const uint32_t replicas = 1 + c.Below(12);
    PodGroupSpec g = MakePodGroup(absl::StrCat("ns/", group), static_cast<int32_t>(c.Below(replicas + 1)));
    // Some jobs share the last one's pod template (one workload in two gangs), right
    // after it: their tasks then share pod-affinity weights across a gang that may have
    // been undone.
    const bool shared = j > 0 && c.Chance(25);
    g.creation_time = shared ? tmpl.creation_time : 1000 + 2 * c.Below(50);
    b.AddPodGroup(g);
    if (!shared) {
      const std::string app = absl::StrCat("app", j);
      tmpl = MakePod("ns/template", group, absl::StrCat("cpu=", c.Below(3), ",memory=", c.Below(4), "Gi"));
      tmpl.labels["app"] = app;
      AddTerms(c, app, jobs, tmpl);
      if (c.Chance(15)) tmpl.node_selector["zone"] = absl::StrCat("z", c.Below(zones));
      if (c.Chance(15)) tmpl.tolerations.push_back({"dedicated", "Exists", "", ""});
    }
    tmpl.annotations["scheduling.k8s.io/group-name"] = group;
    tmpl.creation_time = g.creation_time;
    for (uint32_t r = 0; r < replicas; ++r) {
      PodSpec p = tmpl;
      p.name = absl::StrCat(group, "-", r);
      if (c.Chance(25)) {  // already running somewhere: its terms count for the others
        p.node_name = absl::StrCat("node-", c.Below(nodes));
        p.phase = "Running";
      }
      b.AddPod(p);
    }
  }
  return *std::move(b).Build();
}

TEST_CASE("Allocate: pod affinity and spread node choice equals the every-node pass", "[actions][property]") {
  const absl::StatusOr<SchedulerConfig> binpack = LoadSchedulerConfig(
      {"binpack.conf",
       "actions: \"enqueue, allocate, backfill\"\n"
       "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n- plugins:\n  - name: predicates\n"
       "  - name: proportion\n  - name: nodeorder\n    arguments: {podaffinity.weight: 5, podtopologyspread.weight: 3}\n"
       "  - name: binpack\n"});
  REQUIRE(binpack.ok());
  int binds = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    const Snapshot snap = RandomCluster(seed);
    for (const SchedulerConfig& config : {DefaultSchedulerConfig(), *binpack}) {
      INFO("seed " << seed);
      absl::StatusOr<Decisions> cached = RunSession(snap, config);
      RunOptions every_node;
      every_node.node_choice_cache = false;
      absl::StatusOr<Decisions> reference = RunSession(snap, config, every_node);
      REQUIRE(cached.ok());
      REQUIRE(reference.ok());
      REQUIRE(cached->ToString() == reference->ToString());
      binds += static_cast<int>(cached->binds.size());
    }
  }
  CHECK(binds > 4000);  // the clusters place many pods, or the comparison proves little
}

}  // namespace
}  // namespace vcsched
