#include "src/plugins/volume_filters.h"

#include <algorithm>
#include <optional>

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
  for (const auto& [name, pv] : storage_->volumes) {
    volumes_by_class_[VolumeStorageClass(pv)].push_back(&pv);
    if (pv.claim_ref) prebound_by_claim_[absl::StrCat(pv.claim_ref->namespace_, "/", pv.claim_ref->name)].push_back(&pv);
  }
}

const PersistentVolumeClaimSpec* VolumeFilters::Claim(const PodSpec& pod, const std::string& name) const {
  auto it = storage_->claims.find(absl::StrCat(pod.namespace_, "/", name));
  return it == storage_->claims.end() ? nullptr : &it->second;
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
  const TaskVolumes& v = VolumesOf(t);
  if (v.zones.empty()) return true;  // no bound volume carries a zone or region label
  bool constrained = false;
  for (const char* key : kZoneLabels) constrained = constrained || node.labels.count(key) > 0;
  if (!constrained) return true;  // a single-zone cluster's nodes may carry no zone labels
  for (const auto& [key, zones] : v.zones) {
    auto at = node.labels.find(*key);
    if (at == node.labels.end()) at = node.labels.find(GaLabel(*key));
    if (at == node.labels.end() || std::find(zones.begin(), zones.end(), at->second) == zones.end()) return false;
  }
  return true;
}

VolumeFilters::ClaimClass VolumeFilters::ClassOf(const PersistentVolumeClaimSpec& claim) const {
  ClaimClass c;
  c.claim = &claim;
  const std::string class_name = ClaimStorageClass(claim);
  if (class_name.empty()) {
    c.error = absl::StrCat("no class for claim \"", ClaimKey(claim), "\"");
  } else if (auto sc = storage_->classes.find(class_name); sc == storage_->classes.end()) {
    c.error = absl::StrCat("failed to find storage class \"", class_name, "\"");
  } else {
    c.storage_class = &sc->second;
  }
  return c;
}

const VolumeFilters::TaskVolumes& VolumeFilters::VolumesOf(TaskIndex t) const {
  TaskVolumes& v = task_volumes_;
  if (v.task == t && v.version == version_) return v;
  v = TaskVolumes();
  v.task = t;
  v.version = version_;
  const PodSpec& pod = *snapshot_->tasks()[static_cast<size_t>(t)].pod;
  // VolumeZone: the zone and region labels of the volumes the pod's claims name.
  for (const PodVolumeClaim& pc : pod.volume_claims) {
    if (pc.ephemeral) continue;
    const PersistentVolumeClaimSpec* claim = Claim(pod, pc.claim);
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
      v.zones.emplace_back(&label->first, std::move(zones));
    }
  }
  // VolumeBinding: bound claims' volumes, and the unbound ones to match or provision.
  const Classified c = Classify(pod);
  for (const PersistentVolumeClaimSpec* claim : c.bound) {
    auto pv = storage_->volumes.find(claim->volume_name);
    if (pv == storage_->volumes.end()) {
      v.bound_volume_missing = true;
      break;
    }
    v.bound_volumes.push_back(&pv->second);
  }
  for (const PersistentVolumeClaimSpec* claim : c.delayed) {
    if (const std::string* selected = SelectedNode(*claim)) v.selected.emplace_back(ClassOf(*claim), selected);
    else v.to_match.push_back(ClassOf(*claim));
  }
  std::stable_sort(v.to_match.begin(), v.to_match.end(), [](const ClaimClass& a, const ClaimClass& b) {
    return a.claim->storage_request < b.claim->storage_request;
  });
  for (const ClaimClass& m : v.to_match) {
    v.candidates.push_back(&CandidatesOf(*m.claim));
    v.match_keys.push_back(ClaimKey(*m.claim));
  }
  return v;
}

namespace {

// The hostname a volume is pinned to by the usual local-volume affinity (one term, one
// requirement "kubernetes.io/hostname In [h]"), or nullptr.
const std::string* PinnedHostname(const PersistentVolumeSpec& pv) {
  if (!pv.has_node_affinity || pv.node_affinity.size() != 1) return nullptr;
  const NodeSelectorTerm& t = pv.node_affinity[0];
  if (!t.match_fields.empty() || t.match_expressions.size() != 1) return nullptr;
  const LabelSelectorRequirement& r = t.match_expressions[0];
  if (r.key != "kubernetes.io/hostname" || r.op != LabelSelectorRequirement::Operator::kIn || r.values.size() != 1) {
    return nullptr;
  }
  return &r.values[0];
}

bool SmallerFirst(const PersistentVolumeSpec* a, const PersistentVolumeSpec* b) {
  return a->capacity != b->capacity ? a->capacity < b->capacity : a->name < b->name;
}

}  // namespace

namespace {

// The checks of FindMatchingVolume that depend on the claim, not the node.
bool PassesClaimChecks(const PersistentVolumeClaimSpec& claim, const PersistentVolumeSpec& pv) {
  return pv.capacity >= claim.storage_request && ModeOrDefault(claim.volume_mode) == ModeOrDefault(pv.volume_mode) &&
         claim.volume_attributes_class_name == pv.volume_attributes_class_name && !pv.deleting;
}

bool FreeVolumeFits(const PersistentVolumeClaimSpec& claim, const PersistentVolumeSpec& pv) {
  return PassesClaimChecks(claim, pv) && (!claim.selector || MatchesLabelSelector(*claim.selector, pv.labels)) &&
         AccessModesFit(claim, pv);
}

// The first volume of `sorted` (smallest first) at least `bytes` large.
std::vector<const PersistentVolumeSpec*>::const_iterator FirstAtLeast(const std::vector<const PersistentVolumeSpec*>& sorted,
                                                                      int64_t bytes) {
  return std::lower_bound(sorted.begin(), sorted.end(), bytes,
                          [](const PersistentVolumeSpec* pv, int64_t b) { return pv->capacity < b; });
}

}  // namespace

const VolumeFilters::ClassIndex& VolumeFilters::IndexOf(const std::string& storage_class) const {
  auto [it, added] = class_index_.try_emplace(storage_class);
  ClassIndex& index = it->second;
  if (!added) return index;
  auto list = volumes_by_class_.find(storage_class);
  if (list == volumes_by_class_.end()) return index;
  for (const PersistentVolumeSpec* pv : list->second) {
    if (pv->claim_ref || pv->phase != "Available" || pv->deleting) continue;
    if (const std::string* host = PinnedHostname(*pv)) index.by_hostname[*host].push_back(pv);
    else index.anywhere.push_back(pv);
  }
  std::sort(index.anywhere.begin(), index.anywhere.end(), SmallerFirst);
  for (auto& [_, pvs] : index.by_hostname) std::sort(pvs.begin(), pvs.end(), SmallerFirst);
  return index;
}

const VolumeFilters::Candidates& VolumeFilters::CandidatesOf(const PersistentVolumeClaimSpec& claim) const {
  const std::string key = ClaimKey(claim);
  Candidates& c = candidates_[key];
  if (c.made) return c;
  c.made = true;
  c.claim = &claim;
  const std::string cls = ClaimStorageClass(claim);
  c.free = &IndexOf(cls);
  // Pre-bound volumes must be of the claim's class (Kubernetes lists the class's volumes)
  // and pass the claim's size, mode and deletion checks; the first by name decides.
  if (auto it = prebound_by_claim_.find(key); it != prebound_by_claim_.end()) {
    for (const PersistentVolumeSpec* pv : it->second) {
      if (VolumeStorageClass(*pv) == cls && IsBoundTo(&*pv->claim_ref, claim) && PassesClaimChecks(claim, *pv)) {
        c.prebound.push_back(pv);
      }
    }
  }
  for (auto at = FirstAtLeast(c.free->anywhere, claim.storage_request); at != c.free->anywhere.end(); ++at) {
    if (FreeVolumeFits(claim, **at)) {
      c.fits_unpinned = true;
      break;
    }
  }
  return c;
}

const PersistentVolumeSpec* VolumeFilters::MatchVolume(const Candidates& c, const std::string& claim_key,
                                                       const NodeSpec& node,
                                                       const std::vector<const PersistentVolumeSpec*>& chosen) const {
  const auto taken = [&](const PersistentVolumeSpec* pv) {
    return std::find(chosen.begin(), chosen.end(), pv) != chosen.end();
  };
  // A volume pre-bound to the claim (in the state, or matched to it earlier this session)
  // is the only one it may take (Kubernetes returns at the first it meets, none when that
  // one's affinity excludes the node).
  for (const PersistentVolumeSpec* pv : c.prebound) {
    if (!taken(pv)) return NodeAffinityFits(*pv, node) ? pv : nullptr;
  }
  if (!assumed_for_claim_.empty()) {
    if (auto it = assumed_for_claim_.find(claim_key); it != assumed_for_claim_.end()) {
      for (const PersistentVolumeSpec* pv : it->second) {
        if (!taken(pv)) return NodeAffinityFits(*pv, node) ? pv : nullptr;
      }
    }
  }
  // The smallest free volume the node may use, among those pinned to its hostname and those
  // pinned otherwise or not at all (two lists in the same order, merged from the first
  // large enough).
  const PersistentVolumeClaimSpec& claim = *c.claim;
  static const std::vector<const PersistentVolumeSpec*> kNone;
  const std::vector<const PersistentVolumeSpec*>* pinned = &kNone;
  if (auto host = node.labels.find("kubernetes.io/hostname"); host != node.labels.end()) {
    if (auto it = c.free->by_hostname.find(host->second); it != c.free->by_hostname.end()) pinned = &it->second;
  }
  const std::vector<const PersistentVolumeSpec*>& anywhere = c.free->anywhere;
  auto i = FirstAtLeast(*pinned, claim.storage_request);
  auto j = c.fits_unpinned ? FirstAtLeast(anywhere, claim.storage_request) : anywhere.end();
  while (i != pinned->end() || j != anywhere.end()) {
    const bool from_pinned = j == anywhere.end() || (i != pinned->end() && SmallerFirst(*i, *j));
    const PersistentVolumeSpec* pv = from_pinned ? *i++ : *j++;
    if (taken(pv) || (!assumed_owner_.empty() && assumed_owner_.contains(pv))) continue;
    if (FreeVolumeFits(claim, *pv) && NodeAffinityFits(*pv, node)) return pv;
  }
  return nullptr;
}

bool VolumeFilters::Find(TaskIndex t, const NodeSpec& node, Plan* plan, std::vector<const char*>* conflicts,
                         std::string* error) const {
  const TaskVolumes& v = VolumesOf(t);
  if (v.bound_volume_missing) {
    conflicts->push_back(kPVNotExist);
    return false;
  }
  for (const PersistentVolumeSpec* pv : v.bound_volumes) {
    if (!NodeAffinityFits(*pv, node)) {
      conflicts->push_back(kNodeConflict);
      return false;
    }
  }
  if (v.selected.empty() && v.to_match.empty()) return true;
  std::vector<const ClaimClass*> to_provision;
  for (const auto& [claim, selected] : v.selected) {
    if (*selected != node.name) {
      conflicts->push_back(kBindConflict);
      return false;
    }
    to_provision.push_back(&claim);
  }
  bool satisfied = true;
  std::vector<const PersistentVolumeSpec*> chosen;
  for (size_t i = 0; i < v.to_match.size(); ++i) {
    const PersistentVolumeSpec* pv = MatchVolume(*v.candidates[i], v.match_keys[i], node, chosen);
    if (pv == nullptr) {
      satisfied = false;
      to_provision.push_back(&v.to_match[i]);
      continue;
    }
    chosen.push_back(pv);
    plan->static_bindings.emplace_back(v.to_match[i].claim, pv);
  }
  if (!to_provision.empty()) {
    satisfied = true;
    for (const ClaimClass* c : to_provision) {
      if (!c->error.empty()) {
        *error = c->error;
        return false;
      }
      const std::string& provisioner = c->storage_class->provisioner;
      if (provisioner.empty() || provisioner == "kubernetes.io/no-provisioner" ||
          !TopologyAllows(c->storage_class->allowed_topologies, node)) {
        satisfied = false;
        break;
      }
      plan->provisions.push_back(c->claim);
    }
  }
  if (!satisfied) {
    conflicts->push_back(kBindConflict);
    return false;
  }
  return true;
}

bool VolumeFilters::ConfiningNodes(TaskIndex t, std::vector<NodeIndex>* nodes) const {
  const TaskVolumes& v = VolumesOf(t);
  if (v.bound_volume_missing) return true;  // it fails everywhere
  if (!v.selected.empty()) {
    if (std::optional<NodeIndex> n = snapshot_->FindNode(*v.selected.front().second)) nodes->push_back(*n);
    return true;
  }
  for (size_t i = 0; i < v.to_match.size(); ++i) {
    const Candidates& c = *v.candidates[i];
    const ClaimClass& cls = v.to_match[i];
    const bool provisions = cls.error.empty() && !cls.storage_class->provisioner.empty() &&
                            cls.storage_class->provisioner != "kubernetes.io/no-provisioner";
    if (!c.prebound.empty() || c.fits_unpinned || provisions || assumed_for_claim_.count(v.match_keys[i])) continue;
    if (!hostnames_indexed_) {
      const absl::Span<const NodeInfo> all = snapshot_->nodes();
      for (size_t n = 0; n < all.size(); ++n) {
        if (auto h = all[n].spec.labels.find("kubernetes.io/hostname"); h != all[n].spec.labels.end()) {
          nodes_by_hostname_[h->second].push_back(static_cast<NodeIndex>(n));
        }
      }
      hostnames_indexed_ = true;
    }
    for (const auto& [host, pvs] : c.free->by_hostname) {
      if (auto it = nodes_by_hostname_.find(host); it != nodes_by_hostname_.end()) {
        nodes->insert(nodes->end(), it->second.begin(), it->second.end());
      }
    }
    return true;
  }
  return false;
}

std::vector<const char*> VolumeFilters::BindingConflicts(TaskIndex t, const NodeSpec& node, std::string* error) const {
  Plan plan;
  std::vector<const char*> conflicts;
  Find(t, node, &plan, &conflicts, error);
  return conflicts;
}

void VolumeFilters::Reserve(TaskIndex t, const NodeSpec& node) {
  Plan plan;
  std::vector<const char*> conflicts;
  std::string error;
  if (!Find(t, node, &plan, &conflicts, &error)) return;
  if (plan.static_bindings.empty() && plan.provisions.empty()) return;
  Reservation& r = reserved_[t];
  r.node = node.name;
  for (const auto& [claim, pv] : plan.static_bindings) {
    std::string key = ClaimKey(*claim);
    assumed_owner_[pv] = key;
    assumed_for_claim_[key].push_back(pv);
    r.volumes.emplace_back(pv, std::move(key));
  }
  for (const PersistentVolumeClaimSpec* claim : plan.provisions) {
    std::string key = ClaimKey(*claim);
    assumed_selected_node_[key] = node.name;
    r.provisions.push_back(std::move(key));
    ++version_;
  }
}

void VolumeFilters::Unreserve(TaskIndex t) {
  auto it = reserved_.find(t);
  if (it == reserved_.end()) return;
  for (const auto& [volume, claim] : it->second.volumes) {
    assumed_owner_.erase(volume);
    auto& list = assumed_for_claim_[claim];
    list.erase(std::remove(list.begin(), list.end(), volume), list.end());
    if (list.empty()) assumed_for_claim_.erase(claim);
  }
  for (const std::string& claim : it->second.provisions) assumed_selected_node_.erase(claim);
  if (!it->second.provisions.empty()) ++version_;
  reserved_.erase(it);
}

std::vector<VolumeBinding> VolumeFilters::BindingsOf(const std::vector<TaskIndex>& tasks) const {
  std::vector<VolumeBinding> out;
  for (TaskIndex t : tasks) {
    const Reservation& r = reserved_.at(t);
    const std::string& task = snapshot_->tasks()[static_cast<size_t>(t)].key;
    for (const auto& [volume, claim] : r.volumes) out.push_back({task, claim, volume->name, r.node});
    for (const std::string& claim : r.provisions) out.push_back({task, claim, "", r.node});
  }
  std::sort(out.begin(), out.end(), [](const VolumeBinding& a, const VolumeBinding& b) {
    return std::tie(a.claim, a.task) < std::tie(b.claim, b.task);
  });
  return out;
}

}  // namespace vcsched::internal
