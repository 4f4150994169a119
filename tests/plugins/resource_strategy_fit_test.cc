// resource-strategy-fit: Volcano's TestScore, TestNode (sra) and
// Test_checkNodeResourceIsProportional (pkg/scheduler/plugins/resource-strategy-fit, HEAD
// ed72c7c81) converted into sessions: the Go tests call the plugin's functions on built
// task and node records; here a node with a running pod holding the "used" amounts and a
// pending pod are scored or filtered by the session with only this plugin configured.
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

std::string Config(const std::string& args) {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n- plugins:\n"
                      "  - name: resource-strategy-fit\n    arguments: ", args, "\n");
}

std::string Node(const std::string& name, const std::string& allocatable) {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name, "}\nstatus: {allocatable: {", allocatable,
                      ", pods: \"10\"}}\n");
}

std::string Pod(const std::string& name, const std::string& node, const std::string& requests,
                const std::string& annotations = "") {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: c1, annotations: {scheduling.k8s.io/group-name: pg1", annotations, "}}\n",
                      "spec: {schedulerName: volcano", node.empty() ? "" : absl::StrCat(", nodeName: ", node),
                      ", containers: [{name: c, resources: {requests: {", requests, "}}}]}\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

constexpr const char* kGroup =
    "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg1, namespace: c1}\n"
    "spec: {minMember: 0}\nstatus: {phase: Inqueue}\n";

using Opened = testing::OpenedSession;

std::unique_ptr<Opened> Open(const std::string& yaml) { return testing::OpenInline(yaml); }

double ScoreOn(const Opened& o, const std::string& task, const std::string& node) {
  const TaskIndex t = *o.sc.snapshot.FindTask(task);
  const NodeIndex n = *o.sc.snapshot.FindNode(node);
  const std::vector<NodeIndex> nodes{n};
  std::vector<double> scores(1);
  o.ssn->ScoreNodes(t, nodes, absl::MakeSpan(scores));
  return scores[0];
}

// TestScore's shape: the pod asks `req` (millicores, bytes) of a node holding `used` of
// `allocatable`.
double Score(const std::string& args, int cpu_req, int mem_req, int used_cpu, int used_mem, int alloc_cpu, int alloc_mem,
             const std::string& annotations = "") {
  std::string yaml = Config(args) + kGroup +
                     Node("n1", absl::StrCat("cpu: ", alloc_cpu, "m, memory: \"", alloc_mem, "\"")) +
                     Pod("p", "", absl::StrCat("cpu: ", cpu_req, "m, memory: \"", mem_req, "\""), annotations);
  if (used_cpu > 0 || used_mem > 0) yaml += Pod("used", "n1", absl::StrCat("cpu: ", used_cpu, "m, memory: \"", used_mem, "\""));
  return ScoreOn(*Open(yaml), "c1/p", "n1");
}

std::string Strategy(int weight, const std::string& cpu, int cpu_w, const std::string& mem, int mem_w) {
  return absl::StrCat("{resourceStrategyFitWeight: ", weight, ", resources: {cpu: {type: ", cpu, ", weight: ", cpu_w,
                      "}, memory: {type: ", mem, ", weight: ", mem_w, "}}}");
}

TEST_CASE("resource-strategy-fit (Volcano's TestScore)", "[plugins][resource-strategy-fit]") {
  const std::string least = Strategy(10, "LeastAllocated", 1, "LeastAllocated", 1);
  const std::string most = Strategy(10, "MostAllocated", 1, "MostAllocated", 1);
  CHECK(Score(least, 100, 100, 200, 200, 500, 500) == Approx(400));
  CHECK(Score(least, 100, 100, 200, 200, 400, 400) == Approx(250));
  CHECK(Score(most, 100, 100, 200, 200, 500, 500) == Approx(600));
  CHECK(Score(most, 100, 100, 200, 200, 400, 400) == Approx(750));
  CHECK(Score(Strategy(10, "LeastAllocated", 2, "MostAllocated", 1), 100, 100, 200, 200, 500, 500) == Approx(466.66666667));
  CHECK(Score(Strategy(10, "LeastAllocated", 1, "MostAllocated", 2), 100, 100, 200, 200, 500, 500) == Approx(533.33333333));
  CHECK(Score(Strategy(10, "LeastAllocated", 1, "MostAllocated", 2), 0, 100, 200, 200, 500, 500) == Approx(600));
  CHECK(Score(Strategy(10, "LeastAllocated", 1, "MostAllocated", 2), 100, 100, 200, 200, 0, 400) == Approx(500));
  CHECK(Score("{resourceStrategyFitWeight: 10, resources: {memory: {type: MostAllocated, weight: 2}}}", 100, 100, 200,
              200, 500, 500) == Approx(600));
  // Pod-level scoring annotations.
  const std::string pod_least = ", volcano.sh/resource-strategy-scoring-type: LeastAllocated";
  CHECK(Score(least, 100, 100, 200, 200, 500, 500,
              pod_least + ", volcano.sh/resource-strategy-weight: '{\"cpu\": 2, \"memory\": 1}'") == Approx(400));
  CHECK(Score(least, 100, 100, 200, 200, 500, 500,
              ", volcano.sh/resource-strategy-scoring-type: MostAllocated, "
              "volcano.sh/resource-strategy-weight: '{\"cpu\": 1, \"memory\": 2}'") == Approx(600));
  CHECK(Score(least, 100, 100, 200, 200, 500, 500, pod_least + ", volcano.sh/resource-strategy-weight: invalid-json") ==
        0);
  CHECK(Score(least, 100, 100, 200, 200, 500, 500, pod_least + ", volcano.sh/resource-strategy-weight: '{\"cpu\": 2}'") ==
        Approx(400));
  CHECK(Score(least, 0, 0, 200, 200, 500, 500) == 0);
  CHECK(Score(least, 100, 100, 500, 500, 500, 500) == 0);
  CHECK(Score(Strategy(10, "LeastAllocated", 3, "MostAllocated", 1), 100, 100, 200, 200, 500, 500) == Approx(450));
  CHECK(Score(Strategy(20, "LeastAllocated", 5, "LeastAllocated", 5), 100, 100, 200, 200, 500, 500) == Approx(800));
}

TEST_CASE("resource-strategy-fit: patterns, weights and types as Volcano reads its arguments",
          "[plugins][resource-strategy-fit]") {
  // The longest matching prefix wins, an exact name before any pattern.
  const std::string two_patterns =
      "{resources: {\"example.com/*\": {type: MostAllocated}, \"example.com/g*\": {type: LeastAllocated}}}";
  const auto gpu = [](const std::string& args) {
    return ScoreOn(*Open(Config(args) + kGroup + Node("n1", "cpu: \"4\", memory: 4Gi, example.com/gpu: \"4\"") +
                         Pod("p", "", "example.com/gpu: \"1\"")),
                   "c1/p", "n1");
  };
  CHECK(gpu(two_patterns) == Approx(750));  // LeastAllocated: 3/4 x 100 x 10
  // '*' alone and a pattern with an inner '*' are ignored, so nothing is scored; a bad
  // type is LeastAllocated, a weight of 0 is 1.
  CHECK(gpu("{resources: {\"*\": {type: MostAllocated}}}") == 0);
  CHECK(gpu("{resources: {\"example*/gpu\": {type: MostAllocated}}}") == 0);
  CHECK(gpu("{resources: {example.com/gpu: {type: Balanced, weight: 0}}}") == Approx(750));
  // A negative plugin weight is the default, 10; 0 turns the score off.
  CHECK(gpu("{resourceStrategyFitWeight: -3, resources: {example.com/gpu: {type: MostAllocated}}}") == Approx(250));
  CHECK(gpu("{resourceStrategyFitWeight: 0, resources: {example.com/gpu: {type: MostAllocated}}}") == 0);
}

TEST_CASE("resource-strategy-fit (Volcano's TestNode): the sra score", "[plugins][resource-strategy-fit]") {
  const std::string nodes = Node("n1", "cpu: \"32\", memory: 64Gi") +
                            Node("n2", "cpu: \"8\", memory: 16Gi, nvidia.com/t4: \"16\"") +
                            Node("n3", "cpu: \"8\", memory: 16Gi, nvidia.com/a10: \"16\"") +
                            Node("n4", "cpu: \"8\", memory: 16Gi, nvidia.com/t4: \"8\", nvidia.com/a10: \"16\"");
  const std::string pods = Pod("p1", "", "cpu: \"1\", memory: 1Gi") +
                           Pod("p2", "", "cpu: \"1.5\", memory: 0Gi, nvidia.com/t4: \"2\"") +
                           Pod("p3", "", "cpu: \"2\", memory: 4Gi, nvidia.com/a10: \"2\"") +
                           Pod("p4", "", "cpu: \"3\", memory: 4Gi, nvidia.com/t4: \"1\", nvidia.com/a10: \"3\"");
  using Table = std::map<std::string, std::vector<double>>;
  const auto scores = [&](const std::string& args) {
    auto o = Open(Config(args) + kGroup + nodes + pods);
    Table out;
    for (const char* p : {"p1", "p2", "p3", "p4"}) {
      for (const char* n : {"n1", "n2", "n3", "n4"}) out[p].push_back(ScoreOn(*o, absl::StrCat("c1/", p), n));
    }
    return out;
  };
  CHECK(scores("{resourceStrategyFitWeight: 0, sra: {enable: true, resources: \"nvidia.com/t4, nvidia.com/a10\", "
               "weight: 5, resourceWeight: {nvidia.com/t4: 2, nvidia.com/a10: 3}}}") ==
        Table{{"p1", {500, 300, 200, 0}}, {"p2", {0, 300, 0, 0}}, {"p3", {0, 0, 200, 0}}, {"p4", {0, 0, 0, 0}}});
  CHECK(scores("{resourceStrategyFitWeight: 0, sra: {enable: true, resources: nvidia.com/t4, weight: 5, "
               "resourceWeight: {nvidia.com/t4: 2}}}") ==
        Table{{"p1", {500, 0, 500, 0}}, {"p2", {0, 0, 0, 0}}, {"p3", {0, 0, 500, 0}}, {"p4", {0, 0, 0, 0}}});
  const Table mixed = scores(
      "{resourceStrategyFitWeight: 8, resources: {nvidia.com/t4: {type: MostAllocated, weight: 3}, "
      "cpu: {type: LeastAllocated, weight: 1}}, sra: {enable: true, resources: nvidia.com/t4, weight: 0, "
      "resourceWeight: {nvidia.com/t4: 2}}}");
  const Table want{{"p1", {775, 700, 700, 700}},
                   {"p2", {190.625, 237.5, 162.5, 312.5}},
                   {"p3", {750, 600, 600, 600}},
                   {"p4", {181.25, 162.5, 125, 200}}};
  for (const auto& [pod, row] : want) {
    for (size_t i = 0; i < row.size(); ++i) CHECK(mixed.at(pod)[i] == Approx(row[i]));
  }
}

TEST_CASE("resource-strategy-fit (Volcano's Test_checkNodeResourceIsProportional): the proportional filter",
          "[plugins][resource-strategy-fit]") {
  const std::string args =
      "{proportional: {enable: true, resources: nvidia.com/gpu, resourceProportion: {nvidia.com/gpu.cpu: 4, "
      "nvidia.com/gpu.memory: 4}}}";
  const std::string yaml = Config(args) + kGroup + Node("n1", "cpu: \"30\", memory: 30G, nvidia.com/gpu: \"6\"") +
                           Node("n2", "cpu: \"26\", memory: 26G, nvidia.com/gpu: \"2\"") +
                           Pod("t1", "", "cpu: \"4\", memory: 4G, nvidia.com/gpu: \"0\"") +
                           Pod("t2", "", "cpu: \"10\", memory: 10G, nvidia.com/gpu: \"0\"") +
                           Pod("t3", "", "cpu: \"10\", memory: 10G, nvidia.com/gpu: \"1\"");
  auto o = Open(yaml);
  const auto fits = [&](const char* pod, const char* node) {
    return o->ssn->Predicate(*o->sc.snapshot.FindTask(absl::StrCat("c1/", pod)), *o->sc.snapshot.FindNode(node)).ok();
  };
  CHECK(fits("t1", "n1"));        // 30 - 4 cores left, 24 kept for 6 GPUs
  CHECK_FALSE(fits("t2", "n1"));  // 20 left < 24 kept
  CHECK(fits("t3", "n1"));        // asks for a GPU: not checked
  CHECK(fits("t2", "n2"));        // 16 left >= 8 kept
  const FitResult r = o->ssn->Predicate(*o->sc.snapshot.FindTask("c1/t2"), *o->sc.snapshot.FindNode("n1"));
  CHECK(r.code == FitCode::kUnschedulableAndUnresolvable);
  CHECK(o->ssn->ReasonText(r.reasons.front()) == "proportional of resource nvidia.com/gpu check failed");
}

}  // namespace
}  // namespace vcsched
