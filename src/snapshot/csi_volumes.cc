#include "src/snapshot/csi_volumes.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "vcsched/resource.h"

namespace vcsched::internal {
namespace {

constexpr const char* kAlwaysIgnored[] = {"rancher.io/local-path", "hostpath.csi.k8s.io"};

std::string ClassCsiDriver(const PersistentVolumeClaimSpec& claim, const StorageObjects& storage) {
  const std::string class_name = ClaimStorageClass(claim);
  if (class_name.empty()) return "";
  auto sc = storage.classes.find(class_name);
  if (sc == storage.classes.end()) return "";
  if (auto p = sc->second.parameters.find("csi.storage.k8s.io/csi-driver-name"); p != sc->second.parameters.end()) {
    return p->second;
  }
  return sc->second.provisioner;
}

}  // namespace

std::string ClaimCsiDriver(const PersistentVolumeClaimSpec& claim, const StorageObjects& storage) {
  if (claim.volume_name.empty()) return ClassCsiDriver(claim, storage);
  auto pv = storage.volumes.find(claim.volume_name);
  if (pv == storage.volumes.end()) return ClassCsiDriver(claim, storage);
  return pv->second.csi_driver;
}

bool IgnoredProvisioner(const SnapshotOptions& options, const std::string& driver) {
  return std::find(std::begin(kAlwaysIgnored), std::end(kAlwaysIgnored), driver) != std::end(kAlwaysIgnored) ||
         std::find(options.ignored_provisioners.begin(), options.ignored_provisioners.end(), driver) !=
             options.ignored_provisioners.end();
}

ResourceList PodCsiVolumeCounts(const PodSpec& pod, const StorageObjects& storage, const SnapshotOptions& options) {
  ResourceList counts;
  if (pod.volume_claims.empty() || storage.claims.empty()) return counts;
  std::string key;
  for (const PodVolumeClaim& v : pod.volume_claims) {
    key = absl::StrCat(pod.namespace_, "/", v.claim);
    auto claim = storage.claims.find(key);
    if (claim == storage.claims.end()) return {};  // Volcano's cache waits for the claim
    const std::string driver = ClaimCsiDriver(claim->second, storage);
    if (driver.empty() || IgnoredProvisioner(options, driver)) continue;
    int64_t& n = counts[CsiAttachLimitResource(driver)];
    n = SaturatingAdd(n, 1);
  }
  return counts;
}

void AddCsiAllocatable(const CSINodeSpec& csi_node, ResourceList& allocatable) {
  for (const CSINodeDriver& d : csi_node.drivers) {
    allocatable[CsiAttachLimitResource(d.name)] =
        d.allocatable_count ? int64_t{*d.allocatable_count} : int64_t{std::numeric_limits<int32_t>::max()};
  }
}

}  // namespace vcsched::internal
