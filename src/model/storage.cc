// Helpers of the storage objects (vcsched/storage.h).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "vcsched/storage.h"

namespace vcsched {

std::string ClaimStorageClass(const PersistentVolumeClaimSpec& claim) {
  if (auto it = claim.annotations.find(kAnnBetaStorageClass); it != claim.annotations.end()) return it->second;
  return claim.storage_class_name.value_or("");
}

std::string VolumeStorageClass(const PersistentVolumeSpec& volume) {
  if (auto it = volume.annotations.find(kAnnBetaStorageClass); it != volume.annotations.end()) return it->second;
  return volume.storage_class_name;
}

std::string CsiAttachLimitResource(const std::string& driver) {
  return absl::StrCat("attachable-volumes-csi-", absl::StrReplaceAll(driver, {{"/", "-"}}));
}

}  // namespace vcsched
