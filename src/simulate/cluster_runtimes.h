// How long a pod of the cluster file runs (SimulationOptions::cluster_runtimes,
// docs/ETA.md "Runtimes"): the first of its own annotation, its PodGroup's, its Volcano
// Job's, its activeDeadlineSeconds and the caller's default.
#ifndef VCSCHED_SRC_SIMULATE_CLUSTER_RUNTIMES_H_
#define VCSCHED_SRC_SIMULATE_CLUSTER_RUNTIMES_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "vcsched/arguments.h"
#include "vcsched/cluster.h"
#include "vcsched/simulate.h"

namespace vcsched::simulate_internal {

struct PodRuntime {
  DurationDistribution runtime;
  // The object the runtime was read from ("pod ns/a", "podgroup ns/g", "job ns/j",
  // "activeDeadlineSeconds", "default"): pods that share it share one draw.
  std::string source;
};

// The pod's runtime, or nullopt when none is known. An annotation that does not parse is
// an error naming the object and the annotation.
absl::StatusOr<std::optional<PodRuntime>> RuntimeOfPod(const Cluster& cluster, const PodSpec& pod,
                                                       const std::optional<int64_t>& default_ms);

}  // namespace vcsched::simulate_internal

#endif  // VCSCHED_SRC_SIMULATE_CLUSTER_RUNTIMES_H_
