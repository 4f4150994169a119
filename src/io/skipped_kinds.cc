#include "src/io/skipped_kinds.h"


namespace vcsched::io_internal {
namespace {

struct Entry {
  const char* group;  // the apiVersion's group; "" for the core group ("v1")
  const char* kind;
  const char* why;    // nullptr: the plain reason
  bool namespaced = true;
};

constexpr char kControllerWhy[] = "is a controller: the scheduler reads the pods it made, not it";

constexpr Entry kSkipped[] = {
    {"", "Service", nullptr},
    {"", "ConfigMap", nullptr},
    {"", "Secret", nullptr},
    {"", "PersistentVolumeClaim", nullptr},
    {"", "PersistentVolume", nullptr, false},
    {"", "Endpoints", nullptr},
    {"", "Event", nullptr},
    {"", "Namespace", nullptr, false},
    {"", "ServiceAccount", nullptr},
    {"", "LimitRange", nullptr},
    {"", "PodTemplate", nullptr},
    {"", "ReplicationController", kControllerWhy},
    {"", "ResourceQuota", "is read only by the resourcequota plugin, which vcsched does not model"},
    {"apps", "Deployment", kControllerWhy},
    {"apps", "ReplicaSet", kControllerWhy},
    {"apps", "StatefulSet", kControllerWhy},
    {"apps", "DaemonSet", kControllerWhy},
    {"apps", "ControllerRevision", nullptr},
    {"batch", "Job", kControllerWhy},
    {"events.k8s.io", "Event", nullptr},
    {"discovery.k8s.io", "EndpointSlice", nullptr},
    {"networking.k8s.io", "NetworkPolicy", nullptr},
    {"networking.k8s.io", "Ingress", nullptr},
    {"policy", "PodDisruptionBudget", "is read only by the pdb plugin, which vcsched does not model"},
    {"autoscaling", "HorizontalPodAutoscaler", nullptr},
    {"rbac.authorization.k8s.io", "Role", nullptr},
    {"rbac.authorization.k8s.io", "RoleBinding", nullptr},
    {"rbac.authorization.k8s.io", "ClusterRole", nullptr, false},
    {"rbac.authorization.k8s.io", "ClusterRoleBinding", nullptr, false},
    {"storage.k8s.io", "StorageClass", nullptr, false},
    {"coordination.k8s.io", "Lease", nullptr},
    {"apiextensions.k8s.io", "CustomResourceDefinition", nullptr, false},
    {"bus.volcano.sh", "Command", "is an instruction to Volcano's controller, not part of a scheduling snapshot"},
    {"topology.volcano.sh", "HyperNode", "describes network topology, which vcsched does not model", false},
    {"nodeinfo.volcano.sh", "Numatopology", "is read only by the numa-aware plugin, which vcsched does not model", false},
};

// "apps/v1" -> "apps"; "v1" -> "".
absl::string_view Group(absl::string_view api_version) {
  const size_t slash = api_version.find('/');
  return slash == absl::string_view::npos ? absl::string_view() : api_version.substr(0, slash);
}

}  // namespace

std::optional<SkippedKind> FindSkippedKind(absl::string_view kind, absl::string_view api_version) {
  const absl::string_view group = Group(api_version);
  for (const Entry& e : kSkipped) {
    if (kind == e.kind && group == e.group) {
      return SkippedKind{e.why != nullptr ? e.why : "is not read by the scheduler", e.namespaced};
    }
  }
  return std::nullopt;
}

}  // namespace vcsched::io_internal
