// PatchSnapshot: admitting the changes, the task table, warnings, hidden pods and the
// dense facts (the job table is in snapshot_patch_jobs.cc).
#include "src/snapshot/snapshot_patch.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/snapshot/csi_volumes.h"
#include "src/snapshot/object_lint.h"
#include "src/snapshot/task_facts.h"

namespace vcsched {
namespace internal {
namespace {

// A pod whose warnings involve other pods (LintObjects): the patch leaves it to a build.
bool LintedWithOthers(const PodSpec& p, const Snapshot::Impl& impl) {
  const bool unknown_class = !p.priority_class_name.empty() && !p.priority &&
                             impl.pc_by_name.find(p.priority_class_name) == impl.pc_by_name.end();
  return unknown_class || HasHostPorts(p);
}

}  // namespace

bool KeyBefore(absl::string_view ns_a, absl::string_view name_a, absl::string_view ns_b, absl::string_view name_b) {
  const int c = ns_a.compare(ns_b);
  return c != 0 ? c < 0 : name_a < name_b;
}

bool PackedKeyBefore(absl::string_view key, absl::string_view ns, absl::string_view name) {
  const size_t n = ns.size();
  if (key.size() > n && std::memcmp(key.data(), ns.data(), n) == 0) {
    return key[n] == '/' && key.substr(n + 1) < name;  // else the key's namespace is longer
  }
  const size_t common = std::min(n, key.size());
  size_t i = 0;
  while (i < common && key[i] == ns[i]) ++i;
  if (i == common) {  // no '/' in the key: not a packed key, ordered as KeyBefore would
    const size_t slash = key.find('/');
    return KeyBefore(key.substr(0, slash), key.substr(slash + 1), ns, name);
  }
  return key[i] == '/' || static_cast<unsigned char>(key[i]) < static_cast<unsigned char>(ns[i]);
}

size_t PackedLowerBound(const PackedStrings& keys, size_t lo, size_t hi, absl::string_view ns, absl::string_view name) {
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (PackedKeyBefore(keys[mid], ns, name)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

std::optional<Snapshot> SnapshotPatch::Make(SnapshotChanges changes, bool in_place) {
  if (!Admit(changes)) return std::nullopt;
  if (in_place) {
    TakeOver();
  } else {
    Copy();
  }
  MakeJobTable();
  MakeTasks();
  MakeJobs();
  MergeWarnings();
  MergeHiddenPods();
  MergeOrphans();
  Finish();
  return SnapshotInternals::Make(std::move(next_));
}

// Sorts the changes, finds each one's object in the base, and says whether the patch
// can make what a build would make; prepares the new pods.
bool SnapshotPatch::Admit(const SnapshotChanges& changes) {
  // A build folded the resource names no node offers because the tables would be too
  // large: whether it still would depends on every count, so a build decides again.
  if (was_.space.folded_dim() >= 0 && !was_.options.fold_unoffered_resources) return false;
  for (const std::string& key : changes.deleted_pods) {
    const size_t slash = key.find('/');
    if (slash == std::string::npos) continue;  // no pod has such a key
    changes_.push_back({key, slash, kNone, nullptr, nullptr});
  }
  const size_t deletions = changes_.size();
  for (const std::shared_ptr<PodSpec>& pod : changes.put_pods) {
    if (pod == nullptr) return false;
    PodSpec& p = *pod;
    if (!ObjectProblems(p).empty() || LintedWithOthers(p, was_)) return false;
    if (was_.options.implicit_pod_groups && SchedulesPod(was_.options, p) && !p.annotations.count(kPodGroupAnnotation)) {
      return false;  // a build would make its PodGroup
    }
    auto labels = was_.namespace_labels.find(p.namespace_);
    if (labels == was_.namespace_labels.end()) return false;  // a namespace of no pod yet
    ParseNodeTerms(p);
    p.namespace_labels = labels->second;
    changes_.push_back({absl::StrCat(p.namespace_, "/", p.name), p.namespace_.size(), kNone, nullptr, pod});
  }
  const auto by_key = [](const Change& a, const Change& b) { return KeyBefore(a.ns(), a.name(), b.ns(), b.name()); };
  // The deletions and the puts each come in key order from a host's Cluster: merged then.
  const auto puts = changes_.begin() + static_cast<ptrdiff_t>(deletions);
  if (std::is_sorted(changes_.begin(), puts, by_key) && std::is_sorted(puts, changes_.end(), by_key)) {
    std::inplace_merge(changes_.begin(), puts, changes_.end(), by_key);
  } else {
    std::sort(changes_.begin(), changes_.end(), by_key);
  }
  for (size_t i = 1; i < changes_.size(); ++i) {
    if (changes_[i].key == changes_[i - 1].key) return false;
  }
  refs_ = was_.resource_refs;
  std::vector<Change> regrouped;  // pods whose PodGroup comes or goes
  if (!AdmitGroups(changes, regrouped)) return false;
  // Searched among the host's changes only (sorted): the ones appended are not, and a pod
  // the host changed or deleted stays as the host left it.
  const size_t own = changes_.size();
  for (Change& c : regrouped) {
    if (!std::binary_search(changes_.begin(), changes_.begin() + static_cast<ptrdiff_t>(own), c, by_key)) {
      changes_.push_back(std::move(c));
    }
  }
  if (!regrouped.empty()) {
    std::sort(changes_.begin(), changes_.end(), by_key);
    for (size_t i = 1; i < changes_.size(); ++i) {
      if (changes_[i].key == changes_[i - 1].key) return false;  // a pod regrouped twice: built instead
    }
  }
  int64_t pods = static_cast<int64_t>(was_.tasks.size() + was_.hidden_pods.size());
  PlaceChanges();
  for (Change& c : changes_) {
    if (!AdmitPod(c, pods)) return false;
  }
  for (size_t d = 0; d < refs_.size(); ++d) {
    if (refs_[d] == 0 && was_.resource_refs[d] > 0) return false;  // the dimension may go
  }
  int64_t jobs = static_cast<int64_t>(was_.jobs.size());
  for (const GroupChange& g : groups_) jobs += (g.now != nullptr) - (g.old_job != kNone);
  int64_t queues = 0;
  for (const QueueInfo& q : was_.queues) queues += q.synthesized ? 0 : 1;
  const uint64_t rows = static_cast<uint64_t>(pods) + 6 * was_.nodes.size() + 2 * static_cast<uint64_t>(jobs) +
                        4 * static_cast<uint64_t>(queues);
  return static_cast<uint64_t>(was_.space.size()) * rows <= kMaxResourceTableValues;
}

// Finds the base's pod of the change and counts the resources both name; false when the
// pod's warnings involve others or it names a resource the snapshot lacks.
bool SnapshotPatch::AdmitPod(Change& c, int64_t& pods) {
  if (c.place < was_.tasks.size() && was_.dense.task_key[c.place] == c.key) {
    c.old_task = static_cast<TaskIndex>(c.place);
    c.old_pod = was_.tasks[c.place].pod.get();
  } else if (const std::shared_ptr<const PodSpec>* hidden = FindHidden(c.ns(), c.name())) {
    c.old_pod = hidden->get();
  }
  if (c.old_pod != nullptr) {
    if (LintedWithOthers(*c.old_pod, was_)) return false;
    CountPodResources(*c.old_pod, -1);
    --pods;
  }
  if (c.now == nullptr) return true;
  ++pods;
  return CountPodResources(*c.now, +1);
}

// Adds `sign` to the count of each scalar resource the list names; false when one is not
// in the resource space.
bool SnapshotPatch::CountResources(const ResourceList& list, int sign) {
  bool known = true;
  for (const auto& [name, _] : list) {
    if (ClassifyResourceName(name) != ResourceKind::kScalar) continue;
    const int d = was_.space.Find(name);
    if (d < 0) {
      known = false;
      continue;
    }
    refs_[static_cast<size_t>(d)] += sign;
  }
  return known;
}

bool SnapshotPatch::CountPodResources(const PodSpec& p, int sign) {
  bool known = true;
  for (const Container& c : p.containers) known = CountResources(c.requests, sign) && known;
  for (const Container& c : p.init_containers) known = CountResources(c.requests, sign) && known;
  if (!p.volume_claims.empty()) {
    known = CountResources(PodCsiVolumeCounts(p, *was_.storage, was_.options), sign) && known;
  }
  return CountResources(p.overhead, sign) && known;
}

const std::shared_ptr<const PodSpec>* SnapshotPatch::FindHidden(absl::string_view ns, absl::string_view name) const {
  auto it = std::lower_bound(was_.hidden_pods.begin(), was_.hidden_pods.end(), std::make_pair(ns, name),
                             [](const std::shared_ptr<const PodSpec>& p, const auto& key) {
                               return KeyBefore(p->namespace_, p->name, key.first, key.second);
                             });
  if (it == was_.hidden_pods.end() || (*it)->namespace_ != ns || (*it)->name != name) return nullptr;
  return &*it;
}

// The base's data becomes the new snapshot's: what changes is moved out, to be read (and
// its parts moved) from here; what does not (nodes, queues, ...) stays where it is.
void SnapshotPatch::TakeOver() {
  next_ = std::const_pointer_cast<Snapshot::Impl>(SnapshotInternals::Shared(base_));
  Snapshot::Impl& n = *next_;
  own_tasks_ = std::exchange(n.tasks, {});
  own_jobs_ = std::exchange(n.jobs, {});
  own_warnings_ = std::exchange(n.warnings, {});
  own_shape_keys_ = std::exchange(n.shape_keys, {});
  own_hidden_ = std::exchange(n.hidden_pods, {});
  own_orphans_ = std::exchange(n.orphans, {});
  own_dense_ = std::exchange(n.dense, {});
  n.task_by_key.clear();  // views of the keys moved out
  old_tasks_ = &own_tasks_;
  old_jobs_ = &own_jobs_;
  old_warnings_ = &own_warnings_;
  old_shape_keys_ = &own_shape_keys_;
  old_hidden_ = &own_hidden_;
  old_orphans_ = &own_orphans_;
  old_dense_ = &own_dense_;
  in_place_ = true;
}

// A new snapshot with the base's unchanging data copied: the base stays as it is.
void SnapshotPatch::Copy() {
  next_ = std::make_shared<Snapshot::Impl>();
  Snapshot::Impl& n = *next_;
  n.space = was_.space;
  n.nodes = was_.nodes;
  n.queues = was_.queues;
  n.priority_classes = was_.priority_classes;
  n.storage = was_.storage;
  n.policy = was_.policy;
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
  old_tasks_ = &was_.tasks;
  old_jobs_ = &was_.jobs;
  old_warnings_ = &was_.warnings;
  old_shape_keys_ = &was_.shape_keys;
  old_hidden_ = &was_.hidden_pods;
  old_orphans_ = &was_.orphans;
  old_dense_ = &was_.dense;
}

// The task of a changed pod, with the warnings a build gives it; false when the pod is
// another scheduler's and not placed (no task). Reads the new job table.
bool SnapshotPatch::WorkOut(const Change& c, TaskInfo& t) {
  const PodSpec& p = *c.now;
  LintPodAlone(p, new_warnings_);
  const bool mine = SchedulesPod(was_.options, p);
  if (!mine && p.node_name.empty()) return false;
  WorkOutPodFacts(p, *next_, t);
  t.pod = c.now;
  if (!p.node_name.empty()) {
    if (auto n = next_->node_by_name.find(p.node_name); n != next_->node_by_name.end()) {
      t.node = n->second;
    } else {
      new_warnings_.push_back(NodeNotFoundWarning(t.key, p.node_name));
    }
  }
  if (mine) {
    if (auto g = p.annotations.find(kPodGroupAnnotation); g != p.annotations.end()) {
      std::string group = absl::StrCat(p.namespace_, "/", g->second);
      if (std::optional<JobIndex> j = FindNewJob(group, p.namespace_, g->second)) {
        t.job = *j;
      } else {
        new_warnings_.push_back(PodGroupNotFoundWarning(t.key, group));
        new_orphans_.emplace_back(std::move(group), t.key);
      }
    }
  }
  return true;
}

// The new job of PodGroup `key` ("namespace/name"): searched among the base's packed
// job keys (a few kilobytes, where the job records are large and far apart) and
// checked on the new record, else searched among the new records.
std::optional<JobIndex> SnapshotPatch::FindNewJob(const std::string& key, absl::string_view ns,
                                                  absl::string_view name) const {
  const PackedStrings& keys = old_dense_->job_key;  // in the base's job order: namespace, then name
  const size_t lo = PackedLowerBound(keys, 0, keys.size(), ns, name);
  if (lo < keys.size() && keys[lo] == key) {
    const JobIndex now = NewJobOf(static_cast<JobIndex>(lo));
    if (now != kNone && next_->jobs[static_cast<size_t>(now)].key == key) return now;
  }
  return FindJobByKey(next_->jobs, key);
}

// The task table: the base's tasks that stay, in order, with the changed pods' tasks put
// where their keys go. `moved_` maps each base task to its new index (kNone: gone),
// `from_` each new index to its base task (kNone: new). In place, the table is
// rearranged where it lies: a run of tasks between changes moves only when the changes
// before it added and removed different numbers of tasks.
void SnapshotPatch::MakeTasks() {
  const std::vector<TaskInfo>& old = *old_tasks_;
  const DenseFacts& was = *old_dense_;
  std::vector<TaskIndex> gone;  // the base's tasks of changed pods, ascending
  bool newest_gone = false;  // one of the base's newest pods went: the latest time is found again
  for (const Change& c : changes_) {
    if (c.old_task == kNone) continue;
    gone.push_back(c.old_task);
    const JobIndex j = was.task_job[static_cast<size_t>(c.old_task)];
    if (j != kNone) affected_jobs_.push_back(NewJobOf(j));
    if (c.old_pod->creation_time >= was_.latest_pod_creation_time) newest_gone = true;
  }
  std::sort(gone.begin(), gone.end());  // key order is task order: sorted already, unless keys are not
  gone.erase(std::unique(gone.begin(), gone.end()), gone.end());
  // The new tasks, each with where its key goes among the base's tasks (a replaced pod's
  // old task is there).
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
  // The layout, in numbers alone: per task, and as runs of tasks that move together (at
  // a place, the arriving tasks go before the base's task there).
  moved_.resize(old.size());
  from_.resize(old.size() - gone.size() + arriving.size());
  size_t i = 0, j = 0;
  auto next = arriving.begin();
  auto g = gone.begin();
  while (true) {
    size_t stop = old.size();
    if (next != arriving.end()) stop = std::min(stop, next->first);
    if (g != gone.end()) stop = std::min(stop, static_cast<size_t>(*g));
    if (stop > i) {
      runs_.push_back({static_cast<TaskIndex>(i), static_cast<TaskIndex>(stop), static_cast<TaskIndex>(j)});
      for (; i < stop; ++i, ++j) {
        moved_[i] = static_cast<TaskIndex>(j);
        from_[j] = static_cast<TaskIndex>(i);
      }
    }
    if (next != arriving.end() && next->first <= i) {  // (places never go back: <= for safety)
      fresh_.push_back(static_cast<TaskIndex>(j));
      from_[j++] = kNone;
      ++next;
    } else if (i < old.size()) {
      moved_[i++] = kNone;  // *g == i
      ++g;
    } else {
      break;
    }
  }
  if (in_place_) {
    Rearrange(arriving);
  } else {
    tasks_.reserve(from_.size());
    auto fresh = arriving.begin();
    for (size_t to = 0; to < from_.size(); ++to) {
      if (from_[to] != kNone) tasks_.push_back(old[static_cast<size_t>(from_[to])]);
      else tasks_.push_back(std::move((fresh++)->second));
      tasks_.back().index = static_cast<TaskIndex>(to);
    }
  }
  NumberShapes(gone);
  // A newest pod that went (often one changed in place) leaves the latest time as it was
  // when an arriving pod is as new; only otherwise are the tasks' times read again.
  if (newest_gone && latest_ < was_.latest_pod_creation_time) {
    latest_ = 0;
    for (const TaskInfo& t : tasks_) latest_ = std::max(latest_, t.pod->creation_time);
  } else {
    latest_ = std::max(latest_, was_.latest_pod_creation_time);
  }
}

// Where each change's key goes among the base's tasks (their index order is the
// changes' order: namespace, then name), searched in the packed keys ("namespace/name":
// a namespace has no '/'). The changes are sorted, so each search gallops from where the
// last one ended: neighbouring probes, not a search of the whole table per change.
void SnapshotPatch::PlaceChanges() {
  const PackedStrings& keys = was_.dense.task_key;
  const size_t n = keys.size();
  const auto before = [&](size_t i, const Change& c) { return PackedKeyBefore(keys[i], c.ns(), c.name()); };
  size_t lo = 0;  // every task before lo sorts before the change
  for (Change& c : changes_) {
    size_t step = 1, hi = lo;
    while (hi < n && before(hi, c)) {
      lo = hi + 1;
      hi = lo + step - 1;
      step *= 2;
    }
    lo = PackedLowerBound(keys, lo, std::min(hi, n), c.ns(), c.name());
    c.place = lo;
  }
}

size_t SnapshotPatch::PlaceOf(const Change& c) const {
  return c.old_task != kNone ? static_cast<size_t>(c.old_task) : c.place;  // where its own task was
}

// The layout applied to the base's own table (MoveRunsInPlace); the new tasks then fill
// their slots.
void SnapshotPatch::Rearrange(std::vector<std::pair<size_t, TaskInfo>>& arriving) {
  std::vector<TaskInfo>& v = own_tasks_;
  if (from_.size() > v.size()) v.resize(from_.size());
  MoveRunsInPlace(v, runs_);
  auto fresh = arriving.begin();
  for (TaskIndex j : fresh_) {
    v[static_cast<size_t>(j)] = std::move((fresh++)->second);
    v[static_cast<size_t>(j)].index = j;
  }
  v.resize(from_.size());
  tasks_ = std::move(v);
}

// Shapes numbered by first appearance in task order, as a build numbers them, and the
// carried tasks' jobs renumbered. The new tasks' flags and shape keys are worked out
// first: when the changes leave the order of the shapes' first tasks as it was, the
// numbers stay and the columns only move with the tasks (a pass over runs, not tasks).
void SnapshotPatch::NumberShapes(const std::vector<TaskIndex>& gone) {
  std::vector<FreshShape> fresh(fresh_.size());
  std::string key;
  for (size_t i = 0; i < fresh_.size(); ++i) {
    const TaskInfo& t = tasks_[static_cast<size_t>(fresh_[i])];
    fresh[i].flags = DenseFacts::FlagsOf(t);
    if (HasOwnShape(fresh[i].flags)) continue;
    ShapeKeyOf(t, *t.pod, key);
    fresh[i].old_shape = BaseShapeOfKey(key);
    if (fresh[i].old_shape == kNone) fresh[i].key = key;
  }
  if (NumbersStay(gone, fresh)) {
    KeepNumbers(fresh);
  } else {
    shape_first_.clear();
    Renumber(fresh);
  }
  if (!job_moved_.empty()) {
    const DenseFacts& was = *old_dense_;
    for (const TaskRun& r : runs_) {
      for (TaskIndex k = 0; k < r.old_end - r.old_begin; ++k) {
        const JobIndex job = was.task_job[static_cast<size_t>(r.old_begin + k)];
        if (job != kNone && NewJobOf(job) != job) tasks_[static_cast<size_t>(r.new_begin + k)].job = NewJobOf(job);
      }
    }
  }
}

// The base's shape-only shape with this key; kNone when it has none.
int32_t SnapshotPatch::BaseShapeOfKey(const std::string& key) {
  if (old_by_key_.empty()) {
    for (size_t s = 0; s < old_shape_keys_->size(); ++s) {
      const std::string& k = (*old_shape_keys_)[s];
      if (!k.empty()) old_by_key_.emplace(k, static_cast<int32_t>(s));
    }
  }
  const auto o = old_by_key_.find(key);
  return o == old_by_key_.end() ? kNone : o->second;
}

// Whether the shapes keep their numbers: each still has a task, and their first tasks
// still come in number order. Works out each shape's first task as it goes: where it
// moved, or, when it went, the shape's next task (found within a short walk; else the
// shapes are numbered again), or a new task before either.
bool SnapshotPatch::NumbersStay(const std::vector<TaskIndex>& gone, const std::vector<FreshShape>& fresh) {
  constexpr size_t kWalk = 256;
  const DenseFacts& was = *old_dense_;
  const std::vector<TaskIndex>& first = was.shape_first_task;
  const size_t shapes = first.size();
  if (shapes != old_shape_keys_->size()) return false;
  shape_first_.resize(shapes);
  for (size_t s = 0; s < shapes; ++s) {
    if (first[s] < 0 || static_cast<size_t>(first[s]) >= moved_.size()) return false;  // (every shape has a task)
    shape_first_[s] = moved_[static_cast<size_t>(first[s])];
  }
  std::vector<int32_t> changed;
  for (const TaskIndex g : gone) {
    const auto at = static_cast<size_t>(g);
    const int32_t s = was.task_shape[at];
    if (s < 0 || static_cast<size_t>(s) >= shapes) return false;
    if (first[static_cast<size_t>(s)] != g) continue;
    if (HasOwnShape(was.task_flags[at])) return false;  // its shape goes with it
    TaskIndex next = kNone;
    for (size_t k = at + 1; k < was.task_shape.size() && k <= at + kWalk && next == kNone; ++k) {
      if (was.task_shape[k] == s) next = moved_[k];
    }
    shape_first_[static_cast<size_t>(s)] = next;
    changed.push_back(s);
  }
  for (size_t i = 0; i < fresh.size(); ++i) {
    if (HasOwnShape(fresh[i].flags) || fresh[i].old_shape == kNone) return false;  // a new number
    TaskIndex& lead = shape_first_[static_cast<size_t>(fresh[i].old_shape)];
    if (lead == kNone || fresh_[i] < lead) {
      lead = fresh_[i];
      changed.push_back(fresh[i].old_shape);
    }
  }
  for (const int32_t s : changed) {
    const auto k = static_cast<size_t>(s);
    const TaskIndex lead = shape_first_[k];
    if (lead == kNone) return false;
    if (k > 0 && !(shape_first_[k - 1] < lead)) return false;
    if (k + 1 < shapes && !(lead < shape_first_[k + 1])) return false;
  }
  return true;
}

// The base's numbers kept (NumbersStay found their first tasks): its keys, its columns
// moved as the tasks moved, the new tasks' written.
void SnapshotPatch::KeepNumbers(const std::vector<FreshShape>& fresh) {
  const DenseFacts& was = *old_dense_;
  const size_t n = from_.size();
  shape_keys_ = in_place_ ? std::move(own_shape_keys_) : *old_shape_keys_;
  if (in_place_) {
    flags_ = std::move(own_dense_.task_flags);
    shapes_ = std::move(own_dense_.task_shape);
    ShiftRuns(flags_, runs_, n);
    ShiftRuns(shapes_, runs_, n);
  } else {
    flags_.resize(n);
    shapes_.resize(n);
    for (const TaskRun& r : runs_) {
      const auto len = static_cast<ptrdiff_t>(r.old_end - r.old_begin);
      std::copy_n(was.task_flags.begin() + r.old_begin, len, flags_.begin() + r.new_begin);
      std::copy_n(was.task_shape.begin() + r.old_begin, len, shapes_.begin() + r.new_begin);
    }
  }
  for (size_t i = 0; i < fresh.size(); ++i) {
    const auto j = static_cast<size_t>(fresh_[i]);
    flags_[j] = fresh[i].flags;
    shapes_[j] = tasks_[j].shape = fresh[i].old_shape;
  }
}

// Every task numbered again in task order.
void SnapshotPatch::Renumber(const std::vector<FreshShape>& fresh) {
  const DenseFacts& was = *old_dense_;
  renumbered_.assign(old_shape_keys_->size(), kNone);
  flags_.resize(from_.size());
  shapes_.resize(from_.size());
  // A run of carried tasks: flags copied at once, shapes renumbered.
  const auto carry = [&](const TaskRun& r) {
    const auto len = static_cast<size_t>(r.old_end - r.old_begin);
    const auto from = static_cast<size_t>(r.old_begin), to = static_cast<size_t>(r.new_begin);
    std::copy_n(was.task_flags.begin() + static_cast<ptrdiff_t>(from), len, flags_.begin() + static_cast<ptrdiff_t>(to));
    for (size_t k = 0; k < len; ++k) {
      const int32_t before = was.task_shape[from + k];
      const auto at = static_cast<TaskIndex>(to + k);
      const int32_t shape = HasOwnShape(flags_[to + k]) ? NewShape(std::string(), at) : OldShape(before, at);
      shapes_[to + k] = shape;
      if (shape != before) tasks_[to + k].shape = shape;
    }
  };
  const auto add = [&](size_t i) {
    const TaskIndex j = fresh_[i];
    TaskInfo& t = tasks_[static_cast<size_t>(j)];
    flags_[static_cast<size_t>(j)] = fresh[i].flags;
    if (HasOwnShape(fresh[i].flags)) {
      t.shape = NewShape(std::string(), j);
    } else if (fresh[i].old_shape != kNone) {
      t.shape = OldShape(fresh[i].old_shape, j);
    } else {
      const auto [it, added] = new_by_key_.try_emplace(fresh[i].key, static_cast<int32_t>(shape_keys_.size()));
      if (added) NewShape(fresh[i].key, j);
      t.shape = it->second;
    }
    shapes_[static_cast<size_t>(j)] = t.shape;
  };
  // In task order: shapes are numbered by first appearance.
  auto r = runs_.begin();
  size_t f = 0;
  while (r != runs_.end() || f < fresh_.size()) {
    if (f == fresh_.size() || (r != runs_.end() && r->new_begin < fresh_[f])) {
      carry(*r++);
    } else {
      add(f++);
    }
  }
}

// The next shape number, first met at task `at`.
int32_t SnapshotPatch::NewShape(std::string key, TaskIndex at) {
  shape_keys_.push_back(std::move(key));
  shape_first_.push_back(at);
  return static_cast<int32_t>(shape_keys_.size() - 1);
}

// The new number of the base's shape-only shape `s`, met at task `at`.
int32_t SnapshotPatch::OldShape(int32_t s, TaskIndex at) {
  int32_t& to = renumbered_[static_cast<size_t>(s)];
  if (to == kNone) to = NewShape((*old_shape_keys_)[static_cast<size_t>(s)], at);
  return to;
}

// The base's warnings without those of the changed objects alone, with the new ones.
void SnapshotPatch::MergeWarnings() {
  const std::vector<std::string>& old = *old_warnings_;
  for (const Change& c : changes_) {
    if (c.old_pod != nullptr) dropped_prefixes_.push_back(absl::StrCat("Pod \"", c.key, "\": "));
  }
  std::vector<bool> dropped(old.size(), false);
  for (const std::string& prefix : dropped_prefixes_) {
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
    if (in_place_) out.push_back(std::move(own_warnings_[i]));
    else out.push_back(old[i]);
  }
  for (; fresh != new_warnings_.end(); ++fresh) out.push_back(std::move(*fresh));
}

void SnapshotPatch::MergeHiddenPods() {
  std::vector<std::shared_ptr<const PodSpec>>& out = next_->hidden_pods;
  const std::vector<std::shared_ptr<const PodSpec>>& old = *old_hidden_;
  out.reserve(old.size() + new_hidden_.size());
  auto fresh = new_hidden_.begin();
  auto change = changes_.begin();
  for (const std::shared_ptr<const PodSpec>& p : old) {
    for (; fresh != new_hidden_.end() && KeyBefore((*fresh)->namespace_, (*fresh)->name, p->namespace_, p->name); ++fresh) {
      out.push_back(*fresh);
    }
    while (change != changes_.end() && KeyBefore(change->ns(), change->name(), p->namespace_, p->name)) ++change;
    const bool changed = change != changes_.end() && change->ns() == p->namespace_ && change->name() == p->name;
    if (!changed) out.push_back(p);
  }
  out.insert(out.end(), fresh, new_hidden_.end());
}

// The base's tasks without a PodGroup, less the changed ones, with the new ones.
void SnapshotPatch::MergeOrphans() {
  std::vector<std::pair<std::string, std::string>>& out = next_->orphans;
  absl::flat_hash_set<absl::string_view> changed;
  if (!old_orphans_->empty()) {
    for (const Change& c : changes_) changed.insert(c.key);
  }
  for (const auto& orphan : *old_orphans_) {
    if (!changed.contains(orphan.second)) out.push_back(orphan);
  }
  for (auto& orphan : new_orphans_) out.push_back(std::move(orphan));
  std::sort(out.begin(), out.end());
}

void SnapshotPatch::Finish() {
  Snapshot::Impl& n = *next_;
  n.shape_keys = std::move(shape_keys_);
  n.latest_pod_creation_time = latest_;
  n.resource_refs = std::move(refs_);
  // In place the base's per-task columns are taken over (nothing reads them after this).
  n.dense = DenseFacts::Patched(*old_dense_, in_place_ ? &own_dense_ : nullptr, runs_, moved_, job_moved_, n.tasks, fresh_,
                                n.jobs, job_redone_, job_affected_, n.nodes.size(), n.space.size(),
                                std::move(flags_), std::move(shapes_), std::move(shape_first_), latest_);
  if (!n.dense.task_keys_sorted) {
    n.task_by_key.clear();
    n.task_by_key.reserve(n.tasks.size());
    for (const TaskInfo& t : n.tasks) n.task_by_key.emplace(t.key, t.index);
  }
}

}  // namespace internal

std::optional<Snapshot> PatchSnapshot(const Snapshot& base, SnapshotChanges changes) {
  return internal::SnapshotPatch(base).Make(std::move(changes), false);
}

std::optional<Snapshot> PatchSnapshot(Snapshot&& base, SnapshotChanges changes) {
  // No other Snapshot, decisions or view holds base's data (the count is exact here: no
  // other holder exists to copy it concurrently), so nothing can see it change.
  const bool alone = SnapshotInternals::Shared(base).use_count() == 1;
  std::optional<Snapshot> next = internal::SnapshotPatch(base).Make(std::move(changes), alone);
  if (next) base = Snapshot();
  return next;
}

}  // namespace vcsched
