// Node sharding (vc-scheduler's --scheduler-sharding-mode and NodeShard objects): the
// rules Volcano's shard tests do not pin down, beside the converted cases in
// tests/volcano-cases/shard-*.yaml and the recorded sh* differential cases.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/cluster.h"
#include "vcsched/explain.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/watch.h"
#include "vcsched/policy.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

// Four nodes, n1 the largest; one pending pod asking `cpu`. The scheduler's shard is
// "mine"; "theirs" has n1 in use.
std::string Scenario(const std::string& mode, const std::string& cpu = "1", const std::string& extra_args = "") {
  std::string out = absl::StrCat(R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "allocate"
schedulerArgs: ["--scheduler-sharding-mode=)", mode, R"(", "--scheduler-sharding-name=mine")", extra_args, R"(]
tiers:
- plugins:
  - name: gang
  - name: predicates
  - name: nodeorder
    arguments: {leastrequested.weight: 1, mostrequested.weight: 0, balancedresource.weight: 0}
---
apiVersion: shard.volcano.sh/v1alpha1
kind: NodeShard
metadata: {name: mine}
spec: {nodesDesired: [n1, n2, n3]}
---
apiVersion: shard.volcano.sh/v1alpha1
kind: NodeShard
metadata: {name: theirs}
spec: {nodesDesired: [n1, n4]}
status: {nodesInUse: [n1, n4]}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: default}
spec: {minMember: 1}
status: {phase: Inqueue}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, annotations: {scheduling.k8s.io/group-name: pg}}
spec: {schedulerName: volcano, containers: [{name: c, resources: {requests: {cpu: ")", cpu, R"("}}}]}
)");
  const char* sizes[] = {"32", "4", "2", "16"};
  for (int i = 0; i < 4; ++i) {
    absl::StrAppend(&out, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n", i + 1, "}\nstatus: {allocatable: {cpu: \"",
                    sizes[i], "\", memory: 64Gi, pods: \"10\"}}\n");
  }
  return out;
}

std::string BoundNode(const std::string& yaml) {
  const vcsched::Scenario sc = testing::LoadInline(yaml);
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config);
  REQUIRE(d.ok());
  return d->binds.empty() ? "" : std::string(d->binds.front().node);
}

TEST_CASE("sharding: the shard is its nodesDesired less the other shards' nodesInUse", "[sharding]") {
  PolicyObjects p;
  p.node_shards["mine"] = {"mine", {"a", "b", "c"}, {"a"}, {}, {}};
  p.node_shards["theirs"] = {"theirs", {"c", "d"}, {"c", "x"}, {}, {}};
  CHECK(NodesInShard(p, "mine") == std::set<std::string, std::less<>>{"a", "b"});  // its own in-use is no matter
  CHECK(NodesInShard(p, "theirs") == std::set<std::string, std::less<>>{"c", "d"});
  CHECK(NodesInShard(p, "absent").empty());
}

TEST_CASE("sharding: hard keeps to the shard, soft prefers it, none ignores it", "[sharding]") {
  // n1 (32 cpu) is the least requested, but another shard has it in use.
  CHECK(BoundNode(Scenario("none")) == "n1");
  CHECK(BoundNode(Scenario("hard")) == "n2");
  CHECK(BoundNode(Scenario("soft")) == "n2");
  // 8 cpu: no node of the shard has room. Hard leaves the pod pending; soft goes to the
  // other shards' nodes (n1 before n4 by score).
  CHECK(BoundNode(Scenario("hard", "8")).empty());
  CHECK(BoundNode(Scenario("soft", "8")) == "n1");
  // A later flag wins, as on vc-scheduler's command line; a missing shard is an empty one.
  CHECK(BoundNode(Scenario("hard", "1", ", \"--scheduler-sharding-mode=none\"")) == "n1");
  CHECK(BoundNode(Scenario("hard", "1", ", \"--scheduler-sharding-name=nobody\"")).empty());
  CHECK(BoundNode(Scenario("soft", "1", ", \"--scheduler-sharding-name=nobody\"")) == "n1");
}

TEST_CASE("sharding: a mode other than none, hard or soft is refused by name", "[sharding]") {
  absl::StatusOr<SchedulerFlags> f = ParseSchedulerArgs({"--scheduler-sharding-mode=strict"});
  REQUIRE_FALSE(f.ok());
  CHECK(f.status().message() ==
        "schedulerArgs[0]: \"--scheduler-sharding-mode=strict\": expected none, hard or soft");
  f = ParseSchedulerArgs({"--scheduler-sharding-mode", "soft", "--scheduler-sharding-name", "b"});
  REQUIRE(f.ok());
  CHECK(f->sharding_mode == ShardingMode::kSoft);
  CHECK(f->sharding_name == "b");
}

TEST_CASE("sharding: explain names the shard, and the hint widens it", "[sharding][explain]") {
  const vcsched::Scenario sc = testing::LoadInline(Scenario("hard", "8"));
  absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, *sc.config);
  REQUIRE(r.ok());
  REQUIRE(r->explanation.jobs.size() == 1);
  const JobExplanation& j = r->explanation.jobs[0];
  bool named = false;
  for (const auto& [cause, count] : j.nodes) {
    if (cause == "node isn't in scheduler node shard (hard sharding: NodeShard \"mine\" leaves this scheduler 2 of "
                 "the 4 nodes)") {
      named = count == 2;
    }
  }
  CHECK(named);
  REQUIRE(j.hints.size() == 1);
  CHECK(j.hints[0].kind == "widen-shard");
  CHECK(j.hints[0].target == "mine");
  CHECK(j.hints[0].amount == 1);
  CHECK(j.hints[0].change == "add 1 node(s) to NodeShard \"mine\": n1 (or run the scheduler with "
                             "--scheduler-sharding-mode=soft)");
}

TEST_CASE("sharding: NodeShards in a Cluster, by watch events and in to_yaml", "[sharding][cluster]") {
  const vcsched::Scenario sc = testing::LoadInline(Scenario("hard"));
  Cluster c = Cluster::FromSnapshot(sc.snapshot);
  REQUIRE(c.policy().node_shards.size() == 2);
  // The other shard gives n1 back: the scheduler's shard now holds it.
  absl::StatusOr<std::vector<WatchEvent>> events = ReadWatchEvents(
      {"events.json", R"({"type": "MODIFIED", "object": {"apiVersion": "shard.volcano.sh/v1alpha1", "kind": "NodeShard",
          "metadata": {"name": "theirs"}, "spec": {"nodesDesired": ["n4"]}, "status": {"nodesInUse": ["n4"]}}}
        {"type": "DELETED", "object": {"apiVersion": "shard.volcano.sh/v1alpha1", "kind": "NodeShard",
          "metadata": {"name": "gone"}, "spec": {"nodesDesired": []}}})"});
  REQUIRE(events.ok());
  REQUIRE(events->size() == 2);
  REQUIRE(ApplyWatchEvent(c, (*events)[0], nullptr).ok());
  CHECK(NodesInShard(c.policy(), "mine").count("n1") == 1);
  std::vector<std::string> notes;
  REQUIRE(ApplyWatchEvent(c, (*events)[1], &notes).ok());  // no such shard: noted, nothing changes
  CHECK(notes.size() == 1);
  CHECK(c.policy().node_shards.size() == 2);
  absl::StatusOr<Snapshot> snap = c.Snapshot();
  REQUIRE(snap.ok());
  absl::StatusOr<Decisions> d = RunSession(*snap, *sc.config);
  REQUIRE(d.ok());
  REQUIRE(d->binds.size() == 1);
  CHECK(d->binds[0].node == "n1");
  // Printed and read back to the same objects.
  const std::string text = ClusterToYaml(c, &*sc.config);
  const vcsched::Scenario again = testing::LoadInline(text);
  CHECK(again.snapshot.policy().node_shards.at("theirs").nodes_in_use == std::vector<std::string>{"n4"});
  CHECK(again.snapshot.policy().node_shards.at("mine").nodes_desired == std::vector<std::string>{"n1", "n2", "n3"});
  CHECK(c.DeleteNodeShard("mine").ok());
  CHECK(absl::IsNotFound(c.DeleteNodeShard("mine")));
}

TEST_CASE("sharding: a NodeShard's problems name the object and the field", "[sharding][bad-input]") {
  absl::StatusOr<vcsched::Scenario> sc = LoadScenario({{"in.yaml", R"(apiVersion: shard.volcano.sh/v1alpha1
kind: NodeShard
metadata: {name: s}
spec: {nodesDesired: [a, ""]}
)"}});
  REQUIRE_FALSE(sc.ok());
  CHECK(sc.status().message() == "in.yaml: document 1, line 1:1: NodeShard \"s\": spec.nodesDesired[1]: must not be empty");
  sc = LoadScenario({{"in.yaml", R"(apiVersion: shard.volcano.sh/v1alpha1
kind: NodeShard
metadata: {name: s}
spec: {nodesDesired: 3}
)"}});
  REQUIRE_FALSE(sc.ok());
  CHECK(absl::StrContains(sc.status().message(), "in.yaml"));
  CHECK(absl::StrContains(sc.status().message(), "spec.nodesDesired"));
}

}  // namespace
}  // namespace vcsched
