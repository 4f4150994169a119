// Explain on the namespace policies: a ResourceQuota that refuses a PodGroup at enqueue
// (ResourceQuotaExceeded, its numbers, the raise-quota hint) and a PodDisruptionBudget
// that keeps preemption's victims (DisruptionBudgetProtected, the allow-disruptions
// hint), each hint checked by a re-run.
#include <catch2/catch.hpp>

#include <string>

#include "absl/strings/str_cat.h"
#include "vcsched/explain.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

const JobExplanation& JobOf(const ExplainResult& r, const std::string& key) {
  for (const JobExplanation& j : r.explanation.jobs) {
    if (j.job == key) return j;
  }
  FAIL("no explanation for " << key);
  std::abort();
}

const Hint* HintOf(const JobExplanation& e, const std::string& kind) {
  for (const Hint& h : e.hints) {
    if (h.kind == kind) return &h;
  }
  return nullptr;
}

ExplainResult Run(const std::string& yaml) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"inline.yaml", yaml}});
  REQUIRE(sc.ok());
  absl::StatusOr<ExplainResult> r = Explain(sc->snapshot, *sc->config, ExplainOptions{});
  REQUIRE(r.ok());
  return *std::move(r);
}

constexpr char kNode[] = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "10"}}
)";

std::string Pod(const std::string& name, const std::string& group, const std::string& extra_meta,
                const std::string& node, const std::string& priority_class = "") {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name, ", namespace: ns", extra_meta,
                      ", annotations: {scheduling.k8s.io/group-name: ", group, "}}\nspec: {schedulerName: volcano",
                      node.empty() ? "" : ", nodeName: " + node,
                      priority_class.empty() ? "" : ", priorityClassName: " + priority_class,
                      ", containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

TEST_CASE("Explain: a ResourceQuota's refusal, its numbers and the quota that admits the job",
          "[explain][resourcequota]") {
  const std::string yaml = absl::StrCat(R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate"
tiers:
- plugins:
  - name: gang
  - name: resourcequota
- plugins:
  - name: predicates
  - name: proportion
---
)", kNode, R"(---
apiVersion: v1
kind: ResourceQuota
metadata: {name: team, namespace: ns}
spec: {hard: {requests.cpu: "2", count/pods: "5"}}
status: {hard: {requests.cpu: "2", count/pods: "5"}, used: {requests.cpu: 1500m, count/pods: "1"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: g, namespace: ns}
spec: {minMember: 1, minResources: {cpu: "1", requests.cpu: "1", count/pods: "1"}}
status: {phase: Pending}
)", Pod("g-0", "g", "", ""));
  const ExplainResult r = Run(yaml);
  const JobExplanation& e = JobOf(r, "ns/g");
  CHECK(e.reason == "ResourceQuotaExceeded");
  CHECK(e.stage == "enqueue");
  CHECK(e.message ==
        "resource quota insufficient, requested: requests.cpu=1, used: requests.cpu=1500m, limited: requests.cpu=2 "
        "(ResourceQuota ns/team)");
  CHECK(e.check == CheckNumbers{{"resourcequota", "ns/team"},
                                {"requests.cpu.requested", "1"},
                                {"requests.cpu.used", "1500m"},
                                {"requests.cpu.admitted", "0"},
                                {"requests.cpu.hard", "2"}});
  const Hint* h = HintOf(e, "raise-quota");
  REQUIRE(h != nullptr);
  CHECK(h->change == "raise ResourceQuota ns/team's hard requests.cpu from 2 to 2500m");
  CHECK(h->target == "ns/team");
}

TEST_CASE("Explain: a budget that kept preemption's victims, and how many more disruptions run the job",
          "[explain][pdb]") {
  const std::string yaml = absl::StrCat(R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate, preempt"
tiers:
- plugins:
  - name: priority
  - name: gang
  - name: pdb
- plugins:
  - name: predicates
  - name: proportion
---
)", kNode, R"(---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: ns}
spec: {minAvailable: 2, selector: {matchLabels: {app: web}}}
status: {disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: web, namespace: ns}
spec: {minMember: 1}
status: {phase: Running}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: urgent, namespace: ns}
spec: {minMember: 1, priorityClassName: high}
status: {phase: Inqueue}
)", Pod("web-0", "web", ", labels: {app: web}", "n1"), Pod("web-1", "web", ", labels: {app: web}", "n1"),
                                        Pod("urgent-0", "urgent", "", "", "high"));
  const ExplainResult r = Run(yaml);
  CHECK(r.decisions.evictions.empty());
  const JobExplanation& e = JobOf(r, "ns/urgent");
  CHECK(std::find(e.causes.begin(), e.causes.end(), "DisruptionBudgetProtected") != e.causes.end());
  const Hint* h = HintOf(e, "allow-disruptions");
  REQUIRE(h != nullptr);
  CHECK(h->target == "ns/web");
  CHECK(h->amount == 1);
  CHECK(h->change ==
        "let PodDisruptionBudget ns/web allow 1 more disruption (disruptionsAllowed 0 -> 1: lower spec.minAvailable or "
        "raise spec.maxUnavailable)");
}

}  // namespace
}  // namespace vcsched
