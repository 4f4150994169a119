// The smallest use of the library: a snapshot built in code, Volcano's default
// configuration, one session, the decisions printed.
#include <iostream>

#include "vcsched/vcsched.h"

int main() {
  using namespace vcsched;
  auto res = [](std::vector<std::pair<std::string, std::string>> q) { return *ParseResourceList(q); };
  SnapshotBuilder b;
  for (const char* name : {"node-a", "node-b"}) {
    NodeSpec n;
    n.name = name;
    n.allocatable = res({{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}});
    b.AddNode(n);
  }
  PodGroupSpec pg;
  pg.name = "train";
  pg.namespace_ = "ml";
  pg.min_member = 3;  // a gang: all three or none
  pg.phase = "Inqueue";
  b.AddPodGroup(pg);
  for (int i = 0; i < 3; ++i) {
    PodSpec p;
    p.name = "train-worker-" + std::to_string(i);
    p.namespace_ = "ml";
    p.annotations["scheduling.k8s.io/group-name"] = "train";
    p.containers.push_back({"main", res({{"cpu", "4"}, {"memory", "8Gi"}}), false});
    b.AddPod(p);
  }
  absl::StatusOr<Snapshot> snap = std::move(b).Build();
  if (!snap.ok()) {
    std::cerr << snap.status() << "\n";
    return 1;
  }
  absl::StatusOr<Decisions> d = RunSession(*snap, DefaultSchedulerConfig());
  if (!d.ok()) {
    std::cerr << d.status() << "\n";
    return 1;
  }
  std::cout << d->ToString();
  return 0;
}
