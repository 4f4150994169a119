// A Cluster's storage objects: puts, deletes, and the claims a session's binds bind.
#include "absl/strings/str_cat.h"
#include "src/cluster/object_status.h"
#include "vcsched/cluster.h"

namespace vcsched {
using cluster_internal::Check;
using cluster_internal::Erase;

void Cluster::StorageChanged() {
  shared_storage_.reset();
  Changed();
}

absl::Status Cluster::PutPersistentVolumeClaim(PersistentVolumeClaimSpec claim) {
  if (absl::Status s = Check(claim); !s.ok()) return s;
  std::string key = absl::StrCat(claim.namespace_, "/", claim.name);
  storage_.claims.insert_or_assign(std::move(key), std::move(claim));
  StorageChanged();
  return absl::OkStatus();
}

absl::Status Cluster::PutPersistentVolume(PersistentVolumeSpec volume) {
  if (absl::Status s = Check(volume); !s.ok()) return s;
  std::string key = volume.name;
  storage_.volumes.insert_or_assign(std::move(key), std::move(volume));
  StorageChanged();
  return absl::OkStatus();
}

absl::Status Cluster::PutStorageClass(StorageClassSpec storage_class) {
  if (absl::Status s = Check(storage_class); !s.ok()) return s;
  std::string key = storage_class.name;
  storage_.classes.insert_or_assign(std::move(key), std::move(storage_class));
  StorageChanged();
  return absl::OkStatus();
}

absl::Status Cluster::PutCSINode(CSINodeSpec csi_node) {
  if (absl::Status s = Check(csi_node); !s.ok()) return s;
  std::string key = csi_node.name;
  storage_.csi_nodes.insert_or_assign(std::move(key), std::move(csi_node));
  StorageChanged();
  return absl::OkStatus();
}

absl::Status Cluster::DeletePersistentVolumeClaim(absl::string_view namespace_, absl::string_view name) {
  absl::Status s = Erase(storage_.claims, "PersistentVolumeClaim", absl::StrCat(namespace_, "/", name));
  if (s.ok()) StorageChanged();
  return s;
}

absl::Status Cluster::DeletePersistentVolume(absl::string_view name) {
  absl::Status s = Erase(storage_.volumes, "PersistentVolume", name);
  if (s.ok()) StorageChanged();
  return s;
}

absl::Status Cluster::DeleteStorageClass(absl::string_view name) {
  absl::Status s = Erase(storage_.classes, "StorageClass", name);
  if (s.ok()) StorageChanged();
  return s;
}

absl::Status Cluster::DeleteCSINode(absl::string_view name) {
  absl::Status s = Erase(storage_.csi_nodes, "CSINode", name);
  if (s.ok()) StorageChanged();
  return s;
}

int64_t Cluster::ApplyVolumeBindings(const Decisions& decisions, ApplyReport& report) {
  int64_t changed = 0;
  for (const VolumeBinding& b : decisions.volume_bindings) {
    auto claim = storage_.claims.find(b.claim);
    if (claim == storage_.claims.end()) {
      report.conflicts.push_back(absl::StrCat("bind claim ", b.claim, ": PersistentVolumeClaim not found"));
      continue;
    }
    PersistentVolumeClaimSpec& c = claim->second;
    if (b.volume.empty()) {  // provisioned for the node by the class's provisioner
      if (c.annotations[kAnnSelectedNode] != b.node) ++changed;
      c.annotations[kAnnSelectedNode] = b.node;
      continue;
    }
    auto volume = storage_.volumes.find(b.volume);
    if (volume == storage_.volumes.end()) {
      report.conflicts.push_back(absl::StrCat("bind claim ", b.claim, " to ", b.volume, ": PersistentVolume not found"));
      continue;
    }
    PersistentVolumeSpec& v = volume->second;
    if (v.claim_ref && (v.claim_ref->namespace_ != c.namespace_ || v.claim_ref->name != c.name)) {
      report.conflicts.push_back(absl::StrCat("bind claim ", b.claim, " to ", b.volume, ": the volume is bound to ",
                                              v.claim_ref->namespace_, "/", v.claim_ref->name));
      continue;
    }
    v.claim_ref = ClaimReference{c.namespace_, c.name, c.uid};
    v.phase = "Bound";
    v.annotations[kAnnBoundByController] = "yes";
    c.volume_name = b.volume;
    c.phase = "Bound";
    c.annotations[kAnnBindCompleted] = "yes";
    c.annotations[kAnnBoundByController] = "yes";
    ++changed;
  }
  return changed;
}

}  // namespace vcsched
