// rescheduling (lowNodeUtilization) through shuffle: which pods busy nodes give up, in
// what order, when the room on quiet nodes runs out, and when the strategy is due.
// Volcano HEAD has no unit tests for the plugin; the rules here were checked against it
// with the differential scenarios rr001-rr150 (gen_resched.py).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr int64_t kNow = 1772366400;  // 2026-03-01T12:00:00Z

std::string Config(const std::string& args) {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"shuffle\"\ntiers:\n- plugins:\n"
                      "  - name: rescheduling\n    arguments: ",
                      args, "\n");
}

// thresholds {cpu: 20, memory: 20}, targetThresholds {cpu: 50, memory: 50}, due every
// session, reading the period node metrics are kept for.
std::string Args(const std::string& extra = "interval: 0s, metricsPeriod: 10m") {
  return absl::StrCat("{", extra,
                      ", strategies: [{name: lowNodeUtilization, params: {thresholds: {cpu: 20, memory: 20}, "
                      "targetThresholds: {cpu: 50, memory: 50}}}]}");
}

// A node of 4 cpu / 8Gi with measured load; `more` adds spec or drops capacity.
std::string Node(const std::string& name, double cpu, double mem, const std::string& spec = "",
                 bool capacity = true) {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name,
                      ", annotations: {vcsched.io/cpu-usage-percent: \"", cpu, "\", vcsched.io/memory-usage-percent: \"",
                      mem, "\", vcsched.io/usage-time: \"2026-03-01T12:00:00Z\"}}\nspec: {", spec,
                      "}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}",
                      capacity ? ", capacity: {cpu: \"4\", memory: 8Gi, pods: \"10\"}" : "", "}\n");
}

// A running pod of 1 cpu / 1Gi on `node`; `priority` (spec.priority) and `qos`
// (status.qosClass) when not empty.
std::string Pod(const std::string& name, const std::string& node, const std::string& priority = "",
                const std::string& qos = "") {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: c1, annotations: {scheduling.k8s.io/group-name: pg1}}\n",
                      "spec: {schedulerName: volcano, nodeName: ", node,
                      priority.empty() ? "" : absl::StrCat(", priority: ", priority),
                      ", containers: [{name: c, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]}\nstatus: {phase: "
                      "Running",
                      qos.empty() ? "" : absl::StrCat(", qosClass: ", qos), "}\n");
}

constexpr const char* kGroup =
    "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: pg1, namespace: c1}\n"
    "spec: {minMember: 0}\nstatus: {phase: Running}\n";

// n1 quiet, n2 busy (90% cpu) with four pods, n3 between the thresholds.
std::string Cluster(const std::string& args, const std::string& n1_spec = "") {
  return Config(args) + Node("n1", 10, 10, n1_spec) + Node("n2", 90, 40) + Node("n3", 30, 30) + kGroup +
         Pod("a", "n2", "100", "BestEffort") + Pod("b", "n2", "10", "Burstable") + Pod("c", "n2", "10", "BestEffort") +
         Pod("d", "n2") + Pod("e", "n3");
}

std::vector<std::string> Evicted(const std::string& yaml, SchedulerMemory* memory = nullptr, int64_t now = kNow) {
  const Scenario sc = testing::LoadInline(yaml);
  RunOptions opts;
  opts.now_seconds = now;
  opts.memory = memory;
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
  REQUIRE(d.ok());
  std::vector<std::string> out;
  for (const Eviction& e : d->evictions) out.emplace_back(e.task);
  return out;
}

TEST_CASE("rescheduling: a busy node gives up its lowest-priority, lowest-QoS pods while it stays at the target",
          "[plugins][rescheduling]") {
  // 90% -> 65% -> 40%: two pods; no priority first, then priority 10 best effort before
  // burstable.
  CHECK(Evicted(Cluster(Args())) == std::vector<std::string>{"c1/c", "c1/d"});
}

TEST_CASE("rescheduling: no quiet node, or every node quiet, moves nothing", "[plugins][rescheduling]") {
  SECTION("the only quiet node is unschedulable") {
    CHECK(Evicted(Cluster(Args(), "unschedulable: true")).empty());
  }
  SECTION("metrics for another period: every node reads 0% and is quiet") {
    CHECK(Evicted(Cluster(Args("interval: 0s, metricsPeriod: 5m"))).empty());
    CHECK(Evicted(Cluster(Args("interval: 0s"))).empty());  // 5m by default
  }
  SECTION("the default strategy (thresholds of 100%)") {
    CHECK(Evicted(Cluster("{interval: 0s, metricsPeriod: 10m}")).empty());
  }
  SECTION("only unknown strategies") {
    CHECK(Evicted(Cluster("{interval: 0s, metricsPeriod: 10m, strategies: [{name: highNodeUtilization}]}")).empty());
  }
}

TEST_CASE("rescheduling: the room below the target on quiet nodes stops it when it is exactly used up",
          "[plugins][rescheduling]") {
  // n1 at 0%: room 25% of 4 cpu = 1 cpu and 2Gi; one pod of 1 cpu uses the cpu room up.
  const std::string yaml = Config(absl::StrCat(
                               "{interval: 0s, metricsPeriod: 10m, strategies: [{name: lowNodeUtilization, params: "
                               "{thresholds: {cpu: 20, memory: 20}, targetThresholds: {cpu: 25, memory: 25}}}]}")) +
                           Node("n1", 0, 0) + Node("n2", 95, 10) + kGroup + Pod("a", "n2") + Pod("b", "n2") +
                           Pod("c", "n2");
  CHECK(Evicted(yaml).size() == 1);
}

TEST_CASE("rescheduling: a node without status.capacity gives up one pod (its load turns infinite)",
          "[plugins][rescheduling]") {
  const std::string yaml = Config(Args()) + Node("n1", 10, 10) + Node("n2", 90, 90, "", false) + kGroup +
                           Pod("a", "n2") + Pod("b", "n2") + Pod("c", "n2");
  CHECK(Evicted(yaml) == std::vector<std::string>{"c1/a"});
}

TEST_CASE("rescheduling: the interval is kept in the scheduler's memory", "[plugins][rescheduling]") {
  const std::string yaml = Cluster(Args("interval: 5m, metricsPeriod: 10m"));
  SECTION("without memory, a session is the scheduler's first: not due") {
    CHECK(Evicted(yaml).empty());
  }
  SECTION("due five minutes after the start, then five minutes after that run") {
    SchedulerMemory memory;
    CHECK(Evicted(yaml, &memory, kNow).empty());
    CHECK(memory.started_ms == kNow * 1000);
    CHECK(Evicted(yaml, &memory, kNow + 299).empty());
    CHECK(Evicted(yaml, &memory, kNow + 300).size() == 2);
    CHECK(Evicted(yaml, &memory, kNow + 400).empty());
    CHECK(Evicted(yaml, &memory, kNow + 600).size() == 2);
  }
  SECTION("an unparsable interval is 5m") {
    SchedulerMemory memory;
    const std::string bad = Cluster(Args("interval: soon, metricsPeriod: 10m"));
    CHECK(Evicted(bad, &memory, kNow).empty());
    CHECK(Evicted(bad, &memory, kNow + 300).size() == 2);
  }
}

TEST_CASE("rescheduling: a threshold Volcano cannot read is an error naming it", "[plugins][rescheduling]") {
  const Scenario sc = testing::LoadInline(Config(
                          "{interval: 0s, strategies: [{name: x}, {name: lowNodeUtilization, params: {thresholds: "
                          "{cpu: 20.5}}}]}") +
                      Node("n1", 10, 10));
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config);
  REQUIRE_FALSE(d.ok());
  CHECK_THAT(std::string(d.status().message()), Catch::Contains("strategies[1].params.thresholds.cpu"));
}

}  // namespace
}  // namespace vcsched
