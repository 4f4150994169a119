// Volcano's cache counts the CSI volumes a pod attaches as a resource of the pod,
// "attachable-volumes-csi-<driver>", and gives each node that resource from its CSINode:
// the driver's allocatable count, or 2^31-1 when the driver states none. A node without
// the driver in its CSINode offers none of it. Internal to the snapshot layer.
#ifndef VCSCHED_SRC_SNAPSHOT_CSI_VOLUMES_H_
#define VCSCHED_SRC_SNAPSHOT_CSI_VOLUMES_H_

#include <string>

#include "vcsched/snapshot.h"
#include "vcsched/storage.h"

namespace vcsched::internal {

// The driver Volcano's cache counts a claim against: the bound volume's CSI driver (none
// for another volume source), else (unbound, or its volume missing) the class's
// csi.storage.k8s.io/csi-driver-name parameter or its provisioner; empty when there is none.
std::string ClaimCsiDriver(const PersistentVolumeClaimSpec& claim, const StorageObjects& storage);

// Whether Volcano's cache leaves the driver's claims uncounted (--ignored-provisioners and
// its two defaults).
bool IgnoredProvisioner(const SnapshotOptions& options, const std::string& driver);

// The pod's CSI volumes per attach-limit resource, in stored units (one per volume). A
// claim that is missing makes the cache count none of the pod's (it waits for the claim).
ResourceList PodCsiVolumeCounts(const PodSpec& pod, const StorageObjects& storage, const SnapshotOptions& options);

// The attach-limit resources the node's CSINode gives it (replacing what its status says).
void AddCsiAllocatable(const CSINodeSpec& csi_node, ResourceList& allocatable);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_SNAPSHOT_CSI_VOLUMES_H_
