// A host's scheduling loop on a vcsched::Cluster: the host feeds changes (here made up:
// a gang arrives each cycle, bound pods start, running pods succeed after two cycles),
// takes a snapshot, runs a session and applies the decisions back, cycle after cycle.
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "vcsched/vcsched.h"

namespace {

using namespace vcsched;

ResourceList Res(std::vector<std::pair<std::string, std::string>> q) { return *ParseResourceList(q); }

void Check(const absl::Status& s) {
  if (!s.ok()) {
    std::cerr << s << "\n";
    std::exit(1);
  }
}

}  // namespace

int main() {
  Cluster cluster;
  for (const char* name : {"node-a", "node-b", "node-c"}) {
    NodeSpec n;
    n.name = name;
    n.allocatable = Res({{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}});
    Check(cluster.PutNode(n));
  }
  std::map<std::string, int> running_since;  // pod key -> cycle it started
  for (int cycle = 1; cycle <= 6; ++cycle) {
    // What the host saw since the last cycle: a new gang of three 4-cpu pods...
    PodGroupSpec pg;
    pg.name = "job-" + std::to_string(cycle);
    pg.namespace_ = "batch";
    pg.min_member = 3;
    pg.min_resources = Res({{"cpu", "12"}});
    Check(cluster.PutPodGroup(pg));
    for (int i = 0; i < 3; ++i) {
      PodSpec p;
      p.name = pg.name + "-" + std::to_string(i);
      p.namespace_ = "batch";
      p.annotations[std::string(kPodGroupAnnotation)] = pg.name;
      p.containers.push_back({"main", Res({{"cpu", "4"}, {"memory", "4Gi"}}), false});
      Check(cluster.PutPod(p));
    }
    // ... bound pods the kubelet started, and running pods that succeeded.
    std::vector<PodSpec> changed;
    for (const auto& [key, pod] : cluster.pods()) {
      PodSpec next = *pod;  // shared with the snapshots: a change is a new spec
      if (!pod->node_name.empty() && pod->phase == "Pending") {
        next.phase = "Running";
        running_since[key] = cycle;
      } else if (pod->phase == "Running" && cycle - running_since[key] >= 2) {
        next.phase = "Succeeded";
      } else {
        continue;
      }
      changed.push_back(std::move(next));
    }
    for (PodSpec& p : changed) Check(cluster.PutPod(std::move(p)));

    absl::StatusOr<Snapshot> snap = cluster.Snapshot();
    Check(snap.status());
    absl::StatusOr<Decisions> d = RunSession(*snap, DefaultSchedulerConfig());
    Check(d.status());
    const ApplyReport report = cluster.Apply(*d);
    std::cout << "cycle " << cycle << ": " << cluster.pods().size() << " pods, " << report.binds << " bound";
    for (const PodGroupStatus& g : d->pod_groups) {
      if (g.old_phase != g.phase) std::cout << ", " << g.job << " " << g.old_phase << "->" << g.phase;
    }
    std::cout << (report.conflicts.empty() ? "" : ", conflicts") << "\n";
  }
  return 0;
}
