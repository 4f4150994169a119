// Builds a snapshot in code and loads one from YAML text, runs a session on each, and
// prints what it decided: the installed headers, libraries and version macro at work.
#include <iostream>

#include "vcsched/io/scenario.h"
#include "vcsched/vcsched.h"

int main() {
  static_assert(VCSCHED_VERSION >= 200, "the version macro is defined");
  using vcsched::ParseResourceList;
  vcsched::SnapshotBuilder b;
  vcsched::NodeSpec node;
  node.name = "n1";
  node.allocatable = *ParseResourceList({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "10"}});
  b.AddNode(node);
  vcsched::PodGroupSpec group;
  group.name = "g";
  group.namespace_ = "ns";
  group.min_member = 1;
  group.phase = "Inqueue";
  b.AddPodGroup(group);
  vcsched::PodSpec pod;
  pod.name = "p";
  pod.namespace_ = "ns";
  pod.annotations["scheduling.k8s.io/group-name"] = "g";
  pod.containers.push_back({"main", *ParseResourceList({{"cpu", "1"}}), false});
  b.AddPod(pod);
  absl::StatusOr<vcsched::Snapshot> snap = std::move(b).Build();
  if (!snap.ok()) {
    std::cerr << snap.status() << "\n";
    return 1;
  }
  absl::StatusOr<vcsched::Decisions> d = vcsched::RunSession(*snap, vcsched::DefaultSchedulerConfig());
  absl::StatusOr<vcsched::Scenario> sc = vcsched::LoadScenario({{"inline.yaml", R"(
apiVersion: v1
kind: Node
metadata: {name: big}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: default}
spec:
  schedulerName: volcano
  containers: [{name: c, resources: {requests: {cpu: "2"}}}]
)"}});
  if (!d.ok() || !sc.ok()) {
    std::cerr << (d.ok() ? sc.status() : d.status()) << "\n";
    return 1;
  }
  absl::StatusOr<vcsched::Decisions> loaded = vcsched::RunSession(sc->snapshot, vcsched::DefaultSchedulerConfig());
  if (!loaded.ok()) return 1;
  std::cout << "vcsched " << VCSCHED_VERSION_STRING << ": " << d->binds.size() << " + " << loaded->binds.size()
            << " binds\n";
  return d->binds.size() == 1 && loaded->binds.size() == 1 ? 0 : 1;
}
