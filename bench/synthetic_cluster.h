// Seeded synthetic clusters for benchmarks, shaped like bench/genload.py's: identical
// 32-cpu nodes, weighted queues, gang jobs of one pod size each, all pending.
#ifndef VCSCHED_BENCH_SYNTHETIC_CLUSTER_H_
#define VCSCHED_BENCH_SYNTHETIC_CLUSTER_H_

#include <cstdint>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "vcsched/vcsched.h"

namespace vcsched::bench {

inline ResourceList Quantities(std::vector<std::pair<std::string, std::string>> q) {
  return *ParseResourceList(q);
}

// `jobs` gangs of `replicas` pods (minMember = replicas) over `nodes` nodes.
inline Snapshot SyntheticCluster(int nodes, int jobs, int replicas, uint64_t seed, int node_cpu = 32) {
  std::mt19937_64 rng(seed);
  const int sizes[][2] = {{1, 2}, {1, 4}, {2, 8}, {4, 16}, {8, 32}};
  SnapshotBuilder b;
  for (int q = 0; q < 4; ++q) {
    QueueSpec qs;
    qs.name = absl::StrCat("q", q);
    qs.weight = q + 1;
    b.AddQueue(qs);
  }
  for (int n = 0; n < nodes; ++n) {
    NodeSpec ns;
    ns.name = absl::StrCat("node-", n);
    ns.labels["zone"] = absl::StrCat("z", n % 4);
    ns.allocatable = Quantities({{"cpu", absl::StrCat(node_cpu)}, {"memory", "256Gi"}, {"pods", "110"}});
    b.AddNode(ns);
  }
  for (int j = 0; j < jobs; ++j) {
    const auto* size = sizes[rng() % 5];
    PodGroupSpec g;
    g.name = absl::StrCat("job-", j);
    g.namespace_ = absl::StrCat("ns", j % 8);
    g.min_member = replicas;
    g.queue = absl::StrCat("q", j % 4);
    g.creation_time = j;
    g.phase = "Pending";
    g.min_resources = Quantities({{"cpu", absl::StrCat(size[0] * replicas)}, {"memory", absl::StrCat(size[1] * replicas, "Gi")}});
    b.AddPodGroup(g);
    for (int r = 0; r < replicas; ++r) {
      PodSpec p;
      p.name = absl::StrCat(g.name, "-worker-", r);
      p.namespace_ = g.namespace_;
      p.creation_time = j;
      p.annotations["scheduling.k8s.io/group-name"] = g.name;
      p.containers.push_back({"main", Quantities({{"cpu", absl::StrCat(size[0])}, {"memory", absl::StrCat(size[1], "Gi")}}), false});
      b.AddPod(std::move(p));
    }
  }
  return *std::move(b).Build();
}

// genload.py's configuration: the default tiers plus binpack.
inline SchedulerConfig GenloadConfig() {
  SchedulerConfig c = DefaultSchedulerConfig();
  c.tiers[1].plugins.push_back({"binpack", {}, {}});
  c.ApplyDefaults();
  return c;
}

}  // namespace vcsched::bench

#endif  // VCSCHED_BENCH_SYNTHETIC_CLUSTER_H_
