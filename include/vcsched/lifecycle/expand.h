// What Volcano's job controller creates for a Job (docs/reference/lifecycle.md §3–§5): one
// PodGroup, the pods `<job>-<task>-<index>`, and the job plugins' objects (headless
// Service, NetworkPolicy, hosts ConfigMap, ssh Secret, PVCs), as Kubernetes objects.
//
// Deterministic: names Volcano draws at random (PVC suffixes) come from a hash of the job;
// ssh key material comes from the host's SshKeySource, never from the library.
#ifndef VCSCHED_LIFECYCLE_EXPAND_H_
#define VCSCHED_LIFECYCLE_EXPAND_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vcsched/lifecycle/job.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle {

struct SshKeyPair {
  std::string private_key;  // PEM text
  std::string public_key;   // authorized_keys line
};
// Produces the ssh plugin's key pair for a job. The host chooses how: generate RSA keys,
// fetch them from a vault, or return fixed keys in tests.
using SshKeySource = std::function<absl::StatusOr<SshKeyPair>(const VolcanoJob& job)>;

struct ExpandOptions {
  // PriorityClass name -> value; orders tasks for minResources (unknown: 0).
  std::map<std::string, int32_t> priority_classes;
  // Required when the job has the ssh plugin without --ssh-private-key/--ssh-public-key.
  SshKeySource ssh_keys;
  // status.version and status.retryCount of the job, stamped on pods.
  int32_t job_version = 0;
  int32_t retry_count = 0;
  // Only pods of these tasks are created (dependsOn not yet met for the others); empty
  // means every task.
  std::vector<std::string> only_tasks;
  // Largest number of pods a job may expand to; a larger job is an error rather than an
  // allocation the host did not expect. Default: 100,000.
  int64_t max_pods = 100000;
};

struct Expansion {
  Value pod_group;
  std::vector<Value> pods;
  // Service, NetworkPolicy, ConfigMap, Secret and PersistentVolumeClaim objects, in the
  // order the controller creates them.
  std::vector<Value> plugin_objects;

  // Every object: the PodGroup, the plugin objects, then the pods.
  std::vector<const Value*> All() const;
};

// Expands a job that passed admission (MutateJob then ValidateJob). Fails on plugin
// arguments it cannot use and when ssh keys are needed and none can be had.
absl::StatusOr<Expansion> ExpandJob(const VolcanoJob& job, const ExpandOptions& options = {});

// The same objects, in the same order (PodGroup, plugin objects, pods), handed to `emit`
// one at a time as they are made: memory stays that of a few pods whatever the
// replicas. Nothing is emitted when the expansion fails before its first pod.
using ObjectSink = std::function<void(Value object)>;
absl::Status ExpandJobTo(const VolcanoJob& job, const ExpandOptions& options, const ObjectSink& emit);

// The PodGroup name Volcano gives a job: `<job>-<uid>`.
std::string PodGroupNameOf(const VolcanoJob& job);
// The pod name `<job>-<task>-<index>`.
std::string PodNameOf(const VolcanoJob& job, const std::string& task, int32_t index);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_EXPAND_H_
