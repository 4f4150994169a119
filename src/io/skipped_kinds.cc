#include "src/io/skipped_kinds.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace vcsched::io_internal {
namespace {

struct Entry {
  const char* group;  // the apiVersion's group; "" for the core group ("v1")
  const char* kind;
  const char* why;    // nullptr: the plain reason
  bool namespaced = true;
};

// Groups whose kinds are all known: an unknown kind there is a mistake, not a custom
// resource.
constexpr absl::string_view kBuiltInGroups[] = {
    "", "apps", "batch", "policy", "autoscaling", "networking.k8s.io", "rbac.authorization.k8s.io",
    "storage.k8s.io", "scheduling.k8s.io", "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io",
    "apiextensions.k8s.io", "admissionregistration.k8s.io", "node.k8s.io", "resource.k8s.io",
    "certificates.k8s.io", "apiregistration.k8s.io", "flowcontrol.apiserver.k8s.io",
    "scheduling.incubator.k8s.io", "vcsched"};

bool BuiltInGroup(absl::string_view group) {
  return absl::EndsWith(group, "volcano.sh") ||
         std::find(std::begin(kBuiltInGroups), std::end(kBuiltInGroups), group) != std::end(kBuiltInGroups);
}

constexpr char kControllerWhy[] = "is a controller: the scheduler reads the pods it made, not it";

constexpr Entry kSkipped[] = {
    {"", "Service", nullptr},
    {"", "ConfigMap", nullptr},
    {"", "Secret", nullptr},
    {"", "Endpoints", nullptr},
    {"", "Event", nullptr},
    {"", "ServiceAccount", nullptr},
    {"", "LimitRange", nullptr},
    {"", "PodTemplate", nullptr},
    {"", "ReplicationController", kControllerWhy},
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
    {"autoscaling", "HorizontalPodAutoscaler", nullptr},
    {"rbac.authorization.k8s.io", "Role", nullptr},
    {"rbac.authorization.k8s.io", "RoleBinding", nullptr},
    {"rbac.authorization.k8s.io", "ClusterRole", nullptr, false},
    {"rbac.authorization.k8s.io", "ClusterRoleBinding", nullptr, false},
    {"storage.k8s.io", "CSIDriver", "is not read: vcsched does not model CSI storage capacity tracking", false},
    {"storage.k8s.io", "CSIStorageCapacity", "is not read: vcsched does not model CSI storage capacity tracking"},
    {"storage.k8s.io", "VolumeAttachment", nullptr, false},
    {"storage.k8s.io", "VolumeAttributesClass", nullptr, false},
    {"coordination.k8s.io", "Lease", nullptr},
    {"apiextensions.k8s.io", "CustomResourceDefinition", nullptr, false},
    {"bus.volcano.sh", "Command", "is an instruction to Volcano's controller, not part of a scheduling snapshot"},
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
      return SkippedKind{e.why != nullptr ? e.why : "is not read by the scheduler",
                         e.namespaced ? SkippedKind::Scope::kNamespaced : SkippedKind::Scope::kCluster};
    }
  }
  if (!api_version.empty() && !BuiltInGroup(group)) {
    return SkippedKind{absl::StrCat("is a custom resource of ", group,
                                    ", which the scheduler does not read (it reads the pods and PodGroups made for it)"),
                       SkippedKind::Scope::kAsWritten};
  }
  return std::nullopt;
}

}  // namespace vcsched::io_internal
