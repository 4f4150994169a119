#include "vcsched/io/watch.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <utility>

#include <simdjson.h>

#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/io/doc_node.h"
#include "src/io/json_stream_parser.h"
#include "src/io/object_document.h"
#include "src/model/output_text.h"
#include "src/util/status_macros.h"
#include "vcsched/lifecycle/job.h"

namespace vcsched {
namespace {

std::optional<WatchEvent::Type> TypeOf(absl::string_view name) {
  using T = WatchEvent::Type;
  static const std::pair<const char*, T> kTypes[] = {{"ADDED", T::kAdded},       {"MODIFIED", T::kModified},
                                                     {"DELETED", T::kDeleted},   {"BOOKMARK", T::kBookmark},
                                                     {"ERROR", T::kError},       {"SCHEDULE", T::kSchedule}};
  for (const auto& [n, t] : kTypes) {
    if (name == n) return t;
  }
  return std::nullopt;
}

// The event's type from its `type` field (nullptr when absent or not a string).
absl::StatusOr<WatchEvent::Type> EventType(const absl::string_view* name, absl::string_view where) {
  if (name == nullptr) return absl::InvalidArgumentError(absl::StrCat(where, ": type: is required (a string)"));
  const std::optional<WatchEvent::Type> t = TypeOf(*name);
  if (!t) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": type: unknown event type \"", *name,
                                                   "\" (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR or SCHEDULE)"));
  }
  return *t;
}

// A SCHEDULE event's clock and expectation.
absl::StatusOr<WatchEvent> ReadSchedule(simdjson::dom::object obj, WatchEvent e) {
  for (simdjson::dom::key_value_pair kv : obj) {
    const absl::string_view key(kv.key.data(), kv.key.size());
    if (key == "type") continue;
    if (key == "now") {
      int64_t now = 0;
      if (kv.value.get(now) != simdjson::SUCCESS) {
        return absl::InvalidArgumentError(absl::StrCat(e.where, ": now: expected an integer (seconds since the epoch)"));
      }
      e.now = now;
    } else if (key == "expect") {
      simdjson::dom::object expect;
      if (kv.value.get(expect) != simdjson::SUCCESS) {
        return absl::InvalidArgumentError(absl::StrCat(e.where, ": expect: expected an object"));
      }
      // Read as an Expectation document is, so that its fields mean what they mean there.
      std::string doc = R"({"apiVersion": "vcsched/v1", "kind": "Expectation")";
      for (simdjson::dom::key_value_pair f : expect) {
        absl::StrAppend(&doc, ", ", JsonQuote(absl::string_view(f.key.data(), f.key.size())), ": ",
                        simdjson::minify(f.value));
      }
      doc += "}";
      absl::StatusOr<ScenarioObjects> read = LoadObjects({{absl::StrCat(e.where, ": expect"), doc}});
      if (!read.ok()) return read.status();
      e.expect = std::move(read->expectation);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(e.where, ": ", key, ": unknown field of a SCHEDULE event (now, expect)"));
    }
  }
  return e;
}

// Kubernetes' decoders refuse an object that names a field twice; so does the event
// reader, at the event's own level (the object inside is read by the loader, which checks
// its own levels).
absl::Status RefuseDuplicateKeys(simdjson::dom::object obj, absl::string_view where) {
  absl::flat_hash_set<absl::string_view> seen;
  for (simdjson::dom::key_value_pair kv : obj) {
    const absl::string_view key(kv.key.data(), kv.key.size());
    if (!seen.insert(key).second) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": duplicate key ", JsonQuote(key)));
    }
  }
  return absl::OkStatus();
}

// The event's fields, or the problem with them.
absl::StatusOr<WatchEvent> ReadEvent(simdjson::dom::element value, std::string where) {
  simdjson::dom::object obj;
  if (value.get(obj) != simdjson::SUCCESS) return absl::InvalidArgumentError(absl::StrCat(where, ": expected an object"));
  WatchEvent e;
  e.where = std::move(where);
  if (absl::Status keys = RefuseDuplicateKeys(obj, e.where); !keys.ok()) return keys;
  std::string_view type_text;
  const bool has_type = obj["type"].get(type_text) == simdjson::SUCCESS;
  const absl::string_view name(type_text.data(), type_text.size());
  const absl::StatusOr<WatchEvent::Type> t = EventType(has_type ? &name : nullptr, e.where);
  if (!t.ok()) return t.status();
  e.type = *t;
  if (e.type == WatchEvent::Type::kSchedule) return ReadSchedule(obj, std::move(e));
  if (e.type == WatchEvent::Type::kBookmark) return e;
  simdjson::dom::element object;
  if (obj["object"].get(object) != simdjson::SUCCESS || !object.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(e.where, ": object: is required (an object)"));
  }
  e.object = simdjson::minify(object);
  return e;
}

}  // namespace

absl::StatusOr<std::vector<WatchEvent>> ReadWatchEvents(const ScenarioSource& source) {
  const std::string& text = source.text;
  std::vector<WatchEvent> out;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return out;
  const LoadOptions limits;  // the loader's: input size and nesting depth
  if (text.size() > limits.max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(source.name, ": input of ", text.size(),
                                                   " bytes exceeds the limit of ", limits.max_bytes));
  }
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(text.data(), text.size());
  const size_t batch = io_internal::PrepareStreamParser(parser, text.size(), static_cast<size_t>(limits.max_depth));
  if (batch == 0) {
    return absl::ResourceExhaustedError(absl::StrCat(source.name, ": out of memory for a JSON parser"));
  }
  simdjson::dom::document_stream stream;
  if (auto err = parser.parse_many(padded, batch).get(stream); err != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(absl::StrCat(source.name, ": invalid JSON: ", simdjson::error_message(err)));
  }
  std::vector<std::string> errors;
  int index = 0;
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    ++index;
    simdjson::dom::element value;
    if (auto err = (*it).get(value); err != simdjson::SUCCESS) {
      errors.push_back(absl::StrCat(source.name, ": event ", index, " (byte ", it.current_index(),
                                    "): invalid JSON: ", simdjson::error_message(err)));
      break;
    }
    absl::StatusOr<WatchEvent> e = ReadEvent(value, absl::StrCat(source.name, ": event ", index));
    if (e.ok()) out.push_back(*std::move(e));
    else errors.push_back(std::string(e.status().message()));
  }
  if (const size_t cut = stream.truncated_bytes(); cut > 0) {
    errors.push_back(absl::StrCat(source.name, ": event ", index + 1, " (byte ", text.size() - cut,
                                  "): invalid JSON: the event is incomplete"));
  }
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  return out;
}

namespace {

// Pods in the cluster that name PodGroup `group_key` ("namespace/name"), are owned by one
// of `owners` (the event's Volcano Jobs, by uid) and are not in `keep`: the pods of a Job
// beyond its replicas, which its controller deletes. A pod the Job did not make is not
// its controller's to delete, whatever group it names. Costs the group's pods alone.
std::vector<std::pair<std::string, std::string>> PodsOfGroupBut(const Cluster& cluster, absl::string_view group_key,
                                                                const std::set<std::string>& keep,
                                                                const std::set<std::string>& owners) {
  const size_t slash = group_key.find('/');
  const absl::string_view ns = group_key.substr(0, slash), name = group_key.substr(slash + 1);
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& key : cluster.PodsOfPodGroup(ns, name)) {
    if (keep.count(key)) continue;
    const auto pod = cluster.pods().find(key);
    if (pod == cluster.pods().end() || !owners.count(pod->second->controller_uid)) continue;
    out.emplace_back(pod->second->namespace_, pod->second->name);
  }
  return out;
}

// A Volcano Job's uid, as its expansion writes it into its pods' controller
// ownerReference and its PodGroup's name (a Job without metadata.uid gets a derived one).
std::string JobUid(const Value& job) {
  const Value* uid = FindPath(job, "metadata.uid");
  if (uid != nullptr && !uid->text().empty()) return uid->text();
  const Value* ns = FindPath(job, "metadata.namespace");
  const Value* name = FindPath(job, "metadata.name");
  return lifecycle::DerivedUid("Job", ns == nullptr || ns->text().empty() ? "default" : ns->text(),
                               name == nullptr ? "" : name->text());
}

std::set<std::string> JobUids(const std::vector<Value>& jobs) {
  std::set<std::string> out;
  for (const Value& job : jobs) out.insert(JobUid(job));
  return out;
}

// The cluster's Volcano Job whose PodGroup is `namespace_/name` ("<job>-<uid>"), if any:
// costs the Jobs of that namespace.
const Value* JobOwningPodGroup(const Cluster& cluster, absl::string_view namespace_, absl::string_view name) {
  const std::string prefix = absl::StrCat(namespace_, "/");
  for (auto it = cluster.volcano_jobs().lower_bound(prefix);
       it != cluster.volcano_jobs().end() && absl::StartsWith(it->first, prefix); ++it) {
    const absl::string_view job_name = absl::string_view(it->first).substr(prefix.size());
    if (name == absl::StrCat(job_name, "-", JobUid(it->second))) return &it->second;
  }
  return nullptr;
}

// NotFound naming an object by kind and key.
absl::Status Absent(absl::string_view kind, absl::string_view key) {
  return absl::NotFoundError(absl::StrCat(kind, " \"", key, "\": not found"));
}

// NotFound naming the first object of a MODIFIED event that the cluster does not hold. A
// Volcano Job is known by its PodGroup (its pods may be new: it scaled up).
absl::Status CheckAllExist(const Cluster& cluster, const ScenarioObjects& o) {
  const std::set<std::string> job_groups(o.job_pod_groups.begin(), o.job_pod_groups.end());
  for (const NodeSpec& n : o.nodes) {
    if (!cluster.nodes().count(n.name)) return Absent("Node", n.name);
  }
  for (const QueueSpec& q : o.queues) {
    if (!cluster.queues().count(q.name)) return Absent("Queue", q.name);
  }
  for (const PriorityClassSpec& pc : o.priority_classes) {
    if (!cluster.priority_classes().count(pc.name)) return Absent("PriorityClass", pc.name);
  }
  for (const NamespaceSpec& ns : o.namespaces) {
    if (!cluster.namespaces().count(ns.name)) return Absent("Namespace", ns.name);
  }
  for (const HyperNodeSpec& h : o.hyper_nodes) {
    if (!cluster.hyper_nodes().count(h.name)) return Absent("HyperNode", h.name);
  }
  for (const PersistentVolumeClaimSpec& c : o.claims) {
    const std::string key = absl::StrCat(c.namespace_, "/", c.name);
    if (!cluster.storage().claims.count(key) && job_groups.empty()) return Absent("PersistentVolumeClaim", key);
  }
  for (const PersistentVolumeSpec& v : o.volumes) {
    if (!cluster.storage().volumes.count(v.name)) return Absent("PersistentVolume", v.name);
  }
  for (const StorageClassSpec& c : o.storage_classes) {
    if (!cluster.storage().classes.count(c.name)) return Absent("StorageClass", c.name);
  }
  for (const CSINodeSpec& n : o.csi_nodes) {
    if (!cluster.storage().csi_nodes.count(n.name)) return Absent("CSINode", n.name);
  }
  for (const ResourceQuotaSpec& q : o.quotas) {
    const std::string key = absl::StrCat(q.namespace_, "/", q.name);
    if (!cluster.policy().quotas.count(key)) return Absent("ResourceQuota", key);
  }
  for (const PodDisruptionBudgetSpec& b : o.disruption_budgets) {
    const std::string key = absl::StrCat(b.namespace_, "/", b.name);
    if (!cluster.policy().disruption_budgets.count(key)) return Absent("PodDisruptionBudget", key);
  }
  for (const NodeShardSpec& n : o.node_shards) {
    if (!cluster.policy().node_shards.count(n.name)) return Absent("NodeShard", n.name);
  }
  for (const NumatopologySpec& n : o.numatopologies) {
    if (!cluster.policy().numatopologies.count(n.name)) return Absent("Numatopology", n.name);
  }
  for (const PodGroupSpec& g : o.pod_groups) {
    const std::string key = absl::StrCat(g.namespace_, "/", g.name);
    if (!cluster.pod_groups().count(key)) return Absent(job_groups.count(key) ? "the PodGroup of Job" : "PodGroup", key);
  }
  if (job_groups.empty()) {
    for (const PodSpec& p : o.pods) {
      const std::string key = absl::StrCat(p.namespace_, "/", p.name);
      if (!cluster.pods().count(key)) return Absent("Pod", key);
    }
  }
  return absl::OkStatus();
}

// metadata.namespace ("default" when unset) and metadata.name of a manifest.
std::pair<std::string, std::string> NamespaceAndName(const Value& manifest) {
  const Value* meta = manifest.Find("metadata");
  const Value* ns = meta == nullptr ? nullptr : meta->Find("namespace");
  const Value* name = meta == nullptr ? nullptr : meta->Find("name");
  return {ns == nullptr ? "default" : ns->text(), name == nullptr ? "" : name->text()};
}

// What an event's messages say, for any object it holds.
absl::Status UpdateOfAbsent(absl::string_view where, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(where, ": MODIFIED: ", s.message(), " (an update of an object that does not exist)"));
}
absl::Status PutRefused(absl::string_view where, const absl::Status& s) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(where, ": ", s.message()));
}
void NoteDeletionOfAbsent(absl::string_view where, const absl::Status& s, std::vector<std::string>* notes) {
  if (absl::IsNotFound(s)) notes->push_back(absl::StrCat(where, ": DELETED: ", s.message()));
}

// A pod's event, the bulk of a watch stream: applied as ApplyObjects applies an event
// holding one pod, without the tables and checks several objects need.
// A pod event older than the pod held: ignored, as an informer's cache ignores it.
void NoteStalePod(absl::string_view where, const PodSpec& pod, std::vector<std::string>* notes) {
  notes->push_back(absl::StrCat(where, ": Pod \"", pod.namespace_, "/", pod.name, "\": resourceVersion ",
                                pod.resource_version, " is older than the pod's state here; the event is ignored"));
}

absl::Status ApplyPod(Cluster& cluster, WatchEvent::Type type, PodSpec&& pod, absl::string_view where,
                      std::vector<std::string>* notes) {
  using T = WatchEvent::Type;
  if (type == T::kDeleted) {
    NoteDeletionOfAbsent(where, cluster.DeletePod(pod.namespace_, pod.name), notes);
    return absl::OkStatus();
  }
  if (type == T::kModified) {
    const std::string key = absl::StrCat(pod.namespace_, "/", pod.name);
    if (!cluster.pods().count(key)) return UpdateOfAbsent(where, Absent("Pod", key));
  }
  if (cluster.IsStalePodEvent(pod)) {
    NoteStalePod(where, pod, notes);
    return absl::OkStatus();
  }
  return PutRefused(where, cluster.PutPod(std::move(pod)));
}

// Applies the objects of an ADDED, MODIFIED or DELETED event (read from JSON or a Value).
// What the puts of one event replace, to put back when a later put of it is refused.
// Each Keep is called before its put; Run restores in reverse, so every step goes back to
// a state the cluster already held (and so passes its checks again).
class EventUndo {
 public:
  explicit EventUndo(Cluster& cluster) : c_(cluster) {}
  void KeepNode(const std::string& name) {
    Keep(c_.nodes(), name, [this, name] { (void)c_.DeleteNode(name); },
         [this](const NodeSpec& n) { (void)c_.PutNode(n); });
  }
  void KeepQueue(const std::string& name) {
    Keep(c_.queues(), name, [this, name] { (void)c_.DeleteQueue(name); },
         [this](const QueueSpec& q) { (void)c_.PutQueue(q); });
  }
  void KeepPriorityClass(const std::string& name) {
    Keep(c_.priority_classes(), name, [this, name] { (void)c_.DeletePriorityClass(name); },
         [this](const PriorityClassSpec& pc) { (void)c_.PutPriorityClass(pc); });
  }
  void KeepNamespace(const std::string& name) {
    Keep(c_.namespaces(), name, [this, name] { (void)c_.DeleteNamespace(name); },
         [this](const NamespaceSpec& ns) { (void)c_.PutNamespace(ns); });
  }
  void KeepHyperNode(const std::string& name) {
    Keep(c_.hyper_nodes(), name, [this, name] { (void)c_.DeleteHyperNode(name); },
         [this](const HyperNodeSpec& h) { (void)c_.PutHyperNode(h); });
  }
  void KeepClaim(const std::string& key) {
    const auto [ns, name] = SplitKey(key);
    Keep(c_.storage().claims, key, [this, ns = ns, name = name] { (void)c_.DeletePersistentVolumeClaim(ns, name); },
         [this](const PersistentVolumeClaimSpec& c) { (void)c_.PutPersistentVolumeClaim(c); });
  }
  void KeepVolume(const std::string& name) {
    Keep(c_.storage().volumes, name, [this, name] { (void)c_.DeletePersistentVolume(name); },
         [this](const PersistentVolumeSpec& v) { (void)c_.PutPersistentVolume(v); });
  }
  void KeepStorageClass(const std::string& name) {
    Keep(c_.storage().classes, name, [this, name] { (void)c_.DeleteStorageClass(name); },
         [this](const StorageClassSpec& sc) { (void)c_.PutStorageClass(sc); });
  }
  void KeepCSINode(const std::string& name) {
    Keep(c_.storage().csi_nodes, name, [this, name] { (void)c_.DeleteCSINode(name); },
         [this](const CSINodeSpec& n) { (void)c_.PutCSINode(n); });
  }
  void KeepResourceQuota(const std::string& key) {
    const auto [ns, name] = SplitKey(key);
    Keep(c_.policy().quotas, key, [this, ns = ns, name = name] { (void)c_.DeleteResourceQuota(ns, name); },
         [this](const ResourceQuotaSpec& q) { (void)c_.PutResourceQuota(q); });
  }
  void KeepPodDisruptionBudget(const std::string& key) {
    const auto [ns, name] = SplitKey(key);
    Keep(c_.policy().disruption_budgets, key,
         [this, ns = ns, name = name] { (void)c_.DeletePodDisruptionBudget(ns, name); },
         [this](const PodDisruptionBudgetSpec& b) { (void)c_.PutPodDisruptionBudget(b); });
  }
  void KeepNodeShard(const std::string& name) {
    Keep(c_.policy().node_shards, name, [this, name] { (void)c_.DeleteNodeShard(name); },
         [this](const NodeShardSpec& n) { (void)c_.PutNodeShard(n); });
  }
  void KeepNumatopology(const std::string& name) {
    Keep(c_.policy().numatopologies, name, [this, name] { (void)c_.DeleteNumatopology(name); },
         [this](const NumatopologySpec& n) { (void)c_.PutNumatopology(n); });
  }
  void KeepPodGroup(const std::string& key) {
    const auto [ns, name] = SplitKey(key);
    Keep(c_.pod_groups(), key, [this, ns = ns, name = name] { (void)c_.DeletePodGroup(ns, name); },
         [this](const PodGroupSpec& g) { (void)c_.PutPodGroup(g); });
  }
  void KeepVolcanoJob(const std::string& ns, const std::string& name) {
    Keep(c_.volcano_jobs(), absl::StrCat(ns, "/", name), [this, ns, name] { (void)c_.DeleteVolcanoJob(ns, name); },
         [this](const Value& job) { (void)c_.PutVolcanoJob(job); });
  }
  // A pod's put may also make the PodGroup Volcano's controller makes for a plain pod:
  // that goes too when the put is undone.
  void KeepPod(const PodSpec& pod) {
    const std::string key = absl::StrCat(pod.namespace_, "/", pod.name);
    const PodGroupSpec implicit = ImplicitPodGroupFor(pod);
    const std::string implicit_key = absl::StrCat(implicit.namespace_, "/", implicit.name);
    const bool implicit_existed = c_.pod_groups().count(implicit_key) > 0;
    auto it = c_.pods().find(key);
    std::optional<PodSpec> old;
    if (it != c_.pods().end()) old = *it->second;
    steps_.push_back([this, key, old = std::move(old), implicit_key, implicit_existed] {
      if (old) {
        (void)c_.PutPod(*old);
      } else {
        const auto [ns, name] = SplitKey(key);
        (void)c_.DeletePod(ns, name);
      }
      if (!implicit_existed && c_.pod_groups().count(implicit_key)) {
        const auto [ns, name] = SplitKey(implicit_key);
        (void)c_.DeletePodGroup(ns, name);
      }
    });
  }
  void Run() {
    for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) (*it)();
    steps_.clear();
  }

 private:
  static std::pair<std::string, std::string> SplitKey(const std::string& key) {
    const size_t slash = key.find('/');
    return {key.substr(0, slash), key.substr(slash + 1)};
  }
  template <typename Map, typename Remove, typename Restore>
  void Keep(const Map& map, const std::string& key, Remove remove, Restore restore) {
    auto it = map.find(key);
    if (it == map.end()) {
      steps_.push_back(std::move(remove));
    } else {
      steps_.push_back([restore = std::move(restore), old = it->second] { restore(old); });
    }
  }
  Cluster& c_;
  std::vector<std::function<void()>> steps_;
};

absl::Status ApplyObjects(Cluster& cluster, WatchEvent::Type type, const absl::Status& read,
                          ScenarioObjects* objects, const WatchEvent& event, std::vector<std::string>* notes) {
  using T = WatchEvent::Type;
  if (!read.ok()) return read;
  // A deleted object's fields do not matter (a DELETED event may carry its metadata only).
  if (type != T::kDeleted) {
    for (const std::string& w : objects->warnings) notes->push_back(w);
  }
  if (objects->config || objects->expectation) {
    notes->push_back(absl::StrCat(event.where, ": a scheduler configuration or expectation is not cluster state; ignored"));
  }
  if (type == T::kModified) {
    if (absl::Status s = CheckAllExist(cluster, *objects); !s.ok()) return UpdateOfAbsent(event.where, s);
  }
  // A Volcano Job's pods that its new spec no longer has (scaled down; all of them when
  // the Job is deleted) go, as its controller deletes them.
  std::set<std::string> expanded;
  if (type != T::kDeleted && !objects->job_pod_groups.empty()) {
    for (const PodSpec& p : objects->pods) expanded.insert(absl::StrCat(p.namespace_, "/", p.name));
  }
  std::vector<std::pair<std::string, std::string>> dropped;
  if (!objects->job_pod_groups.empty()) {
    const std::set<std::string> owners = JobUids(objects->volcano_jobs);
    for (const std::string& group : objects->job_pod_groups) {
      for (auto& pod : PodsOfGroupBut(cluster, group, expanded, owners)) dropped.push_back(std::move(pod));
    }
  }
  if (type == T::kDeleted) {
    const auto gone = [&](const absl::Status& s) { NoteDeletionOfAbsent(event.where, s, notes); };
    std::set<std::string> deleted;  // the Job's pods, which its own expansion lists too
    for (const auto& [ns, name] : dropped) {
      (void)cluster.DeletePod(ns, name);
      deleted.insert(absl::StrCat(ns, "/", name));
    }
    for (const PodSpec& p : objects->pods) {
      if (!deleted.count(absl::StrCat(p.namespace_, "/", p.name))) gone(cluster.DeletePod(p.namespace_, p.name));
    }
    for (const PodGroupSpec& g : objects->pod_groups) gone(cluster.DeletePodGroup(g.namespace_, g.name));
    for (const Value& job : objects->volcano_jobs) {
      const auto [ns, name] = NamespaceAndName(job);
      gone(cluster.DeleteVolcanoJob(ns, name));
    }
    for (const NodeSpec& n : objects->nodes) gone(cluster.DeleteNode(n.name));
    for (const PriorityClassSpec& pc : objects->priority_classes) gone(cluster.DeletePriorityClass(pc.name));
    for (const NamespaceSpec& ns : objects->namespaces) gone(cluster.DeleteNamespace(ns.name));
    for (const HyperNodeSpec& h : objects->hyper_nodes) gone(cluster.DeleteHyperNode(h.name));
    for (const PersistentVolumeClaimSpec& c : objects->claims) gone(cluster.DeletePersistentVolumeClaim(c.namespace_, c.name));
    for (const PersistentVolumeSpec& v : objects->volumes) gone(cluster.DeletePersistentVolume(v.name));
    for (const StorageClassSpec& c : objects->storage_classes) gone(cluster.DeleteStorageClass(c.name));
    for (const CSINodeSpec& n : objects->csi_nodes) gone(cluster.DeleteCSINode(n.name));
    for (const ResourceQuotaSpec& q : objects->quotas) gone(cluster.DeleteResourceQuota(q.namespace_, q.name));
    for (const PodDisruptionBudgetSpec& b : objects->disruption_budgets) {
      gone(cluster.DeletePodDisruptionBudget(b.namespace_, b.name));
    }
    for (const NodeShardSpec& n : objects->node_shards) gone(cluster.DeleteNodeShard(n.name));
    for (const NumatopologySpec& n : objects->numatopologies) gone(cluster.DeleteNumatopology(n.name));
    for (const QueueSpec& q : objects->queues) {
      absl::Status s = cluster.DeleteQueue(q.name);
      if (absl::IsNotFound(s)) gone(s);
      else if (!s.ok()) return absl::FailedPreconditionError(absl::StrCat(event.where, ": ", s.message()));
    }
    // A Volcano Job still here whose PodGroup went: its controller makes the PodGroup
    // again (Volcano's job controller syncs it), as reading the state back from text
    // would. Its pods stay as they are.
    for (const PodGroupSpec& g : objects->pod_groups) {
      const Value* job = JobOwningPodGroup(cluster, g.namespace_, g.name);
      if (job == nullptr) continue;
      notes->push_back(absl::StrCat(event.where, ": PodGroup \"", g.namespace_, "/", g.name,
                                    "\" belongs to a Volcano Job that is still here: its controller makes it again"));
      const Value manifest = *job;
      ScenarioObjects again;
      const absl::Status reread = io_internal::ReadNodeObject(io_internal::DocNode(&manifest), event.where, again);
      VCSCHED_RETURN_IF_ERROR(ApplyObjects(cluster, T::kAdded, reread, &again, event, notes));
    }
    return absl::OkStatus();
  }
  // Several objects come from one event only for a Volcano Job (its PodGroup and pods):
  // each is checked first, as the cluster's puts check it, so that none is applied when
  // one is refused.
  std::vector<std::string> problems;
  const auto check = [&](const auto& specs) {
    for (const auto& spec : specs) {
      for (std::string& p : ObjectProblems(spec)) problems.push_back(std::move(p));
    }
  };
  if (objects->pods.size() + objects->pod_groups.size() + objects->nodes.size() > 1) {
    check(objects->pod_groups);
    check(objects->pods);
    check(objects->nodes);
  }
  if (!problems.empty()) return absl::InvalidArgumentError(absl::StrCat(event.where, ": ", absl::StrJoin(problems, "\n")));
  const auto put = [&](const absl::Status& s) { return PutRefused(event.where, s); };
  // One event is applied whole or not at all: what each put replaces is kept, and put
  // back (in reverse) when a later put of the same event is refused, e.g. a List whose
  // second object closes a queue cycle.
  EventUndo undo(cluster);
  // A Job's manifest first: when it is refused, nothing of the event is applied.
  for (Value& job : objects->volcano_jobs) {
    const auto [ns, name] = NamespaceAndName(job);
    undo.KeepVolcanoJob(ns, name);
    if (absl::Status refused = put(cluster.PutVolcanoJob(std::move(job))); !refused.ok()) {
      undo.Run();
      return refused;
    }
  }
  absl::Status s;
  for (QueueSpec& q : objects->queues) {
    undo.KeepQueue(q.name);
    s.Update(put(cluster.PutQueue(std::move(q))));
  }
  for (PriorityClassSpec& pc : objects->priority_classes) {
    undo.KeepPriorityClass(pc.name);
    s.Update(put(cluster.PutPriorityClass(std::move(pc))));
  }
  for (NamespaceSpec& ns : objects->namespaces) {
    undo.KeepNamespace(ns.name);
    s.Update(put(cluster.PutNamespace(std::move(ns))));
  }
  for (NodeSpec& n : objects->nodes) {
    undo.KeepNode(n.name);
    s.Update(put(cluster.PutNode(std::move(n))));
  }
  for (HyperNodeSpec& h : objects->hyper_nodes) {
    undo.KeepHyperNode(h.name);
    s.Update(put(cluster.PutHyperNode(std::move(h))));
  }
  for (StorageClassSpec& c : objects->storage_classes) {
    undo.KeepStorageClass(c.name);
    s.Update(put(cluster.PutStorageClass(std::move(c))));
  }
  for (PersistentVolumeSpec& v : objects->volumes) {
    undo.KeepVolume(v.name);
    s.Update(put(cluster.PutPersistentVolume(std::move(v))));
  }
  for (CSINodeSpec& n : objects->csi_nodes) {
    undo.KeepCSINode(n.name);
    s.Update(put(cluster.PutCSINode(std::move(n))));
  }
  for (ResourceQuotaSpec& q : objects->quotas) {
    undo.KeepResourceQuota(absl::StrCat(q.namespace_, "/", q.name));
    s.Update(put(cluster.PutResourceQuota(std::move(q))));
  }
  for (PodDisruptionBudgetSpec& b : objects->disruption_budgets) {
    undo.KeepPodDisruptionBudget(absl::StrCat(b.namespace_, "/", b.name));
    s.Update(put(cluster.PutPodDisruptionBudget(std::move(b))));
  }
  for (NodeShardSpec& n : objects->node_shards) {
    undo.KeepNodeShard(n.name);
    s.Update(put(cluster.PutNodeShard(std::move(n))));
  }
  for (NumatopologySpec& n : objects->numatopologies) {
    undo.KeepNumatopology(n.name);
    s.Update(put(cluster.PutNumatopology(std::move(n))));
  }
  for (PersistentVolumeClaimSpec& c : objects->claims) {
    const std::string key = absl::StrCat(c.namespace_, "/", c.name);
    // A Job seen again does not undo what the binder wrote on the claims it made.
    if (!objects->job_pod_groups.empty() && cluster.storage().claims.count(key)) continue;
    undo.KeepClaim(key);
    s.Update(put(cluster.PutPersistentVolumeClaim(std::move(c))));
  }
  // A Job's controller creates the pods it lacks and leaves the ones it made, and the
  // scheduler owns its PodGroup's status: a Job seen again changes neither.
  const std::set<std::string> job_groups(objects->job_pod_groups.begin(), objects->job_pod_groups.end());
  for (PodGroupSpec& g : objects->pod_groups) {
    const std::string key = absl::StrCat(g.namespace_, "/", g.name);
    if (auto old = cluster.pod_groups().find(key); old != cluster.pod_groups().end() && job_groups.count(key)) {
      const PodGroupSpec& kept = old->second;
      g.phase = kept.phase;
      g.running = kept.running;
      g.succeeded = kept.succeeded;
      g.failed = kept.failed;
      g.conditions = kept.conditions;
    }
    undo.KeepPodGroup(key);
    s.Update(put(cluster.PutPodGroup(std::move(g))));
  }
  for (PodSpec& p : objects->pods) {
    auto group = p.annotations.find(kPodGroupAnnotation);
    const bool of_job = group != p.annotations.end() && !job_groups.empty() &&
                        job_groups.count(absl::StrCat(p.namespace_, "/", group->second));
    if (of_job && cluster.pods().count(absl::StrCat(p.namespace_, "/", p.name))) continue;
    if (cluster.IsStalePodEvent(p)) {
      NoteStalePod(event.where, p, notes);
      continue;
    }
    undo.KeepPod(p);
    s.Update(put(cluster.PutPod(std::move(p))));
  }
  if (!s.ok()) {
    undo.Run();
    return s;
  }
  for (const auto& [ns, name] : dropped) (void)cluster.DeletePod(ns, name);
  return s;
}

}  // namespace

absl::Status ApplyWatchEvent(Cluster& cluster, const WatchEvent& event, std::vector<std::string>* notes) {
  using T = WatchEvent::Type;
  std::vector<std::string> ignored;
  if (notes == nullptr) notes = &ignored;
  if (event.type == T::kSchedule || event.type == T::kBookmark) return absl::OkStatus();
  if (event.type == T::kError) {
    notes->push_back(absl::StrCat(event.where, ": an ERROR event: ", event.object));
    return absl::OkStatus();
  }
  LoadOptions options;
  options.snapshot = cluster.options();
  thread_local ScenarioObjects objects;  // reused: its containers stay allocated
  const absl::Status read = io_internal::ReadJsonObject(event.object, event.where, options, objects);
  return ApplyObjects(cluster, event.type, read, &objects, event, notes);
}

absl::Status ApplyPodEvent(Cluster& cluster, WatchEvent::Type type, PodSpec&& pod, absl::string_view where,
                          std::vector<std::string>* notes) {
  using T = WatchEvent::Type;
  if (type != T::kAdded && type != T::kModified && type != T::kDeleted) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": type: a Pod's event is ADDED, MODIFIED or DELETED"));
  }
  std::vector<std::string> ignored;
  return ApplyPod(cluster, type, std::move(pod), where, notes == nullptr ? &ignored : notes);
}

namespace {

// An event held as a tree (a Value a host built, or a host's own objects): its type and
// object are read as a JSON event's are, the object by `read`.
absl::Status ApplyEventTree(
    Cluster& cluster, const io_internal::DocNode& node, absl::string_view where, std::vector<std::string>* notes,
    absl::FunctionRef<absl::Status(const io_internal::DocNode& object, const std::string& where, ScenarioObjects& out)>
        read,
    absl::FunctionRef<bool(const io_internal::DocNode& object, const std::string& where, std::optional<PodSpec>& pod)>
        read_plain_pod) {
  using T = WatchEvent::Type;
  std::vector<std::string> ignored;
  if (notes == nullptr) notes = &ignored;
  if (!node.IsMap()) return absl::InvalidArgumentError(absl::StrCat(where, ": expected an object"));
  static constexpr absl::string_view kFields[] = {"type", "object"};
  const auto [type, object] = node.Fields(kFields);
  std::string scratch;
  const absl::string_view name = type.IsScalar() ? type.ScalarRef(&scratch) : "";
  const absl::StatusOr<T> t = EventType(type.IsScalar() ? &name : nullptr, where);
  if (!t.ok()) return t.status();
  if (*t == T::kSchedule || *t == T::kBookmark) return absl::OkStatus();
  if (*t == T::kError) {
    std::string what;
    if (object.IsScalar()) what = absl::StrCat(": \"", object.Scalar().substr(0, 64), "\"");
    else if (object.IsDefined()) what = object.IsMap() ? ": a map" : object.IsSequence() ? ": a list" : ": null";
    notes->push_back(absl::StrCat(where, ": an ERROR event", what));
    return absl::OkStatus();
  }
  if (!object.IsMap()) return absl::InvalidArgumentError(absl::StrCat(where, ": object: is required (an object)"));
  // Reused, as the buffers below: the place (most are too long to fit in a string's own
  // bytes) and a pod, read into it and then moved into the cluster.
  thread_local std::string place;
  place.assign(where.data(), where.size());
  thread_local std::optional<PodSpec> pod;
  if (read_plain_pod(object, place, pod)) return ApplyPod(cluster, *t, *std::move(pod), place, notes);
  WatchEvent e;  // the event's type and place; its object stays in the tree
  e.where = place;
  thread_local ScenarioObjects objects;  // reused: its containers stay allocated
  const absl::Status status = read(object, e.where, objects);
  return ApplyObjects(cluster, *t, status, &objects, e, notes);
}

}  // namespace

absl::Status ApplyWatchEvent(Cluster& cluster, const Value& event, absl::string_view where,
                             std::vector<std::string>* notes) {
  return ApplyEventTree(cluster, io_internal::DocNode(&event), where, notes, io_internal::ReadNodeObject,
                        io_internal::ReadPlainPod);
}

absl::Status ApplyWatchEvent(Cluster& cluster, const HostTree& tree, HostTree::Node event, absl::string_view where,
                             std::vector<std::string>* notes) {
  return ApplyEventTree(cluster, io_internal::DocNode(&tree, event), where, notes,
                        [&tree](const io_internal::DocNode& object, const std::string& at, ScenarioObjects& out) {
                          return io_internal::ReadHostObject(tree, object.host_node(), at, out);
                        },
                        [&tree](const io_internal::DocNode& object, const std::string& at, std::optional<PodSpec>& pod) {
                          return io_internal::ReadHostPlainPod(tree, object.host_node(), at, pod);
                        });
}

}  // namespace vcsched
