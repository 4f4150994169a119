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

// `jobs` gangs of `replicas` pods (minMember = replicas) over `nodes` nodes. With
// `volumes_per_node` > 0, the shape of a cluster of local disks: each node holds that many
// local PersistentVolumes (pinned to its hostname, 50-400Gi), and every pod mounts a claim
// of their WaitForFirstConsumer class (10-100Gi) that VolumeBinding must match on each node.
inline Snapshot SyntheticCluster(int nodes, int jobs, int replicas, uint64_t seed, int node_cpu = 32,
                                 int volumes_per_node = 0) {
  std::mt19937_64 rng(seed);
  const int sizes[][2] = {{1, 2}, {1, 4}, {2, 8}, {4, 16}, {8, 32}};
  SnapshotOptions options;
  options.ignored_provisioners = {"kubernetes.io/no-provisioner"};
  SnapshotBuilder b(options);
  if (volumes_per_node > 0) {
    StorageClassSpec sc;
    sc.name = "local";
    sc.provisioner = "kubernetes.io/no-provisioner";
    sc.volume_binding_mode = "WaitForFirstConsumer";
    b.AddStorageClass(sc);
  }
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
    ns.labels["kubernetes.io/hostname"] = ns.name;
    for (int v = 0; v < volumes_per_node; ++v) {
      PersistentVolumeSpec pv;
      pv.name = absl::StrCat(ns.name, "-disk-", v);
      pv.storage_class_name = "local";
      pv.capacity = int64_t{50 << (v % 4)} << 30;
      pv.access_modes = {"ReadWriteOnce"};
      pv.has_node_affinity = true;
      pv.node_affinity.push_back({{{"kubernetes.io/hostname", LabelSelectorRequirement::Operator::kIn, {ns.name}}}, {}});
      pv.phase = "Available";
      b.AddPersistentVolume(std::move(pv));
    }
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
      if (volumes_per_node > 0) {
        PersistentVolumeClaimSpec c;
        c.name = absl::StrCat(p.name, "-data");
        c.namespace_ = p.namespace_;
        c.storage_class_name = "local";
        c.access_modes = {"ReadWriteOnce"};
        c.storage_request = int64_t{10 * (1 + static_cast<int>(rng() % 10))} << 30;
        p.volume_claims.push_back({"data", c.name});
        b.AddPersistentVolumeClaim(std::move(c));
      }
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
