#include "src/plugins/volume_filters.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "src/model/k8s_match.h"

namespace vcsched::internal {
namespace {

constexpr const char* kZoneLabels[] = {"failure-domain.beta.kubernetes.io/zone",
                                       "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/zone",
                                       "topology.kubernetes.io/region"};

std::string GaLabel(const std::string& key) {
  if (key == "failure-domain.beta.kubernetes.io/region") return "topology.kubernetes.io/region";
  if (key == "failure-domain.beta.kubernetes.io/zone") return "topology.kubernetes.io/zone";
  return key;
}

bool FullyBound(const PersistentVolumeClaimSpec& c) {
  return !c.volume_name.empty() && c.annotations.count(kAnnBindCompleted) > 0;
}

bool NodeAffinityFits(const PersistentVolumeSpec& pv, const NodeSpec& node) {
  if (!pv.has_node_affinity) return true;
  for (const NodeSelectorTerm& term : pv.node_affinity) {
    if (MatchNodeSelectorTerm(term, node)) return true;
  }
  return false;
}

bool AccessModesFit(const PersistentVolumeClaimSpec& claim, const PersistentVolumeSpec& pv) {
  for (const std::string& m : claim.access_modes) {
    if (std::find(pv.access_modes.begin(), pv.access_modes.end(), m) == pv.access_modes.end()) return false;
  }
  return true;
}

std::string ModeOrDefault(const std::string& mode) { return mode.empty() ? "Filesystem" : mode; }

bool IsBoundTo(const ClaimReference* ref, const PersistentVolumeClaimSpec& claim) {
  if (ref == nullptr || ref->name != claim.name || ref->namespace_ != claim.namespace_) return false;
  return ref->uid.empty() || ref->uid == claim.uid;
}

bool TopologyAllows(const std::vector<TopologySelectorTerm>& terms, const NodeSpec& node) {
  if (terms.empty()) return true;
  for (const TopologySelectorTerm& term : terms) {
    bool all = true;
    for (const auto& [key, values] : term.match_label_expressions) {
      auto it = node.labels.find(key);
      if (it == node.labels.end() || std::find(values.begin(), values.end(), it->second) == values.end()) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

std::string ClaimKey(const PersistentVolumeClaimSpec& c) { return absl::StrCat(c.namespace_, "/", c.name); }

}  // namespace

VolumeFilters::VolumeFilters(const Snapshot& snapshot, bool zone, bool binding)
    : snapshot_(&snapshot), zone_(zone), binding_(binding), storage_(&snapshot.storage()) {
  for (const auto& [name, pv] : storage_->volumes) volumes_by_class_[VolumeStorageClass(pv)].push_back(&pv);
}

const PersistentVolumeClaimSpec* VolumeFilters::Claim(const PodSpec& pod, const std::string& name) const {
  auto it = storage_->claims.find(absl::StrCat(pod.namespace_, "/", name));
  return it == storage_->claims.end() ? nullptr : &it->second;
}

const ClaimReference* VolumeFilters::BoundClaim(const PersistentVolumeSpec& pv) const {
  if (auto it = assumed_claim_of_volume_.find(pv.name); it != assumed_claim_of_volume_.end()) return &it->second;
  return pv.claim_ref ? &*pv.claim_ref : nullptr;
}

const std::string* VolumeFilters::SelectedNode(const PersistentVolumeClaimSpec& claim) const {
  if (auto it = assumed_selected_node_.find(ClaimKey(claim)); it != assumed_selected_node_.end()) return &it->second;
  auto it = claim.annotations.find(kAnnSelectedNode);
  return it == claim.annotations.end() ? nullptr : &it->second;
}

std::string VolumeFilters::PreFilter(TaskIndex t) {
  const PodSpec& pod = *snapshot_->tasks()[static_cast<size_t>(t)].pod;
  // VolumeZone: the zones of the bound volumes (persistentVolumeClaim volumes only).
  for (const PodVolumeClaim& v : pod.volume_claims) {
    if (v.ephemeral || !zone_) continue;
    if (v.claim.empty()) return "PersistentVolumeClaim had no name";
    const PersistentVolumeClaimSpec* claim = Claim(pod, v.claim);
    if (claim == nullptr) return absl::StrCat("persistentvolumeclaim \"", v.claim, "\" not found");
    if (claim->volume_name.empty()) {
      const std::string class_name = ClaimStorageClass(*claim);
      if (class_name.empty()) return "PersistentVolumeClaim had no pv name and storageClass name";
      auto sc = storage_->classes.find(class_name);
      if (sc == storage_->classes.end()) return absl::StrCat("storageclass.storage.k8s.io \"", class_name, "\" not found");
      if (sc->second.volume_binding_mode == "WaitForFirstConsumer") continue;
      return "PersistentVolume had no name";
    }
    if (!storage_->volumes.count(claim->volume_name)) {
      return absl::StrCat("persistentvolume \"", claim->volume_name, "\" not found");
    }
  }
  // VolumeBinding: every claim exists, is not lost or going, and is bound unless it
  // waits for its first consumer.
  if (!binding_) return "";
  for (const PodVolumeClaim& v : pod.volume_claims) {
    const PersistentVolumeClaimSpec* claim = Claim(pod, v.claim);
    if (claim == nullptr) {
      if (v.ephemeral) {
        return absl::StrCat("waiting for ephemeral volume controller to create the persistentvolumeclaim \"", v.claim,
                            "\"");
      }
      return absl::StrCat("persistentvolumeclaim \"", v.claim, "\" not found");
    }
    if (claim->phase == "Lost") {
      return absl::StrCat("persistentvolumeclaim \"", claim->name, "\" bound to non-existent persistentvolume \"",
                          claim->volume_name, "\"");
    }
    if (claim->deleting) return absl::StrCat("persistentvolumeclaim \"", claim->name, "\" is being deleted");
    if (v.ephemeral && (claim->controller_uid.empty() || claim->controller_uid != snapshot_->tasks()[static_cast<size_t>(t)].uid)) {
      return absl::StrCat("PVC ", claim->namespace_, "/", claim->name, " was not created for pod ", pod.namespace_, "/",
                          pod.name, " (pod is not owner)");
    }
  }
  if (!Classify(pod).immediate.empty()) return "pod has unbound immediate PersistentVolumeClaims";
  return "";
}

VolumeFilters::Classified VolumeFilters::Classify(const PodSpec& pod) const {
  Classified out;
  for (const PodVolumeClaim& v : pod.volume_claims) {
    const PersistentVolumeClaimSpec* claim = Claim(pod, v.claim);
    if (claim == nullptr) continue;
    if (FullyBound(*claim)) {
      out.bound.push_back(claim);
      continue;
    }
    bool delay = false;
    if (const std::string class_name = ClaimStorageClass(*claim); !class_name.empty()) {
      auto sc = storage_->classes.find(class_name);
      delay = sc != storage_->classes.end() && sc->second.volume_binding_mode == "WaitForFirstConsumer";
    }
    (delay && claim->volume_name.empty() ? out.delayed : out.immediate).push_back(claim);
  }
  return out;
}

bool VolumeFilters::ZoneFits(TaskIndex t, const NodeSpec& node) const {
  const PodSpec& pod = *snapshot_->tasks()[static_cast<size_t>(t)].pod;
  bool constrained = false;
  for (const char* key : kZoneLabels) constrained = constrained || node.labels.count(key) > 0;
  if (!constrained) return true;  // a single-zone cluster's nodes may carry no zone labels
  for (const PodVolumeClaim& v : pod.volume_claims) {
    if (v.ephemeral) continue;
    const PersistentVolumeClaimSpec* claim = Claim(pod, v.claim);
    if (claim == nullptr || claim->volume_name.empty()) continue;
    auto pv = storage_->volumes.find(claim->volume_name);
    if (pv == storage_->volumes.end()) continue;
    for (const char* key : kZoneLabels) {
      auto label = pv->second.labels.find(key);
      if (label == pv->second.labels.end()) continue;
      // A volume may sit in several zones: "a__b" (LabelZonesToSet); an empty part makes
      // the label unreadable, and it is then ignored.
      std::vector<std::string> zones = absl::StrSplit(label->second, "__");
      if (std::any_of(zones.begin(), zones.end(), [](const std::string& z) { return z.empty(); })) continue;
      auto at = node.labels.find(key);
      if (at == node.labels.end()) at = node.labels.find(GaLabel(key));
      if (at == node.labels.end() || std::find(zones.begin(), zones.end(), at->second) == zones.end()) return false;
    }
  }
  return true;
}

const PersistentVolumeSpec* VolumeFilters::MatchVolume(const PersistentVolumeClaimSpec& claim, const NodeSpec& node,
                                                       const std::vector<const PersistentVolumeSpec*>& chosen) const {
  auto list = volumes_by_class_.find(ClaimStorageClass(claim));
  if (list == volumes_by_class_.end()) return nullptr;
  const PersistentVolumeSpec* smallest = nullptr;
  for (const PersistentVolumeSpec* pv : list->second) {
    if (std::find(chosen.begin(), chosen.end(), pv) != chosen.end()) continue;
    const ClaimReference* ref = BoundClaim(*pv);
    const bool bound_here = IsBoundTo(ref, claim);
    if (ref != nullptr && !bound_here) continue;
    if (pv->capacity < claim.storage_request) continue;
    if (ModeOrDefault(claim.volume_mode) != ModeOrDefault(pv->volume_mode)) continue;
    if (claim.volume_attributes_class_name != pv->volume_attributes_class_name) continue;
    if (pv->deleting) continue;
    const bool affinity = NodeAffinityFits(*pv, node);
    if (bound_here) return affinity ? pv : nullptr;  // pre-bound: this one or none
    if (pv->phase != "Available") continue;
    if (claim.selector && !MatchesLabelSelector(*claim.selector, pv->labels)) continue;
    if (!affinity || !AccessModesFit(claim, *pv)) continue;
    // The smallest; among equals the first by name (Kubernetes takes its cache's first).
    if (smallest == nullptr || pv->capacity < smallest->capacity) smallest = pv;
  }
  return smallest;
}

bool VolumeFilters::Find(const PodSpec& pod, const NodeSpec& node, Plan* plan, std::vector<const char*>* conflicts,
                         std::string* error) const {
  const Classified c = Classify(pod);
  for (const PersistentVolumeClaimSpec* claim : c.bound) {
    auto pv = storage_->volumes.find(claim->volume_name);
    if (pv == storage_->volumes.end()) {
      conflicts->push_back(kPVNotExist);
      return false;
    }
    if (!NodeAffinityFits(pv->second, node)) {
      conflicts->push_back(kNodeConflict);
      return false;
    }
  }
  if (c.delayed.empty()) return true;
  std::vector<const PersistentVolumeClaimSpec*> to_match, to_provision;
  for (const PersistentVolumeClaimSpec* claim : c.delayed) {
    if (const std::string* selected = SelectedNode(*claim)) {
      if (*selected != node.name) {
        conflicts->push_back(kBindConflict);
        return false;
      }
      to_provision.push_back(claim);
    } else {
      to_match.push_back(claim);
    }
  }
  bool satisfied = true;
  // The smallest requests first, so each takes the smallest volume that fits it.
  std::stable_sort(to_match.begin(), to_match.end(),
                   [](const auto* a, const auto* b) { return a->storage_request < b->storage_request; });
  std::vector<const PersistentVolumeSpec*> chosen;
  for (const PersistentVolumeClaimSpec* claim : to_match) {
    const PersistentVolumeSpec* pv = MatchVolume(*claim, node, chosen);
    if (pv == nullptr) {
      satisfied = false;
      to_provision.push_back(claim);
      continue;
    }
    chosen.push_back(pv);
    plan->static_bindings.emplace_back(claim, pv);
  }
  if (!to_provision.empty()) {
    satisfied = true;
    for (const PersistentVolumeClaimSpec* claim : to_provision) {
      const std::string class_name = ClaimStorageClass(*claim);
      if (class_name.empty()) {
        *error = absl::StrCat("no class for claim \"", ClaimKey(*claim), "\"");
        return false;
      }
      auto sc = storage_->classes.find(class_name);
      if (sc == storage_->classes.end()) {
        *error = absl::StrCat("failed to find storage class \"", class_name, "\"");
        return false;
      }
      const std::string& provisioner = sc->second.provisioner;
      if (provisioner.empty() || provisioner == "kubernetes.io/no-provisioner" ||
          !TopologyAllows(sc->second.allowed_topologies, node)) {
        satisfied = false;
        break;
      }
      plan->provisions.push_back(claim);
    }
  }
  if (!satisfied) {
    conflicts->push_back(kBindConflict);
    return false;
  }
  return true;
}

std::vector<const char*> VolumeFilters::BindingConflicts(TaskIndex t, const NodeSpec& node, std::string* error) const {
  Plan plan;
  std::vector<const char*> conflicts;
  Find(*snapshot_->tasks()[static_cast<size_t>(t)].pod, node, &plan, &conflicts, error);
  return conflicts;
}

void VolumeFilters::Reserve(TaskIndex t, const NodeSpec& node) {
  Plan plan;
  std::vector<const char*> conflicts;
  std::string error;
  if (!Find(*snapshot_->tasks()[static_cast<size_t>(t)].pod, node, &plan, &conflicts, &error)) return;
  if (plan.static_bindings.empty() && plan.provisions.empty()) return;
  Reservation& r = reserved_[t];
  r.node = node.name;
  for (const auto& [claim, pv] : plan.static_bindings) {
    assumed_claim_of_volume_[pv->name] = ClaimReference{claim->namespace_, claim->name, claim->uid};
    r.volumes.emplace_back(pv->name, ClaimKey(*claim));
  }
  for (const PersistentVolumeClaimSpec* claim : plan.provisions) {
    std::string key = ClaimKey(*claim);
    assumed_selected_node_[key] = node.name;
    r.provisions.push_back(std::move(key));
  }
}

void VolumeFilters::Unreserve(TaskIndex t) {
  auto it = reserved_.find(t);
  if (it == reserved_.end()) return;
  for (const auto& [volume, claim] : it->second.volumes) assumed_claim_of_volume_.erase(volume);
  for (const std::string& claim : it->second.provisions) assumed_selected_node_.erase(claim);
  reserved_.erase(it);
}

std::vector<VolumeBinding> VolumeFilters::BindingsOf(const std::vector<TaskIndex>& tasks) const {
  std::vector<VolumeBinding> out;
  for (TaskIndex t : tasks) {
    const Reservation& r = reserved_.at(t);
    const std::string& task = snapshot_->tasks()[static_cast<size_t>(t)].key;
    for (const auto& [volume, claim] : r.volumes) out.push_back({task, claim, volume, r.node});
    for (const std::string& claim : r.provisions) out.push_back({task, claim, "", r.node});
  }
  std::sort(out.begin(), out.end(), [](const VolumeBinding& a, const VolumeBinding& b) {
    return std::tie(a.claim, a.task) < std::tie(b.claim, b.task);
  });
  return out;
}

}  // namespace vcsched::internal
