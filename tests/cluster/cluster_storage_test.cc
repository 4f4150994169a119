// A Cluster's storage objects: watch events, the claims a session binds (kept bound for
// the next session), and the state printed and read back.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/scenario.h"
#include "vcsched/io/watch.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

// Two nodes in zones a and b; a WaitForFirstConsumer class without a provisioner; one
// local volume on n2 and one on n1 that is too small; two claims of the class.
constexpr char kState[] = R"(
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec: {drivers: [{name: kubernetes.io/no-provisioner, nodeID: n1, allocatable: {count: 4}}]}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n2}
spec: {drivers: [{name: kubernetes.io/no-provisioner, nodeID: n2}]}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-n2, labels: {topology.kubernetes.io/zone: b}}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local
  local: {path: /mnt/a}
  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n2]}]}]}}
status: {phase: Available}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-n1-small}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local
  local: {path: /mnt/b}
  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1]}]}]}}
status: {phase: Available}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-0, namespace: ns, uid: c0}
spec: {accessModes: [ReadWriteOnce], storageClassName: local, resources: {requests: {storage: 5Gi}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-1, namespace: ns, uid: c1}
spec: {accessModes: [ReadWriteOnce], storageClassName: local, resources: {requests: {storage: 5Gi}}}
)";

std::string PodUsing(const std::string& name, const std::string& claim) {
  return absl::StrCat(R"({"type": "ADDED", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")", name,
                      R"(", "namespace": "ns"}, "spec": {"schedulerName": "volcano", "containers": [{"name": "c",
  "resources": {"requests": {"cpu": "1"}}}], "volumes": [{"name": "d", "persistentVolumeClaim": {"claimName": ")",
                      claim, R"("}}]}}}
)");
}

Cluster Loaded() {
  absl::StatusOr<ScenarioObjects> o = LoadObjects({{"state.yaml", kState}});
  REQUIRE(o.ok());
  Cluster c;
  REQUIRE(PutObjects(*o, c).ok());
  return c;
}

Decisions Run(const Cluster& c) {
  absl::StatusOr<Snapshot> s = c.Snapshot();
  REQUIRE(s.ok());
  absl::StatusOr<Decisions> d = RunSession(*s, DefaultSchedulerConfig());
  REQUIRE(d.ok());
  return *std::move(d);
}

TEST_CASE("Cluster: a claim matched in a session is bound by Apply and stays taken", "[cluster][volumes]") {
  Cluster c = Loaded();
  CHECK(c.storage().claims.size() == 2);
  CHECK(c.storage().volumes.size() == 2);
  CHECK(c.storage().classes.size() == 1);
  CHECK(c.storage().csi_nodes.size() == 2);
  absl::StatusOr<std::vector<WatchEvent>> events = ReadWatchEvents({"events.json", PodUsing("p0", "data-0")});
  REQUIRE(events.ok());
  REQUIRE(ApplyWatchEvent(c, events->front(), nullptr).ok());

  // The only volume large enough is on n2: the pod goes there and takes it.
  const Decisions first = Run(c);
  REQUIRE(first.binds.size() == 1);
  CHECK(first.binds[0].node == "n2");
  REQUIRE(first.volume_bindings.size() == 1);
  CHECK(first.volume_bindings[0].claim == "ns/data-0");
  CHECK(first.volume_bindings[0].volume == "pv-n2");
  CHECK(first.volume_bindings[0].task == "ns/p0");
  const ApplyReport report = c.Apply(first);
  CHECK(report.conflicts.empty());
  const PersistentVolumeClaimSpec& claim = c.storage().claims.at("ns/data-0");
  CHECK(claim.volume_name == "pv-n2");
  CHECK(claim.phase == "Bound");
  CHECK(claim.annotations.count(kAnnBindCompleted) == 1);
  const PersistentVolumeSpec& pv = c.storage().volumes.at("pv-n2");
  REQUIRE(pv.claim_ref.has_value());
  CHECK(pv.claim_ref->name == "data-0");
  CHECK(pv.claim_ref->uid == "c0");
  CHECK(pv.phase == "Bound");

  // A second pod's claim finds no volume left: it waits, and explain's message says so.
  events = ReadWatchEvents({"events.json", PodUsing("p1", "data-1")});
  REQUIRE(events.ok());
  REQUIRE(ApplyWatchEvent(c, events->front(), nullptr).ok());
  const Decisions second = Run(c);
  CHECK(second.binds.empty());
  CHECK(second.volume_bindings.empty());

  // The state printed and read back holds the same storage objects, the binding included.
  const std::string text = ClusterToYaml(c);
  absl::StatusOr<ScenarioObjects> again = LoadObjects({{"again.yaml", text}});
  REQUIRE(again.ok());
  Cluster d;
  REQUIRE(PutObjects(*again, d).ok());
  CHECK(ClusterToYaml(d) == text);
  CHECK(d.storage().claims.at("ns/data-0").volume_name == "pv-n2");
  CHECK(d.storage().volumes.at("pv-n2").claim_ref->name == "data-0");
  CHECK(d.storage().csi_nodes.at("n1").drivers.at(0).allocatable_count == 4);
  CHECK(Run(d).binds.empty());
}

TEST_CASE("Cluster: storage objects come and go by watch events, and a refused one changes nothing", "[cluster][volumes]") {
  Cluster c = Loaded();
  const int64_t before = c.generation();
  absl::StatusOr<std::vector<WatchEvent>> events = ReadWatchEvents({"events.json", R"(
{"type": "DELETED", "object": {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-n1-small"}}}
{"type": "MODIFIED", "object": {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "local"},
  "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "Immediate"}}
{"type": "ADDED", "object": {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "x", "namespace": "ns"},
  "spec": {"storageClassName": "local", "resources": {"requests": {"storage": "-1Gi"}}}}}
{"type": "MODIFIED", "object": {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "n9"}, "spec": {}}}
)"});
  REQUIRE(events.ok());
  REQUIRE(events->size() == 4);
  REQUIRE(ApplyWatchEvent(c, (*events)[0], nullptr).ok());
  CHECK(c.storage().volumes.count("pv-n1-small") == 0);
  REQUIRE(ApplyWatchEvent(c, (*events)[1], nullptr).ok());
  CHECK(c.storage().classes.at("local").volume_binding_mode == "Immediate");
  CHECK_FALSE(ApplyWatchEvent(c, (*events)[2], nullptr).ok());  // a negative request is refused
  CHECK(c.storage().claims.count("ns/x") == 0);
  const absl::Status absent = ApplyWatchEvent(c, (*events)[3], nullptr);
  CHECK(absl::IsNotFound(absent));
  CHECK_THAT(std::string(absent.message()), Catch::Contains("CSINode \"n9\""));
  CHECK(c.generation() > before);
}

}  // namespace
}  // namespace vcsched
