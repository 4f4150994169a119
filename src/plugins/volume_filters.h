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
  // FindPodVolumes; false with the conflicts (or error) when the node does not fit.
  bool Find(const PodSpec& pod, const NodeSpec& node, Plan* plan, std::vector<const char*>* conflicts,
            std::string* error) const;
  const PersistentVolumeSpec* MatchVolume(const PersistentVolumeClaimSpec& claim, const NodeSpec& node,
                                          const std::vector<const PersistentVolumeSpec*>& chosen) const;
  // The claim a volume is bound to now (the assumed one first), or nullptr.
  const ClaimReference* BoundClaim(const PersistentVolumeSpec& pv) const;
  // The node a claim to provision was marked for (assumed first), or nullptr.
  const std::string* SelectedNode(const PersistentVolumeClaimSpec& claim) const;

  const Snapshot* snapshot_;
  bool zone_, binding_;  // which PreFilters run
  const StorageObjects* storage_;
  std::map<std::string, std::vector<const PersistentVolumeSpec*>> volumes_by_class_;  // by name within a class
  // The binder's assume cache: volume -> the claim it was matched to; claim key -> node.
  std::map<std::string, ClaimReference> assumed_claim_of_volume_;
  std::map<std::string, std::string> assumed_selected_node_;
  struct Reservation {
    std::vector<std::pair<std::string, std::string>> volumes;  // (volume, claim key)
    std::vector<std::string> provisions;                       // claim keys
    std::string node;
  };
  absl::flat_hash_map<TaskIndex, Reservation> reserved_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_VOLUME_FILTERS_H_
