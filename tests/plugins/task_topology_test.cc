// task-topology: Volcano's Test_readTopologyFromPgAnnotations
// (pkg/scheduler/plugins/task-topology/topology_test.go, HEAD ed72c7c81) converted into
// what a session shows of it: a job whose annotations Volcano reads gets buckets, so its
// pods with a topology go before those without; one whose annotations Volcano refuses
// (a task the job lacks, a name given twice in a group) gets none. Then the bucket score.
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

std::string Pod(const std::string& name, const std::string& role, const std::string& node = "",
                const std::string& cpu = "1") {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: default, labels: {volcano.sh/task-spec: ", role,
                      "}, annotations: {scheduling.k8s.io/group-name: job1, volcano.sh/task-spec: ", role,
                      "}}\nspec: {schedulerName: volcano", node.empty() ? "" : absl::StrCat(", nodeName: ", node),
                      ", containers: [{name: c, resources: {requests: {cpu: \"", cpu, "\"}}}]}\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

std::string Job(const std::string& annotations, const std::string& pods) {
  return absl::StrCat(R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "allocate"
tiers:
- plugins:
  - name: task-topology
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: job1, namespace: default, annotations: {)",
                      annotations, "}}\nspec: {minMember: 1}\nstatus: {phase: Inqueue}\n", pods);
}

struct Opened {
  Scenario sc;
  std::unique_ptr<Session> ssn;
  std::vector<std::unique_ptr<Plugin>> plugins;
  TaskIndex Task(const std::string& name) const { return *sc.snapshot.FindTask("default/" + name); }
};

std::unique_ptr<Opened> Open(const std::string& yaml) {
  auto o = std::make_unique<Opened>();
  o->sc = testing::LoadInline(yaml);
  o->ssn = std::make_unique<Session>(o->sc.snapshot, *o->sc.config, 0, "s");
  testing::OpenPluginsForTesting(*o->ssn, *o->sc.config, o->plugins);
  return o;
}

// The job of the Go test's cases: ps x2, worker x2, chief, evaluator. The evaluator's pod
// sorts first by name, so it goes first unless buckets put the others before it.
const std::string kPods = Pod("a-evaluator-0", "evaluator") + Pod("job1-ps-0", "ps") + Pod("job1-ps-1", "ps") +
                          Pod("job1-worker-0", "worker") + Pod("job1-worker-1", "worker") + Pod("job1-chief-0", "chief");

bool Bucketed(const std::string& annotations, const std::string& pods = kPods) {
  auto o = Open(Job(annotations, pods));
  return o->ssn->TaskOrderLess(o->Task("job1-ps-0"), o->Task("a-evaluator-0"));
}

TEST_CASE("task-topology (Volcano's Test_readTopologyFromPgAnnotations): which annotations make buckets",
          "[plugins][task-topology]") {
  CHECK(Bucketed("volcano.sh/task-topology-affinity: \"ps,worker;ps,chief\", volcano.sh/task-topology-anti-affinity: "
                 "\"ps;worker,chief\", volcano.sh/task-topology-task-order: \"ps,worker,chief,evaluator\""));
  CHECK_FALSE(Bucketed(""));  // no annotation: no topology
  // A name the job has no task of, and empty groups and names that are skipped but not the
  // unknown ones: refused.
  CHECK_FALSE(Bucketed("volcano.sh/task-topology-affinity: \"$%GF$^trtqwrg^\", "
                       "volcano.sh/task-topology-anti-affinity: \"ps;worker,chief;#@FGEW^vfa897bgs;;\", "
                       "volcano.sh/task-topology-task-order: \"ps,worker,chief,evaluator,,,\""));
  const std::string two_roles = Pod("a-evaluator-0", "") + Pod("job1-ps-0", "ps") + Pod("job1-ps-1", "ps") +
                                Pod("job1-worker-0", "worker") + Pod("job1-worker-1", "worker");
  CHECK_FALSE(Bucketed("volcano.sh/task-topology-affinity: \"ps,worker\", volcano.sh/task-topology-anti-affinity: "
                       "\"ps\", volcano.sh/task-topology-task-order: \"ps,worker,chief\"",
                       two_roles));  // chief is no task of the job
  CHECK_FALSE(Bucketed("volcano.sh/task-topology-affinity: \"ps,worker\", volcano.sh/task-topology-anti-affinity: "
                       "\"ps,ps\", volcano.sh/task-topology-task-order: \"ps,worker\"",
                       two_roles));  // ps twice in one group
  CHECK(Bucketed("volcano.sh/task-topology-affinity: \"ps,worker\"", two_roles));
  // Names are not trimmed: " worker" is no task.
  CHECK_FALSE(Bucketed("volcano.sh/task-topology-affinity: \"ps, worker\"", two_roles));
}

TEST_CASE("task-topology: a bucket pulls its pods to the node its placed pods share", "[plugins][task-topology]") {
  // ps and worker want each other; job1-ps-0 already runs on n2. The pending worker's
  // bucket (with that ps) scores n2 above n1.
  auto o = Open(Job("volcano.sh/task-topology-affinity: \"ps,worker\"",
                    Pod("job1-ps-0", "ps", "n2") + Pod("job1-worker-0", "worker")));
  const TaskIndex w = o->Task("job1-worker-0");
  std::vector<NodeIndex> nodes{*o->sc.snapshot.FindNode("n1"), *o->sc.snapshot.FindNode("n2")};
  std::vector<double> scores(2);
  o->ssn->ScoreNodes(w, nodes, absl::MakeSpan(scores));
  // n1: 1 pending pod in the bucket; n2: also 1 placed there; max bucket size 2.
  CHECK(scores[0] == Approx(50));
  CHECK(scores[1] == Approx(100));
  absl::StatusOr<Decisions> d = RunSession(o->sc.snapshot, *o->sc.config);
  REQUIRE(d.ok());
  CHECK(testing::BindStrings(*d) == std::vector<std::string>{"default/job1-worker-0->n2"});
}

}  // namespace
}  // namespace vcsched
