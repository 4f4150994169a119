// resourcequota: what Volcano's five tests (tests/volcano-cases/resourcequota-*.yaml) do
// not pin down, each checked with Volcano HEAD through the harness when written: names
// compared exactly, status read and spec not, what a session admitted counted against
// the next PodGroup, every quota of the namespace asked, and the explanation's numbers.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/explain.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr const char* kBase = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue"
tiers:
- plugins:
  - name: resourcequota
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "64", memory: 64Gi, pods: "100"}}
)";

std::string Group(const std::string& ns, const std::string& name, const std::string& min_resources,
                  const std::string& created = "2026-12-01T00:00:00Z") {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
                      ", namespace: ", ns, ", creationTimestamp: \"", created, "\"}\nspec: {minMember: 1, minResources: ",
                      min_resources, "}\nstatus: {phase: Pending}\n");
}

std::string Quota(const std::string& ns, const std::string& name, const std::string& status,
                  const std::string& spec = "{}") {
  return absl::StrCat("---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: ", name, ", namespace: ", ns,
                      "}\nspec: ", spec, "\nstatus: ", status, "\n");
}

std::map<std::string, std::string> Phases(const std::string& objects) {
  const Scenario sc = testing::LoadInline(absl::StrCat(kBase, objects));
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, RunOptions());
  REQUIRE(d.ok());
  std::map<std::string, std::string> out;
  for (const PodGroupStatus& g : d->pod_groups) out[std::string(g.job)] = std::string(g.phase);
  return out;
}

// The phase of the one PodGroup whose key starts with `prefix` (a Job's is <job>-<uid>).
std::string PhaseOf(const std::map<std::string, std::string>& phases, const std::string& prefix) {
  for (const auto& [key, phase] : phases) {
    if (key.rfind(prefix, 0) == 0) return phase;
  }
  return "";
}

TEST_CASE("resourcequota: names are compared exactly (requests.cpu is not cpu)", "[plugins][resourcequota]") {
  const std::string quota = Quota("ns", "q", "{hard: {requests.cpu: \"2\"}}");
  CHECK(Phases(quota + Group("ns", "plain", "{cpu: \"4\"}"))["ns/plain"] == "Inqueue");
  CHECK(Phases(quota + Group("ns", "named", "{cpu: \"4\", requests.cpu: \"4\"}"))["ns/named"] == "Pending");
}

TEST_CASE("resourcequota: status is read, spec is not", "[plugins][resourcequota]") {
  // Only spec.hard: the quota controller has not filled status yet; Volcano limits nothing.
  const Scenario sc = testing::LoadInline(absl::StrCat(
      kBase, Quota("ns", "q", "{}", "{hard: {cpu: \"1\"}}"), Group("ns", "big", "{cpu: \"4\"}")));
  bool warned = false;
  for (const std::string& w : sc.warnings) warned = warned || w.find("status.hard: is empty") != std::string::npos;
  CHECK(warned);
  CHECK(Phases(absl::StrCat(Quota("ns", "q", "{}", "{hard: {cpu: \"1\"}}"), Group("ns", "big", "{cpu: \"4\"}")))["ns/big"] ==
        "Inqueue");
}

TEST_CASE("resourcequota: what the session admitted counts against the next PodGroup", "[plugins][resourcequota]") {
  // used 1 of 4: first (2) fits, second (2 more) does not; another namespace is not limited.
  const auto phases = Phases(Quota("ns", "q", "{hard: {cpu: \"4\"}, used: {cpu: \"1\"}}") +
                             Group("ns", "first", "{cpu: \"2\"}", "2026-12-01T00:00:00Z") +
                             Group("ns", "second", "{cpu: \"2\"}", "2026-12-01T00:00:01Z") +
                             Group("other", "third", "{cpu: \"2\"}", "2026-12-01T00:00:02Z"));
  CHECK(phases.at("ns/first") == "Inqueue");
  CHECK(phases.at("ns/second") == "Pending");
  CHECK(phases.at("other/third") == "Inqueue");
}

TEST_CASE("resourcequota: every quota of the namespace must allow it", "[plugins][resourcequota]") {
  const std::string quotas = Quota("ns", "cpu", "{hard: {cpu: \"8\"}}") + Quota("ns", "mem", "{hard: {memory: 1Gi}}");
  CHECK(Phases(quotas + Group("ns", "small", "{cpu: \"2\", memory: 512Mi}"))["ns/small"] == "Inqueue");
  CHECK(Phases(quotas + Group("ns", "hungry", "{cpu: \"2\", memory: 2Gi}"))["ns/hungry"] == "Pending");
}

TEST_CASE("resourcequota: a Volcano Job's PodGroup carries the names quotas use", "[plugins][resourcequota]") {
  // The job controller writes requests.cpu, pods and count/pods into minResources.
  const std::string job = R"(---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: train, namespace: ns}
spec:
  minAvailable: 3
  schedulerName: volcano
  tasks:
  - name: worker
    replicas: 3
    template:
      spec:
        containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
)";
  CHECK(PhaseOf(Phases(Quota("ns", "q", "{hard: {count/pods: \"2\"}}") + job), "ns/train-") == "Pending");
  CHECK(PhaseOf(Phases(Quota("ns", "q", "{hard: {count/pods: \"3\", requests.cpu: \"3\"}}") + job), "ns/train-") ==
        "Inqueue");
  CHECK(PhaseOf(Phases(Quota("ns", "q", "{hard: {requests.cpu: 2500m}}") + job), "ns/train-") == "Pending");
}

TEST_CASE("resourcequota: explain names the quota and its numbers", "[plugins][resourcequota][explain]") {
  const Scenario sc = testing::LoadInline(absl::StrCat(kBase, Quota("ns", "q", "{hard: {cpu: \"4\"}, used: {cpu: \"3\"}}"),
                                                       Group("ns", "big", "{cpu: \"2\", memory: 1Gi}")));
  absl::StatusOr<ExplainResult> e = Explain(sc.snapshot, *sc.config);
  REQUIRE(e.ok());
  const JobExplanation* job = nullptr;
  for (const JobExplanation& j : e->explanation.jobs) {
    if (j.job == "ns/big") job = &j;
  }
  REQUIRE(job != nullptr);
  CHECK(job->reason == "ResourceQuotaExceeded");
  CHECK(job->message ==
        "resource quota insufficient, requested: cpu=2, used: cpu=3, limited: cpu=4 (ResourceQuota ns/q)");
}

}  // namespace
}  // namespace vcsched
