// SnapshotBuilder::Build: checks the input, then assembles the snapshot in named steps.
#include "vcsched/snapshot.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <type_traits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/model/object_names.h"
#include "src/model/pod_facts.h"
#include "src/model/queue_checks.h"
#include "src/snapshot/builder_state.h"
#include "src/snapshot/csi_volumes.h"
#include "src/snapshot/object_lint.h"
#include "src/snapshot/hyper_node_tree.h"
#include "src/snapshot/pod_order.h"
#include "src/snapshot/task_facts.h"
#include "src/snapshot/snapshot_impl.h"
#include "src/util/status_macros.h"

namespace vcsched {

using internal::Lookup;
using internal::ToResource;

namespace {

constexpr absl::string_view kGroupAnnotation = kPodGroupAnnotation;

// The PodGroups made for plain pods of ours (ImplicitPodGroupFor), one per owner; each
// pod is annotated with its group.
struct ImplicitPodGroups {
  std::vector<PodGroupSpec> groups;
  std::vector<std::string> pods;  // the first pod of each group, for messages
  std::set<std::string> keys;

  void Add(PodSpec& p) {
    if (p.annotations.count(kGroupAnnotation)) return;
    PodGroupSpec g = ImplicitPodGroupFor(p);
    p.annotations[std::string(kGroupAnnotation)] = g.name;
    if (!keys.insert(absl::StrCat(p.namespace_, "/", g.name)).second) return;
    pods.push_back(absl::StrCat(p.namespace_, "/", p.name));
    groups.push_back(std::move(g));
  }
};

}  // namespace

// SnapshotBuilder::Build, as named steps in order; each reads what the steps before it made.
class SnapshotAssembly {
 public:
  explicit SnapshotAssembly(SnapshotBuilder::State& s) : s_(s), impl_(std::make_shared<Snapshot::Impl>()) {
    impl_->warnings = std::move(s_.warnings);
    impl_->options = s_.options;
  }

  // Names, phases, counts and the queue hierarchy: every error of the input, sorted,
  // before anything is built. Also makes the PodGroups of plain pods.
  absl::Status Check() {
    const auto cluster_scoped = [](const auto&) { return std::optional<absl::string_view>(); };
    CheckNames("Node", s_.nodes, cluster_scoped);
    CheckNames("Queue", s_.queues, cluster_scoped);
    CheckNames("PriorityClass", s_.priority_classes, cluster_scoped);
    CheckNames("Namespace", s_.namespaces, cluster_scoped);
    CheckNames("HyperNode", s_.hyper_nodes, cluster_scoped);
    CheckStorage();
    CheckPolicy();
    // Kubernetes labels every namespace with its name (kubernetes.io/metadata.name).
    for (NamespaceSpec& ns : s_.namespaces) {
      ns.labels["kubernetes.io/metadata.name"] = ns.name;
      impl_->namespace_labels[ns.name] = std::make_shared<const Labels>(std::move(ns.labels));
    }
    AdoptSharedPods();
    PreparePods();
    CheckPods();
    CheckPodGroups();
    CheckQueueHierarchy(s_.queues, errors_);
    LintQueues(s_.queues, impl_->warnings);
    internal::LintObjects(pods_, s_.pod_groups, s_.priority_classes, impl_->warnings);
    if (errors_.empty()) return absl::OkStatus();
    std::sort(errors_.begin(), errors_.end());
    errors_.erase(std::unique(errors_.begin(), errors_.end()), errors_.end());
    return absl::InvalidArgumentError(absl::StrJoin(errors_, "\n"));
  }

  // Priority classes first: pods and groups read them.
  void IndexPriorityClasses() {
    std::sort(s_.priority_classes.begin(), s_.priority_classes.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    impl_->priority_classes = s_.priority_classes;
    for (size_t i = 0; i < impl_->priority_classes.size(); ++i) {
      impl_->pc_by_name[impl_->priority_classes[i].name] = static_cast<int32_t>(i);
    }

  }

  // The resource space: every name seen anywhere (the pods' in Check), within the
  // limit of the dense tables. Names that no node offers and no queue names (only pods
  // and PodGroups do) are folded into one dimension when asked, or when one dimension
  // each would pass the limit.
  absl::Status MakeResourceSpace() {
    for (const NodeSpec& n : s_.nodes) Collect(n.allocatable);
    for (const PodGroupSpec& g : s_.pod_groups) if (g.min_resources) CollectCounted(*g.min_resources, scalars_);
    SortUnique(anchored_);
    SortUnique(scalars_);
    AddQueueNames();
    std::vector<std::string> pod_only;
    std::set_difference(scalars_.begin(), scalars_.end(), anchored_.begin(), anchored_.end(), std::back_inserter(pod_only));
    const uint64_t rows = pods_.size() + 6 * s_.nodes.size() + 2 * s_.pod_groups.size() + 4 * s_.queues.size();
    const uint64_t every_name = kFixedDims + anchored_.size() + pod_only.size();
    const bool too_many = every_name * rows > kMaxResourceTableValues;
    // Dense tables hold a column per name for every pod, node, job and queue: more than a
    // few names that only pods ask for (each pod naming its own, say) would multiply the
    // memory of every row for nothing, as such requests fit no node whichever they are.
    constexpr size_t kPodOnlyNamesKeptApart = 16;
    const bool sparse = pod_only.size() > kPodOnlyNamesKeptApart;
    if (!pod_only.empty() && (s_.options.fold_unoffered_resources || too_many || sparse)) {
      if (std::binary_search(anchored_.begin(), anchored_.end(), kUnofferedResource) ||
          std::binary_search(pod_only.begin(), pod_only.end(), kUnofferedResource)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the resource name ", kUnofferedResource, " is reserved for the names no node offers, which are folded"));
      }
      if ((too_many || sparse) && !s_.options.fold_unoffered_resources) {
        impl_->warnings.push_back(absl::StrCat(
            pod_only.size(), " resource names are requested by pods or PodGroups but offered by no node and named by "
            "no queue (", pod_only.front(), ", ...): they count as one resource, ", kUnofferedResource,
            too_many ? absl::StrCat(", since one table column each would pass the limit of ", kMaxResourceTableValues,
                                    " values")
                     : absl::StrCat(", since more than ", kPodOnlyNamesKeptApart,
                                    " such names would each take a column of every table (a request of any fits no "
                                    "node either way)")));
      }
      impl_->space = ResourceSpace(std::move(anchored_), std::move(pod_only));
    } else {
      std::vector<std::string> names = std::move(anchored_);
      names.insert(names.end(), pod_only.begin(), pod_only.end());
      impl_->space = ResourceSpace(std::move(names));
    }
    const int dims = impl_->space.size();
    impl_->resource_refs.assign(static_cast<size_t>(dims), 0);
    for (const auto& [name, refs] : scalar_refs_) impl_->resource_refs[static_cast<size_t>(impl_->space.Find(name))] += refs;
    // Resource vectors are dense (one value per resource name for every pod, node, job and
    // queue): thousands of distinct names over thousands of pods would take gigabytes, so
    // such input is refused with the numbers instead of exhausting memory.
    if (static_cast<uint64_t>(dims) * rows > kMaxResourceTableValues) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the input names ", dims, " distinct resources over ", pods_.size(), " pods and ", s_.nodes.size(),
          " nodes: the dense resource tables would hold ", static_cast<uint64_t>(dims) * rows,
          " values, over the limit of ", kMaxResourceTableValues,
          " (vcsched keeps one value per resource name that a node offers or a queue names, for every object)"));
    }
    return absl::OkStatus();
  }

  void AddNodes() {
    const ResourceSpace& space = impl_->space;
    const int dims = space.size();
    std::sort(s_.nodes.begin(), s_.nodes.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    impl_->total = Resource(dims);
    impl_->nodes.reserve(s_.nodes.size());
    for (NodeSpec& n : s_.nodes) {
      NodeInfo info;
      info.index = static_cast<NodeIndex>(impl_->nodes.size());
      info.allocatable = ToResource(space, n.allocatable, 0);
      info.spec = std::move(n);
      impl_->total += info.allocatable;
      impl_->node_by_name.emplace_hint(impl_->node_by_name.end(), info.spec.name, info.index);  // sorted
      impl_->nodes.push_back(std::move(info));
    }

  }

  // Queues, with the default and root queues Volcano creates.
  void AddQueues() {
    const ResourceSpace& space = impl_->space;
    auto has_queue = [&](const std::string& name) {
      return std::any_of(s_.queues.begin(), s_.queues.end(), [&](const QueueSpec& q) { return q.name == name; });
    };
    std::set<std::string> synthesized;
    for (const std::string& name : {s_.options.default_queue, std::string("root")}) {
      if (has_queue(name)) continue;
      QueueSpec q;
      q.name = name;
      q.reclaimable = name != "root";
      synthesized.insert(name);
      s_.queues.push_back(std::move(q));
    }
    std::sort(s_.queues.begin(), s_.queues.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (QueueSpec& q : s_.queues) {
      QueueInfo info;
      info.index = static_cast<QueueIndex>(impl_->queues.size());
      info.capability = ToResource(space, q.capability, kUnlimited);
      info.guarantee = ToResource(space, q.guarantee, 0);
      info.deserved = ToResource(space, q.deserved, 0);
      info.deserved_set = !q.deserved.empty();
      info.synthesized = synthesized.count(q.name) > 0;
      info.spec = std::move(q);
      impl_->queue_by_name[info.spec.name] = info.index;
      impl_->queues.push_back(std::move(info));
    }
    for (QueueInfo& q : impl_->queues) {
      if (q.spec.name == "root") continue;
      const std::string parent = q.spec.parent.empty() ? "root" : q.spec.parent;
      auto p = Lookup(impl_->queue_by_name, parent);
      if (!p) {
        impl_->warnings.push_back(absl::StrCat("Queue \"", q.spec.name, "\": spec.parent: queue \"", parent, "\" not found"));
      } else {
        q.parent = *p;
      }
    }

  }

  void AddJobs() {
    std::sort(s_.pod_groups.begin(), s_.pod_groups.end(), [](const auto& a, const auto& b) {
      return std::tie(a.namespace_, a.name) < std::tie(b.namespace_, b.name);
    });
    impl_->jobs.reserve(s_.pod_groups.size());
    const int32_t default_priority = internal::GlobalDefaultPriority(impl_->priority_classes).value_or(0);
    for (PodGroupSpec& g : s_.pod_groups) {
      JobInfo& job =
          impl_->jobs.emplace_back(internal::WorkOutJobFacts(std::move(g), *impl_, default_priority, impl_->warnings));
      job.index = static_cast<JobIndex>(impl_->jobs.size() - 1);
    }
    job_by_key_.reserve(impl_->jobs.size());
    for (const JobInfo& job : impl_->jobs) job_by_key_.emplace(job.key, job.index);

  }

  // Tasks, in pod order. The specs stay in their deque (moving a deque keeps its
  // elements in place), which the tasks share.
  // The HyperNode tree, then each job's sub-groups (which read its tiers).
  absl::Status AddTopology() {
    VCSCHED_RETURN_IF_ERROR(internal::BuildHyperNodeTree(s_.hyper_nodes, *impl_));
    internal::BuildSubJobs(*impl_);
    return absl::OkStatus();
  }

  void AddTasks() {
    // Shapes: equivalence classes of tasks for node-choice caching, numbered in task
    // order. A pod's labels, namespace, pod affinity and spread terms matter only to
    // answers that depend on other pods' placement, which are asked per task, so they
    // are not part of the shape. Worked out while each spec is at hand in the task loop.
    absl::flat_hash_map<std::string, int32_t> shapes;
    std::string shape_key;  // reused: a task of a known shape allocates nothing
    // `flags` are the task's TaskFlag bits (DenseFacts::FlagsOf); `known` the key of a
    // shape-only task when an earlier build worked it out.
    const auto shape_of = [&](const TaskInfo& t, const PodSpec& p, uint8_t flags, const std::string* known) {
      shape_key.clear();
      if (internal::HasOwnShape(flags)) {
        absl::StrAppend(&shape_key, "#", t.index);
      } else if (known != nullptr) {
        shape_key = *known;
      } else {
        internal::ShapeKeyOf(t, p, shape_key);
      }
      const auto [it, added] = shapes.try_emplace(shape_key, static_cast<int32_t>(shapes.size()));
      if (added) impl_->shape_keys.push_back(internal::HasOwnShape(flags) ? std::string() : shape_key);
      return it->second;
    };
    // The tasks of an earlier snapshot whose pods this one shares (ReuseFrom), when what
    // their facts depend on beyond the pod is the same.
    const Snapshot::Impl* before = ReusablePrevious();
    const absl::flat_hash_map<const PodSpec*, const TaskInfo*>& task_before = task_before_;
    task_flags_.reserve(pods_.size());
    impl_->tasks.reserve(pods_.size());  // no reallocation of large TaskInfo while filling
    for (const PodSpec* pod : pod_order_) {
      const PodSpec& p = *pod;
      const bool mine = Ours(p);
      if (!mine && p.node_name.empty()) {  // another scheduler's pending pod: invisible
        impl_->hidden_pods.push_back(*owner_.at(pod));
        continue;
      }
      TaskInfo& t = impl_->tasks.emplace_back();  // filled in place: a TaskInfo is large
      t.index = static_cast<TaskIndex>(impl_->tasks.size() - 1);
      t.pod = *owner_.at(pod);
      const auto found = before == nullptr ? task_before.end() : task_before.find(pod);
      uint8_t flags = 0;
      const std::string* known_shape = nullptr;
      if (found != task_before.end()) {
        const TaskInfo& was = *found->second;
        CopyPodFacts(was, t);
        t.node = NodeOf(t, p, was.node == kNone ? nullptr : &before->nodes[static_cast<size_t>(was.node)].spec.name, was.node);
        t.job = mine ? JobOf(t, p, was.job == kNone ? nullptr : &before->jobs[static_cast<size_t>(was.job)].key, was.job) : kNone;
        flags = before->dense.task_flags[static_cast<size_t>(was.index)];
        if (!internal::HasOwnShape(flags)) known_shape = &before->shape_keys[static_cast<size_t>(was.shape)];
      } else {
        internal::WorkOutPodFacts(p, *impl_, t);
        t.node = NodeOf(t, p, nullptr, kNone);
        t.job = mine ? JobOf(t, p, nullptr, kNone) : kNone;
        flags = DenseFacts::FlagsOf(t);
      }
      task_flags_.push_back(flags);
      t.shape = shape_of(t, p, flags, known_shape);
      latest_pod_creation_time_ = std::max(latest_pod_creation_time_, p.creation_time);
      if (t.job != kNone) impl_->jobs[static_cast<size_t>(t.job)].tasks.push_back(t.index);
    }
  }

  // The dense facts, the key index when keys are not in byte order, sorted warnings.
  Snapshot Finish() {
    impl_->latest_pod_creation_time = latest_pod_creation_time_;
    impl_->dense = DenseFacts::Of(impl_->tasks, impl_->jobs, impl_->nodes.size(), impl_->space.size(), std::move(task_flags_),
                                  latest_pod_creation_time_);
    if (!impl_->dense.task_keys_sorted) {  // FindTask searches sorted keys without an index
      impl_->task_by_key.reserve(impl_->tasks.size());
      for (const TaskInfo& t : impl_->tasks) impl_->task_by_key.emplace(t.key, t.index);
    }
    std::sort(impl_->warnings.begin(), impl_->warnings.end());
    std::sort(impl_->orphans.begin(), impl_->orphans.end());
    return SnapshotInternals::Make(std::move(impl_));
  }

 private:
  // The same facts, from the task an earlier build made of the same (immutable) pod.
  static void CopyPodFacts(const TaskInfo& was, TaskInfo& t) {
    t.key = was.key;
    t.uid = was.uid;
    t.status = was.status;
    t.resreq = was.resreq;
    t.nonzero_cpu = was.nonzero_cpu;
    t.nonzero_memory = was.nonzero_memory;
    t.best_effort = was.best_effort;
    t.priority = was.priority;
    t.preemptable = was.preemptable;
    t.role = was.role;
    t.pod_index = was.pod_index;
  }

  // The pod's node, by name; `was_name` and `was` (when not null) are the node an
  // earlier build found, whose index is taken when it names the same node here.
  NodeIndex NodeOf(const TaskInfo& t, const PodSpec& p, const std::string* was_name, NodeIndex was) {
    if (p.node_name.empty()) return kNone;
    if (was_name != nullptr && static_cast<size_t>(was) < impl_->nodes.size() &&
        impl_->nodes[static_cast<size_t>(was)].spec.name == *was_name) {
      return was;
    }
    if (auto n = Lookup(impl_->node_by_name, p.node_name)) return *n;
    impl_->warnings.push_back(internal::NodeNotFoundWarning(t.key, p.node_name));
    return kNone;
  }

  // The job of a pod of ours, by its group annotation; as NodeOf, an earlier build's
  // answer is taken when its index holds the same job here.
  JobIndex JobOf(const TaskInfo& t, const PodSpec& p, const std::string* was_key, JobIndex was) {
    if (was_key != nullptr && static_cast<size_t>(was) < impl_->jobs.size() &&
        impl_->jobs[static_cast<size_t>(was)].key == *was_key) {
      return was;
    }
    auto g = p.annotations.find(kGroupAnnotation);
    if (g == p.annotations.end()) return kNone;
    job_key_.assign(p.namespace_).append("/").append(g->second);
    if (auto j = Lookup(job_by_key_, job_key_)) return *j;
    impl_->warnings.push_back(internal::PodGroupNotFoundWarning(t.key, job_key_));
    impl_->orphans.emplace_back(job_key_, t.key);
    return kNone;
  }

  // The earlier snapshot given to ReuseFrom, when its tasks' facts hold here too: the
  // same resource space (requests), priority classes (priorities) and options (which
  // pods are ours).
  const Snapshot::Impl* ReusablePrevious() const {
    const Snapshot::Impl* p = s_.previous.get();
    if (p == nullptr) return nullptr;
    const ResourceSpace& a = p->space;
    const ResourceSpace& b = impl_->space;
    if (a.size() != b.size()) return nullptr;
    for (int d = 0; d < a.size(); ++d) {
      if (a.name(d) != b.name(d)) return nullptr;
    }
    if (p->priority_classes.size() != impl_->priority_classes.size()) return nullptr;
    for (size_t i = 0; i < p->priority_classes.size(); ++i) {
      if (p->priority_classes[i].name != impl_->priority_classes[i].name ||
          p->priority_classes[i].value != impl_->priority_classes[i].value) {
        return nullptr;
      }
    }
    const SnapshotOptions& x = p->options;
    const SnapshotOptions& y = impl_->options;
    if (x.scheduler_names != y.scheduler_names || x.schedule_empty_scheduler_name != y.schedule_empty_scheduler_name ||
        x.implicit_pod_groups != y.implicit_pod_groups || x.default_queue != y.default_queue ||
        x.ignored_provisioners != y.ignored_provisioners) {
      return nullptr;
    }
    // The pods' CSI volume counts read the storage objects.
    if (p->storage != impl_->storage && !(p->storage->empty() && impl_->storage->empty())) return nullptr;
    return p;
  }

  // The storage objects: given whole (SetStorage), or one by one, checked as other objects
  // are. A node's CSINode gives it its attach-limit resources, as Volcano's cache does.
  void CheckStorage() {
    // A volume's node affinity terms carry their parse flags, as a pod's do.
    const auto terms_parsed = [](const StorageObjects& st) {
      for (const auto& [_, v] : st.volumes) {
        for (const NodeSelectorTerm& t : v.node_affinity) {
          if (t.parses != internal::NodeSelectorTermParses(t)) return false;
        }
      }
      return true;
    };
    if (s_.storage != nullptr && s_.claims.empty() && s_.volumes.empty() && s_.storage_classes.empty() &&
        s_.csi_nodes.empty() && terms_parsed(*s_.storage)) {
      impl_->storage = std::move(s_.storage);
    } else {
      auto storage = s_.storage != nullptr ? std::make_shared<StorageObjects>(*s_.storage)
                                           : std::make_shared<StorageObjects>();
      const auto put = [&](const char* kind, auto& map, std::string key, auto&& spec) {
        std::vector<std::string> problems = ObjectProblems(spec);
        if (!problems.empty()) {
          for (std::string& p : problems) errors_.push_back(std::move(p));
          return;
        }
        if (!map.emplace(key, std::move(spec)).second) {
          errors_.push_back(absl::StrCat(kind, " \"", key, "\": metadata.name: duplicate name"));
        }
      };
      for (PersistentVolumeClaimSpec& c : s_.claims) {
        std::string key = absl::StrCat(c.namespace_, "/", c.name);
        put("PersistentVolumeClaim", storage->claims, std::move(key), std::move(c));
      }
      for (PersistentVolumeSpec& v : s_.volumes) put("PersistentVolume", storage->volumes, v.name, std::move(v));
      for (StorageClassSpec& c : s_.storage_classes) put("StorageClass", storage->classes, c.name, std::move(c));
      for (CSINodeSpec& n : s_.csi_nodes) put("CSINode", storage->csi_nodes, n.name, std::move(n));
      for (auto& [_, v] : storage->volumes) {
        for (NodeSelectorTerm& t : v.node_affinity) t.parses = internal::NodeSelectorTermParses(t);
      }
      impl_->storage = std::move(storage);
    }
    if (impl_->storage->csi_nodes.empty()) return;
    for (NodeSpec& n : s_.nodes) {
      if (auto c = impl_->storage->csi_nodes.find(n.name); c != impl_->storage->csi_nodes.end()) {
        internal::AddCsiAllocatable(c->second, n.allocatable);
      }
    }
  }

  // The policy objects: given whole (SetPolicy), or one by one, checked as other objects are.
  void CheckPolicy() {
    if (s_.policy != nullptr && s_.quotas.empty() && s_.disruption_budgets.empty() && s_.node_shards.empty() &&
        s_.numatopologies.empty()) {
      impl_->policy = std::move(s_.policy);
      return;
    }
    auto policy = s_.policy != nullptr ? std::make_shared<PolicyObjects>(*s_.policy) : std::make_shared<PolicyObjects>();
    const auto put = [&](const char* kind, auto& map, auto&& spec) {
      std::vector<std::string> problems = ObjectProblems(spec);
      if (!problems.empty()) {
        for (std::string& p : problems) errors_.push_back(std::move(p));
        return;
      }
      std::string key;
      using Spec = std::decay_t<decltype(spec)>;
      if constexpr (std::is_same_v<Spec, NodeShardSpec> || std::is_same_v<Spec, NumatopologySpec>) key = spec.name;
      else key = absl::StrCat(spec.namespace_, "/", spec.name);
      if (map.count(key) != 0) {
        errors_.push_back(absl::StrCat(kind, " \"", key, "\": metadata.name: duplicate name"));
        return;
      }
      map.emplace(std::move(key), std::move(spec));
    };
    for (ResourceQuotaSpec& q : s_.quotas) put("ResourceQuota", policy->quotas, std::move(q));
    for (PodDisruptionBudgetSpec& b : s_.disruption_budgets) put("PodDisruptionBudget", policy->disruption_budgets, std::move(b));
    for (NodeShardSpec& n : s_.node_shards) put("NodeShard", policy->node_shards, std::move(n));
    for (NumatopologySpec& n : s_.numatopologies) put("Numatopology", policy->numatopologies, std::move(n));
    impl_->policy = std::move(policy);
  }

  // Each object's own problems, then duplicate names (of objects whose name is valid).
  template <typename Items, typename NamespaceOf>
  void CheckNames(const char* kind, const Items& items, NamespaceOf namespace_of) {
    absl::flat_hash_map<std::pair<absl::string_view, absl::string_view>, int> seen;
    seen.reserve(items.size());
    for (const auto& item : items) {
      std::vector<std::string> problems = ObjectProblems(item);
      if (!problems.empty()) {
        for (std::string& p : problems) errors_.push_back(std::move(p));
        continue;
      }
      const std::optional<absl::string_view> namespaced = namespace_of(item);
      const absl::string_view ns = namespaced.value_or("");
      if (++seen[{ns, item.name}] == 2) {
        errors_.push_back(absl::StrCat(kind, " \"", namespaced ? absl::StrCat(ns, "/", item.name) : item.name,
                                      "\": metadata.name: duplicate name"));
      }
    }
  }

  // One pass over the pods checks them, collects their resource names and makes the
  // PodGroups of plain pods; their duplicates are found in key order, which the tasks
  // need anyway.
  void CheckPods() {
    // A pod an earlier snapshot's task holds passed these checks in that build (ReuseFrom).
    if (const Snapshot::Impl* before = s_.previous.get()) {
      task_before_.reserve(before->tasks.size());
      for (const TaskInfo& t : before->tasks) task_before_.emplace(t.pod.get(), &t);
    }
    std::vector<const PodSpec*> duplicate_pods;
    pod_order_ = internal::PodsInKeyOrder(pods_, &duplicate_pods, [&](const PodSpec& p) {
      if (!task_before_.contains(&p)) {
        for (std::string& problem : ObjectProblems(p)) errors_.push_back(std::move(problem));
      }
      for (const Container& c : p.containers) CollectCounted(c.requests, scalars_);
      for (const Container& c : p.init_containers) CollectCounted(c.requests, scalars_);
      CollectCounted(p.overhead, scalars_);
      if (!p.volume_claims.empty()) {
        CollectCounted(internal::PodCsiVolumeCounts(p, *impl_->storage, s_.options), scalars_);
      }
    });
    for (const PodSpec* p : duplicate_pods) {
      if (p->name.empty() || p->name.size() > kMaxNameLength) continue;  // reported above
      errors_.push_back(absl::StrCat("Pod \"", p->namespace_, "/", p->name, "\": metadata.name: duplicate name"));
    }
  }

  // The labels a pod of namespace `ns` carries: its Namespace object's, or (without one)
  // the name label Kubernetes gives every namespace.
  const std::shared_ptr<const Labels>& NamespaceLabels(const std::string& ns) {
    if (last_namespace_ != nullptr && last_namespace_->first == ns) return last_namespace_->second;  // pods come by namespace
    auto it = impl_->namespace_labels.find(ns);
    if (it == impl_->namespace_labels.end()) {
      it = impl_->namespace_labels
               .emplace(ns, std::make_shared<const Labels>(Labels{{"kubernetes.io/metadata.name", ns}}))
               .first;
    }
    last_namespace_ = &*it;
    return it->second;
  }

  // Whether a shared pod is already as the build would make it (else it is copied).
  bool Prepared(const PodSpec& p) {
    if (s_.options.implicit_pod_groups && Ours(p) && !p.annotations.count(kGroupAnnotation)) return false;
    if (!internal::NodeTermsParsed(p)) return false;
    const std::shared_ptr<const Labels>& want = NamespaceLabels(p.namespace_);
    if (p.namespace_labels == nullptr) return false;
    if (p.namespace_labels == want) return true;
    if (*p.namespace_labels != *want) return false;
    // Equal labels (a pod prepared by an earlier build): this build shares the pod's, so
    // that the namespace's other pods compare as one pointer, not as maps.
    impl_->namespace_labels[p.namespace_] = p.namespace_labels;
    last_namespace_ = nullptr;
    return true;
  }

  // Shared pods stay shared unless the build would change them: those join the owned ones.
  void AdoptSharedPods() {
    for (std::shared_ptr<const PodSpec>& pod : s_.shared_pods) {
      if (Prepared(*pod)) {
        shared_.push_back(std::move(pod));
      } else {
        s_.pods.push_back(*pod);
      }
    }
    std::vector<std::shared_ptr<const PodSpec>>().swap(s_.shared_pods);
  }

  // The owned pods get what the session reads from a spec: parsed node-selector terms,
  // the PodGroup of a plain pod, their namespace's labels. From here on every pod is
  // read-only, owned or shared, and `pods_` lists them all in input order.
  void PreparePods() {
    owned_ = std::make_shared<std::deque<PodSpec>>(std::move(s_.pods));
    const size_t count = owned_->size() + s_.owned_pods.size() + shared_.size();
    pods_.reserve(count);
    owner_.reserve(count);
    all_.reserve(count);
    for (PodSpec& p : *owned_) {
      Prepare(p);
      all_.emplace_back(owned_, &p);  // shares the deque: the specs are never moved again
    }
    for (std::shared_ptr<PodSpec>& pod : s_.owned_pods) {
      Prepare(*pod);
      all_.push_back(std::move(pod));
    }
    std::vector<std::shared_ptr<PodSpec>>().swap(s_.owned_pods);
    for (std::shared_ptr<const PodSpec>& pod : shared_) all_.push_back(std::move(pod));
    for (const std::shared_ptr<const PodSpec>& pod : all_) {
      pods_.push_back(pod.get());
      owner_.emplace(pod.get(), &pod);
    }
  }

  // What the session reads from a spec: parsed node-selector terms, the PodGroup of a
  // plain pod, its namespace's labels.
  void Prepare(PodSpec& p) {
    internal::ParseNodeTerms(p);
    if (s_.options.implicit_pod_groups && Ours(p)) implicit_.Add(p);
    p.namespace_labels = NamespaceLabels(p.namespace_);
  }

  void CheckPodGroups() {
    CheckNames("PodGroup", s_.pod_groups,
                [](const PodGroupSpec& p) { return std::optional<absl::string_view>(p.namespace_); });
    // Made after the check above, as Volcano's controller makes them: valid by construction,
    // but the name must be free, or the pod would silently join a user's gang.
    if (!implicit_.groups.empty()) {
      std::set<std::pair<absl::string_view, absl::string_view>> taken;
      for (const PodGroupSpec& g : s_.pod_groups) taken.emplace(g.namespace_, g.name);
      for (size_t i = 0; i < implicit_.groups.size(); ++i) {
        const PodGroupSpec& g = implicit_.groups[i];
        if (taken.count({g.namespace_, g.name}) == 0) continue;
        errors_.push_back(absl::StrCat("Pod \"", implicit_.pods[i], "\": metadata.annotations: the pod names no PodGroup (",
                                      kGroupAnnotation, "), and the PodGroup Volcano's controller would create for it, \"",
                                      g.name, "\", is already a PodGroup of the input"));
      }
    }
    for (PodGroupSpec& g : implicit_.groups) s_.pod_groups.push_back(std::move(g));
  }

  // A node's or queue's resource names.
  // The names the queues' amounts name join the space, unless more than 16 of them are
  // named by queues alone (no node offers them, no pod or PodGroup asks for them): such
  // amounts change no decision, and a column each of every table would multiply its
  // memory. The queues' own amounts are kept (their specs print them).
  void AddQueueNames() {
    const size_t offered = anchored_.size();
    for (const QueueSpec& q : s_.queues) {
      Collect(q.capability);
      Collect(q.guarantee);
      Collect(q.deserved);
    }
    std::vector<std::string> named(anchored_.begin() + static_cast<ptrdiff_t>(offered), anchored_.end());
    anchored_.resize(offered);
    SortUnique(named);
    std::vector<std::string> queue_only, asked;
    std::set_difference(named.begin(), named.end(), anchored_.begin(), anchored_.end(), std::back_inserter(asked));
    std::set_difference(asked.begin(), asked.end(), scalars_.begin(), scalars_.end(), std::back_inserter(queue_only));
    constexpr size_t kQueueOnlyNamesKept = 16;
    if (queue_only.size() > kQueueOnlyNamesKept) {
      impl_->warnings.push_back(absl::StrCat(
          queue_only.size(), " resource names are named only by queues' amounts (", queue_only.front(),
          ", ...): no node offers them and no pod asks for them, so they change no decision and are left out of the "
          "resource tables"));
      std::vector<std::string> kept;
      std::set_difference(named.begin(), named.end(), queue_only.begin(), queue_only.end(), std::back_inserter(kept));
      named = std::move(kept);
    }
    anchored_.insert(anchored_.end(), named.begin(), named.end());
    SortUnique(anchored_);
  }

  void Collect(const ResourceList& l) {
    for (const auto& [n, v] : l) {
      if (ClassifyResourceName(n) == ResourceKind::kScalar) anchored_.push_back(n);
    }
  }
  // A pod's or PodGroup's, counting them for PatchSnapshot.
  void CollectCounted(const ResourceList& l, std::vector<std::string>& into) {
    for (const auto& [n, v] : l) {
      if (ClassifyResourceName(n) != ResourceKind::kScalar) continue;
      into.push_back(n);
      ++scalar_refs_[n];
    }
  }
  static void SortUnique(std::vector<std::string>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  bool Ours(const PodSpec& p) const { return SchedulesPod(s_.options, p); }

  SnapshotBuilder::State& s_;
  std::shared_ptr<Snapshot::Impl> impl_;
  std::vector<std::string> errors_;
  std::vector<std::string> scalars_;   // pods' and PodGroups' resource names beyond cpu, memory and pods
  std::vector<std::string> anchored_;  // the same of nodes and queues
  absl::flat_hash_map<std::string, int64_t> scalar_refs_;  // how many pods' and PodGroups' lists name each
  ImplicitPodGroups implicit_;
  std::vector<const PodSpec*> pod_order_;
  const std::pair<const std::string, std::shared_ptr<const Labels>>* last_namespace_ = nullptr;
  std::vector<std::shared_ptr<const PodSpec>> shared_;  // shared pods kept as they are
  std::shared_ptr<std::deque<PodSpec>> owned_;           // the pods the build owns (and prepared)
  std::vector<std::shared_ptr<const PodSpec>> all_;      // owned then shared, input order
  std::vector<const PodSpec*> pods_;                     // the same, as pointers
  absl::flat_hash_map<const PodSpec*, const std::shared_ptr<const PodSpec>*> owner_;
  // What the dense facts take from the specs, worked out by AddTasks while each is at hand.
  std::vector<uint8_t> task_flags_;
  int64_t latest_pod_creation_time_ = 0;
  std::string job_key_;  // reused by JobOf: the group's key of each pod
  absl::flat_hash_map<absl::string_view, int32_t> job_by_key_;  // views of the jobs' keys
  // The tasks of the snapshot given to ReuseFrom, by the pod each holds.
  absl::flat_hash_map<const PodSpec*, const TaskInfo*> task_before_;
};

absl::StatusOr<Snapshot> SnapshotBuilder::Build() && {
  // The builder is left empty whatever happens; the assembly consumes what it held.
  const std::unique_ptr<State> taken = std::exchange(state_, std::make_unique<State>());
  SnapshotAssembly a(*taken);
  VCSCHED_RETURN_IF_ERROR(a.Check());
  a.IndexPriorityClasses();
  VCSCHED_RETURN_IF_ERROR(a.MakeResourceSpace());
  a.AddNodes();
  a.AddQueues();
  a.AddJobs();
  a.AddTasks();
  VCSCHED_RETURN_IF_ERROR(a.AddTopology());
  return a.Finish();
}

}  // namespace vcsched
