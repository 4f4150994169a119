// PatchSnapshot's steps: the next snapshot made from an earlier one and the pods and
// PodGroups that changed since, at a cost that follows the changes. Only the changed
// objects (and the pods whose PodGroup came or went) are worked out; the rest is
// carried over, its indices shifted: copied, or, when nothing else holds the earlier
// snapshot, moved where it lies. Internal to the snapshot layer.
#ifndef VCSCHED_SRC_SNAPSHOT_SNAPSHOT_PATCH_H_
#define VCSCHED_SRC_SNAPSHOT_SNAPSHOT_PATCH_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "src/snapshot/dense_facts.h"
#include "src/snapshot/snapshot_impl.h"
#include "vcsched/snapshot.h"

namespace vcsched::internal {

// Objects are in key order: namespace, then name (PodsInKeyOrder, and jobs likewise).
bool KeyBefore(absl::string_view ns_a, absl::string_view name_a, absl::string_view ns_b, absl::string_view name_b);
// The same for a packed key "namespace/name" against (ns, name), without first finding
// the key's '/': a namespace holds no '/', so the first byte where the key and `ns`
// differ decides, unless it is the key's '/' (its namespace is then a prefix of `ns`).
bool PackedKeyBefore(absl::string_view key, absl::string_view ns, absl::string_view name);
// The first of keys [lo, hi) (packed, in that order) not before (ns, name).
size_t PackedLowerBound(const PackedStrings& keys, size_t lo, size_t hi, absl::string_view ns, absl::string_view name);

// Lays records (tasks or jobs, each with its `index`) out where they lie: each run's
// records go to their new places, those moving left in ascending order and those moving
// right in descending order, so each lands in a slot already vacated (or a removed
// record's). `v` must be long enough for every new place.
template <typename Record>
void MoveRunsInPlace(std::vector<Record>& v, const std::vector<TaskRun>& runs) {
  const auto move = [&v](int32_t from, int32_t to) {
    v[static_cast<size_t>(to)] = std::move(v[static_cast<size_t>(from)]);
    v[static_cast<size_t>(to)].index = to;
  };
  for (const TaskRun& r : runs) {
    for (int32_t i = r.old_begin; r.new_begin < r.old_begin && i < r.old_end; ++i) move(i, r.new_begin + (i - r.old_begin));
  }
  for (auto r = runs.rbegin(); r != runs.rend(); ++r) {
    for (int32_t i = r->old_end; r->new_begin > r->old_begin && i-- > r->old_begin;) move(i, r->new_begin + (i - r->old_begin));
  }
}

class SnapshotPatch {
 public:
  explicit SnapshotPatch(const Snapshot& base) : base_(base), was_(SnapshotInternals::Of(base)) {}

  // nullopt when the changes need a build (PatchSnapshot says which). `in_place`: the
  // base's data may be taken over (nothing else holds it).
  std::optional<Snapshot> Make(SnapshotChanges changes, bool in_place);

 private:
  // A changed pod, or one whose PodGroup came or went.
  struct Change {
    std::string key;                         // "namespace/name"
    size_t slash = 0;                        // where key's '/' is
    TaskIndex old_task = kNone;              // the base's task of the pod
    const PodSpec* old_pod = nullptr;        // the base's pod of this key (a task's or a hidden one)
    std::shared_ptr<const PodSpec> now;      // null: deleted
    size_t place = 0;                        // where the key goes among the base's tasks (PlaceChanges)
    absl::string_view ns() const { return absl::string_view(key).substr(0, slash); }
    absl::string_view name() const { return absl::string_view(key).substr(slash + 1); }
  };
  // A changed PodGroup.
  struct GroupChange {
    std::string key;
    size_t slash = 0;
    JobIndex old_job = kNone;
    const PodGroupSpec* now = nullptr;  // null: deleted
    absl::string_view ns() const { return absl::string_view(key).substr(0, slash); }
    absl::string_view name() const { return absl::string_view(key).substr(slash + 1); }
  };

  // snapshot_patch.cc
  bool Admit(const SnapshotChanges& changes);
  bool AdmitPod(Change& c, int64_t& pods);
  void PlaceChanges();
  bool CountResources(const ResourceList& list, int sign);
  bool CountPodResources(const PodSpec& p, int sign);
  const std::shared_ptr<const PodSpec>* FindHidden(absl::string_view ns, absl::string_view name) const;
  void TakeOver();
  void Copy();
  bool WorkOut(const Change& c, TaskInfo& t);
  std::optional<JobIndex> FindNewJob(const std::string& key, absl::string_view ns, absl::string_view name) const;
  void MakeTasks();
  size_t PlaceOf(const Change& c) const;
  void Rearrange(std::vector<std::pair<size_t, TaskInfo>>& arriving);
  // A new task's TaskFlag bits and, for a task without an own shape, the base's shape of
  // its key (kNone: none, the key kept).
  struct FreshShape {
    uint8_t flags = 0;
    int32_t old_shape = kNone;
    std::string key;
  };
  void NumberShapes(const std::vector<TaskIndex>& gone);
  int32_t BaseShapeOfKey(const std::string& key);
  bool NumbersStay(const std::vector<TaskIndex>& gone, const std::vector<FreshShape>& fresh);
  void KeepNumbers(const std::vector<FreshShape>& fresh);
  void Renumber(const std::vector<FreshShape>& fresh);
  int32_t NewShape(std::string key, TaskIndex at);
  int32_t OldShape(int32_t s, TaskIndex at);
  void MergeWarnings();
  void MergeHiddenPods();
  void MergeOrphans();
  void Finish();
  // snapshot_patch_jobs.cc
  bool AdmitGroups(const SnapshotChanges& changes, std::vector<Change>& regrouped);
  void MakeJobTable();
  JobIndex NewJobOf(JobIndex old) const { return job_moved_.empty() ? old : job_moved_[static_cast<size_t>(old)]; }
  void MakeJobs();

  const Snapshot& base_;
  const Snapshot::Impl& was_;  // in place: its task, job, warning, shape and dense parts are moved out
  std::shared_ptr<Snapshot::Impl> next_;
  bool in_place_ = false;
  // The base's parts that change: its own, or (in place) moved out to the own_ ones.
  const std::vector<TaskInfo>* old_tasks_ = nullptr;
  const std::vector<JobInfo>* old_jobs_ = nullptr;
  const std::vector<std::string>* old_warnings_ = nullptr;
  const std::vector<std::string>* old_shape_keys_ = nullptr;
  const std::vector<std::shared_ptr<const PodSpec>>* old_hidden_ = nullptr;
  const std::vector<std::pair<std::string, std::string>>* old_orphans_ = nullptr;
  const DenseFacts* old_dense_ = nullptr;
  std::vector<TaskInfo> own_tasks_;
  std::vector<JobInfo> own_jobs_;
  std::vector<std::string> own_warnings_, own_shape_keys_;
  std::vector<std::shared_ptr<const PodSpec>> own_hidden_;
  std::vector<std::pair<std::string, std::string>> own_orphans_;
  DenseFacts own_dense_;

  std::vector<Change> changes_;         // in key order
  std::vector<GroupChange> groups_;     // in key order
  std::vector<int64_t> refs_;           // resource_refs after the changes
  std::vector<TaskInfo> tasks_;         // the new task table, until the jobs take it
  std::vector<TaskIndex> moved_, from_;  // base task -> new index, new index -> base task
  std::vector<TaskIndex> fresh_;        // the new tasks, ascending
  std::vector<TaskRun> runs_;           // the carried tasks, as runs that move together
  std::vector<JobIndex> job_moved_;     // base job -> new index; empty: the same
  std::vector<bool> job_redone_;        // per new job: its record was worked out again
  std::vector<uint8_t> flags_;
  std::vector<int32_t> shapes_;
  std::vector<std::string> shape_keys_;
  std::vector<TaskIndex> shape_first_;  // per new shape, its first task
  std::vector<int32_t> renumbered_;  // the base's shape-only shapes' new numbers
  absl::flat_hash_map<std::string, int32_t> old_by_key_, new_by_key_;
  std::vector<JobIndex> affected_jobs_;  // new jobs that lost or gained a task
  std::vector<bool> job_affected_;       // the same per new job (MakeJobs)
  std::vector<std::string> new_warnings_;
  std::vector<std::string> dropped_prefixes_;  // of the warnings of changed objects
  std::vector<std::shared_ptr<const PodSpec>> new_hidden_;  // in key order
  std::vector<std::pair<std::string, std::string>> new_orphans_;
  int64_t latest_ = 0;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_SNAPSHOT_SNAPSHOT_PATCH_H_
