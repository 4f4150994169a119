// PatchSnapshot: the next snapshot made from an earlier one and the pods (and PodGroup
// statuses) that changed since, at a cost that follows the changes: only the changed
// pods are worked out; the rest of the task table is copied, its indices shifted.
#include <algorithm>
#include <iterator>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/snapshot/hyper_node_tree.h"
#include "src/snapshot/object_lint.h"
#include "src/snapshot/snapshot_impl.h"
#include "src/snapshot/task_facts.h"
#include "vcsched/snapshot.h"

namespace vcsched {
namespace {

// Tasks are in pod order: namespace, then name (PodsInKeyOrder).
bool PodBefore(absl::string_view ns_a, absl::string_view name_a, absl::string_view ns_b, absl::string_view name_b) {
  const int c = ns_a.compare(ns_b);
  return c != 0 ? c < 0 : name_a < name_b;
}

// A pod whose warnings involve other pods (LintObjects): the patch leaves it to a build.
bool LintedWithOthers(const PodSpec& p, const Snapshot::Impl& impl) {
  const bool unknown_class = !p.priority_class_name.empty() && !p.priority &&
                             impl.pc_by_name.find(p.priority_class_name) == impl.pc_by_name.end();
  return unknown_class || internal::HasHostPorts(p);
}

// The prefix of every warning about the pod `key` alone ("Pod \"ns/name\": ...").
std::string WarningPrefix(absl::string_view key) { return absl::StrCat("Pod \"", key, "\": "); }

// One changed pod.
struct Change {
  std::string key;                   // "namespace/name"
  size_t slash = 0;                  // where key's '/' is
  TaskIndex old_task = kNone;        // the base's task of the pod
  const PodSpec* old_pod = nullptr;  // the base's pod of this key (a task's or a hidden one)
  std::shared_ptr<PodSpec> now;      // null: deleted
  absl::string_view ns() const { return absl::string_view(key).substr(0, slash); }
  absl::string_view name() const { return absl::string_view(key).substr(slash + 1); }
};

class SnapshotPatch {
 public:
  explicit SnapshotPatch(const Snapshot& base) : base_(base), was_(SnapshotInternals::Of(base)) {}

  // `in_place`: base's data may be taken over (no other holder of it lives).
  std::optional<Snapshot> Make(SnapshotChanges changes, bool in_place) {
    if (!Admit(changes)) return std::nullopt;
    if (in_place) {
      TakeOver();
    } else {
      Copy();
    }
    MakeTasks();
    MakeJobs();
    MergeWarnings();
    MergeHiddenPods();
    Finish();
    return SnapshotInternals::Make(std::move(next_));
  }

 private:
  // Sorts the changes, finds each one's pod in the base, and says whether the patch
  // can make what a build would make; prepares the new pods.
  bool Admit(const SnapshotChanges& changes) {
    for (const std::string& key : changes.deleted_pods) {
      const size_t slash = key.find('/');
      if (slash == std::string::npos) continue;  // no pod has such a key
      changes_.push_back({key, slash, kNone, nullptr, nullptr});
    }
    for (const std::shared_ptr<PodSpec>& pod : changes.put_pods) {
      if (pod == nullptr) return false;
      std::string key = absl::StrCat(pod->namespace_, "/", pod->name);
      const size_t slash = pod->namespace_.size();
      changes_.push_back({std::move(key), slash, kNone, nullptr, pod});
    }
    std::sort(changes_.begin(), changes_.end(),
              [](const Change& a, const Change& b) { return PodBefore(a.ns(), a.name(), b.ns(), b.name()); });
    for (size_t i = 1; i < changes_.size(); ++i) {
      if (changes_[i].key == changes_[i - 1].key) return false;
    }
    refs_ = was_.pod_resource_refs;
    int64_t pods = static_cast<int64_t>(was_.tasks.size() + was_.hidden_pods.size());
    for (Change& c : changes_) {
      if (std::optional<TaskIndex> t = base_.FindTask(c.key)) {
        c.old_task = *t;
        c.old_pod = was_.tasks[static_cast<size_t>(*t)].pod.get();
      } else if (const std::shared_ptr<const PodSpec>* hidden = FindHidden(c.ns(), c.name())) {
        c.old_pod = hidden->get();
      }
      if (c.old_pod != nullptr) {
        if (LintedWithOthers(*c.old_pod, was_)) return false;
        CountResources(*c.old_pod, -1);
        --pods;
      }
      if (c.now == nullptr) continue;
      PodSpec& p = *c.now;
      if (!ObjectProblems(p).empty() || LintedWithOthers(p, was_)) return false;
      if (was_.options.implicit_pod_groups && SchedulesPod(was_.options, p) && !p.annotations.count(kPodGroupAnnotation)) {
        return false;  // a build would make its PodGroup
      }
      auto labels = was_.namespace_labels.find(p.namespace_);
      if (labels == was_.namespace_labels.end()) return false;
      if (!CountResources(p, +1)) return false;
      internal::ParseNodeTerms(p);
      p.namespace_labels = labels->second;
      ++pods;
    }
    for (const PodGroupSpec& g : changes.pod_group_statuses) {
      std::optional<JobIndex> j = base_.FindJob(absl::StrCat(g.namespace_, "/", g.name));
      if (!j) return false;
      statuses_.emplace_back(*j, &g);
    }
    for (size_t d = 0; d < refs_.size(); ++d) {
      if (refs_[d] == 0 && was_.pod_resource_refs[d] > 0) return false;  // the dimension may go
    }
    int64_t queues = 0;
    for (const QueueInfo& q : was_.queues) queues += q.synthesized ? 0 : 1;
    const uint64_t rows = static_cast<uint64_t>(pods) + 6 * was_.nodes.size() + 2 * was_.jobs.size() +
                          4 * static_cast<uint64_t>(queues);
    return static_cast<uint64_t>(was_.space.size()) * rows <= kMaxResourceTableValues;
  }

  // Adds `sign` to the count of each resource the pod's lists name; false when one is
  // not in the resource space.
  bool CountResources(const PodSpec& p, int sign) {
    const auto count = [&](const ResourceList& list) {
      for (const auto& [name, _] : list) {
        if (ClassifyResourceName(name) != ResourceKind::kScalar) continue;
        const int d = was_.space.Find(name);
        if (d < 0) return false;
        refs_[static_cast<size_t>(d)] += sign;
      }
      return true;
    };
    bool known = true;
    for (const Container& c : p.containers) known = count(c.requests) && known;
    for (const Container& c : p.init_containers) known = count(c.requests) && known;
    return count(p.overhead) && known;
  }

  const std::shared_ptr<const PodSpec>* FindHidden(absl::string_view ns, absl::string_view name) const {
    auto it = std::lower_bound(was_.hidden_pods.begin(), was_.hidden_pods.end(), std::make_pair(ns, name),
                               [](const std::shared_ptr<const PodSpec>& p, const auto& key) {
                                 return PodBefore(p->namespace_, p->name, key.first, key.second);
                               });
    if (it == was_.hidden_pods.end() || (*it)->namespace_ != ns || (*it)->name != name) return nullptr;
    return &*it;
  }

  // The base's data becomes the new snapshot's: what pods change is moved out, to be
  // read (and its parts moved) from here, and what they do not change stays in place.
  void TakeOver() {
    next_ = std::const_pointer_cast<Snapshot::Impl>(SnapshotInternals::Shared(base_));
    Snapshot::Impl& n = *next_;
    own_tasks_ = std::move(n.tasks);
    own_warnings_ = std::move(n.warnings);
    own_shape_keys_ = std::move(n.shape_keys);
    own_hidden_ = std::move(n.hidden_pods);
    own_dense_ = std::move(n.dense);
    n.tasks.clear();
    n.warnings.clear();
    n.shape_keys.clear();
    n.hidden_pods.clear();
    n.task_by_key.clear();  // views of the keys moved out
    old_tasks_ = &own_tasks_;
    old_warnings_ = &own_warnings_;
    old_shape_keys_ = &own_shape_keys_;
    old_hidden_ = &own_hidden_;
    old_dense_ = &own_dense_;
    in_place_ = true;
  }

  // A new snapshot with the base's data copied: the base stays as it is.
  void Copy() {
    next_ = std::make_shared<Snapshot::Impl>();
    Snapshot::Impl& n = *next_;
    n.space = was_.space;
    n.nodes = was_.nodes;
    n.queues = was_.queues;
    n.priority_classes = was_.priority_classes;
    n.namespace_labels = was_.namespace_labels;
    n.total = was_.total;
    n.node_by_name = was_.node_by_name;
    n.queue_by_name = was_.queue_by_name;
    n.pc_by_name = was_.pc_by_name;
    n.hyper_nodes = was_.hyper_nodes;
    n.hyper_node_by_name = was_.hyper_node_by_name;
    n.hyper_node_depth = was_.hyper_node_depth;
    n.hyper_node_tiers = was_.hyper_node_tiers;
    n.hyper_node_tier_by_name = was_.hyper_node_tier_by_name;
    n.node_lowest_hyper_node = was_.node_lowest_hyper_node;
    n.hyper_nodes_ready = was_.hyper_nodes_ready;
    n.options = was_.options;
    n.jobs = was_.jobs;
    for (const JobInfo& j : n.jobs) n.job_by_key.emplace(j.key, j.index);  // views of the copies
    old_tasks_ = &was_.tasks;
    old_warnings_ = &was_.warnings;
    old_shape_keys_ = &was_.shape_keys;
    old_hidden_ = &was_.hidden_pods;
    old_dense_ = &was_.dense;
  }

  // The task of a changed pod, with the warnings a build gives it; false when the pod
  // is another scheduler's and not placed (no task).
  bool WorkOut(const Change& c, TaskInfo& t) {
    const PodSpec& p = *c.now;
    internal::LintPodAlone(p, new_warnings_);
    const bool mine = SchedulesPod(was_.options, p);
    if (!mine && p.node_name.empty()) return false;
    internal::WorkOutPodFacts(p, was_, t);
    t.pod = c.now;
    if (!p.node_name.empty()) {
      if (auto n = was_.node_by_name.find(p.node_name); n != was_.node_by_name.end()) {
        t.node = n->second;
      } else {
        new_warnings_.push_back(internal::NodeNotFoundWarning(t.key, p.node_name));
      }
    }
    if (mine) {
      if (auto g = p.annotations.find(kPodGroupAnnotation); g != p.annotations.end()) {
        const std::string group = absl::StrCat(p.namespace_, "/", g->second);
        if (auto j = was_.job_by_key.find(group); j != was_.job_by_key.end()) {
          t.job = j->second;
        } else {
          new_warnings_.push_back(internal::PodGroupNotFoundWarning(t.key, group));
        }
      }
    }
    return true;
  }

  // The task table: the base's tasks that stay, in order, with the changed pods' tasks
  // put where their keys go. `moved_` maps each base task to its new index (kNone:
  // gone), `from_` each new index to its base task (kNone: new). In place, the table is
  // rearranged where it is: a run of tasks between changes moves only when the changes
  // before it added and removed different numbers of tasks.
  void MakeTasks() {
    const std::vector<TaskInfo>& old = *old_tasks_;
    const DenseFacts& was = *old_dense_;
    std::vector<bool> gone(old.size(), false);
    bool newest_gone = false;  // one of the base's newest pods went: the latest time is found again
    for (const Change& c : changes_) {
      if (c.old_task == kNone) continue;
      gone[static_cast<size_t>(c.old_task)] = true;
      affected_jobs_.push_back(was.task_job[static_cast<size_t>(c.old_task)]);
      if (c.old_pod->creation_time >= was_.latest_pod_creation_time) newest_gone = true;
    }
    // The new tasks, each with where its key goes among the base's tasks (a replaced
    // pod's old task is there).
    std::vector<std::pair<size_t, TaskInfo>> arriving;
    for (const Change& c : changes_) {
      if (c.now == nullptr) continue;
      TaskInfo t;
      if (!WorkOut(c, t)) {
        new_hidden_.push_back(c.now);
        continue;
      }
      latest_ = std::max(latest_, t.pod->creation_time);
      affected_jobs_.push_back(t.job);
      arriving.emplace_back(PlaceOf(c), std::move(t));
    }
    // The layout, in numbers alone.
    moved_.assign(old.size(), kNone);
    from_.clear();
    from_.reserve(old.size() + arriving.size());
    auto next = arriving.begin();
    for (size_t i = 0; i <= old.size(); ++i) {
      for (; next != arriving.end() && next->first == i; ++next) {
        fresh_.push_back(static_cast<TaskIndex>(from_.size()));
        from_.push_back(kNone);
      }
      if (i == old.size() || gone[i]) continue;
      moved_[i] = static_cast<TaskIndex>(from_.size());
      from_.push_back(static_cast<TaskIndex>(i));
    }
    if (in_place_) {
      Rearrange(arriving);
    } else {
      tasks_.reserve(from_.size());
      auto fresh = arriving.begin();
      for (size_t j = 0; j < from_.size(); ++j) {
        if (from_[j] != kNone) tasks_.push_back(old[static_cast<size_t>(from_[j])]);
        else tasks_.push_back(std::move((fresh++)->second));
        tasks_.back().index = static_cast<TaskIndex>(j);
      }
    }
    NumberShapes();
    if (newest_gone) {
      latest_ = 0;
      for (const TaskInfo& t : tasks_) latest_ = std::max(latest_, t.pod->creation_time);
    } else {
      latest_ = std::max(latest_, was_.latest_pod_creation_time);
    }
  }

  // Where the change's key goes among the base's tasks (a replaced pod's old task is
  // there), searched in the packed keys ("namespace/name": a namespace has no '/').
  size_t PlaceOf(const Change& c) const {
    const PackedStrings& keys = old_dense_->task_key;
    size_t lo = 0, hi = keys.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const absl::string_view key = keys[mid];
      const size_t slash = key.find('/');
      if (PodBefore(key.substr(0, slash), key.substr(slash + 1), c.ns(), c.name())) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // The layout applied to the base's own table: moved_ is increasing, so tasks moving
  // left go in ascending order and tasks moving right in descending order, each into a
  // slot already vacated (or a removed task's); the new tasks then fill their slots.
  void Rearrange(std::vector<std::pair<size_t, TaskInfo>>& arriving) {
    std::vector<TaskInfo>& v = own_tasks_;
    const size_t old_size = v.size();
    if (from_.size() > old_size) v.resize(from_.size());
    for (size_t i = 0; i < old_size; ++i) {
      const TaskIndex j = moved_[i];
      if (j != kNone && static_cast<size_t>(j) < i) {
        v[static_cast<size_t>(j)] = std::move(v[i]);
        v[static_cast<size_t>(j)].index = j;
      }
    }
    for (size_t i = old_size; i-- > 0;) {
      const TaskIndex j = moved_[i];
      if (j != kNone && static_cast<size_t>(j) > i) {
        v[static_cast<size_t>(j)] = std::move(v[i]);
        v[static_cast<size_t>(j)].index = j;
      }
    }
    auto fresh = arriving.begin();
    for (TaskIndex j : fresh_) {
      v[static_cast<size_t>(j)] = std::move((fresh++)->second);
      v[static_cast<size_t>(j)].index = j;
    }
    v.resize(from_.size());
    tasks_ = std::move(v);
  }

  // Shapes numbered by first appearance in task order, as a build numbers them; read
  // from the dense facts, so that only a task whose number changes is written.
  void NumberShapes() {
    const DenseFacts& was = *old_dense_;
    renumbered_.assign(old_shape_keys_->size(), kNone);
    flags_.resize(from_.size());
    shapes_.resize(from_.size());
    std::string key;  // a new task's shape key
    for (size_t j = 0; j < from_.size(); ++j) {
      const TaskIndex i = from_[j];
      int32_t shape = 0;
      if (i != kNone) {
        flags_[j] = was.task_flags[static_cast<size_t>(i)];
        const int32_t before = was.task_shape[static_cast<size_t>(i)];
        shape = (flags_[j] & kTaskPlacementTerms) ? OwnShape() : OldShape(before);
        if (shape != before) tasks_[j].shape = shape;
      } else {
        TaskInfo& t = tasks_[j];
        flags_[j] = DenseFacts::FlagsOf(t);
        if (flags_[j] & kTaskPlacementTerms) {
          shape = OwnShape();
        } else {
          internal::ShapeKeyOf(t, *t.pod, key);
          shape = ShapeOfKey(key);
        }
        t.shape = shape;
      }
      shapes_[j] = shape;
    }
  }

  // The next shape number for a task with a shape of its own.
  int32_t OwnShape() {
    shape_keys_.emplace_back();
    return static_cast<int32_t>(shape_keys_.size() - 1);
  }
  // The new number of the base's shape-only shape `s`.
  int32_t OldShape(int32_t s) {
    int32_t& to = renumbered_[static_cast<size_t>(s)];
    if (to == kNone) {
      to = static_cast<int32_t>(shape_keys_.size());
      shape_keys_.push_back((*old_shape_keys_)[static_cast<size_t>(s)]);
    }
    return to;
  }
  // The shape of a new shape-only task: the base's with that key, or a new one.
  int32_t ShapeOfKey(const std::string& key) {
    if (old_by_key_.empty()) {
      for (size_t s = 0; s < old_shape_keys_->size(); ++s) {
        const std::string& k = (*old_shape_keys_)[s];
        if (!k.empty()) old_by_key_.emplace(k, static_cast<int32_t>(s));
      }
    }
    if (auto o = old_by_key_.find(key); o != old_by_key_.end()) return OldShape(o->second);
    auto [it, added] = new_by_key_.try_emplace(key, static_cast<int32_t>(shape_keys_.size()));
    if (added) shape_keys_.push_back(key);
    return it->second;
  }

  // The jobs with their task lists made again and their statuses updated; the
  // sub-groups of jobs whose tasks changed are worked out again, the others' renumbered.
  void MakeJobs() {
    next_->tasks = std::move(tasks_);  // sub-groups read them
    std::vector<JobInfo>& jobs = next_->jobs;
    for (const auto& [j, g] : statuses_) {
      PodGroupSpec& to = jobs[static_cast<size_t>(j)].pod_group;
      to.phase = g->phase;
      to.running = g->running;
      to.succeeded = g->succeeded;
      to.failed = g->failed;
      to.conditions = g->conditions;
    }
    for (JobInfo& j : jobs) j.tasks.clear();
    for (size_t t = 0; t < from_.size(); ++t) {
      const TaskIndex i = from_[t];
      const JobIndex j = i != kNone ? old_dense_->task_job[static_cast<size_t>(i)] : next_->tasks[t].job;
      if (j != kNone) jobs[static_cast<size_t>(j)].tasks.push_back(static_cast<TaskIndex>(t));
    }
    std::vector<bool> affected(jobs.size(), false);
    for (JobIndex j : affected_jobs_) {
      if (j != kNone) affected[static_cast<size_t>(j)] = true;
    }
    for (JobInfo& j : jobs) {
      if (affected[static_cast<size_t>(j.index)]) {
        internal::BuildSubJobsOf(*next_, j);
        continue;
      }
      for (SubJobInfo& sub : j.sub_jobs) {
        for (TaskIndex& t : sub.tasks) t = moved_[static_cast<size_t>(t)];
      }
    }
  }

  // The base's warnings without those of the changed pods alone, with the new ones.
  void MergeWarnings() {
    const std::vector<std::string>& old = *old_warnings_;
    std::vector<bool> dropped(old.size(), false);
    for (const Change& c : changes_) {
      if (c.old_pod == nullptr) continue;
      const std::string prefix = WarningPrefix(c.key);
      for (auto it = std::lower_bound(old.begin(), old.end(), prefix); it != old.end() && absl::StartsWith(*it, prefix); ++it) {
        dropped[static_cast<size_t>(it - old.begin())] = true;
      }
    }
    std::sort(new_warnings_.begin(), new_warnings_.end());
    std::vector<std::string>& out = next_->warnings;
    out.reserve(old.size() + new_warnings_.size());
    auto fresh = new_warnings_.begin();
    for (size_t i = 0; i < old.size(); ++i) {
      if (dropped[i]) continue;
      for (; fresh != new_warnings_.end() && *fresh < old[i]; ++fresh) out.push_back(std::move(*fresh));
      out.push_back(in_place_ ? std::move(own_warnings_[i]) : old[i]);
    }
    for (; fresh != new_warnings_.end(); ++fresh) out.push_back(std::move(*fresh));
  }

  void MergeHiddenPods() {
    std::vector<std::shared_ptr<const PodSpec>>& out = next_->hidden_pods;
    const std::vector<std::shared_ptr<const PodSpec>>& old = *old_hidden_;
    out.reserve(old.size() + new_hidden_.size());
    auto fresh = new_hidden_.begin();
    auto change = changes_.begin();
    for (const std::shared_ptr<const PodSpec>& p : old) {
      for (; fresh != new_hidden_.end() && PodBefore((*fresh)->namespace_, (*fresh)->name, p->namespace_, p->name); ++fresh) {
        out.push_back(*fresh);
      }
      while (change != changes_.end() && PodBefore(change->ns(), change->name(), p->namespace_, p->name)) ++change;
      const bool changed = change != changes_.end() && change->ns() == p->namespace_ && change->name() == p->name;
      if (!changed) out.push_back(p);
    }
    out.insert(out.end(), fresh, new_hidden_.end());
  }

  void Finish() {
    Snapshot::Impl& n = *next_;
    n.shape_keys = std::move(shape_keys_);
    n.latest_pod_creation_time = latest_;
    n.pod_resource_refs = std::move(refs_);
    n.dense = DenseFacts::Patched(*old_dense_, moved_, n.tasks, fresh_, n.jobs, n.space.size(), std::move(flags_),
                                  std::move(shapes_), latest_);
    if (!n.dense.task_keys_sorted) {
      n.task_by_key.clear();
      n.task_by_key.reserve(n.tasks.size());
      for (const TaskInfo& t : n.tasks) n.task_by_key.emplace(t.key, t.index);
    }
  }

  const Snapshot& base_;
  const Snapshot::Impl& was_;  // in place: its task, warning, shape and dense parts are moved out
  std::shared_ptr<Snapshot::Impl> next_;
  bool in_place_ = false;
  // The base's parts that pods change: its own, or (in place) moved out to the own_ ones.
  const std::vector<TaskInfo>* old_tasks_ = nullptr;
  const std::vector<std::string>* old_warnings_ = nullptr;
  const std::vector<std::string>* old_shape_keys_ = nullptr;
  const std::vector<std::shared_ptr<const PodSpec>>* old_hidden_ = nullptr;
  const DenseFacts* old_dense_ = nullptr;
  std::vector<TaskInfo> own_tasks_;
  std::vector<std::string> own_warnings_, own_shape_keys_;
  std::vector<std::shared_ptr<const PodSpec>> own_hidden_;
  DenseFacts own_dense_;

  std::vector<Change> changes_;  // in pod order
  std::vector<std::pair<JobIndex, const PodGroupSpec*>> statuses_;
  std::vector<int64_t> refs_;    // pod_resource_refs after the changes
  std::vector<TaskInfo> tasks_;  // the new task table, until the jobs take it
  std::vector<TaskIndex> moved_, from_;
  std::vector<TaskIndex> fresh_;  // the new tasks, ascending
  std::vector<uint8_t> flags_;
  std::vector<int32_t> shapes_;
  std::vector<std::string> shape_keys_;
  std::vector<int32_t> renumbered_;  // the base's shape-only shapes' new numbers
  absl::flat_hash_map<std::string, int32_t> old_by_key_, new_by_key_;
  std::vector<JobIndex> affected_jobs_;  // jobs that lost or gained a task
  std::vector<std::string> new_warnings_;
  std::vector<std::shared_ptr<const PodSpec>> new_hidden_;  // in pod order
  int64_t latest_ = 0;
};

}  // namespace

std::optional<Snapshot> PatchSnapshot(const Snapshot& base, SnapshotChanges changes) {
  return SnapshotPatch(base).Make(std::move(changes), false);
}

std::optional<Snapshot> PatchSnapshot(Snapshot&& base, SnapshotChanges changes) {
  // No other Snapshot, decisions or view holds base's data (the count is exact here: no
  // other holder exists to copy it concurrently), so nothing can see it change.
  const bool alone = SnapshotInternals::Shared(base).use_count() == 1;
  std::optional<Snapshot> next = SnapshotPatch(base).Make(std::move(changes), alone);
  if (next) base = Snapshot();
  return next;
}

}  // namespace vcsched
