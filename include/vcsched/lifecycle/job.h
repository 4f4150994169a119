// The Volcano Job (`batch.volcano.sh/v1alpha1`, kind Job) as typed data, read from a
// document tree. Reading reports wrongly typed fields with their paths; Volcano's
// admission rules are in admission.h.
#ifndef VCSCHED_LIFECYCLE_JOB_H_
#define VCSCHED_LIFECYCLE_JOB_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vcsched/lifecycle/findings.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle {

struct ObjectMeta {
  std::string name;
  std::string namespace_ = "default";
  // The object's UID. When the manifest has none (a file not yet submitted), a stable
  // one derived from namespace and name is used, so expansion is deterministic.
  std::string uid;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::string creation_timestamp;  // RFC 3339 text as given; empty when unset
};

struct LifecyclePolicy {
  std::vector<std::string> events;  // `event` (first, when set) and `events`
  std::string action;
  std::optional<int32_t> exit_code;
  std::optional<int64_t> timeout_seconds;  // parsed from a Go duration ("10m")
};

struct TaskDependsOn {
  std::vector<std::string> names;
  std::string iteration;  // "any" or "all" (empty: all)
};

struct PartitionPolicy {
  int32_t total_partitions = 0;
  int32_t partition_size = 0;
  int32_t min_partitions = 0;
  Value network_topology;
};

struct JobTask {
  std::string name;
  int32_t replicas = 0;
  std::optional<int32_t> min_available;
  Value pod_template;  // metadata + spec, kept whole for expansion
  std::vector<LifecyclePolicy> policies;
  std::string topology_policy;
  std::optional<int32_t> max_retry;
  std::optional<TaskDependsOn> depends_on;
  std::optional<PartitionPolicy> partition_policy;
};

struct JobVolume {
  std::string mount_path;
  std::string volume_claim_name;
  Value volume_claim;  // PVC spec to create; null when absent
};

struct VolcanoJob {
  ObjectMeta metadata;
  std::string scheduler_name;
  std::optional<int32_t> min_available;
  std::optional<int32_t> min_success;
  std::vector<JobTask> tasks;
  std::vector<LifecyclePolicy> policies;
  // Plugin name -> its arguments, in document order.
  std::vector<std::pair<std::string, std::vector<std::string>>> plugins;
  std::string queue;
  std::optional<int32_t> max_retry;
  std::optional<int32_t> ttl_seconds_after_finished;
  std::string priority_class_name;
  std::vector<JobVolume> volumes;
  Value network_topology;

  const JobTask* FindTask(const std::string& name) const;
  bool HasPlugin(const std::string& name) const;
  const std::vector<std::string>* PluginArguments(const std::string& name) const;
  // Σ replicas over tasks.
  int64_t TotalReplicas() const;
};

// The events and actions a lifecycle policy may name (Volcano's order).
const std::vector<std::string>& PolicyEvents();
const std::vector<std::string>& PolicyActions();

// Reads metadata (name, namespace, uid, labels, annotations, creationTimestamp).
ObjectMeta ReadObjectMeta(const Value& doc, Findings* findings);
// Reads a whole Job document (apiVersion/kind are the caller's concern). `spec_path` is
// the path of the spec in messages ("spec", or "spec.jobTemplate.spec" for a CronJob).
VolcanoJob ReadJob(const Value& doc, Findings* findings);
VolcanoJob ReadJobSpec(const Value& spec, const std::string& spec_path, ObjectMeta metadata, Findings* findings);
// Whether two jobs have equal specs (metadata is not compared).
bool SameJobSpec(const VolcanoJob& a, const VolcanoJob& b);
// A stable UID for an object printed without one: UUID-shaped, from namespace/name/kind.
std::string DerivedUid(const std::string& kind, const std::string& namespace_, const std::string& name);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_JOB_H_
