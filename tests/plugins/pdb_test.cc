// pdb: Volcano's TestPreemptableAndReclaimableFn (pkg/scheduler/plugins/pdb/pdb_test.go,
// HEAD ed72c7c81) converted, each case asked of Preemptable, Reclaimable and VictimTasks
// as the Go test asks them; then the counting rules its source follows and the test
// does not pin down (checked with Volcano HEAD through the harness where a scenario can
// express them: tests/volcano-cases/pdb-*.yaml).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

std::string RunningPod(const std::string& name, const std::string& labels, const std::string& ns = "default") {
  return absl::StrCat(R"(---
apiVersion: v1
kind: Pod
metadata:
  name: )", name, R"(
  namespace: )", ns, R"(
  labels: )", labels, R"(
  annotations: {scheduling.k8s.io/group-name: pg-)", name, R"(}
spec:
  schedulerName: volcano
  nodeName: n1
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
status: {phase: Running}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg-)", name, ", namespace: ", ns, R"(}
spec: {minMember: 1}
status: {phase: Running}
)");
}

std::string Budget(const std::string& name, const std::string& selector, int allowed, const std::string& extra = "") {
  return absl::StrCat(R"(---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: )", name, R"(, namespace: default}
spec: {selector: )", selector, R"(}
status: {disruptionsAllowed: )", allowed, extra, "}\n");
}

constexpr const char* kBase = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "shuffle"
tiers:
- plugins:
  - name: pdb
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
)";

struct Answers {
  std::vector<std::string> preemptable, reclaimable, victims;
};

// What the three functions return for the candidates, in their order.
Answers Ask(const std::string& objects, const std::vector<std::string>& candidates) {
  const Scenario sc = testing::LoadInline(absl::StrCat(kBase, objects));
  Session ssn(sc.snapshot, *sc.config, 0, "s");
  std::vector<std::unique_ptr<Plugin>> plugins;
  testing::OpenPluginsForTesting(ssn, *sc.config, plugins);
  std::vector<TaskIndex> tasks;
  for (const std::string& c : candidates) tasks.push_back(*sc.snapshot.FindTask(c));
  const auto names = [&](const std::vector<TaskIndex>& got) {
    std::vector<std::string> out;
    for (TaskIndex t : got) out.push_back(sc.snapshot.tasks()[static_cast<size_t>(t)].key);
    return out;
  };
  return {names(ssn.Preemptable(tasks.front(), tasks)), names(ssn.Reclaimable(tasks.front(), tasks)),
          names(ssn.VictimTasks(tasks))};
}

const std::string kJob1 = "{volcano.sh/job-name: job-1}";
const std::string kTwoPods = RunningPod("test-pod1", kJob1) + RunningPod("test-pod2", kJob1);
const std::vector<std::string> kBoth = {"default/test-pod1", "default/test-pod2"};

void CheckAll(const Answers& a, const std::vector<std::string>& expected) {
  CHECK(a.preemptable == expected);
  CHECK(a.reclaimable == expected);
  CHECK(a.victims == expected);
}

TEST_CASE("pdb (Volcano's test): without budgets, every candidate is a victim", "[plugins][pdb]") {
  CheckAll(Ask(kTwoPods, kBoth), kBoth);
}

TEST_CASE("pdb (Volcano's test): a budget allowing 0 disruptions keeps every pod it selects", "[plugins][pdb]") {
  CheckAll(Ask(kTwoPods + Budget("test-pdb", "{matchLabels: " + kJob1 + "}", 0), kBoth), {});
}

TEST_CASE("pdb (Volcano's test): a budget allowing 1 disruption gives the first candidate", "[plugins][pdb]") {
  CheckAll(Ask(kTwoPods + Budget("test-pdb", "{matchLabels: " + kJob1 + "}", 1), kBoth), {"default/test-pod1"});
}

TEST_CASE("pdb: a pod without labels is never a victim, budget or not", "[plugins][pdb]") {
  const std::string objects = RunningPod("bare", "{}") + RunningPod("labelled", kJob1);
  CheckAll(Ask(objects, {"default/bare", "default/labelled"}), {"default/labelled"});
}

TEST_CASE("pdb: an empty selector, or one of another namespace, selects nothing", "[plugins][pdb]") {
  CheckAll(Ask(kTwoPods + Budget("empty", "{}", 0), kBoth), kBoth);
  const std::string other = RunningPod("p1", kJob1, "other") + RunningPod("p2", kJob1, "other");
  CheckAll(Ask(other + Budget("here", "{matchLabels: " + kJob1 + "}", 0), {"other/p1", "other/p2"}),
           {"other/p1", "other/p2"});
}

TEST_CASE("pdb: a pod the budget lists as disrupted takes nothing from it", "[plugins][pdb]") {
  // test-pod1 is already being disrupted: test-pod2 still has the one disruption allowed.
  const std::string budget = Budget("b", "{matchLabels: " + kJob1 + "}", 1, ", disruptedPods: {test-pod1: \"2026-12-01T00:00:00Z\"}");
  CheckAll(Ask(kTwoPods + budget, kBoth), kBoth);
}

TEST_CASE("pdb: every budget that selects a pod counts it, and any one below zero keeps it", "[plugins][pdb]") {
  const std::string pods = RunningPod("a", "{job: j1, idx: \"1\"}") + RunningPod("b", "{job: j1, idx: \"2\"}");
  const std::vector<std::string> ab = {"default/a", "default/b"};
  // narrow keeps a (0 allowed); a still takes wide's only disruption, so b is kept too.
  CheckAll(Ask(pods + Budget("wide", "{matchLabels: {job: j1}}", 1) + Budget("narrow", "{matchLabels: {idx: \"1\"}}", 0), ab),
           {});
  // With two allowed by wide, b is a victim.
  CheckAll(Ask(pods + Budget("wide", "{matchLabels: {job: j1}}", 2) + Budget("narrow", "{matchLabels: {idx: \"1\"}}", 0), ab),
           {"default/b"});
}

TEST_CASE("pdb: each call starts from the budgets' status again", "[plugins][pdb]") {
  const Scenario sc = testing::LoadInline(absl::StrCat(kBase, kTwoPods, Budget("b", "{matchLabels: " + kJob1 + "}", 1)));
  Session ssn(sc.snapshot, *sc.config, 0, "s");
  std::vector<std::unique_ptr<Plugin>> plugins;
  testing::OpenPluginsForTesting(ssn, *sc.config, plugins);
  const TaskIndex t2 = *sc.snapshot.FindTask("default/test-pod2");
  const std::vector<TaskIndex> one = {t2};
  CHECK(ssn.Preemptable(t2, one) == one);
  CHECK(ssn.Preemptable(t2, one) == one);
}

TEST_CASE("pdb: shuffle evicts what the victim function names", "[plugins][pdb][shuffle]") {
  const Scenario sc = testing::LoadInline(
      absl::StrCat(kBase, kTwoPods, RunningPod("free", "{app: web}"), Budget("b", "{matchLabels: " + kJob1 + "}", 1)));
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, RunOptions());
  REQUIRE(d.ok());
  std::vector<std::string> evicted;
  for (const Eviction& e : d->evictions) evicted.push_back(std::string(e.task));
  std::sort(evicted.begin(), evicted.end());
  CHECK(evicted == std::vector<std::string>{"default/free", "default/test-pod1"});
}

}  // namespace
}  // namespace vcsched
