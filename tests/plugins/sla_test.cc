// sla: a job whose waiting time is over is enqueued whatever later tiers say. The
// session's clock is the host's and may be anything an int64 holds: the time waited is
// worked out without wrapping.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

// One 1-cpu node and a job of 2 cpu created at 2026-01-01T00:00:00Z (1767225600): only
// sla (tier 1, one minute) can enqueue it past overcommit (tier 2, factor 1).
constexpr const char* kScenario = R"(apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue"
tiers:
- plugins:
  - name: sla
    arguments: {sla-waiting-time: 1m}
- plugins:
  - name: overcommit
    arguments: {overcommit-factor: 1.0}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {minMember: 1, minResources: {cpu: "2"}}
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, annotations: {scheduling.k8s.io/group-name: pg}}
spec:
  schedulerName: volcano
  containers: [{name: c, resources: {requests: {cpu: "2"}}}]
status: {phase: Pending}
)";

std::string PhaseAt(int64_t now) {
  const Scenario sc = testing::LoadInline(kScenario);
  RunOptions options;
  options.now_seconds = now;
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, options);
  REQUIRE(d.ok());
  REQUIRE(d->pod_groups.size() == 1);
  return std::string(d->pod_groups[0].phase);
}

TEST_CASE("sla: the waiting time decides, at any clock an int64 holds", "[plugins][sla]") {
  constexpr int64_t kCreated = 1767225600;
  CHECK(PhaseAt(kCreated + 59) == "Pending");
  CHECK(PhaseAt(kCreated + 60) == "Inqueue");
  // Far past and far future: a wrapped difference would turn one into the other.
  CHECK(PhaseAt(std::numeric_limits<int64_t>::min()) == "Pending");
  CHECK(PhaseAt(std::numeric_limits<int64_t>::max()) == "Inqueue");
}

}  // namespace
}  // namespace vcsched
