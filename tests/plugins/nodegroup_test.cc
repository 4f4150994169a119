// nodegroup: Volcano's TestNodeGroup (7 cases: each node's score and predicate code),
// TestNodeGroupResourceLimits (6) and TestNodeGroupResourceLimitAllocationEvent
// (pkg/scheduler/plugins/nodegroup/nodegroup_test.go, HEAD ed72c7c81) converted.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

std::string Node(const std::string& name, const std::string& cpu, const std::string& memory, const std::string& group) {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name,
                      group.empty() ? "" : absl::StrCat(", labels: {volcano.sh/nodegroup-name: ", group, "}"),
                      "}\nstatus: {allocatable: {cpu: \"", cpu, "\", memory: ", memory, ", pods: \"32\"}}\n");
}

// A queue; `affinity` is the YAML of spec.affinity (empty: none).
std::string Queue(const std::string& name, const std::string& parent, const std::string& affinity,
                  const std::string& limits = "") {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: ", name,
                      limits.empty() ? "" : absl::StrCat(", annotations: {volcano.sh/nodegroup-resource-limits: '",
                                                         limits, "'}"),
                      "}\nspec:\n  weight: 1\n", parent.empty() ? "" : absl::StrCat("  parent: ", parent, "\n"),
                      affinity.empty() ? "" : absl::StrCat("  affinity: ", affinity, "\n"), "status: {state: Open}\n");
}

std::string Pod(const std::string& ns, const std::string& name, const std::string& group, const std::string& queue,
                const std::string& node = "") {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", group,
                      ", namespace: ", ns, "}\nspec: {minMember: 0, queue: ", queue, "}\nstatus: {phase: ",
                      node.empty() ? "Inqueue" : "Running", "}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: ", ns, ", annotations: {scheduling.k8s.io/group-name: ", group,
                      "}}\nspec: {schedulerName: volcano", node.empty() ? "" : ", nodeName: " + node,
                      ", containers: [{name: c, resources: {requests: {cpu: \"2\", memory: 4Gi}}}]}\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

std::string Config(const std::string& arguments, bool hierarchy) {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n",
                      "- plugins:\n  - name: nodegroup\n    enableHierarchy: ", hierarchy ? "true" : "false",
                      arguments.empty() ? "" : absl::StrCat("\n    arguments: ", arguments), "\n");
}

struct Verdict {
  double score;
  bool fits;
};

// The score and predicate of `pod` on each node, as the Go tests ask them.
std::map<std::string, Verdict> Ask(const std::string& yaml, const std::string& pod) {
  const Scenario sc = testing::LoadInline(yaml);
  Session ssn(sc.snapshot, *sc.config, 0, "s");
  std::vector<std::unique_ptr<Plugin>> plugins;
  testing::OpenPluginsForTesting(ssn, *sc.config, plugins);
  const TaskIndex t = *sc.snapshot.FindTask(pod);
  std::map<std::string, Verdict> out;
  for (NodeIndex n = 0; n < ssn.num_nodes(); ++n) {
    double score = 0;
    ssn.ScoreNodes(t, absl::MakeConstSpan(&n, 1), absl::MakeSpan(&score, 1));
    const FitResult fit = ssn.Predicate(t, n);
    if (!fit.ok()) CHECK(fit.code == FitCode::kUnschedulableAndUnresolvable);
    out[ssn.node_info(n).spec.name] = {score, fit.ok()};
  }
  return out;
}

const std::string kNodes = Node("n1", "2", "4Gi", "group1") + Node("n2", "4", "16Gi", "group2") +
                           Node("n3", "4", "16Gi", "group3") + Node("n4", "4", "16Gi", "group4") +
                           Node("n5", "4", "16Gi", "");
const std::string kAffinity1 =
    "{nodeGroupAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [group1, group3], "
    "preferredDuringSchedulingIgnoredDuringExecution: [group3]}, nodeGroupAntiAffinity: "
    "{requiredDuringSchedulingIgnoredDuringExecution: [group2, group4], preferredDuringSchedulingIgnoredDuringExecution: "
    "[group4]}}";
const std::string kAffinity2 =
    "{nodeGroupAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [group1], "
    "preferredDuringSchedulingIgnoredDuringExecution: [group3]}, nodeGroupAntiAffinity: "
    "{requiredDuringSchedulingIgnoredDuringExecution: [group2], preferredDuringSchedulingIgnoredDuringExecution: "
    "[group4]}}";
const std::string kAffinity3 = "{nodeGroupAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [group1, group3]}}";

void Expect(const std::map<std::string, Verdict>& got, const std::map<std::string, Verdict>& want) {
  for (const auto& [node, v] : want) {
    INFO(node);
    CHECK(got.at(node).score == v.score);
    CHECK(got.at(node).fits == v.fits);
  }
}

// Volcano's expectations for the root-like affinity (kAffinity1): n1 required, n3
// required and preferred, n4 anti-preferred (allowed, scored -1), n2 anti-required, n5
// unlabelled.
const std::map<std::string, Verdict> kAffinity1Verdicts = {
    {"n1", {100, true}}, {"n2", {0, false}}, {"n3", {150, true}}, {"n4", {-1, true}}, {"n5", {0, false}}};

TEST_CASE("nodegroup (Volcano's TestNodeGroup): soft constraints a subset of hard ones", "[plugins][nodegroup]") {
  Expect(Ask(Config("", false) + kNodes + Queue("q1", "root", kAffinity1) + Pod("c1", "p1", "pg1", "q1"), "c1/p1"),
         kAffinity1Verdicts);
}

TEST_CASE("nodegroup (Volcano's TestNodeGroup): soft constraints not a subset of hard ones", "[plugins][nodegroup]") {
  Expect(Ask(Config("", false) + kNodes + Queue("q2", "root", kAffinity2) + Pod("c1", "p2", "pg2", "q2"), "c1/p2"),
         {{"n1", {100, true}}, {"n2", {0, false}}, {"n3", {50, true}}, {"n4", {-1, true}}, {"n5", {0, false}}});
}

TEST_CASE("nodegroup (Volcano's TestNodeGroup): no affinity and strict=false allows only unlabelled nodes",
          "[plugins][nodegroup]") {
  Expect(Ask(Config("{strict: false}", false) + kNodes + Queue("root-no-affinity", "", "") +
                 Pod("c1", "p5", "pg5", "root-no-affinity"),
             "c1/p5"),
         {{"n1", {0, false}}, {"n2", {0, false}}, {"n3", {0, false}}, {"n4", {0, false}}, {"n5", {0, true}}});
}

TEST_CASE("nodegroup (Volcano's TestNodeGroup): affinity inherits from the parent queue", "[plugins][nodegroup]") {
  Expect(Ask(Config("", true) + kNodes + Queue("root", "", kAffinity1) + Queue("q1", "root", kAffinity1) +
                 Queue("q1-child", "q1", "") + Pod("c1", "p3", "pg3", "q1-child"),
             "c1/p3"),
         kAffinity1Verdicts);
}

TEST_CASE("nodegroup (Volcano's TestNodeGroup): affinity inherits from an ancestor past a parent without one",
          "[plugins][nodegroup]") {
  Expect(Ask(Config("", true) + kNodes + Queue("root", "", kAffinity1) + Queue("q-no-affinity", "root", "") +
                 Queue("q-no-affinity-child", "q-no-affinity", "") + Pod("c1", "p4", "pg4", "q-no-affinity-child"),
             "c1/p4"),
         kAffinity1Verdicts);
}

TEST_CASE("nodegroup (Volcano's TestNodeGroup): a queue without affinity, strict, fits nowhere", "[plugins][nodegroup]") {
  Expect(Ask(Config("", false) + kNodes + Queue("q-no-affinity", "root", "") + Pod("c1", "p4", "pg4", "q-no-affinity"),
             "c1/p4"),
         {{"n1", {0, false}}, {"n2", {0, false}}, {"n3", {0, false}}, {"n4", {0, false}}, {"n5", {0, false}}});
}

TEST_CASE("nodegroup (Volcano's TestNodeGroup): preferred groups scored in their order", "[plugins][nodegroup]") {
  Expect(Ask(Config("{enablePreferredOrder: true}", false) + kNodes + Queue("q3", "", kAffinity3) +
                 Pod("c1", "p6", "pg6", "q3"),
             "c1/p6"),
         {{"n1", {50, true}}, {"n2", {0, false}}, {"n3", {25, true}}, {"n4", {0, false}}, {"n5", {0, false}}});
}

const std::string kLimitNodes = Node("n1", "16", "64Gi", "group1") + Node("n2", "16", "64Gi", "group2");
const std::string kLimitAffinity =
    "{nodeGroupAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [group1, group2], "
    "preferredDuringSchedulingIgnoredDuringExecution: [group1]}}";

std::map<std::string, Verdict> AskLimit(const std::string& limits, const std::string& running = "") {
  std::string yaml = Config("", false) + kLimitNodes + Queue("q", "", kLimitAffinity, limits) +
                     Pod("limit", "pending", "pg-pending", "q");
  if (!running.empty()) yaml += Pod("limit", "used", "pg-used", "q", running);
  return Ask(yaml, "limit/pending");
}

TEST_CASE("nodegroup (Volcano's TestNodeGroupResourceLimits): each group's limits", "[plugins][nodegroup]") {
  SECTION("no annotation keeps existing behavior") {
    Expect(AskLimit(""), {{"n1", {150, true}}, {"n2", {100, true}}});
  }
  SECTION("under nodegroup limit permits preferred nodegroup") {
    Expect(AskLimit(R"({"group1":{"cpu":"3","memory":"8Gi"}})"), {{"n1", {150, true}}, {"n2", {100, true}}});
  }
  SECTION("omitted resource dimension is unlimited") {
    Expect(AskLimit(R"({"group1":{"cpu":"3"}})"), {{"n1", {150, true}}, {"n2", {100, true}}});
  }
  SECTION("specified resource dimension is enforced") {
    Expect(AskLimit(R"({"group1":{"cpu":"1"}})"), {{"n1", {150, false}}, {"n2", {100, true}}});
  }
  SECTION("over nodegroup limit rejects preferred nodegroup and permits fallback") {
    Expect(AskLimit(R"({"group1":{"cpu":"3","memory":"8Gi"}})", "n1"), {{"n1", {150, false}}, {"n2", {100, true}}});
  }
  SECTION("invalid annotation rejects queue tasks") {
    Expect(AskLimit(R"({"group1":{"cpu":)"), {{"n1", {150, false}}, {"n2", {100, false}}});
  }
}

TEST_CASE("nodegroup (Volcano's TestNodeGroupResourceLimitAllocationEvent): an allocation counts against the limit",
          "[plugins][nodegroup]") {
  const std::string yaml =
      Config("", false) + Node("n1", "16", "64Gi", "group1") +
      Queue("q", "", "{nodeGroupAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [group1]}}",
            R"({"group1":{"cpu":"3","memory":"8Gi"}})") +
      Pod("limit", "pending-1", "pg-1", "q") + Pod("limit", "pending-2", "pg-2", "q");
  const Scenario sc = testing::LoadInline(yaml);
  Session ssn(sc.snapshot, *sc.config, 0, "s");
  std::vector<std::unique_ptr<Plugin>> plugins;
  testing::OpenPluginsForTesting(ssn, *sc.config, plugins);
  const TaskIndex t1 = *sc.snapshot.FindTask("limit/pending-1");
  const TaskIndex t2 = *sc.snapshot.FindTask("limit/pending-2");
  const NodeIndex n1 = *sc.snapshot.FindNode("n1");
  REQUIRE(ssn.Predicate(t1, n1).ok());
  REQUIRE(ssn.Allocate(t1, n1).ok());
  CHECK_FALSE(ssn.Predicate(t2, n1).ok());
}

}  // namespace
}  // namespace vcsched
