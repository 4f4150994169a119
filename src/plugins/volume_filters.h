// Kubernetes' VolumeZone and VolumeBinding filters (v1.36.1), as Volcano's predicates
// plugin runs them, over a session's storage objects: PreFilter (claims missing, lost,
// being deleted, unbound with Immediate binding), Filter (a bound volume's node affinity
// and zone labels; an unbound WaitForFirstConsumer claim matched to the smallest
// available volume the node may use, else provisioned where the class's
// allowedTopologies allow), and Reserve/Unreserve: a volume matched to a placed pod's
// claim is taken by that claim until the placement is undone (the binder's assume cache).
#ifndef VCSCHED_SRC_PLUGINS_VOLUME_FILTERS_H_
#define VCSCHED_SRC_PLUGINS_VOLUME_FILTERS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "vcsched/decisions.h"
#include "vcsched/snapshot.h"
#include "vcsched/storage.h"

namespace vcsched::internal {

class VolumeFilters {
 public:
  VolumeFilters(const Snapshot& snapshot, bool zone, bool binding);

  // Whether the task's pod uses any claim (the filters have nothing to do otherwise).
  bool Applies(TaskIndex t) const { return !snapshot_->tasks()[static_cast<size_t>(t)].pod->volume_claims.empty(); }

  // VolumeZone's then VolumeBinding's PreFilter: empty when the task may go on, else
  // Kubernetes' message (the task then fits no node).
  std::string PreFilter(TaskIndex t);

  // VolumeZone's Filter: false when a bound volume's zone labels exclude the node.
  bool ZoneFits(TaskIndex t, const NodeSpec& node) const;
  // VolumeBinding's Filter: Kubernetes' reasons, empty when the node fits (`error` is set
  // instead when the filter errs: a claim to provision names no class, or a missing one).
  std::vector<const char*> BindingConflicts(TaskIndex t, const NodeSpec& node, std::string* error) const;

  // Where VolumeBinding may let the task in, when a claim of it confines it to a few nodes
  // (a claim marked for a node; an unbound claim whose only volumes are pinned to
  // hostnames and whose class cannot provision): those nodes are appended and true is
  // returned, every other node failing the filter alike. False when no claim confines it.
  bool ConfiningNodes(TaskIndex t, std::vector<NodeIndex>* nodes) const;

  // Reserve: the task placed on `node` takes the volumes its claims were matched to
  // there, and its claims to provision are marked for that node. Unreserve undoes it.
  void Reserve(TaskIndex t, const NodeSpec& node);
  void Unreserve(TaskIndex t);

  // What the reservations left standing at the session's end mean for the binder: one
  // record per claim, by claim.
  // Only the tasks `bound` says are bound count.
  template <typename Bound>
  std::vector<VolumeBinding> Bindings(Bound&& bound) const {
    std::vector<TaskIndex> tasks;
    for (const auto& [t, r] : reserved_) {
      if (bound(t)) tasks.push_back(t);
    }
    return BindingsOf(tasks);
  }

  // The messages the filters give, as Kubernetes words them.
  static constexpr const char* kZoneConflict = "node(s) had no available volume zone";
  static constexpr const char* kNodeConflict = "node(s) had volume node affinity conflict";
  static constexpr const char* kBindConflict = "node(s) didn't find available persistent volumes to bind";
  static constexpr const char* kPVNotExist = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

 private:
  struct Candidates;
  struct Plan {  // what the binder would do for a task on one node
    std::vector<std::pair<const PersistentVolumeClaimSpec*, const PersistentVolumeSpec*>> static_bindings;
    std::vector<const PersistentVolumeClaimSpec*> provisions;
  };
  struct Classified {  // GetPodVolumeClaims
    std::vector<const PersistentVolumeClaimSpec*> bound, delayed, immediate;
  };
  std::vector<VolumeBinding> BindingsOf(const std::vector<TaskIndex>& tasks) const;
  const PersistentVolumeClaimSpec* Claim(const PodSpec& pod, const std::string& name) const;
  Classified Classify(const PodSpec& pod) const;
  // What the filters read of a task's claims, worked out once per task and assume-cache
  // state (a session filters one task over many nodes, then moves on).
  struct ClaimClass {  // a claim that may be provisioned: its class, or why it cannot be
    const PersistentVolumeClaimSpec* claim = nullptr;
    const StorageClassSpec* storage_class = nullptr;
    std::string error;  // no class, or a class the input lacks
  };
  struct TaskVolumes {
    TaskIndex task = kNone;
    uint64_t version = 0;
    bool bound_volume_missing = false;
    std::vector<const PersistentVolumeSpec*> bound_volumes;
    std::vector<std::pair<const std::string*, std::vector<std::string>>> zones;  // node label -> allowed values
    std::vector<std::pair<ClaimClass, const std::string*>> selected;  // claims marked for a node
    std::vector<ClaimClass> to_match;  // smallest request first
    std::vector<std::string> match_keys;  // their claim keys
    std::vector<const Candidates*> candidates;  // of to_match, in order
  };
  const TaskVolumes& VolumesOf(TaskIndex t) const;
  ClaimClass ClassOf(const PersistentVolumeClaimSpec& claim) const;
  // FindPodVolumes; false with the conflicts (or error) when the node does not fit.
  bool Find(TaskIndex t, const NodeSpec& node, Plan* plan, std::vector<const char*>* conflicts,
            std::string* error) const;
  const PersistentVolumeSpec* MatchVolume(const Candidates& candidates, const std::string& claim_key,
                                          const NodeSpec& node,
                                          const std::vector<const PersistentVolumeSpec*>& chosen) const;
  // The free volumes of a class as the state has them (no claim, Available, not being
  // deleted), in Kubernetes' preference order (smallest, then by name); those pinned to one
  // hostname indexed by it. Made once per class; the session's assumptions are looked up
  // when matching.
  struct ClassIndex {
    std::vector<const PersistentVolumeSpec*> anywhere;
    absl::flat_hash_map<std::string, std::vector<const PersistentVolumeSpec*>> by_hostname;
  };
  // What a claim may take: the volumes pre-bound to it in the state, and its class's free
  // volumes (filtered by the claim's own checks as they are met).
  struct Candidates {
    bool made = false;
    std::vector<const PersistentVolumeSpec*> prebound;
    const ClassIndex* free = nullptr;
    const PersistentVolumeClaimSpec* claim = nullptr;
    bool fits_unpinned = false;  // a free volume not pinned to one hostname passes the claim's checks
  };
  const ClassIndex& IndexOf(const std::string& storage_class) const;
  const Candidates& CandidatesOf(const PersistentVolumeClaimSpec& claim) const;
  // The node a claim to provision was marked for (assumed first), or nullptr.
  const std::string* SelectedNode(const PersistentVolumeClaimSpec& claim) const;

  const Snapshot* snapshot_;
  bool zone_, binding_;  // which PreFilters run
  const StorageObjects* storage_;
  std::map<std::string, std::vector<const PersistentVolumeSpec*>> volumes_by_class_;  // by name within a class
  // The binder's assume cache: volume -> the claim (key) it was matched to, the volumes
  // matched to each claim, and the node each claim to provision was marked for.
  absl::flat_hash_map<const PersistentVolumeSpec*, std::string> assumed_owner_;
  absl::flat_hash_map<std::string, std::vector<const PersistentVolumeSpec*>> assumed_for_claim_;
  std::map<std::string, std::string> assumed_selected_node_;
  struct Reservation {
    std::vector<std::pair<const PersistentVolumeSpec*, std::string>> volumes;  // (volume, claim key)
    std::vector<std::string> provisions;                       // claim keys
    std::string node;
  };
  absl::flat_hash_map<TaskIndex, Reservation> reserved_;
  uint64_t version_ = 1;  // bumped by every change of the claims marked for a node
  mutable std::map<std::string, Candidates> candidates_;  // by claim key
  mutable std::map<std::string, ClassIndex> class_index_;
  // Volumes by the claim their spec.claimRef names ("namespace/name"), made once.
  std::map<std::string, std::vector<const PersistentVolumeSpec*>> prebound_by_claim_;
  mutable TaskVolumes task_volumes_;  // the last task's
  // Nodes by their kubernetes.io/hostname label, made on first use.
  mutable absl::flat_hash_map<std::string, std::vector<NodeIndex>> nodes_by_hostname_;
  mutable bool hostnames_indexed_ = false;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_VOLUME_FILTERS_H_
