// A living cluster: the objects a host keeps, changed one at a time, snapshotted for
// sessions, with the sessions' decisions applied back.
//
//   vcsched::Cluster cluster;
//   cluster.PutNode(node);             // add or replace; an invalid object is refused
//   cluster.PutPod(pod);
//   absl::StatusOr<vcsched::Snapshot> snap = cluster.Snapshot();
//   absl::StatusOr<vcsched::Decisions> d = vcsched::RunSession(*snap, config);
//   vcsched::ApplyReport report = cluster.Apply(*d);  // binds, evictions, phases
//
// Every change is checked as SnapshotBuilder::Build checks the object; a refused change
// leaves the state exactly as it was. A pod of ours that names no PodGroup gets the one
// Volcano's controller would create for it (ImplicitPodGroupFor), as an object of the
// state, and the pod is annotated with it. The state holds nothing that changes a
// decision beyond its objects: a snapshot of it decides what a snapshot built from the
// same objects decides.
//
// One caller at a time (Snapshot() too: it keeps the snapshot it made); the snapshots it
// returns are immutable and may be read from any thread.
#ifndef VCSCHED_CLUSTER_H_
#define VCSCHED_CLUSTER_H_

#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/decisions.h"
#include "vcsched/objects.h"
#include "vcsched/snapshot.h"
#include "vcsched/policy.h"
#include "vcsched/storage.h"
#include "vcsched/value.h"

namespace vcsched {

// What Cluster::Apply did with a session's decisions.
struct ApplyReport {
  int64_t binds = 0;
  int64_t evictions = 0;
  int64_t pipelined = 0;  // pipelined after evictions: their nominated nodes written
  int64_t pod_group_phases = 0;    // PodGroups whose phase was written
  int64_t pod_group_statuses = 0;  // PodGroups whose status (phase, counts, conditions) was written
  // Decisions that no longer fit the state (their pod or node went away between the
  // snapshot and the apply), each skipped: "bind default/p1 to n1: node not found".
  std::vector<std::string> conflicts;
};

class Cluster {
 public:
  explicit Cluster(SnapshotOptions options = {});
  // Moved, never copied: its indexes point into its own maps.
  Cluster(Cluster&&) = default;
  Cluster& operator=(Cluster&&) = default;
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;
  // The objects a built snapshot was made from (pods of other schedulers that are not
  // placed are not in a snapshot, so not in the cluster either).
  static Cluster FromSnapshot(const vcsched::Snapshot& snapshot);

  // Adds the object, or replaces the one with its key. kInvalidArgument (naming the
  // object and field) for an object SnapshotBuilder::Build would refuse.
  absl::Status PutNode(NodeSpec node);
  // A pod is moved in once (a host streams many): an lvalue is copied first.
  absl::Status PutPod(PodSpec&& pod);
  absl::Status PutPod(const PodSpec& pod) { return PutPod(PodSpec(pod)); }
  absl::Status PutPodGroup(PodGroupSpec pod_group);
  absl::Status PutQueue(QueueSpec queue);
  absl::Status PutPriorityClass(PriorityClassSpec priority_class);
  absl::Status PutNamespace(NamespaceSpec ns);
  absl::Status PutHyperNode(HyperNodeSpec hyper_node);
  // A Volcano Job's manifest (batch.volcano.sh Job), kept so that the state prints its
  // Jobs as Jobs; no session reads it. Its PodGroup and pods are objects of their own,
  // put by whoever expands it (ApplyWatchEvent, PutObjects). kInvalidArgument when it
  // is not a Job with a valid name and namespace.
  absl::Status PutVolcanoJob(Value manifest);
  // Storage objects (vcsched/storage.h). Any change of them makes the next snapshot a build.
  absl::Status PutPersistentVolumeClaim(PersistentVolumeClaimSpec claim);
  absl::Status PutPersistentVolume(PersistentVolumeSpec volume);
  absl::Status PutStorageClass(StorageClassSpec storage_class);
  absl::Status PutCSINode(CSINodeSpec csi_node);
  // Policy objects (vcsched/policy.h). Any change of them makes the next snapshot a build.
  absl::Status PutResourceQuota(ResourceQuotaSpec quota);
  absl::Status PutPodDisruptionBudget(PodDisruptionBudgetSpec budget);
  absl::Status PutNodeShard(NodeShardSpec shard);
  absl::Status PutNumatopology(NumatopologySpec topology);

  // Removes the object; kNotFound when there is none. Pods on a deleted node stay, as
  // the loader keeps pods on a missing node (not counted anywhere, with a warning).
  absl::Status DeleteNode(absl::string_view name);
  absl::Status DeletePod(absl::string_view namespace_, absl::string_view name);
  absl::Status DeletePodGroup(absl::string_view namespace_, absl::string_view name);
  absl::Status DeleteQueue(absl::string_view name);
  absl::Status DeletePriorityClass(absl::string_view name);
  absl::Status DeleteNamespace(absl::string_view name);
  absl::Status DeleteHyperNode(absl::string_view name);
  absl::Status DeleteVolcanoJob(absl::string_view namespace_, absl::string_view name);
  absl::Status DeletePersistentVolumeClaim(absl::string_view namespace_, absl::string_view name);
  absl::Status DeletePersistentVolume(absl::string_view name);
  absl::Status DeleteStorageClass(absl::string_view name);
  absl::Status DeleteCSINode(absl::string_view name);
  absl::Status DeleteResourceQuota(absl::string_view namespace_, absl::string_view name);
  absl::Status DeletePodDisruptionBudget(absl::string_view namespace_, absl::string_view name);
  absl::Status DeleteNodeShard(absl::string_view name);
  absl::Status DeleteNumatopology(absl::string_view name);

  // The state as a snapshot. Taken again without a change in between, it is the same
  // snapshot (shared, no work). When only pods and PodGroups changed since the last
  // one, it is made from that one (PatchSnapshot: the changed pods are worked out,
  // the rest carried over); otherwise it is built, sharing the unchanged pods. Fails only on limits of the whole input (the dense resource tables),
  // never on an object: objects were checked when they came in.
  absl::StatusOr<vcsched::Snapshot> Snapshot() const;
  // A snapshot built afresh from the objects, sharing nothing with earlier ones: what
  // Snapshot() must decide like (tests and benchmarks compare the two).
  absl::StatusOr<vcsched::Snapshot> BuildSnapshot() const;

  // Applies a session's decisions: a bind sets the pod's node (Bound until the host
  // reports it Running), an eviction marks the pod deleting (Releasing until the host
  // deletes it), a task pipelined onto room that evictions made gets its node as its
  // nominated node (allocate's pipelines leave the pod as it is, as Volcano does), and PodGroup
  // statuses are written as Volcano's job updater writes them: phase and counts, and
  // the session's conditions replacing those of their type, with `now_seconds` as their
  // lastTransitionTime (0: unset); a status that says nothing new (transitions aside) is
  // not written. A claim the session matched to a volume (volume_bindings) is bound to it
  // as the binder and the PV controller bind it (the claim's volumeName and
  // pv.kubernetes.io/bind-completed, the volume's claimRef, both Bound); a claim to
  // provision gets volume.kubernetes.io/selected-node. A decision whose pod, node,
  // PodGroup, claim or volume is gone is reported, not applied.
  ApplyReport Apply(const Decisions& decisions, int64_t now_seconds = 0);

  // The objects, by key: "namespace/name" for pods and PodGroups, the name otherwise.
  // A pod is shared with the snapshots that hold it (never copied for them): a change
  // puts a new spec in its place, so what a snapshot holds stays as it was.
  const SnapshotOptions& options() const { return options_; }
  const std::map<std::string, NodeSpec, std::less<>>& nodes() const { return nodes_.map(); }
  const std::map<std::string, std::shared_ptr<const PodSpec>, std::less<>>& pods() const { return pods_.map(); }
  // Whether a pod event carrying `pod` is older than the pod the cluster holds: both carry
  // a numeric metadata.resourceVersion and the event's is lower, or not higher when this
  // cluster has changed the pod since (a bind or an eviction applied here is a write the
  // API server would have given a newer version). Informers deliver in order; a relist or
  // a replay may not, and a stale event must not undo a newer state.
  bool IsStalePodEvent(const PodSpec& pod) const;
  // The keys ("namespace/name") of the pods that name PodGroup `namespace_/name` in their
  // scheduling.k8s.io/group-name annotation, sorted; found through an index, so a Volcano
  // Job's event costs its own pods, not every pod of the cluster.
  std::vector<std::string> PodsOfPodGroup(absl::string_view namespace_, absl::string_view name) const;
  const std::map<std::string, PodGroupSpec, std::less<>>& pod_groups() const { return pod_groups_.map(); }
  const std::map<std::string, QueueSpec, std::less<>>& queues() const { return queues_; }
  const std::map<std::string, PriorityClassSpec, std::less<>>& priority_classes() const { return priority_classes_; }
  const std::map<std::string, NamespaceSpec, std::less<>>& namespaces() const { return namespaces_; }
  const std::map<std::string, HyperNodeSpec, std::less<>>& hyper_nodes() const { return hyper_nodes_; }
  const std::map<std::string, Value, std::less<>>& volcano_jobs() const { return volcano_jobs_; }
  const StorageObjects& storage() const { return storage_; }
  const PolicyObjects& policy() const { return policy_; }
  // Changes since the cluster was made: each Put and Delete, and each Apply that changed
  // an object.
  int64_t generation() const { return generation_; }
  // How the snapshots were made: built from the objects, or patched from the last one.
  struct SnapshotCounts {
    int64_t built = 0;
    int64_t patched = 0;
  };
  const SnapshotCounts& snapshot_counts() const { return snapshot_counts_; }

 private:
  // The cached snapshot no longer holds: a change of any kind.
  void Stale();
  // A change the next snapshot must be built for (anything but pods and PodGroups).
  void Changed();
  // A change the next snapshot can patch in (PatchSnapshot): a pod or a PodGroup.
  void PodChanged(absl::string_view key);  // the key is kept only when a patch may follow
  void PodGroupChanged(std::string key);
  // The next snapshot may be a patch of the last one, so changed keys are worth keeping:
  // while it is to be built (none made yet, or a change a patch cannot take), they are not.
  bool PatchMayFollow() const { return last_built_.has_value() && !build_next_; }

  SnapshotOptions options_;
  // Objects in key order, found through a hash too: at 100,000 pods a walk of the map
  // misses the cache at each level. Entries stay where they are while they exist.
  template <typename Spec>
  class KeyedMap {
   public:
    using Map = std::map<std::string, Spec, std::less<>>;
    KeyedMap() = default;
    // The moved map's end is its own: the hint starts again at the new one's.
    KeyedMap(KeyedMap&& o) noexcept : map_(std::move(o.map_)), index_(std::move(o.index_)), hint_(map_.end()) {
      o.hint_ = o.map_.end();
    }
    KeyedMap& operator=(KeyedMap&& o) noexcept {
      map_ = std::move(o.map_);
      index_ = std::move(o.index_);
      hint_ = map_.end();
      o.hint_ = o.map_.end();
      return *this;
    }
    KeyedMap(const KeyedMap&) = delete;
    KeyedMap& operator=(const KeyedMap&) = delete;
    const Map& map() const { return map_; }
    Map& mutable_map() { return map_; }  // values only: a key stays as its entry was put
    typename Map::iterator end() { return map_.end(); }
    typename Map::const_iterator end() const { return map_.end(); }
    typename Map::iterator find(absl::string_view key) {
      auto it = index_.find(HashedKey::Of(key));
      return it == index_.end() ? map_.end() : it->second;
    }
    typename Map::const_iterator find(absl::string_view key) const {
      auto it = index_.find(HashedKey::Of(key));
      return it == index_.end() ? map_.cend() : typename Map::const_iterator(it->second);
    }
    bool contains(absl::string_view key) const { return index_.contains(HashedKey::Of(key)); }
    // Adds the entry, or replaces the one of that key.
    typename Map::iterator put(std::string key, Spec spec) {
      const HashedKey hashed = HashedKey::Of(key);
      if (auto at = index_.find(hashed); at != index_.end()) {
        at->second->second = std::move(spec);
        return at->second;
      }
      // Tried first just after the last entry put: a relist comes in key order, and
      // numbered names ("worker-11" after "worker-10") mostly follow one another, so two
      // comparisons place it instead of a walk from the root.
      auto it = map_.emplace_hint(hint_, std::move(key), std::move(spec));
      hint_ = std::next(it);
      index_.emplace(HashedKey{it->first, hashed.hash}, it);
      return it;
    }
    void erase(typename Map::iterator it) {
      if (hint_ == it) ++hint_;
      index_.erase(HashedKey::Of(it->first));
      map_.erase(it);
    }

   private:
    // A key with its hash: the index grows without reading every key again (at 100,000
    // pods that is a cache miss per key), and a probe compares hashes before text.
    struct HashedKey {
      absl::string_view text;
      size_t hash = 0;
      static HashedKey Of(absl::string_view text) { return {text, absl::Hash<absl::string_view>{}(text)}; }
      bool operator==(const HashedKey& o) const { return hash == o.hash && text == o.text; }
    };
    struct HashOfKey {
      size_t operator()(const HashedKey& k) const { return k.hash; }
    };
    Map map_;
    absl::flat_hash_map<HashedKey, typename Map::iterator, HashOfKey> index_;
    typename Map::iterator hint_ = map_.end();  // after the entry last put
  };

  KeyedMap<NodeSpec> nodes_;
  // Mutable: Snapshot() prepares a spec the cluster alone holds where it lies (what a
  // session reads from it: parsed node terms, its namespace's labels), which changes no
  // field a host writes.
  mutable KeyedMap<std::shared_ptr<const PodSpec>> pods_;
  KeyedMap<PodGroupSpec> pod_groups_;
  std::map<std::string, QueueSpec, std::less<>> queues_;
  // Each queue's children by name (spec.parent, empty meaning root), so that a queue's
  // put checks the hierarchy it touches: its ancestors and its subtree, not every queue.
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> queue_children_;
  absl::Status CheckQueueHierarchyChange(const QueueSpec& queue) const;
  void IndexQueueParent(const QueueSpec& queue, bool add);
  std::map<std::string, PriorityClassSpec, std::less<>> priority_classes_;
  std::map<std::string, NamespaceSpec, std::less<>> namespaces_;
  std::map<std::string, HyperNodeSpec, std::less<>> hyper_nodes_;
  std::map<std::string, Value, std::less<>> volcano_jobs_;
  StorageObjects storage_;
  // What snapshots share of storage_: made on the first snapshot after a change.
  mutable std::shared_ptr<const StorageObjects> shared_storage_;
  void StorageChanged();
  PolicyObjects policy_;
  mutable std::shared_ptr<const PolicyObjects> shared_policy_;  // as shared_storage_
  void PolicyChanged();
  // Binds the claims of volume_bindings (Apply); the number of objects changed.
  int64_t ApplyVolumeBindings(const Decisions& decisions, ApplyReport& report);
  // PodGroups the cluster made for plain pods (a later pod of the same owner joins one),
  // with the number of pods that name each. Volcano's controller makes the group owned by
  // the pod when the pod has no controller, so the group goes when its last such pod does.
  std::map<std::string, int64_t, std::less<>> implicit_groups_;
  // Pods this cluster changed (Apply) since their last event: their stored resourceVersion
  // stands for a newer one.
  std::set<std::string, std::less<>> written_here_;
  // Pod keys by the PodGroup ("namespace/group") they name.
  // Made on the first question (PodsOfPodGroup), then kept: a host that streams in pods
  // and never asks pays nothing for it.
  mutable std::map<std::string, std::set<std::string, std::less<>>, std::less<>> pods_by_group_;
  mutable bool pods_by_group_made_ = false;
  void IndexPodGroupOf(const PodSpec& pod, bool add) const;
  // The implicit group `pod` names, if any (its key), for the counts above.
  const std::string* ImplicitGroupOf(const PodSpec& pod) const;
  void ForgetPodOfImplicitGroup(const PodSpec& pod);
  int64_t generation_ = 0;
  mutable std::optional<vcsched::Snapshot> cached_;  // the snapshot of this generation
  mutable std::optional<vcsched::Snapshot> last_built_;  // the last snapshot made: the next one's base
  // What changed since last_built_ was made: pods and PodGroups by key, which the next
  // snapshot patches in; anything else, and it is built.
  // Hashed: a host that streams in many pods between snapshots adds each in O(1); the
  // patch orders them.
  mutable absl::flat_hash_set<std::string> changed_pods_, changed_pod_groups_;
  mutable bool build_next_ = true;
  mutable SnapshotCounts snapshot_counts_;
  // The pod of the slot, to change or to prepare for a snapshot: a spec no snapshot
  // holds is the cluster's alone and changes where it lies; a shared one is copied first.
  static PodSpec& Writable(std::shared_ptr<const PodSpec>& slot);
  SnapshotBuilder BuilderOfAllButPods() const;
  // The next snapshot patched from last_built_, or nullopt when it must be built.
  std::optional<vcsched::Snapshot> Patched() const;
};

}  // namespace vcsched

#endif  // VCSCHED_CLUSTER_H_
