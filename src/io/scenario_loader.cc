#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "src/io/config_reader.h"
#include "src/io/job_documents.h"
#include "src/io/json_documents.h"
#include "src/io/json_list_items.h"
#include "src/io/json_stream_parser.h"
#include "src/io/k8s_reader.h"
#include "src/io/object_document.h"
#include "src/io/skipped_kinds.h"
#include "src/io/yaml_normalize.h"
#include "src/io/yaml_pieces.h"
#include "src/io/yaml_tree.h"
#include "src/model/object_names.h"
#include "src/model/queue_checks.h"
#include "src/io/yaml_reader.h"
#include "yaml-cpp/depthguard.h"
#include "vcsched/hyper_node_discovery.h"
#include "vcsched/io/scenario.h"

namespace vcsched {
namespace {

using io_internal::Describe;
using io_internal::DocNode;
using io_internal::Get;
using io_internal::Diagnostics;
using io_internal::ObjectReader;

using io_internal::Place;

// What is needed to merge an object printed twice.
struct Seen {
  std::string uid;  // only for kinds whose spec does not keep it (SpecHasUid)
  std::string resource_version;
  Place where;
};

template <typename T>
constexpr bool SpecHasUid() {
  return std::is_same_v<T, PodSpec> || std::is_same_v<T, PodGroupSpec>;
}

// (namespace, name) of a spec, viewed in the spec; a cluster-scoped kind has no namespace.
using SpecKey = std::pair<absl::string_view, absl::string_view>;
template <typename T>
SpecKey KeyOf(const T& spec) {
  if constexpr (std::is_same_v<T, PodSpec> || std::is_same_v<T, PodGroupSpec> ||
                std::is_same_v<T, PersistentVolumeClaimSpec> || std::is_same_v<T, ResourceQuotaSpec> ||
                std::is_same_v<T, PodDisruptionBudgetSpec>) {
    return {spec.namespace_, spec.name};
  }
  else return {absl::string_view(), spec.name};
}

// Objects of one kind in reading order, with an index by key for merging duplicates.
template <typename T>
struct Table {
  std::deque<T> specs;  // a deque: specs stay in place, so `index` can view their keys
  std::deque<Seen> seen;  // seen[i] is of specs[i]
  absl::flat_hash_map<SpecKey, size_t> index;
  // The Jobs (their Place::document) some of whose made objects the input also holds.
  absl::flat_hash_set<const std::string*> made_by_jobs_also_given;

  void Clear() {
    if (seen.empty() && made_by_jobs_also_given.empty()) return;  // most tables of a one-object read
    specs.clear();
    seen.clear();
    index.clear();
    made_by_jobs_also_given.clear();
  }
};

struct Collected {
  Table<NodeSpec> nodes;
  Table<PodSpec> pods;
  Table<PodGroupSpec> pod_groups;
  Table<QueueSpec> queues;
  Table<PriorityClassSpec> priority_classes;
  Table<HyperNodeSpec> hyper_nodes;
  Table<PersistentVolumeClaimSpec> claims;
  Table<PersistentVolumeSpec> volumes;
  Table<StorageClassSpec> storage_classes;
  Table<CSINodeSpec> csi_nodes;
  Table<ResourceQuotaSpec> quotas;
  Table<PodDisruptionBudgetSpec> disruption_budgets;
  Table<NodeShardSpec> node_shards;
  Table<NumatopologySpec> numatopologies;
  std::map<std::string, Labels> namespaces;  // Namespace objects: their labels
  std::optional<SchedulerConfig> config;
  std::string config_where;
  std::optional<Expectation> expectation;
  std::vector<std::string> job_pod_groups;  // ScenarioObjects::job_pod_groups
  std::vector<Value> volcano_jobs;          // ScenarioObjects::volcano_jobs
  // "source: document N" of every document read, which Places point into.
  std::deque<std::string> documents;
  const std::string* AddDocument(std::string where) {
    documents.push_back(std::move(where));
    return &documents.back();
  }
  // The place of a source's document `index` (1-based).
  Place Document(const std::string& source, int index) {
    return Place{AddDocument(absl::StrCat(source, ": document ", index))};
  }
  // Empties every table for the next document, keeping their storage.
  void Clear() {
    nodes.Clear();
    pods.Clear();
    pod_groups.Clear();
    queues.Clear();
    priority_classes.Clear();
    hyper_nodes.Clear();
    claims.Clear();
    volumes.Clear();
    storage_classes.Clear();
    csi_nodes.Clear();
    quotas.Clear();
    disruption_budgets.Clear();
    node_shards.Clear();
    numatopologies.Clear();
    namespaces.clear();
    config.reset();
    config_where.clear();
    expectation.reset();
    job_pod_groups.clear();
    volcano_jobs.clear();
    documents.clear();
  }
};

bool NewerOrSame(const std::string& later, const std::string& earlier) {
  int64_t a = 0, b = 0;
  if (absl::SimpleAtoi(later, &a) && absl::SimpleAtoi(earlier, &b)) return a >= b;
  return true;  // without comparable versions the later document wins
}

// Keeps the spec just read (the table's last) under its key, merging a second print of
// the same object (same uid) by keeping the newer resourceVersion, and reporting any
// other duplicate; a spec not kept is dropped.
template <typename T>
void Put(Table<T>& into, const char* kind, bool namespaced, const DocNode& doc, const Place& where,
         ObjectReader& r, Diagnostics& diag, bool read_cleanly) {
  T& spec = into.specs.back();
  const DocNode meta = doc.Get("metadata");
  const auto [name, uid_value, version] = meta.Fields({"name", "uid", "resourceVersion"});
  if (spec.name.empty()) {
    r.Fail(meta.IsDefined() ? meta : doc, "metadata.name", "must not be empty");
    into.specs.pop_back();
    return;
  }
  if (spec.name.size() > kMaxNameLength) {
    r.Fail(name, "metadata.name",
           absl::StrCat("is ", spec.name.size(), " characters, over Kubernetes' limit of ", kMaxNameLength));
    into.specs.pop_back();
    return;
  }
  // A name with a newline or a control character could forge lines of the output.
  if (!IsValidObjectName(spec.name)) {
    r.Fail(name, "metadata.name", kInvalidNameMessage);
    into.specs.pop_back();
    return;
  }
  if (namespaced && !IsValidNamespace(KeyOf(spec).first)) {
    r.Fail(meta.Get("namespace"), "metadata.namespace", kInvalidNamespaceMessage);
    into.specs.pop_back();
    return;
  }
  // What Build refuses in the object alone (ObjectProblems) is refused here too, where the
  // message can name the file and document; not after a read that failed, whose problems
  // are reported already.
  if (read_cleanly) {
    const std::vector<std::string> problems = ObjectProblems(spec);
    if (!problems.empty()) {
      for (const std::string& problem : problems) r.FailPlaced(doc, problem);
      into.specs.pop_back();
      return;
    }
  }
  const auto text = [](const DocNode& n) { return n.IsScalar() ? n.Scalar() : std::string(); };
  // The index is made when a second spec comes: most reads (a watch event) hold one.
  if (into.index.empty() && into.specs.size() == 2) into.index.emplace(KeyOf(into.specs.front()), 0);
  const auto [it, added] = into.specs.size() == 1 ? std::pair(into.index.end(), true)
                                                   : into.index.try_emplace(KeyOf(spec), into.specs.size() - 1);
  if (added) {
    Seen& seen = into.seen.emplace_back();
    if constexpr (!SpecHasUid<T>()) seen.uid = text(uid_value);
    seen.resource_version = text(version);
    seen.where = where;
    return;
  }
  const size_t kept = it->second;
  Seen& seen = into.seen[kept];
  if (where.made_for_job != seen.where.made_for_job) {
    // The input holds an object a Job's controller made (a dump of Jobs with their
    // PodGroups and pods): the input's document is its current state and wins.
    into.made_by_jobs_also_given.insert(where.made_for_job ? where.document : seen.where.document);
    if (!where.made_for_job) {
      into.index.erase(it);
      into.specs[kept] = std::move(spec);
      into.index.emplace(KeyOf(into.specs[kept]), kept);
      seen = Seen{};
      if constexpr (!SpecHasUid<T>()) seen.uid = text(uid_value);
      seen.resource_version = text(version);
      seen.where = where;
    }
    into.specs.pop_back();
    return;
  }
  std::string uid = text(uid_value), rv = text(version);
  std::string kept_uid;
  if constexpr (SpecHasUid<T>()) kept_uid = into.specs[kept].uid;
  else kept_uid = seen.uid;
  if (!uid.empty() && uid == kept_uid) {
    diag.warnings.push_back(absl::StrCat(kind, " \"", io_internal::ObjectKey(doc, namespaced), "\": printed twice (",
                                         seen.where.str(), " and ", where.str(), "); the newer resourceVersion is used"));
    if (NewerOrSame(rv, seen.resource_version)) {
      // The index views the kept spec's strings, which the newer spec's replace.
      into.index.erase(it);
      into.specs[kept] = std::move(spec);
      into.index.emplace(KeyOf(into.specs[kept]), kept);
      if constexpr (!SpecHasUid<T>()) seen.uid = std::move(uid);
      seen.resource_version = std::move(rv);
      seen.where = where;
    }
    into.specs.pop_back();
    return;
  }
  r.Fail(meta.IsDefined() ? name : doc, "metadata.name",
         absl::StrCat("duplicate name (also at ", seen.where.str(), ")"));
  into.specs.pop_back();
}

// Reads one object of a kind with its reader and stores it under its key.
template <typename T>
void ReadAndPut(Table<T>& into, const char* kind, bool namespaced, void (*read)(ObjectReader&, const DocNode&, T*),
                const DocNode& doc, const Place& where, ObjectReader& r, Diagnostics& diag) {
  r.set_object(kind, doc, namespaced);
  const size_t errors_before = r.error_count();
  read(r, doc, &into.specs.emplace_back());  // in place: a pod's spec is large
  Put(into, kind, namespaced, doc, where, r, diag, r.error_count() == errors_before);
}

Expectation ReadExpectation(ObjectReader& r, const YAML::Node& doc) {
  Expectation e;
  for (const auto& kv : doc) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    static const char* kKnown[] = {"apiVersion", "kind", "source", "binds", "bindCount",
                                   "evictions", "evictionCount", "podGroupPhases", "hyperNodeBindCounts", "bindAnnotations",
                                   "metadata"};
    if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown)) {
      r.Fail(kv.first, key, "unknown field of an Expectation");
    }
  }
  e.source = r.String(doc, "source", "source").value_or("");
  const YAML::Node binds = r.Map(doc, "binds", "binds").yaml();
  if (Get(doc, "binds").IsDefined()) e.has_binds = true;
  for (const auto& kv : binds) {
    const std::string pod = kv.first.Scalar();
    std::vector<std::string> nodes;
    if (kv.second.IsScalar()) {
      nodes.push_back(kv.second.Scalar());
    } else if (kv.second.IsSequence()) {
      for (const auto& n : kv.second) {
        if (n.IsScalar()) nodes.push_back(n.Scalar());
        else r.Fail(n, absl::StrCat("binds.", pod), "expected a node name");
      }
    } else {
      r.Fail(kv.second, absl::StrCat("binds.", pod), absl::StrCat("expected a node name or a list, got ", Describe(kv.second)));
    }
    e.binds[pod] = std::move(nodes);
  }
  e.bind_count = r.Int(doc, "bindCount", "bindCount");
  const YAML::Node ev = r.List(doc, "evictions", "evictions").yaml();
  if (ev.IsDefined()) {
    e.evictions.emplace();
    for (const auto& n : ev) {
      if (n.IsScalar()) e.evictions->push_back(n.Scalar());
      else r.Fail(n, "evictions", "expected a pod name");
    }
  }
  e.eviction_count = r.Int(doc, "evictionCount", "evictionCount");
  e.pod_group_phases = r.StringMap(doc, "podGroupPhases", "podGroupPhases");
  const YAML::Node annotated = r.Map(doc, "bindAnnotations", "bindAnnotations").yaml();
  for (const auto& kv : annotated) {
    const std::string pod = kv.first.Scalar();
    e.bind_annotations[pod] = r.StringMap(annotated, pod.c_str(), absl::StrCat("bindAnnotations.", pod));
  }
  const YAML::Node counts = r.List(doc, "hyperNodeBindCounts", "hyperNodeBindCounts").yaml();
  if (counts.IsDefined()) {
    e.hyper_node_bind_counts.emplace();
    for (const auto& n : counts) {
      int64_t v = 0;
      if (n.IsScalar() && absl::SimpleAtoi(n.Scalar(), &v) && v >= 0) {
        e.hyper_node_bind_counts->push_back(v);
      } else {
        r.Fail(n, "hyperNodeBindCounts", "expected a count (an integer, 0 or more)");
      }
    }
  }
  return e;
}

// Whether an apiVersion is `group` or one of its versions ("group/...").
bool InApiGroup(absl::string_view api, absl::string_view group) {
  return absl::ConsumePrefix(&api, group) && (api.empty() || api.front() == '/');
}

// The data entry of Volcano's scheduler ConfigMap that holds the configuration.
constexpr char kSchedulerConfKey[] = "volcano-scheduler.conf";

void ReadDocument(const DocNode& doc, const Place& where, int line_offset, Collected& c, Diagnostics& diag) {
  ObjectReader r(&diag, where, line_offset);
  if (doc.IsNull()) return;  // an empty document between separators
  if (!doc.IsMap()) {
    r.Fail(doc, "", absl::StrCat("expected an object (a map), got ", Describe(doc)));
    return;
  }
  const std::array<DocNode, 2> head = doc.Fields({"kind", "apiVersion"});
  // Kubernetes' decoders refuse a repeated key; the first value must not silently win.
  if (std::string path, key; doc.FindDuplicateJsonKey(&path, &key, "items")) {
    r.Fail(doc, path, absl::StrCat("duplicate key \"", key, "\""));
    return;
  }
  const DocNode& kind_value = head[0];
  const DocNode& api_value = head[1];  // a reference, not a binding: the lambda below captures it
  const std::string kind = r.AsString(kind_value, "kind").value_or("");
  const std::string api = r.AsString(api_value, "apiVersion").value_or("");
  // The scenario's scheduler configuration, from wherever it came; only one.
  const auto set_config = [&](SchedulerConfig config) {
    if (c.config) {
      r.set_object("SchedulerConfiguration");
      r.Fail(doc, "kind", absl::StrCat("a second SchedulerConfiguration (the first is at ", c.config_where, ")"));
      return;
    }
    if (config.origin.empty()) config.origin = where.str();
    c.config = std::move(config);
    c.config_where = where.str();
  };
  if (kind.empty() && doc.Get("actions").IsDefined()) {  // a bare volcano-scheduler.conf among the files
    r.set_object("SchedulerConfiguration");
    const YAML::Node body = doc.yaml();
    SchedulerConfig config = io_internal::ReadSchedulerConfig(r, body);
    io_internal::CheckAsVolcanoFile(r, body, config);
    set_config(std::move(config));
    return;
  }
  if (kind.empty()) {
    r.Fail(doc, "kind", "is required");
    return;
  }
  auto need_api = [&](std::initializer_list<const char*> prefixes) {
    for (const char* p : prefixes) {
      if (InApiGroup(api, p)) return true;
    }
    r.Fail(api_value.IsDefined() ? api_value : doc, "apiVersion",
           absl::StrCat("unsupported apiVersion \"", api, "\" for kind ", kind));
    return false;
  };
  if (kind == "List") {
    // A List inside a List gets its own document label.
    const std::string* document = where.item < 0 ? where.document : c.AddDocument(where.str());
    int64_t i = 0;
    const DocNode items = r.List(doc, "items", "items");
    // Pods are the bulk of any large listing: their index is sized once, not regrown.
    c.pods.index.reserve(c.pods.index.size() + items.size());
    items.ForEachItem([&](const DocNode& item) {
      ReadDocument(item, Place{document, i++}, line_offset, c, diag);
    });
    return;
  }
  if (kind == "Node" && need_api({"v1"})) {
    ReadAndPut(c.nodes, "Node", /*namespaced=*/false, io_internal::ReadNode, doc, where, r, diag);
  } else if (kind == "Pod" && need_api({"v1"})) {
    ReadAndPut(c.pods, "Pod", /*namespaced=*/true, io_internal::ReadPod, doc, where, r, diag);
  } else if (kind == "PodGroup" && need_api({"scheduling.volcano.sh", "scheduling.incubator.k8s.io"})) {
    ReadAndPut(c.pod_groups, "PodGroup", /*namespaced=*/true, io_internal::ReadPodGroup, doc, where, r, diag);
  } else if (kind == "Queue" && need_api({"scheduling.volcano.sh", "scheduling.incubator.k8s.io"})) {
    ReadAndPut(c.queues, "Queue", /*namespaced=*/false, io_internal::ReadQueue, doc, where, r, diag);
  } else if (kind == "HyperNode" && need_api({"topology.volcano.sh"})) {
    ReadAndPut(c.hyper_nodes, "HyperNode", /*namespaced=*/false, io_internal::ReadHyperNode, doc, where, r, diag);
  } else if (kind == "Namespace" && need_api({"v1"})) {
    r.set_object("Namespace", doc, /*namespaced=*/false);
    const DocNode meta = r.Map(doc, "metadata", "metadata");
    NamespaceSpec ns;
    ns.name = r.String(meta, "name", "metadata.name").value_or("");
    ns.labels = r.StringMap(meta, "labels", "metadata.labels");
    if (ns.name.empty()) r.Fail(meta.IsDefined() ? meta : doc, "metadata.name", "must not be empty");
    else if (!IsValidObjectName(ns.name)) r.Fail(meta.Get("name"), "metadata.name", kInvalidNameMessage);
    else if (!c.namespaces.emplace(ns.name, std::move(ns.labels)).second) r.Fail(doc, "metadata.name", "duplicate name");
  } else if (kind == "PriorityClass" && need_api({"scheduling.k8s.io"})) {
    ReadAndPut(c.priority_classes, "PriorityClass", /*namespaced=*/false, io_internal::ReadPriorityClass, doc, where,
               r, diag);
  } else if (kind == "PersistentVolumeClaim" && need_api({"v1"})) {
    ReadAndPut(c.claims, "PersistentVolumeClaim", /*namespaced=*/true, io_internal::ReadPersistentVolumeClaim, doc,
               where, r, diag);
  } else if (kind == "PersistentVolume" && need_api({"v1"})) {
    ReadAndPut(c.volumes, "PersistentVolume", /*namespaced=*/false, io_internal::ReadPersistentVolume, doc, where, r,
               diag);
  } else if (kind == "StorageClass" && need_api({"storage.k8s.io"})) {
    ReadAndPut(c.storage_classes, "StorageClass", /*namespaced=*/false, io_internal::ReadStorageClass, doc, where, r,
               diag);
  } else if (kind == "CSINode" && need_api({"storage.k8s.io"})) {
    ReadAndPut(c.csi_nodes, "CSINode", /*namespaced=*/false, io_internal::ReadCSINode, doc, where, r, diag);
  } else if (kind == "ResourceQuota" && need_api({"v1"})) {
    ReadAndPut(c.quotas, "ResourceQuota", /*namespaced=*/true, io_internal::ReadResourceQuota, doc, where, r, diag);
  } else if (kind == "PodDisruptionBudget" && need_api({"policy"})) {
    ReadAndPut(c.disruption_budgets, "PodDisruptionBudget", /*namespaced=*/true, io_internal::ReadPodDisruptionBudget,
               doc, where, r, diag);
  } else if (kind == "NodeShard" && need_api({"shard.volcano.sh"})) {
    ReadAndPut(c.node_shards, "NodeShard", /*namespaced=*/false, io_internal::ReadNodeShard, doc, where, r, diag);
  } else if (kind == "Numatopology" && need_api({"nodeinfo.volcano.sh"})) {
    ReadAndPut(c.numatopologies, "Numatopology", /*namespaced=*/false, io_internal::ReadNumatopology, doc, where, r,
               diag);
  } else if (kind == "SchedulerConfiguration" && need_api({"vcsched"})) {
    r.set_object("SchedulerConfiguration");
    set_config(io_internal::ReadSchedulerConfig(r, doc.yaml()));
  } else if (const DocNode conf = doc.Get("data").Get(kSchedulerConfKey); kind == "ConfigMap" && api == "v1" &&
                                                                         conf.IsScalar()) {
    // Volcano's scheduler ConfigMap, as `kubectl get cm -n volcano-system -o yaml` prints
    // it: its text is read as a configuration file is, guards included.
    const std::string name = absl::StrCat(where.str(), ": ConfigMap \"", io_internal::ObjectKey(doc, true), "\": data.",
                                          kSchedulerConfKey);
    absl::StatusOr<SchedulerConfig> config = LoadSchedulerConfig({name, conf.Scalar()}, &diag.warnings);
    if (config.ok()) set_config(*std::move(config));
    else diag.errors.push_back(std::string(config.status().message()));
  } else if (kind == "Expectation" && need_api({"vcsched"})) {
    r.set_object("Expectation");
    if (c.expectation) {
      r.Fail(doc, "kind", "a second Expectation");
      return;
    }
    c.expectation = ReadExpectation(r, doc.yaml());
  } else if (kind == "Job" && api.rfind("batch.volcano.sh", 0) == 0) {
    const std::string key = io_internal::ObjectKey(doc, true);
    r.set_object(absl::StrCat("Job \"", key, "\""));
    const std::string* created = c.AddDocument(absl::StrCat(where.str(), " (created for Job \"", key, "\")"));
    Value manifest;
    io_internal::ExpandJobDocument(
        doc.yaml(), r,
        [&](const YAML::Node& made) {
          if (const YAML::Node k = made["kind"]; k.IsScalar() && k.Scalar() == "PodGroup") {
            c.job_pod_groups.push_back(absl::StrCat(made["metadata"]["namespace"].Scalar(), "/",
                                                    made["metadata"]["name"].Scalar()));
          }
          ReadDocument(made, Place{created, -1, /*made_for_job=*/true}, line_offset, c, diag);
        },
        &manifest);
    if (!manifest.is_null()) c.volcano_jobs.push_back(std::move(manifest));
  } else if (const std::optional<io_internal::SkippedKind> skipped = io_internal::FindSkippedKind(kind, api)) {
    // Objects a cluster dump or Volcano's job plugins (`vcsched expand`) add that change no
    // scheduling decision here.
    using Scope = io_internal::SkippedKind::Scope;
    const bool namespaced = skipped->scope == Scope::kNamespaced ||
                            (skipped->scope == Scope::kAsWritten && doc.Get("metadata").Get("namespace").IsDefined());
    diag.warnings.push_back(absl::StrCat(where.str(), ": ", kind, " \"", io_internal::ObjectKey(doc, namespaced),
                                         "\" ", skipped->why, "; skipped"));
  } else if (kind == "CronJob" || kind == "JobFlow" || kind == "JobTemplate") {
    diag.warnings.push_back(absl::StrCat(where.str(), ": ", kind, " \"", io_internal::ObjectKey(doc, true),
                                         "\" creates jobs over time and is not part of a scheduling snapshot; ",
                                         "see `vcsched validate` and `vcsched expand`"));
  } else if (kind != "Node" && kind != "Pod" && kind != "PodGroup" && kind != "Queue" && kind != "HyperNode" &&
             kind != "PriorityClass" && kind != "SchedulerConfiguration" && kind != "Expectation" &&
             kind != "PersistentVolumeClaim" && kind != "PersistentVolume" && kind != "StorageClass" &&
             kind != "CSINode" && kind != "ResourceQuota" && kind != "PodDisruptionBudget" && kind != "NodeShard" &&
             kind != "Numatopology") {
    r.Fail(doc.Get("kind"), "kind", absl::StrCat("unknown kind \"", kind, "\" (apiVersion \"", api, "\")"));
  }
}

// A listing read item by item (JsonListItems): the same objects, labels and messages as
// reading it whole, without a tape for the whole document. Only while nothing has been
// read yet, so that if an item turns out not to be valid JSON, what was read can be
// dropped and the source read whole, which reports the error as usual.
bool ReadJsonListByItems(const ScenarioSource& src, simdjson::padded_string_view text, const LoadOptions& options,
                         Collected& c, Diagnostics& diag) {
  if (!c.documents.empty() || options.max_depth < 2) return false;
  const std::optional<std::vector<std::string_view>> items =
      io_internal::JsonListItems(text, static_cast<size_t>(options.max_depth));
  if (!items) return false;
  simdjson::dom::parser parser;
  // An item sits two levels below the listing's root, which may nest max_depth + 1 deep.
  if (parser.allocate(size_t{1} << 16, static_cast<size_t>(options.max_depth) - 1) != simdjson::SUCCESS) return false;
  const size_t errors = diag.errors.size(), warnings = diag.warnings.size();
  const Place where = c.Document(src.name, 1);
  c.pods.index.reserve(items->size());
  int64_t i = 0;
  for (const std::string_view item : *items) {
    simdjson::dom::element e;
    // The item lies inside the padded input, so reading past its end is allowed.
    if (parser.parse(item.data(), item.size(), false).get(e) != simdjson::SUCCESS) {
      c = Collected();
      diag.errors.resize(errors);
      diag.warnings.resize(warnings);
      return false;
    }
    ReadDocument(DocNode(e), Place{where.document, i++}, 0, c, diag);
  }
  return true;
}

// Whether every document of `text` reads as YAML (syntax alone: nothing is read from it).
bool IsYaml(absl::string_view text, const LoadOptions& options) {
  if (io_internal::FirstInvalidUtf8(text) >= 0) return false;
  io_internal::DocumentSplitter splitter(text);
  io_internal::DocumentText piece;
  io_internal::YamlTree tree;
  std::string error;
  while (splitter.Next(&piece)) {
    if (tree.Parse(piece.text, piece.first_line, options.max_depth, &error) != io_internal::YamlTree::Failure::kNone) {
      return false;
    }
  }
  return true;
}

// Reads every JSON document of `src` (one, or several one after another); a top-level
// array is a list of documents. Returns false, having read nothing, when the first
// document is not JSON: YAML flow style (`{kind: Node, ...}`) also starts with a brace,
// and the YAML reader then takes the source (and reports errors with line and column).
bool ParseJson(const ScenarioSource& src, absl::string_view src_text, size_t readable_past_end,
               const LoadOptions& options, Collected& c, Diagnostics& diag) {
  // The parsers read up to SIMDJSON_PADDING bytes past the end: in place when that many
  // are readable (the CLI maps files so), else from a padded copy.
  simdjson::padded_string copy;
  simdjson::padded_string_view text(src_text.data(), src_text.size(), src_text.size() + readable_past_end);
  if (readable_past_end < simdjson::SIMDJSON_PADDING) {
    copy = simdjson::padded_string(src_text.data(), src_text.size());
    text = copy;
  }
  if (ReadJsonListByItems(src, text, options, c, diag)) return true;
  simdjson::dom::parser parser;
  const size_t batch = io_internal::PrepareStreamParser(parser, src_text.size(), static_cast<size_t>(options.max_depth));
  if (batch == 0) {
    diag.errors.push_back(absl::StrCat(src.name, ": out of memory for a JSON parser of ",
                                       io_internal::StreamBatch(src_text.size()), " bytes"));
    return true;
  }
  int index = 0;
  // A top-level array is a list of documents.
  const auto read_top = [&](simdjson::dom::element doc) {
    if (doc.is_null()) {  // numbered, not read: no label is made for it
      ++index;
      return;
    }
    const DocNode node(doc);
    if (node.IsSequence()) {
      node.ForEachItem([&](const DocNode& item) {
        if (item.IsNull()) ++index;  // numbered, not read
        else ReadDocument(item, c.Document(src.name, ++index), 0, c, diag);
      });
    } else {
      ReadDocument(node, c.Document(src.name, ++index), 0, c, diag);
    }
  };
  // Any other single document is parsed whole, faster than as a stream; text that is
  // not exactly one valid document goes through the stream below, which finds where it
  // goes wrong.
  if (simdjson::dom::element doc; parser.parse(text.data(), text.size(), false).get(doc) == simdjson::SUCCESS) {
    read_top(doc);
    return true;
  }
  // The stream is checked whole before anything is read. Text that goes wrong as JSON
  // after a valid first document may still be YAML (`{...}` then `---`, a comment): it is
  // then read as YAML, as every reader of manifests reads it, not reported half-read.
  simdjson::dom::document_stream stream;
  if (parser.parse_many(text.data(), text.size(), batch).get(stream) != simdjson::SUCCESS) return false;
  int documents = 0;
  std::string failure;  // where and why the stream goes wrong, if it does
  for (auto it = stream.begin(); it != stream.end(); ++it, ++documents) {
    simdjson::dom::element doc;
    if (auto err = (*it).get(doc); err != simdjson::SUCCESS) {
      if (err != simdjson::DEPTH_ERROR && (documents == 0 || IsYaml(src_text, options))) return false;
      const std::string why = err == simdjson::DEPTH_ERROR
                                  ? absl::StrCat("nesting deeper than the limit of ", options.max_depth)
                                  : std::string(simdjson::error_message(err));
      failure = absl::StrCat(" (byte ", it.current_index(), "): invalid JSON: ", why);
      break;
    }
  }
  // parse_many stops quietly before an incomplete last document.
  if (const size_t cut = stream.truncated_bytes(); failure.empty() && cut > 0) {
    if (documents == 0 || IsYaml(src_text, options)) return false;
    failure = absl::StrCat(" (byte ", src_text.size() - cut, "): invalid JSON: the document is incomplete");
  }
  if (parser.parse_many(text.data(), text.size(), batch).get(stream) != simdjson::SUCCESS) return false;
  int read = 0;
  for (auto it = stream.begin(); it != stream.end() && read < documents; ++it, ++read) {
    simdjson::dom::element doc;
    if ((*it).get(doc) != simdjson::SUCCESS) break;  // not met: the same parse succeeded above
    read_top(doc);
  }
  if (!failure.empty()) diag.errors.push_back(absl::StrCat(src.name, ": document ", index + 1, failure));
  return true;
}

// The YAML documents of one source, read and dropped one at a time.
void ParseYamlSource(const ScenarioSource& src, absl::string_view text, const LoadOptions& options, Collected& c,
                   Diagnostics& diag) {
  if (const int64_t bad = io_internal::FirstInvalidUtf8(text); bad >= 0) {
    diag.errors.push_back(absl::StrCat(src.name, ": ", io_internal::DescribeInvalidByte(text, bad)));
    return;
  }
  // Each piece between document markers is parsed on its own, so that a malformed one is
  // reported and the next is read. Pieces are taken a window at a time: a stream of
  // millions of tiny documents is not held as a list of them.
  int index = 0;
  io_internal::DocumentSplitter splitter(text);
  std::vector<io_internal::DocumentText> window;
  constexpr size_t kWindow = size_t{1} << 16;
  for (bool more = true; more;) {
    window.clear();
    io_internal::DocumentText piece;
    while (window.size() < kWindow && (more = splitter.Next(&piece))) window.push_back(piece);
    size_t at = 0;
    io_internal::ParsePiecesInOrder(window, options.max_depth, options.threads, [&](const io_internal::ParsedPiece& p) {
      const int first_line = window[at++].first_line;
      if (p.failure == io_internal::YamlTree::Failure::kSyntax) {
        diag.errors.push_back(absl::StrCat(src.name, ": ", p.error));
        ++index;  // an unreadable piece keeps its number
        return;
      }
      if (p.tree.documents().empty() && p.failure == io_internal::YamlTree::Failure::kNone) ++index;  // so does an empty one
      for (int32_t root : p.tree.documents()) {
        // A null document (an empty one between markers) is numbered and not read: no
        // label is made for it.
        if (p.tree.node(root).kind == io_internal::YamlTree::Kind::kNull) {
          ++index;
          continue;
        }
        ReadDocument(DocNode(&p.tree, root), c.Document(src.name, ++index), first_line, c, diag);
      }
      if (p.failure == io_internal::YamlTree::Failure::kContent) {
        diag.errors.push_back(absl::StrCat(c.Document(src.name, ++index).str(), ", ", p.error));
      }
    });
  }
}

// Every problem goes to `diag` (each source is read whatever the others hold).
void ParseSources(const std::vector<ScenarioSource>& sources, const LoadOptions& options, Collected& c,
                  Diagnostics& diag) {
  for (const ScenarioSource& src : sources) {
    const bool borrowed = src.borrowed_text.data() != nullptr;
    const absl::string_view text = borrowed ? src.borrowed_text : absl::string_view(src.text);
    const size_t readable_past_end = borrowed ? src.readable_past_end : src.text.capacity() - src.text.size();
    if (text.size() > options.max_bytes) {
      diag.errors.push_back(absl::StrCat(src.name, ": input of ", text.size(), " bytes exceeds the limit of ",
                                         options.max_bytes));
      continue;
    }
    // simdjson checks UTF-8 and depth itself.
    // JSON is YAML too, but simdjson reads it 50-100 times faster than yaml-cpp.
    if (io_internal::LooksLikeJson(text) && ParseJson(src, text, readable_past_end, options, c, diag)) continue;
    // Text that is not JSON goes to the YAML reader (YAML flow style looks like JSON);
    // when a file named .json is not YAML either, the error says what is wrong with it
    // as JSON, not what the YAML reader made of it.
    const size_t errors_before = diag.errors.size();
    ParseYamlSource(src, text, options, c, diag);
    if (absl::EndsWith(src.name, ".json") && diag.errors.size() > errors_before &&
        absl::StrContains(diag.errors[errors_before], ": invalid YAML: ")) {
      simdjson::dom::parser parser;
      const simdjson::padded_string copy(text.data(), text.size());
      const simdjson::error_code err = parser.parse(copy).error();
      // The YAML reader's error has the position ("line 1:34"); it is kept.
      const std::string& yaml_error = diag.errors[errors_before];
      const size_t at = yaml_error.find(": line ");
      const std::string position =
          at == std::string::npos ? "" : yaml_error.substr(at, yaml_error.find(": invalid YAML: ") - at);
      diag.errors.resize(errors_before);
      diag.errors.push_back(absl::StrCat(src.name, position, ": invalid JSON: ",
                                         err == simdjson::SUCCESS ? "not a JSON object or list of objects"
                                                                  : simdjson::error_message(err)));
    }
  }
}

}  // namespace

namespace {

void ParseAll(const std::vector<ScenarioSource>& sources, const LoadOptions& options, Collected& c,
              Diagnostics& diag) {
  try {
    ParseSources(sources, options, c, diag);
  } catch (const std::exception& e) {
    diag.errors.push_back(absl::StrCat("unexpected error while reading: ", e.what()));
  }
}

absl::StatusOr<ScenarioObjects> TakeObjects(Collected& c, Diagnostics& diag);
absl::Status TakeObjectsInto(Collected& c, Diagnostics& diag, bool keep_storage, ScenarioObjects& out);
void ClearObjects(ScenarioObjects& o);
absl::StatusOr<Scenario> BuildScenario(ScenarioObjects objects, const LoadOptions& options);

}  // namespace

absl::StatusOr<Scenario> LoadScenario(const std::vector<ScenarioSource>& sources, const LoadOptions& options) {
  Collected c;
  Diagnostics diag;
  ParseAll(sources, options, c, diag);
  absl::StatusOr<ScenarioObjects> objects = TakeObjects(c, diag);
  if (!objects.ok()) return objects.status();
  return BuildScenario(*std::move(objects), options);
}

absl::StatusOr<ScenarioObjects> LoadObjects(const std::vector<ScenarioSource>& sources, const LoadOptions& options) {
  Collected c;
  Diagnostics diag;
  ParseAll(sources, options, c, diag);
  return TakeObjects(c, diag);
}

namespace {

// A Pod with nothing to report: ReadPod, then the checks Put makes, all of which
// ObjectProblems makes too.
bool ReadPlainPodInto(const DocNode& doc, const std::string& where, PodSpec& pod) {
  if (!doc.IsMap()) return false;
  const auto [kind_value, api_value] = doc.Fields({"kind", "apiVersion"});
  std::string kind_scratch, api_scratch;
  if (!kind_value.IsScalar() || kind_value.ScalarRef(&kind_scratch) != "Pod" || !api_value.IsScalar()) return false;
  if (!InApiGroup(api_value.ScalarRef(&api_scratch), "v1")) return false;
  if (std::string path, key; doc.FindDuplicateJsonKey(&path, &key, "items")) return false;
  Diagnostics diag;
  ObjectReader r(&diag, Place{&where}, 0);
  r.set_object("Pod", doc, /*namespaced=*/true);
  io_internal::ReadPod(r, doc, &pod);
  return diag.errors.empty() && diag.warnings.empty() && ObjectProblems(pod).empty();
}

// One document alone (a watch event's object), read through the tables every document
// goes through; `out` is emptied first. Hosts and the simulator read objects one at a time: the tables are kept
// per thread between calls, as making and freeing them (a dozen deques) cost more than
// reading a pod.
absl::Status ReadOneDocumentInFull(const DocNode& doc, const std::string& where, ScenarioObjects& out) {
  thread_local Collected kept;
  thread_local bool kept_in_use = false;
  std::optional<Collected> fresh;  // only when called again while reading (not expected)
  const bool reuse = !kept_in_use;
  Collected& c = reuse ? kept : fresh.emplace();
  kept_in_use = true;
  c.Clear();
  Diagnostics diag;
  try {
    ReadDocument(doc, Place{c.AddDocument(where)}, 0, c, diag);
  } catch (const io_internal::HostTreeError& e) {
    diag.errors.push_back(absl::StrCat(where, ": ", e.what()));
  }
  ClearObjects(out);
  absl::Status taken = TakeObjectsInto(c, diag, /*keep_storage=*/true, out);
  if (reuse) kept_in_use = false;
  return taken;
}

// The same, a Pod with nothing to report read by the short route first.
absl::Status ReadOneDocument(const DocNode& doc, const std::string& where, ScenarioObjects& out) {
  ClearObjects(out);
  try {
    if (ReadPlainPodInto(doc, where, out.pods.emplace_back())) return absl::OkStatus();
  } catch (const io_internal::HostTreeError&) {
    // read again in full, which reports it
  }
  return ReadOneDocumentInFull(doc, where, out);
}

absl::StatusOr<ScenarioObjects> ReadOneDocument(const DocNode& doc, const std::string& where) {
  ScenarioObjects out;
  if (absl::Status s = ReadOneDocument(doc, where, out); !s.ok()) return s;
  return out;
}

}  // namespace

absl::Status io_internal::ReadJsonObject(absl::string_view json, const std::string& where, const LoadOptions& options,
                                         ScenarioObjects& out) {
  if (json.size() > options.max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": object of ", json.size(), " bytes exceeds the limit of ",
                                                   options.max_bytes));
  }
  thread_local simdjson::dom::parser parser;  // reused: its buffers grow to the largest object
  const size_t depth = static_cast<size_t>(options.max_depth) + 1;
  if (parser.capacity() < json.size() || parser.max_depth() != depth) {
    if (parser.allocate(std::max<size_t>(json.size(), size_t{1} << 12), depth) != simdjson::SUCCESS) {
      return absl::ResourceExhaustedError(absl::StrCat(where, ": out of memory for a JSON parser"));
    }
  }
  const simdjson::padded_string text(json.data(), json.size());
  simdjson::dom::element doc;
  if (auto err = parser.parse(text).get(doc); err != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": invalid JSON: ", simdjson::error_message(err)));
  }
  return ReadOneDocument(DocNode(doc), where, out);
}

absl::StatusOr<ScenarioObjects> io_internal::ReadJsonObject(absl::string_view json, const std::string& where,
                                                           const LoadOptions& options) {
  ScenarioObjects out;
  if (absl::Status s = ReadJsonObject(json, where, options, out); !s.ok()) return s;
  return out;
}

absl::StatusOr<ScenarioObjects> io_internal::ReadValueObject(const Value& object, const std::string& where) {
  return ReadOneDocument(DocNode(&object), where);
}

absl::Status io_internal::ReadNodeObject(const DocNode& object, const std::string& where, ScenarioObjects& out) {
  return ReadOneDocumentInFull(object, where, out);
}

bool io_internal::ReadPlainPod(const DocNode& object, const std::string& where, std::optional<PodSpec>& pod) {
  // Made again in place: cheaper than assigning a default one over the last pod's remains.
  pod.emplace();
  try {
    return ReadPlainPodInto(object, where, *pod);
  } catch (const io_internal::HostTreeError&) {
    return false;  // the general reading reports it
  }
}

bool io_internal::ReadHostPlainPod(const HostTree& tree, HostTree::Node object, const std::string& where,
                                   std::optional<PodSpec>& pod) {
  return ReadPlainPod(DocNode(&tree, object), where, pod) && tree.problem().empty();
}

absl::Status io_internal::ReadHostObject(const HostTree& tree, HostTree::Node object, const std::string& where,
                                         ScenarioObjects& out) {
  absl::Status read = ReadOneDocumentInFull(DocNode(&tree, object), where, out);
  // A problem the walk met (a key that is not text) is the cause of whatever else failed.
  if (std::string problem = tree.problem(); !problem.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", problem));
  }
  return read;
}

absl::StatusOr<ScenarioObjects> ReadObjectValue(const Value& object, const std::string& where) {
  return io_internal::ReadValueObject(object, where);
}

absl::StatusOr<Scenario> LoadScenario(std::vector<ScenarioSource>&& sources, const LoadOptions& options) {
  Collected c;
  Diagnostics diag;
  ParseAll(sources, options, c, diag);
  std::vector<ScenarioSource>().swap(sources);  // the text is not needed to build the snapshot
  absl::StatusOr<ScenarioObjects> objects = TakeObjects(c, diag);
  if (!objects.ok()) return objects.status();
  return BuildScenario(*std::move(objects), options);
}

namespace {

// Moves each spec to `add` and releases the table (or empties it, keeping its storage).
template <typename T, typename F>
void HandOver(Table<T>& table, bool keep_storage, F&& add) {
  if (keep_storage) {
    for (T& spec : table.specs) add(std::move(spec));
    table.Clear();
    return;
  }
  decltype(table.index)().swap(table.index);
  std::deque<Seen>().swap(table.seen);
  for (T& spec : table.specs) add(std::move(spec));
  std::deque<T>().swap(table.specs);
}

// Drops the objects the given Jobs made (Place::made_for_job), keeping the input's own.
template <typename T>
void DropMadeBy(const absl::flat_hash_set<const std::string*>& jobs, Table<T>& table) {
  decltype(table.index)().swap(table.index);  // it views the specs, which move
  std::deque<T> specs;
  std::deque<Seen> seen;
  for (size_t i = 0; i < table.specs.size(); ++i) {
    if (table.seen[i].where.made_for_job && jobs.count(table.seen[i].where.document)) continue;
    specs.push_back(std::move(table.specs[i]));
    seen.push_back(std::move(table.seen[i]));
  }
  table.specs.swap(specs);
  table.seen.swap(seen);
}

// The objects collected, once the queue hierarchy is checked; each table is released as
// it is handed over, so the specs are not held twice.
absl::StatusOr<ScenarioObjects> TakeObjects(Collected& c, Diagnostics& diag) {
  ScenarioObjects out;
  if (absl::Status s = TakeObjectsInto(c, diag, /*keep_storage=*/false, out); !s.ok()) return s;
  return out;
}

// Empties `o`, keeping what its containers hold allocated, up to a size: one large
// event (a List of thousands) does not keep its memory for the reads after it.
void ClearObjects(ScenarioObjects& o) {
  const auto clear = [](auto& container) {
    using C = std::decay_t<decltype(container)>;
    if (container.size() > 64) C().swap(container);
    else container.clear();
  };
  clear(o.nodes);
  clear(o.pods);
  clear(o.pod_groups);
  clear(o.queues);
  clear(o.priority_classes);
  clear(o.namespaces);
  clear(o.hyper_nodes);
  clear(o.claims);
  clear(o.volumes);
  clear(o.storage_classes);
  clear(o.csi_nodes);
  clear(o.quotas);
  clear(o.disruption_budgets);
  clear(o.node_shards);
  clear(o.numatopologies);
  o.config.reset();
  o.expectation.reset();
  clear(o.job_pod_groups);
  clear(o.volcano_jobs);
  clear(o.warnings);
}

// Moves the collected objects into `out` (empty). `keep_storage`: the tables are emptied
// for the next document rather than released.
absl::Status TakeObjectsInto(Collected& c, Diagnostics& diag, bool keep_storage, ScenarioObjects& out) {
  // A Job whose PodGroup the input holds has been acted on by its controller: the
  // input's PodGroup and pods are its current objects, and nothing more is made for it
  // (a pod the input lacks was deleted, and is not made again).
  if (const auto& acted_on = c.pod_groups.made_by_jobs_also_given; !acted_on.empty()) {
    DropMadeBy(acted_on, c.pod_groups);
    DropMadeBy(acted_on, c.pods);
    DropMadeBy(acted_on, c.claims);
  }
  // The queue hierarchy is checked here too, where each queue's document is known.
  if (diag.errors.empty() && !c.queues.specs.empty()) {
    const std::vector<QueueSpec> queues(c.queues.specs.begin(), c.queues.specs.end());
    CheckQueueHierarchy(queues, [&](size_t q, const std::string& problem) {
      diag.errors.push_back(absl::StrCat(c.queues.seen[q].where.str(), ": Queue \"", queues[q].name, "\": ", problem));
    });
  }
  if (!diag.errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(diag.errors, "\n"));
  const bool keep = keep_storage;
  HandOver(c.nodes, keep, [&](NodeSpec&& s) { out.nodes.push_back(std::move(s)); });
  // Pods are the bulk: their deque is handed over whole (kept: swapped with the
  // caller's empty one, so that both keep their storage from one object to the next).
  if (keep) {
    out.pods.swap(c.pods.specs);
    c.pods.specs.clear();
    c.pods.Clear();
  } else {
    decltype(c.pods.index)().swap(c.pods.index);
    std::deque<Seen>().swap(c.pods.seen);
    out.pods = std::move(c.pods.specs);
  }
  HandOver(c.pod_groups, keep, [&](PodGroupSpec&& s) { out.pod_groups.push_back(std::move(s)); });
  HandOver(c.queues, keep, [&](QueueSpec&& s) { out.queues.push_back(std::move(s)); });
  HandOver(c.priority_classes, keep, [&](PriorityClassSpec&& s) { out.priority_classes.push_back(std::move(s)); });
  HandOver(c.hyper_nodes, keep, [&](HyperNodeSpec&& s) { out.hyper_nodes.push_back(std::move(s)); });
  HandOver(c.claims, keep, [&](PersistentVolumeClaimSpec&& s) { out.claims.push_back(std::move(s)); });
  HandOver(c.volumes, keep, [&](PersistentVolumeSpec&& s) { out.volumes.push_back(std::move(s)); });
  HandOver(c.storage_classes, keep, [&](StorageClassSpec&& s) { out.storage_classes.push_back(std::move(s)); });
  HandOver(c.csi_nodes, keep, [&](CSINodeSpec&& s) { out.csi_nodes.push_back(std::move(s)); });
  HandOver(c.quotas, keep, [&](ResourceQuotaSpec&& s) { out.quotas.push_back(std::move(s)); });
  HandOver(c.disruption_budgets, keep,
           [&](PodDisruptionBudgetSpec&& s) { out.disruption_budgets.push_back(std::move(s)); });
  HandOver(c.node_shards, keep, [&](NodeShardSpec&& s) { out.node_shards.push_back(std::move(s)); });
  HandOver(c.numatopologies, keep, [&](NumatopologySpec&& s) { out.numatopologies.push_back(std::move(s)); });
  for (auto& [name, labels] : c.namespaces) out.namespaces.push_back({name, std::move(labels)});
  std::sort(diag.warnings.begin(), diag.warnings.end());
  diag.warnings.erase(std::unique(diag.warnings.begin(), diag.warnings.end()), diag.warnings.end());
  out.config = std::move(c.config);
  out.expectation = std::move(c.expectation);
  out.job_pod_groups = std::move(c.job_pod_groups);
  out.volcano_jobs = std::move(c.volcano_jobs);
  out.warnings = std::move(diag.warnings);
  return absl::OkStatus();
}

absl::StatusOr<Scenario> BuildScenario(ScenarioObjects objects, const LoadOptions& given) {
  LoadOptions options = given;
  if (objects.config && !objects.config->scheduler_args.empty()) {
    // The scheduler's own flags (schedulerArgs) say whose pods it serves and its default queue.
    absl::StatusOr<SchedulerFlags> flags = ParseSchedulerArgs(objects.config->scheduler_args);
    if (!flags.ok()) return flags.status();
    options.snapshot.scheduler_names = flags->scheduler_names;
    options.snapshot.default_queue = flags->default_queue;
    options.snapshot.ignored_provisioners = flags->ignored_provisioners;
  }
  SnapshotBuilder b(options.snapshot);
  if (!options.hyper_node_labels.empty()) {
    std::vector<const NodeSpec*> nodes;
    for (const NodeSpec& n : objects.nodes) nodes.push_back(&n);
    for (HyperNodeSpec& h : DiscoverHyperNodes(nodes, options.hyper_node_labels)) {
      objects.hyper_nodes.push_back(std::move(h));
    }
  }
  // (The builder orders everything by name itself, so reading order does not matter.)
  for (NodeSpec& s : objects.nodes) b.AddNode(std::move(s));
  std::vector<NodeSpec>().swap(objects.nodes);
  b.AddPods(std::move(objects.pods));
  for (PodGroupSpec& s : objects.pod_groups) b.AddPodGroup(std::move(s));
  for (QueueSpec& s : objects.queues) b.AddQueue(std::move(s));
  for (PriorityClassSpec& s : objects.priority_classes) b.AddPriorityClass(std::move(s));
  for (NamespaceSpec& s : objects.namespaces) b.AddNamespace(std::move(s));
  for (HyperNodeSpec& s : objects.hyper_nodes) b.AddHyperNode(std::move(s));
  for (PersistentVolumeClaimSpec& s : objects.claims) b.AddPersistentVolumeClaim(std::move(s));
  for (PersistentVolumeSpec& s : objects.volumes) b.AddPersistentVolume(std::move(s));
  for (StorageClassSpec& s : objects.storage_classes) b.AddStorageClass(std::move(s));
  for (CSINodeSpec& s : objects.csi_nodes) b.AddCSINode(std::move(s));
  for (ResourceQuotaSpec& s : objects.quotas) b.AddResourceQuota(std::move(s));
  for (PodDisruptionBudgetSpec& s : objects.disruption_budgets) b.AddPodDisruptionBudget(std::move(s));
  for (NodeShardSpec& s : objects.node_shards) b.AddNodeShard(std::move(s));
  for (NumatopologySpec& s : objects.numatopologies) b.AddNumatopology(std::move(s));
  for (const std::string& w : objects.warnings) b.AddWarning(w);
  absl::StatusOr<Snapshot> snap = std::move(b).Build();
  if (!snap.ok()) return snap.status();
  Scenario out;
  out.snapshot = *std::move(snap);
  out.config = std::move(objects.config);
  out.expectation = std::move(objects.expectation);
  out.warnings = std::move(objects.warnings);
  out.volcano_jobs = std::move(objects.volcano_jobs);
  return out;
}

}  // namespace

absl::StatusOr<SchedulerConfig> LoadSchedulerConfig(const ScenarioSource& source, std::vector<std::string>* warnings) {
  if (source.borrowed_text.data() != nullptr) {  // a configuration is small: copied
    return LoadSchedulerConfig({source.name, std::string(source.borrowed_text)}, warnings);
  }
  Diagnostics diag;
  std::optional<SchedulerConfig> config;
  if (const int64_t bad = io_internal::FirstInvalidUtf8(source.text); bad >= 0) {
    return absl::InvalidArgumentError(absl::StrCat(source.name, ": ", io_internal::DescribeInvalidByte(source.text, bad)));
  }
  if (source.text.size() > (size_t{16} << 20)) {
    return absl::InvalidArgumentError(absl::StrCat(source.name, ": a scheduler configuration of ", source.text.size(),
                                                   " bytes exceeds the limit of 16 MiB"));
  }
  try {
    if (std::string why; !io_internal::YamlParsesWithinBudget(source.text, &why)) {
      return absl::InvalidArgumentError(absl::StrCat(source.name, ": invalid YAML: ", why));
    }
    std::vector<YAML::Node> docs = YAML::LoadAll(source.text);
    docs.erase(std::remove_if(docs.begin(), docs.end(), [](const YAML::Node& d) { return d.IsNull(); }), docs.end());
    if (docs.size() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(source.name, ": expected one configuration document, found ", docs.size()));
    }
    YAML::Node body = docs[0];
    if (std::string err = io_internal::NormalizeYamlDocument(body, 0); !err.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(source.name, ": document 1, ", err));
    }
    ObjectReader r(&diag, absl::StrCat(source.name, ": document 1"), "");
    if (body.IsMap() && Get(body, "kind").IsScalar() && Get(body, "kind").Scalar() == "ConfigMap") {
      // A volcano-scheduler ConfigMap: the configuration is the text of its data entry.
      const YAML::Node data = r.Map(body, "data", "data").yaml();
      std::string text;
      for (const auto& kv : data) {
        if (kv.first.IsScalar() && absl::EndsWith(kv.first.Scalar(), ".conf") && kv.second.IsScalar()) {
          text = kv.second.Scalar();
        }
      }
      if (text.empty()) r.Fail(body, "data", "no *.conf entry holding a scheduler configuration");
      else return LoadSchedulerConfig({absl::StrCat(source.name, ": data"), text}, warnings);
    } else {
      const bool document = body.IsMap() && Get(body, "kind").IsDefined();
      r.set_object(document ? "SchedulerConfiguration" : "");
      config = io_internal::ReadSchedulerConfig(r, body);
      if (!document) io_internal::CheckAsVolcanoFile(r, body, *config);
    }
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard against deep recursion (it says "bad file"); nothing deeper
    // than kMaxValueDepth is read anyway.
    return absl::InvalidArgumentError(absl::StrCat(source.name, ": line ", e.mark.line + 1, ":", e.mark.column + 1,
                                                   ": nesting too deep (more than ", e.depth(), " levels)"));
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(source.name, ": line ", e.mark.line + 1, ":", e.mark.column + 1,
                                                   ": invalid YAML: ", e.msg));
  }
  if (!diag.errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(diag.errors, "\n"));
  if (warnings != nullptr) warnings->insert(warnings->end(), diag.warnings.begin(), diag.warnings.end());
  config->origin = absl::StrCat(source.name, ": document 1");
  return *config;
}

}  // namespace vcsched
