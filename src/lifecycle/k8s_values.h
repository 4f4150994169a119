// Small builders for the Kubernetes objects the lifecycle code writes.
#ifndef VCSCHED_SRC_LIFECYCLE_K8S_VALUES_H_
#define VCSCHED_SRC_LIFECYCLE_K8S_VALUES_H_

#include <map>
#include <string>

#include "vcsched/lifecycle/job.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle::internal {

// apiVersion, kind and metadata {name, namespace}.
Value NewObject(const std::string& api_version, const std::string& kind, const std::string& name,
                const std::string& namespace_);
// metadata.ownerReferences: the job as controller.
void SetJobOwner(Value& object, const VolcanoJob& job);
Value StringMapValue(const std::map<std::string, std::string>& map);
// Every container and init container of a pod spec.
template <typename F>
void ForEachContainer(Value& pod_spec, F&& f) {
  for (const char* kind : {"containers", "initContainers"}) {
    Value* list = pod_spec.Find(kind);
    if (list == nullptr || !list->is_list()) continue;
    for (Value& c : list->items()) f(c);
  }
}
// Appends env var {name, value} unless the container already has one of that name.
void AddEnv(Value& container, const std::string& name, Value env_entry);
void AddEnvValue(Value& container, const std::string& name, const std::string& value);
// Appends a volume to the pod spec and a mount to every container (skipping duplicates).
void AddVolume(Value& pod_spec, Value volume, const std::string& mount_path);
// The value of a "--flag=value" plugin argument, or `fallback`.
std::string PluginFlag(const std::vector<std::string>& args, const std::string& flag, const std::string& fallback);

}  // namespace vcsched::lifecycle::internal

#endif  // VCSCHED_SRC_LIFECYCLE_K8S_VALUES_H_
