// cdp: Volcano's TestPreemptableFn and Test_CooldownTimePlugin_podPreemptStableTime
// (pkg/scheduler/plugins/cdp/cdp_test.go, HEAD ed72c7c81) converted, with the session's
// clock where the Go test reads the wall clock; then the rules its source follows that
// the test does not pin down (labels before annotations, Running only, the condition's
// time, the boundary).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr int64_t kNow = 1780000000;  // 2026-05-28T20:26:40Z

std::string Time(int64_t seconds) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(seconds), absl::UTCTimeZone());
}

struct PodOptions {
  std::string label;       // volcano.sh/cooldown-time as a label; empty: none
  std::string annotation;  // and as an annotation
  std::string phase = "Running";
  int64_t scheduled_ago = -1;  // seconds before kNow of its PodScheduled condition; -1: none
};

std::string Pod(const std::string& name, const PodOptions& o) {
  std::string meta = absl::StrCat("name: ", name, ", namespace: default");
  meta += o.label.empty() ? ", labels: {volcano.sh/preemptable: \"true\"}"
                          : absl::StrCat(", labels: {volcano.sh/preemptable: \"true\", volcano.sh/cooldown-time: ",
                                         o.label, "}");
  meta += ", annotations: {scheduling.k8s.io/group-name: pg";
  if (!o.annotation.empty()) absl::StrAppend(&meta, ", volcano.sh/cooldown-time: ", o.annotation);
  meta += "}";
  std::string status = absl::StrCat("  phase: ", o.phase, "\n");
  if (o.scheduled_ago >= 0) {
    absl::StrAppend(&status, "  conditions: [{type: Initialized, status: \"True\"}, {type: PodScheduled, status: \"True\", ",
                    "lastTransitionTime: \"", Time(kNow - o.scheduled_ago), "\"}]\n");
  }
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {", meta,
                      "}\nspec: {schedulerName: volcano, nodeName: n1, containers: [{name: c}]}\nstatus:\n", status);
}

constexpr const char* kBase = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "preempt"
tiers:
- plugins:
  - name: cdp
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: default}
spec: {minMember: 1}
status: {phase: Running}
)";

// The candidates Preemptable keeps (and Reclaimable, the same filter) at `now`.
std::vector<std::string> Victims(const std::string& pods, const std::vector<std::string>& candidates,
                                 int64_t now = kNow) {
  const Scenario sc = testing::LoadInline(absl::StrCat(kBase, pods));
  Session ssn(sc.snapshot, *sc.config, now, "s");
  std::vector<std::unique_ptr<Plugin>> plugins;
  testing::OpenPluginsForTesting(ssn, *sc.config, plugins);
  std::vector<TaskIndex> tasks;
  for (const std::string& c : candidates) tasks.push_back(*sc.snapshot.FindTask("default/" + c));
  const auto keys = [&](const std::vector<TaskIndex>& got) {
    std::vector<std::string> out;
    for (TaskIndex t : got) out.push_back(sc.snapshot.tasks()[static_cast<size_t>(t)].key);
    return out;
  };
  const std::vector<std::string> preempt = keys(ssn.Preemptable(tasks.front(), tasks));
  CHECK(keys(ssn.Reclaimable(tasks.front(), tasks)) == preempt);
  return preempt;
}

TEST_CASE("cdp (Volcano's TestPreemptableFn): in cool-down kept, bad duration and past cool-down evictable",
          "[plugins][cdp]") {
  const std::string pods = Pod("task1", {"", "600s", "Running", 100}) + Pod("task2", {"", "600abcde", "Running", 100}) +
                           Pod("task3", {"", "600s", "Running", 800});
  CHECK(Victims(pods, {"task1", "task2", "task3"}) == std::vector<std::string>{"default/task2", "default/task3"});
}

TEST_CASE("cdp: a label is read before an annotation", "[plugins][cdp]") {
  // The label (10s, over) wins over the annotation (1h, not over); a bad label is not
  // replaced by a good annotation.
  CHECK(Victims(Pod("a", {"10s", "1h", "Running", 100}), {"a"}) == std::vector<std::string>{"default/a"});
  CHECK(Victims(Pod("b", {"", "1h", "Running", 100}), {"b"}).empty());
  CHECK(Victims(Pod("c", {"soon", "1h", "Running", 100}), {"c"}) == std::vector<std::string>{"default/c"});
}

TEST_CASE("cdp: only a Running pod with a PodScheduled time is protected, until the instant it ends",
          "[plugins][cdp]") {
  CHECK(Victims(Pod("run", {"", "100s", "Running", 50}), {"run"}).empty());
  CHECK(Victims(Pod("pend", {"", "100s", "Pending", 50}), {"pend"}) == std::vector<std::string>{"default/pend"});
  CHECK(Victims(Pod("nocond", {"", "100s", "Running", -1}), {"nocond"}) == std::vector<std::string>{"default/nocond"});
  // Scheduled at kNow-50 with 100s: protected through kNow+49, evictable from kNow+50.
  CHECK(Victims(Pod("run", {"", "100s", "Running", 50}), {"run"}, kNow + 49).empty());
  CHECK(Victims(Pod("run", {"", "100s", "Running", 50}), {"run"}, kNow + 50) == std::vector<std::string>{"default/run"});
}

}  // namespace
}  // namespace vcsched
