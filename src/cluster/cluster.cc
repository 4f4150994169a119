#include "vcsched/cluster.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "src/cluster/object_status.h"

namespace vcsched {
namespace {

// Made for every pod put or deleted: sized once and copied into, with no formatting.
std::string Key(absl::string_view namespace_, absl::string_view name) {
  std::string key(namespace_.size() + 1 + name.size(), '/');
  std::copy(namespace_.begin(), namespace_.end(), key.begin());
  std::copy(name.begin(), name.end(), key.begin() + static_cast<ptrdiff_t>(namespace_.size()) + 1);
  return key;
}

using cluster_internal::Check;
using cluster_internal::Erase;

// Whether two conditions say the same, their transition (ID and time) aside.
bool SameCondition(const PodGroupConditionSpec& a, const PodGroupConditionSpec& b) {
  return a.type == b.type && a.status == b.status && a.reason == b.reason && a.message == b.message;
}

// Writes a session's PodGroup status as Volcano's job updater does: the session's
// conditions replace those of their type (others are kept); the status is written only
// when it says something new, transitions aside, so a session that repeats itself
// changes nothing. Returns whether it wrote.
bool WriteStatus(const PodGroupStatus& from, int64_t now_seconds, PodGroupSpec& to) {
  // Most sessions repeat most statuses: that is found without copying the conditions
  // (each session condition says what the first kept one of its type says).
  if ((from.phase.empty() || absl::string_view(from.phase) == to.phase) && from.running == to.running &&
      from.succeeded == to.succeeded && from.failed == to.failed &&
      std::all_of(from.conditions.begin(), from.conditions.end(), [&](const PodGroupCondition& c) {
        auto kept = std::find_if(to.conditions.begin(), to.conditions.end(),
                                 [&](const PodGroupConditionSpec& old) { return old.type == c.type; });
        return kept != to.conditions.end() && kept->status == c.status && kept->reason == c.reason &&
               kept->message == c.message;
      })) {
    return false;
  }
  std::vector<PodGroupConditionSpec> conditions = to.conditions;
  for (const PodGroupCondition& c : from.conditions) {
    PodGroupConditionSpec spec{std::string(c.type),   std::string(c.status),  std::string(c.transition_id),
                               now_seconds,           std::string(c.reason),  std::string(c.message)};
    auto same_type = std::find_if(conditions.begin(), conditions.end(),
                                  [&](const PodGroupConditionSpec& old) { return old.type == spec.type; });
    if (same_type == conditions.end()) conditions.push_back(std::move(spec));
    else *same_type = std::move(spec);
  }
  const std::string& phase = from.phase.empty() ? to.phase : std::string(from.phase);
  const bool same = phase == to.phase && from.running == to.running && from.succeeded == to.succeeded &&
                    from.failed == to.failed && conditions.size() == to.conditions.size() &&
                    std::equal(conditions.begin(), conditions.end(), to.conditions.begin(), SameCondition);
  if (same) return false;
  to.phase = phase;
  to.running = from.running;
  to.succeeded = from.succeeded;
  to.failed = from.failed;
  to.conditions = std::move(conditions);
  return true;
}

}  // namespace

Cluster::Cluster(SnapshotOptions options) : options_(std::move(options)) {}

Cluster Cluster::FromSnapshot(const vcsched::Snapshot& snapshot) {
  Cluster c(snapshot.options());
  for (const NodeInfo& n : snapshot.nodes()) {
    if (!c.nodes_.contains(n.spec.name)) c.nodes_.put(n.spec.name, n.spec);
  }
  for (const QueueInfo& q : snapshot.queues()) {
    if (!q.synthesized) {
      c.queues_.emplace(q.spec.name, q.spec);
      c.IndexQueueParent(q.spec, true);
    }
  }
  for (const PriorityClassSpec& pc : snapshot.priority_classes()) c.priority_classes_.emplace(pc.name, pc);
  c.storage_ = snapshot.storage();
  c.policy_ = snapshot.policy();
  for (const HyperNodeInfo& h : snapshot.hyper_nodes()) {
    if (h.index != snapshot.hyper_node_root()) c.hyper_nodes_.emplace(h.name, h.spec);
  }
  for (const JobInfo& j : snapshot.jobs()) {
    if (!c.pod_groups_.contains(j.key)) c.pod_groups_.put(j.key, j.pod_group);
  }
  for (const TaskInfo& t : snapshot.tasks()) {
    const PodSpec& pod = *t.pod;
    if (pod.namespace_labels != nullptr && !c.namespaces_.count(pod.namespace_)) {
      c.namespaces_.emplace(pod.namespace_, NamespaceSpec{pod.namespace_, *pod.namespace_labels});
    }
    // A group named as the controller names a pod's own group was made for plain pods.
    auto group = pod.annotations.find(kPodGroupAnnotation);
    if (group != pod.annotations.end() && group->second == ImplicitPodGroupFor(pod).name) {
      ++c.implicit_groups_[Key(pod.namespace_, group->second)];
    }
    if (!c.pods_.contains(t.key)) {
      c.pods_.put(t.key, t.pod);  // shared with the snapshot, as it prepared it
    }
  }
  c.cached_ = snapshot;
  return c;
}

PodSpec& Cluster::Writable(std::shared_ptr<const PodSpec>& slot) {
  if (slot.use_count() > 1) slot = std::make_shared<PodSpec>(*slot);
  // A snapshot let go of on another thread read the spec before its release of it: the
  // fence orders those reads before the changes below (use_count() loads relaxed).
  std::atomic_thread_fence(std::memory_order_acquire);
  // Every spec is made as a non-const object (make_shared, a build's deque): changing
  // one that nothing else holds is sound.
  return const_cast<PodSpec&>(*slot);
}

void Cluster::Stale() {
  ++generation_;
  cached_.reset();
}

void Cluster::Changed() {
  Stale();
  build_next_ = true;
}

// A host's first relist puts every object before any snapshot: no key is kept for it.
void Cluster::PodChanged(absl::string_view key) {
  Stale();
  if (PatchMayFollow()) changed_pods_.insert(std::string(key));
}

void Cluster::PodGroupChanged(std::string key) {
  Stale();
  if (PatchMayFollow()) changed_pod_groups_.insert(std::move(key));
}

absl::Status Cluster::PutNode(NodeSpec node) {
  if (absl::Status s = Check(node); !s.ok()) return s;
  std::string key = node.name;
  nodes_.put(std::move(key), std::move(node));
  Changed();
  return absl::OkStatus();
}

absl::Status Cluster::PutPod(PodSpec&& pod) {
  pod.namespace_labels = nullptr;  // the snapshot points it at its own namespace table
  if (absl::Status s = Check(pod); !s.ok()) return s;
  std::optional<PodGroupSpec> made;  // the controller's PodGroup for a plain pod, when new
  if (options_.implicit_pod_groups && SchedulesPod(options_, pod) && !pod.annotations.count(kPodGroupAnnotation)) {
    PodGroupSpec group = ImplicitPodGroupFor(pod);
    const std::string group_key = Key(group.namespace_, group.name);
    if (pod_groups_.contains(group_key) && !implicit_groups_.count(group_key)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Pod \"", Key(pod.namespace_, pod.name), "\": metadata.annotations: the pod names no PodGroup (",
                       kPodGroupAnnotation, "), and the PodGroup Volcano's controller would create for it, \"",
                       group.name, "\", is already a PodGroup of the input"));
    }
    pod.annotations[std::string(kPodGroupAnnotation)] = group.name;
    if (!pod_groups_.contains(group_key)) made = std::move(group);
  }
  if (made) {
    std::string group_key = Key(made->namespace_, made->name);
    implicit_groups_.emplace(group_key, 0);
    pod_groups_.put(group_key, *std::move(made));
    PodGroupChanged(std::move(group_key));
  }
  std::string key = Key(pod.namespace_, pod.name);  // before the pod is moved
  // The pod this one replaces leaves its group's count, and this one joins its own.
  if (const auto old = pods_.find(key); old != pods_.end()) {
    if (const std::string* g = ImplicitGroupOf(*old->second)) --implicit_groups_[*g];
    IndexPodGroupOf(*old->second, false);
  }
  if (const std::string* g = ImplicitGroupOf(pod)) ++implicit_groups_[*g];
  IndexPodGroupOf(pod, true);
  if (!written_here_.empty()) {
    if (const auto w = written_here_.find(key); w != written_here_.end()) written_here_.erase(w);
  }
  const auto it = pods_.put(std::move(key), std::make_shared<PodSpec>(std::move(pod)));
  PodChanged(it->first);
  return absl::OkStatus();
}

bool Cluster::IsStalePodEvent(const PodSpec& pod) const {
  if (pod.resource_version.empty()) return false;
  const auto it = pods_.find(Key(pod.namespace_, pod.name));
  if (it == pods_.end() || it->second->resource_version.empty()) return false;
  uint64_t incoming = 0, held = 0;
  if (!absl::SimpleAtoi(pod.resource_version, &incoming) || !absl::SimpleAtoi(it->second->resource_version, &held)) {
    return false;  // versions are opaque to clients; only the API server's numbers compare
  }
  return incoming < held || (incoming == held && written_here_.count(it->first) > 0);
}

void Cluster::IndexPodGroupOf(const PodSpec& pod, bool add) const {
  if (!pods_by_group_made_) return;
  const auto group = pod.annotations.find(kPodGroupAnnotation);
  if (group == pod.annotations.end()) return;
  std::string group_key = Key(pod.namespace_, group->second);
  std::string pod_key = Key(pod.namespace_, pod.name);
  if (add) {
    pods_by_group_[std::move(group_key)].insert(std::move(pod_key));
    return;
  }
  auto it = pods_by_group_.find(group_key);
  if (it == pods_by_group_.end()) return;
  it->second.erase(pod_key);
  if (it->second.empty()) pods_by_group_.erase(it);
}

std::vector<std::string> Cluster::PodsOfPodGroup(absl::string_view namespace_, absl::string_view name) const {
  if (!pods_by_group_made_) {
    pods_by_group_made_ = true;
    for (const auto& [_, pod] : pods_.map()) IndexPodGroupOf(*pod, true);
  }
  const auto it = pods_by_group_.find(Key(namespace_, name));
  if (it == pods_by_group_.end()) return {};
  return std::vector<std::string>(it->second.begin(), it->second.end());
}

const std::string* Cluster::ImplicitGroupOf(const PodSpec& pod) const {
  if (implicit_groups_.empty()) return nullptr;  // most clusters: every pod names its group
  const auto group = pod.annotations.find(kPodGroupAnnotation);
  if (group == pod.annotations.end()) return nullptr;
  const auto it = implicit_groups_.find(Key(pod.namespace_, group->second));
  return it == implicit_groups_.end() ? nullptr : &it->first;
}

// A pod naming an implicit group is gone: the group goes with the last pod that has no
// controller (Volcano's group is then owned by the pod, and garbage-collected with it).
// A group of pods with a controller stays, as the controller's does in a cluster.
void Cluster::ForgetPodOfImplicitGroup(const PodSpec& pod) {
  const std::string* g = ImplicitGroupOf(pod);
  if (g == nullptr) return;
  auto counted = implicit_groups_.find(*g);
  if (--counted->second > 0 || !pod.controller_uid.empty()) return;
  std::string group_key = counted->first;
  implicit_groups_.erase(counted);
  if (pod_groups_.contains(group_key)) {
    (void)Erase(pod_groups_, "PodGroup", group_key);
    PodGroupChanged(std::move(group_key));
  }
}

absl::Status Cluster::PutPodGroup(PodGroupSpec pod_group) {
  if (absl::Status s = Check(pod_group); !s.ok()) return s;
  std::string key = Key(pod_group.namespace_, pod_group.name);
  pod_groups_.put(key, std::move(pod_group));
  PodGroupChanged(std::move(key));
  return absl::OkStatus();
}

absl::Status Cluster::PutQueue(QueueSpec queue) {
  // The hierarchy is checked whole: a queue's parent and children are other queues.
  if (absl::Status s = CheckQueueHierarchyChange(queue); !s.ok()) return s;
  if (const auto old = queues_.find(queue.name); old != queues_.end()) IndexQueueParent(old->second, false);
  IndexQueueParent(queue, true);
  std::string key = queue.name;
  queues_.insert_or_assign(std::move(key), std::move(queue));
  Changed();
  return absl::OkStatus();
}

void Cluster::IndexQueueParent(const QueueSpec& queue, bool add) {
  const std::string parent = queue.parent == "root" ? std::string() : queue.parent;
  if (add) {
    queue_children_[parent].insert(queue.name);
    return;
  }
  auto it = queue_children_.find(parent);
  if (it == queue_children_.end()) return;
  it->second.erase(queue.name);
  if (it->second.empty()) queue_children_.erase(it);
}

// What a build would refuse of the hierarchy once `queue` is put, checked where the put
// can change it: the queue itself (its name, weight, annotation), its ancestors (a cycle
// through it, its depth) and its subtree (how deep it then reaches). The rest of the
// hierarchy was valid before and is untouched. Messages are the builder's.
absl::Status Cluster::CheckQueueHierarchyChange(const QueueSpec& queue) const {
  if (absl::Status s = Check(queue); !s.ok()) return s;  // name, weight, annotation levels
  if (queue.name == "root") return absl::OkStatus();
  // Up: a cycle must pass through `queue` (none existed before); the depth of `queue`.
  std::vector<std::string> chain = {queue.name};
  int64_t depth = 1;
  for (std::string cur = queue.parent; !cur.empty() && cur != "root";) {
    if (cur == queue.name) {
      std::vector<std::string> names(chain.begin(), chain.end());
      const auto smallest = std::min_element(names.begin(), names.end()) - names.begin();
      std::rotate(names.begin(), names.begin() + smallest, names.end());
      names.push_back(names.front());
      return absl::InvalidArgumentError(absl::StrCat("Queue \"", names.front(),
                                                     "\": spec.parent: the queues' parents form a cycle (",
                                                     absl::StrJoin(names, " -> "), ")"));
    }
    const auto it = queues_.find(cur);
    if (it == queues_.end()) break;  // a missing parent: the builder warns
    chain.push_back(cur);
    ++depth;
    if (depth > kMaxQueueHierarchyDepth + 1) break;  // deep enough to refuse below
    cur = it->second.parent;
  }
  // Down: the deepest queue of its subtree (children by name), breadth first.
  int64_t height = 0;
  std::vector<std::string> level = {queue.name};
  std::string deepest = queue.name;
  while (!level.empty() && depth + height <= kMaxQueueHierarchyDepth) {
    std::vector<std::string> next;
    for (const std::string& q : level) {
      const auto kids = queue_children_.find(q);
      if (kids == queue_children_.end()) continue;
      for (const std::string& k : kids->second) {
        if (k != queue.name) next.push_back(k);
      }
    }
    if (next.empty()) break;
    ++height;
    deepest = next.front();
    level = std::move(next);
  }
  if (depth + height > kMaxQueueHierarchyDepth) {
    return absl::InvalidArgumentError(absl::StrCat("Queue \"", deepest, "\": spec.parent: the queue is more than ",
                                                   kMaxQueueHierarchyDepth, " levels below root"));
  }
  return absl::OkStatus();
}

absl::Status Cluster::PutPriorityClass(PriorityClassSpec priority_class) {
  if (absl::Status s = Check(priority_class); !s.ok()) return s;
  std::string key = priority_class.name;
  priority_classes_.insert_or_assign(std::move(key), std::move(priority_class));
  Changed();
  return absl::OkStatus();
}

absl::Status Cluster::PutNamespace(NamespaceSpec ns) {
  if (absl::Status s = Check(ns); !s.ok()) return s;
  std::string key = ns.name;
  namespaces_.insert_or_assign(std::move(key), std::move(ns));
  Changed();
  return absl::OkStatus();
}

absl::Status Cluster::PutHyperNode(HyperNodeSpec hyper_node) {
  if (absl::Status s = Check(hyper_node); !s.ok()) return s;
  std::string key = hyper_node.name;
  hyper_nodes_.insert_or_assign(std::move(key), std::move(hyper_node));
  Changed();
  return absl::OkStatus();
}

absl::Status Cluster::PutVolcanoJob(Value manifest) {
  const Value* kind = manifest.Find("kind");
  const Value* api = manifest.Find("apiVersion");
  // The loader's rule for what is a Volcano Job.
  if (kind == nullptr || kind->text() != "Job" || api == nullptr || !absl::StartsWith(api->text(), "batch.volcano.sh")) {
    return absl::InvalidArgumentError("a Volcano Job's manifest must have kind Job and apiVersion batch.volcano.sh/...");
  }
  const Value* meta = manifest.Find("metadata");
  const Value* name = meta == nullptr ? nullptr : meta->Find("name");
  const Value* ns = meta == nullptr ? nullptr : meta->Find("namespace");
  const std::string namespace_ = ns == nullptr ? "default" : ns->text();
  const std::string job_name = name == nullptr ? "" : name->text();
  if (const std::vector<std::string> problems = NameProblems("Job", job_name, &namespace_); !problems.empty()) {
    return absl::InvalidArgumentError(absl::StrJoin(problems, "\n"));
  }
  volcano_jobs_.insert_or_assign(Key(namespace_, job_name), std::move(manifest));
  ++generation_;  // a change of the state, though not of any snapshot: the cached one stays
  return absl::OkStatus();
}

absl::Status Cluster::DeleteNode(absl::string_view name) {
  absl::Status s = Erase(nodes_, "Node", name);
  if (s.ok()) Changed();
  return s;
}

absl::Status Cluster::DeletePod(absl::string_view namespace_, absl::string_view name) {
  std::string key = Key(namespace_, name);
  const auto it = pods_.find(key);
  if (it == pods_.end()) return absl::NotFoundError(absl::StrCat("Pod \"", key, "\": not found"));
  const std::shared_ptr<const PodSpec> pod = it->second;
  pods_.erase(it);
  IndexPodGroupOf(*pod, false);
  if (const auto w = written_here_.find(key); w != written_here_.end()) written_here_.erase(w);
  ForgetPodOfImplicitGroup(*pod);
  PodChanged(key);
  return absl::OkStatus();
}

absl::Status Cluster::DeletePodGroup(absl::string_view namespace_, absl::string_view name) {
  std::string key = Key(namespace_, name);
  absl::Status s = Erase(pod_groups_, "PodGroup", key);
  if (!s.ok()) return s;
  implicit_groups_.erase(key);
  PodGroupChanged(std::move(key));
  return s;
}

absl::Status Cluster::DeleteQueue(absl::string_view name) {
  if (!queues_.count(name)) return absl::NotFoundError(absl::StrCat("Queue \"", name, "\": not found"));
  // Taking a queue away makes no cycle and no deeper queue (its children's parent is then
  // missing, which the builder warns of): nothing to check.
  const auto gone = queues_.find(name);
  IndexQueueParent(gone->second, false);
  queues_.erase(gone);
  Changed();
  return absl::OkStatus();
}

absl::Status Cluster::DeletePriorityClass(absl::string_view name) {
  absl::Status s = Erase(priority_classes_, "PriorityClass", name);
  if (s.ok()) Changed();
  return s;
}

absl::Status Cluster::DeleteNamespace(absl::string_view name) {
  absl::Status s = Erase(namespaces_, "Namespace", name);
  if (s.ok()) Changed();
  return s;
}

absl::Status Cluster::DeleteVolcanoJob(absl::string_view namespace_, absl::string_view name) {
  absl::Status s = Erase(volcano_jobs_, "Job", Key(namespace_, name));
  if (s.ok()) ++generation_;  // no snapshot holds Jobs
  return s;
}

absl::Status Cluster::DeleteHyperNode(absl::string_view name) {
  absl::Status s = Erase(hyper_nodes_, "HyperNode", name);
  if (s.ok()) Changed();
  return s;
}

SnapshotBuilder Cluster::BuilderOfAllButPods() const {
  SnapshotBuilder b(options_);
  for (const auto& [_, n] : nodes_.map()) b.AddNode(n);
  for (const auto& [_, q] : queues_) b.AddQueue(q);
  for (const auto& [_, pc] : priority_classes_) b.AddPriorityClass(pc);
  for (const auto& [_, ns] : namespaces_) b.AddNamespace(ns);
  for (const auto& [_, h] : hyper_nodes_) b.AddHyperNode(h);
  for (const auto& [_, g] : pod_groups_.map()) b.AddPodGroup(g);
  if (!storage_.empty()) {
    if (shared_storage_ == nullptr) shared_storage_ = std::make_shared<const StorageObjects>(storage_);
    b.SetStorage(shared_storage_);
  }
  if (!policy_.empty()) {
    if (shared_policy_ == nullptr) shared_policy_ = std::make_shared<const PolicyObjects>(policy_);
    b.SetPolicy(shared_policy_);
  }
  return b;
}

absl::StatusOr<Snapshot> Cluster::Snapshot() const {
  if (cached_) return *cached_;
  if (!build_next_ && last_built_) {
    if (std::optional<vcsched::Snapshot> patched = Patched()) {
      changed_pods_.clear();
      changed_pod_groups_.clear();
      last_built_ = cached_ = *patched;
      ++snapshot_counts_.patched;
      return *std::move(patched);
    }
  }
  SnapshotBuilder b = BuilderOfAllButPods();
  // A pod an earlier snapshot holds goes in shared (the build copies it only if it must
  // prepare it again); one the cluster alone holds (new or changed since) is handed
  // over and prepared where it lies, so the snapshot shares the cluster's very spec.
  for (auto& [key, p] : pods_.mutable_map()) {
    if (p.use_count() > 1) b.AddSharedPod(p);
    else b.AddOwnedPod(std::shared_ptr<PodSpec>(p, &Writable(p)));
  }
  if (last_built_) b.ReuseFrom(*last_built_);
  absl::StatusOr<vcsched::Snapshot> built = std::move(b).Build();
  if (!built.ok()) return built;
  last_built_ = *built;
  cached_ = *built;
  changed_pods_.clear();
  changed_pod_groups_.clear();
  build_next_ = false;
  ++snapshot_counts_.built;
  return built;
}

namespace {

// The keys of a set in ascending order (a patch's input, the same for the same changes).
std::vector<const std::string*> Ordered(const absl::flat_hash_set<std::string>& keys) {
  std::vector<const std::string*> out;
  out.reserve(keys.size());
  for (const std::string& k : keys) out.push_back(&k);
  std::sort(out.begin(), out.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  return out;
}

}  // namespace

std::optional<Snapshot> Cluster::Patched() const {
  SnapshotChanges changes;
  for (const std::string* changed : Ordered(changed_pods_)) {
    const std::string& key = *changed;
    auto it = pods_.find(key);
    if (it == pods_.end()) {
      changes.deleted_pods.push_back(key);
      continue;
    }
    // Prepared by the patch where it lies: the snapshot shares the cluster's spec.
    changes.put_pods.push_back(std::shared_ptr<PodSpec>(it->second, &Writable(it->second)));
  }
  for (const std::string* changed : Ordered(changed_pod_groups_)) {
    const std::string& key = *changed;
    auto it = pod_groups_.find(key);
    if (it == pod_groups_.end()) changes.deleted_pod_groups.push_back(key);
    else changes.put_pod_groups.push_back(it->second);
  }
  // The last snapshot is handed over: when the host let go of it (and of its decisions),
  // its data is reused in place.
  return PatchSnapshot(std::move(*last_built_), std::move(changes));
}

absl::StatusOr<Snapshot> Cluster::BuildSnapshot() const {
  SnapshotBuilder b = BuilderOfAllButPods();
  std::deque<PodSpec> pods;
  for (const auto& [_, p] : pods_.map()) pods.push_back(*p);
  b.AddPods(std::move(pods));
  return std::move(b).Build();
}

ApplyReport Cluster::Apply(const Decisions& decisions, int64_t now_seconds) {
  ApplyReport report;
  int64_t changed = 0;
  const auto pod_of = [&](absl::string_view what, absl::string_view key) -> PodSpec* {
    auto it = pods_.find(key);
    if (it != pods_.end()) {
      if (PatchMayFollow()) changed_pods_.insert(std::string(key));
      written_here_.insert(std::string(key));
      return &Writable(it->second);
    }
    report.conflicts.push_back(absl::StrCat(what, " ", key, ": pod not found"));
    return nullptr;
  };
  for (const Bind& b : decisions.binds) {
    PodSpec* pod = pod_of("bind", b.task);
    if (pod == nullptr) continue;
    if (!nodes_.contains(b.node)) {
      report.conflicts.push_back(absl::StrCat("bind ", b.task, " to ", b.node, ": node not found"));
    } else if (!pod->node_name.empty() && pod->node_name != b.node) {
      report.conflicts.push_back(absl::StrCat("bind ", b.task, " to ", b.node, ": the pod is on ", pod->node_name));
    } else {
      if (pod->node_name != b.node) {
        ++changed;
        pod->scheduled_time = now_seconds;  // the binding's PodScheduled condition
      }
      pod->node_name = std::string(b.node);
      // What the Binding carries lands on the pod (deviceshare's card index): the next
      // snapshot counts the cards as taken.
      for (const PodAnnotation& a : b.annotations) {
        auto [it, added] = pod->annotations.try_emplace(a.key, a.value);
        if (!added && it->second != a.value) it->second = a.value;
        else if (!added) continue;
        ++changed;
      }
      ++report.binds;
    }
  }
  for (const Eviction& e : decisions.evictions) {
    if (PodSpec* pod = pod_of("evict", e.task)) {
      if (!pod->deleting) ++changed;
      pod->deleting = true;
      ++report.evictions;
    }
  }
  // Only room made by evictions nominates a node (Volcano's EvictionOccurred).
  for (const Pipelined& p : decisions.pipelined) {
    if (!p.eviction_occurred) continue;
    PodSpec* pod = pod_of("pipeline", p.task);
    if (pod == nullptr) continue;
    if (!nodes_.contains(p.node)) {
      report.conflicts.push_back(absl::StrCat("pipeline ", p.task, " on ", p.node, ": node not found"));
    } else {
      if (pod->nominated_node_name != p.node) ++changed;
      pod->nominated_node_name = std::string(p.node);
      ++report.pipelined;
    }
  }
  for (const PodGroupStatus& g : decisions.pod_groups) {
    auto it = pod_groups_.find(g.job);
    if (it == pod_groups_.end()) {
      report.conflicts.push_back(absl::StrCat("status of PodGroup ", g.job, ": PodGroup not found"));
      continue;
    }
    const bool new_phase = !g.phase.empty() && it->second.phase != g.phase;
    if (WriteStatus(g, now_seconds, it->second)) {
      if (PatchMayFollow()) changed_pod_groups_.insert(std::string(g.job));
      ++changed;
      ++report.pod_group_statuses;
      if (new_phase) ++report.pod_group_phases;
    }
  }
  if (!decisions.volume_bindings.empty() && ApplyVolumeBindings(decisions, report) > 0) {
    StorageChanged();
    ++changed;
  }
  if (changed > 0) Stale();  // a cycle that changed nothing keeps its snapshot
  return report;
}

}  // namespace vcsched
