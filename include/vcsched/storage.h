// The storage objects a state holds, as plain values: PersistentVolumeClaims,
// PersistentVolumes, StorageClasses and CSINodes, with the fields Volcano's predicates
// (VolumeBinding, VolumeZone, NodeVolumeLimits) and its cache's CSI volume counts read
// (docs/FORMAT.md, "Volumes"). Everything is as the API server prints it; sizes are bytes.
#ifndef VCSCHED_STORAGE_H_
#define VCSCHED_STORAGE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vcsched/objects.h"

namespace vcsched {

struct PersistentVolumeClaimSpec {
  std::string name;
  std::string namespace_ = "default";
  Labels annotations;  // pv.kubernetes.io/bind-completed, volume.kubernetes.io/selected-node, ...
  // spec.storageClassName; nullopt when absent (the beta annotation
  // volume.beta.kubernetes.io/storage-class, when present, wins, as Kubernetes reads it).
  std::optional<std::string> storage_class_name;
  std::string volume_name;  // spec.volumeName: the PV it is bound (or pre-bound) to
  std::vector<std::string> access_modes;
  std::string volume_mode;  // empty: Filesystem
  std::string volume_attributes_class_name;
  int64_t storage_request = 0;  // spec.resources.requests.storage, bytes
  std::optional<LabelSelector> selector;
  std::string phase = "Pending";  // Pending, Bound, Lost
  bool deleting = false;
  std::string uid;
  std::string controller_uid;  // the controlling ownerReference's uid (an ephemeral volume's pod)
};

// The claim a PersistentVolume is bound or pre-bound to (spec.claimRef).
struct ClaimReference {
  std::string namespace_;
  std::string name;
  std::string uid;  // empty: any claim of that name
};

struct PersistentVolumeSpec {
  std::string name;
  Labels labels;  // topology labels (VolumeZone), claim selectors
  Labels annotations;
  std::string storage_class_name;  // spec.storageClassName (the beta annotation wins)
  int64_t capacity = 0;            // spec.capacity.storage, bytes
  std::vector<std::string> access_modes;
  std::string volume_mode;  // empty: Filesystem
  std::string volume_attributes_class_name;
  // spec.nodeAffinity.required.nodeSelectorTerms (ORed), when given.
  bool has_node_affinity = false;
  std::vector<NodeSelectorTerm> node_affinity;
  std::optional<ClaimReference> claim_ref;
  std::string phase;  // status.phase: Available, Bound, Released, Failed, Pending; "" when absent
  bool deleting = false;
  std::string csi_driver;  // spec.csi.driver; empty for other volume sources
  std::string csi_volume_handle;
};

// One term of a StorageClass's allowedTopologies: every key must take one of its values.
struct TopologySelectorTerm {
  std::vector<std::pair<std::string, std::vector<std::string>>> match_label_expressions;
};

struct StorageClassSpec {
  std::string name;
  std::string provisioner;
  // Immediate or WaitForFirstConsumer. The API server defaults an absent mode to
  // Immediate, and so does the loader.
  std::string volume_binding_mode = "Immediate";
  Labels parameters;
  std::vector<TopologySelectorTerm> allowed_topologies;
};

struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::optional<int32_t> allocatable_count;  // allocatable.count: the attach limit
  std::vector<std::string> topology_keys;
};

struct CSINodeSpec {
  std::string name;  // the node's name
  std::vector<CSINodeDriver> drivers;
};

// The storage objects of a state, by key ("namespace/name" for claims, else the name).
struct StorageObjects {
  std::map<std::string, PersistentVolumeClaimSpec, std::less<>> claims;
  std::map<std::string, PersistentVolumeSpec, std::less<>> volumes;
  std::map<std::string, StorageClassSpec, std::less<>> classes;
  std::map<std::string, CSINodeSpec, std::less<>> csi_nodes;
  bool empty() const { return claims.empty() && volumes.empty() && classes.empty() && csi_nodes.empty(); }
};

// Annotations the volume binder reads and writes.
inline constexpr const char* kAnnBindCompleted = "pv.kubernetes.io/bind-completed";
inline constexpr const char* kAnnBoundByController = "pv.kubernetes.io/bound-by-controller";
inline constexpr const char* kAnnSelectedNode = "volume.kubernetes.io/selected-node";
inline constexpr const char* kAnnBetaStorageClass = "volume.beta.kubernetes.io/storage-class";

// The storage class of a volume: the beta annotation, else spec.storageClassName.
std::string VolumeStorageClass(const PersistentVolumeSpec& volume);
// The storage class a claim asks for: the beta annotation, else spec.storageClassName,
// else "" (Kubernetes' GetPersistentVolumeClaimClass).
std::string ClaimStorageClass(const PersistentVolumeClaimSpec& claim);
// The node resource Volcano counts a CSI driver's attached volumes in:
// "attachable-volumes-csi-<driver>", every "/" made "-".
std::string CsiAttachLimitResource(const std::string& driver);

// The problems of one object on its own, worded as Build reports them.
std::vector<std::string> ObjectProblems(const PersistentVolumeClaimSpec& claim);
std::vector<std::string> ObjectProblems(const PersistentVolumeSpec& volume);
std::vector<std::string> ObjectProblems(const StorageClassSpec& storage_class);
std::vector<std::string> ObjectProblems(const CSINodeSpec& csi_node);

}  // namespace vcsched

#endif  // VCSCHED_STORAGE_H_
