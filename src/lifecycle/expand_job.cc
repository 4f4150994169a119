// Job -> PodGroup, pods and the plugins' objects (docs/reference/lifecycle.md §3, §4).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/lifecycle/job_plugins.h"
#include "src/lifecycle/saturating.h"
#include "src/lifecycle/k8s_values.h"
#include "src/lifecycle/min_resources.h"
#include "vcsched/lifecycle/expand.h"

namespace vcsched::lifecycle {

using internal::NewObject;
using internal::PodDraft;
using internal::SetJobOwner;
using internal::StringMapValue;

std::string PodGroupNameOf(const VolcanoJob& job) { return absl::StrCat(job.metadata.name, "-", job.metadata.uid); }

std::string PodNameOf(const VolcanoJob& job, const std::string& task, int32_t index) {
  return absl::StrCat(job.metadata.name, "-", task, "-", index);
}

std::vector<const Value*> Expansion::All() const {
  std::vector<const Value*> out = {&pod_group};
  for (const Value& v : plugin_objects) out.push_back(&v);
  for (const Value& v : pods) out.push_back(&v);
  return out;
}

namespace {

// Values in a tree (the tree itself counted), for the expansion's size bound.
int64_t CountNodes(const Value& v) {
  int64_t n = 1;
  if (v.is_map()) {
    for (const auto& [k, child] : v.entries()) n += CountNodes(child);
  } else {
    for (const Value& child : v.items()) n += CountNodes(child);
  }
  return n;
}

// The most values a job may expand to: ample for any real job (a 40,000-pod job of
// 100-value templates is 4 million), small enough to stay in memory and time bounds.
constexpr int64_t kMaxExpandedNodes = int64_t{1} << 26;

Value BuildPodGroup(const VolcanoJob& job, const ExpandOptions& options) {
  Value pg = NewObject("scheduling.volcano.sh/v1beta1", "PodGroup", PodGroupNameOf(job), job.metadata.namespace_);
  if (!job.metadata.labels.empty()) pg["metadata"].Set("labels", StringMapValue(job.metadata.labels));
  if (!job.metadata.annotations.empty()) pg["metadata"].Set("annotations", StringMapValue(job.metadata.annotations));
  SetJobOwner(pg, job);
  Value& spec = pg["spec"];
  spec.Set("minMember", Value::Int(job.min_available.value_or(0)));
  Value min_task = Value::Map();
  for (const JobTask& t : job.tasks) {
    int32_t n = t.replicas;
    if (t.min_available) n = *t.min_available;
    else if (t.partition_policy && t.partition_policy->min_partitions > 0)
      n = t.partition_policy->min_partitions * t.partition_policy->partition_size;
    min_task.Set(t.name, Value::Int(n));
  }
  spec.Set("minTaskMember", std::move(min_task));
  spec.Set("queue", Value::String(job.queue));
  if (!job.priority_class_name.empty()) spec.Set("priorityClassName", Value::String(job.priority_class_name));
  spec.Set("minResources", internal::JobMinResources(job, options.priority_classes));
  if (!job.network_topology.is_null()) spec.Set("networkTopology", job.network_topology);
  Value subs = Value::List();
  for (const JobTask& t : job.tasks) {
    if (!t.partition_policy) continue;
    Value sub = Value::Map();
    sub.Set("name", Value::String(t.name));
    sub.Set("subGroupSize", Value::Int(t.partition_policy->partition_size));
    sub.Set("minSubGroups", Value::Int(t.partition_policy->min_partitions));
    Value selector = Value::Map();
    selector["matchLabels"].Set("volcano.sh/task-spec", Value::String(t.name));
    sub.Set("labelSelector", std::move(selector));
    Value keys = Value::List();
    keys.Push(Value::String("volcano.sh/partition-id"));
    sub.Set("matchLabelKeys", std::move(keys));
    if (!t.partition_policy->network_topology.is_null()) sub.Set("networkTopology", t.partition_policy->network_topology);
    subs.Push(std::move(sub));
  }
  if (subs.size() > 0) spec.Set("subGroupPolicy", std::move(subs));
  pg["status"].Set("phase", Value::String("Pending"));
  return pg;
}

// The 12-character suffix Volcano draws at random for a created PVC, from a hash here.
std::string ClaimSuffix(const VolcanoJob& job, size_t volume_index) {
  uint64_t h = 1469598103934665603ull;
  for (char c : absl::StrCat(job.metadata.uid, "/", volume_index)) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  static const char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (int i = 0; i < 12; ++i, h /= 27) out.push_back(kAlphabet[h % 27]);
  return out;
}

void CopyIfPresent(const std::map<std::string, std::string>& from, const char* key, Value& to) {
  if (auto it = from.find(key); it != from.end()) to.Set(key, Value::String(it->second));
}

PodDraft BuildPod(const VolcanoJob& job, const JobTask& t, int32_t index, const ExpandOptions& options) {
  const std::string name = PodNameOf(job, t.name, index);
  Value pod = NewObject("v1", "Pod", name, job.metadata.namespace_);
  Value& meta = pod["metadata"];
  const Value* tmeta = t.pod_template.Find("metadata");
  Value labels = tmeta && tmeta->Find("labels") && tmeta->Find("labels")->is_map() ? *tmeta->Find("labels") : Value::Map();
  Value annotations = tmeta && tmeta->Find("annotations") && tmeta->Find("annotations")->is_map()
                          ? *tmeta->Find("annotations")
                          : Value::Map();
  // The controller names each template after its task before creating pods.
  const std::string task_spec = t.name.empty() ? "default" : t.name;
  annotations.Set("volcano.sh/task-index", Value::String(absl::StrCat(index)));
  annotations.Set("volcano.sh/task-spec", Value::String(task_spec));
  annotations.Set("scheduling.k8s.io/group-name", Value::String(PodGroupNameOf(job)));
  annotations.Set("volcano.sh/job-name", Value::String(job.metadata.name));
  annotations.Set("volcano.sh/queue-name", Value::String(job.queue));
  annotations.Set("volcano.sh/job-version", Value::String(absl::StrCat(options.job_version)));
  annotations.Set("volcano.sh/template-uid", Value::String(absl::StrCat(job.metadata.name, "-", t.name)));
  annotations.Set("volcano.sh/job-retry-count", Value::String(absl::StrCat(options.retry_count)));
  if (!t.topology_policy.empty()) annotations.Set("volcano.sh/numa-topology-policy", Value::String(t.topology_policy));
  for (const char* key : {"volcano.sh/preemptable", "volcano.sh/cooldown-time", "volcano.sh/revocable-zone"}) {
    CopyIfPresent(job.metadata.annotations, key, annotations);
  }
  if (job.metadata.annotations.count("volcano.sh/jdb-min-available")) {
    CopyIfPresent(job.metadata.annotations, "volcano.sh/jdb-min-available", annotations);
  } else {
    CopyIfPresent(job.metadata.annotations, "volcano.sh/jdb-max-unavailable", annotations);
  }
  labels.Set("volcano.sh/task-index", Value::String(absl::StrCat(index)));
  labels.Set("volcano.sh/job-name", Value::String(job.metadata.name));
  labels.Set("volcano.sh/task-spec", Value::String(task_spec));
  labels.Set("volcano.sh/job-namespace", Value::String(job.metadata.namespace_));
  labels.Set("volcano.sh/queue-name", Value::String(job.queue));
  for (const char* key : {"volcano.sh/preemptable", "volcano.sh/cooldown-time"}) {
    CopyIfPresent(job.metadata.labels, key, labels);
  }
  if (t.partition_policy && t.partition_policy->partition_size > 0) {
    labels.Set("volcano.sh/partition-id", Value::String(absl::StrCat(index / t.partition_policy->partition_size)));
  }
  meta.Set("labels", std::move(labels));
  meta.Set("annotations", std::move(annotations));
  SetJobOwner(pod, job);
  const Value* tspec = t.pod_template.Find("spec");
  Value spec = tspec != nullptr && tspec->is_map() ? *tspec : Value::Map();
  if (spec.Find("schedulerName") == nullptr) spec.Set("schedulerName", Value::String(job.scheduler_name));
  if (spec.Find("priorityClassName") == nullptr && !job.priority_class_name.empty()) {
    spec.Set("priorityClassName", Value::String(job.priority_class_name));
  }
  for (size_t i = 0; i < job.volumes.size(); ++i) {
    const JobVolume& v = job.volumes[i];
    const std::string claim =
        v.volume_claim_name.empty() ? absl::StrCat(job.metadata.name, "-", ClaimSuffix(job, i)) : v.volume_claim_name;
    Value vol = Value::Map();
    vol.Set("name", Value::String(claim));
    vol["persistentVolumeClaim"].Set("claimName", Value::String(claim));
    internal::AddVolume(spec, std::move(vol), v.mount_path);
  }
  pod.Set("spec", std::move(spec));
  pod["status"].Set("phase", Value::String("Pending"));
  return PodDraft{std::move(pod), &t, index};
}

}  // namespace

absl::Status ExpandJobTo(const VolcanoJob& job, const ExpandOptions& options, const ObjectSink& emit) {
  if (const int64_t n = job.TotalReplicas(); n > options.max_pods) {
    return absl::InvalidArgumentError(absl::StrCat("job ", job.metadata.name, " has ", n,
                                                   " pods, over the expansion limit of ", options.max_pods));
  }
  // What the pods copy from their templates, in Value nodes: a small manifest whose
  // aliases expand to a huge template must not turn into a huge expansion.
  int64_t nodes = 0;
  for (const JobTask& t : job.tasks) {
    nodes = internal::AddSat(nodes, internal::MulSat(CountNodes(t.pod_template), t.replicas));
  }
  if (nodes > kMaxExpandedNodes) {
    return absl::InvalidArgumentError(absl::StrCat("job ", job.metadata.name, " would expand to ", nodes,
                                                   " values (templates times replicas), over the limit of ",
                                                   kMaxExpandedNodes));
  }
  std::vector<Value> objects;
  for (size_t i = 0; i < job.volumes.size(); ++i) {
    const JobVolume& v = job.volumes[i];
    if (v.volume_claim.is_null() || !v.volume_claim_name.empty()) continue;
    Value pvc = NewObject("v1", "PersistentVolumeClaim", absl::StrCat(job.metadata.name, "-", ClaimSuffix(job, i)),
                          job.metadata.namespace_);
    SetJobOwner(pvc, job);
    pvc.Set("spec", v.volume_claim);
    objects.push_back(std::move(pvc));
  }
  // The plugins' objects depend on the job alone; their changes to a pod depend on that
  // pod alone, so pods go through the plugins a batch at a time.
  std::vector<PodDraft> drafts;
  if (absl::Status s = internal::ApplyJobPlugins(job, options, objects, drafts); !s.ok()) return s;
  emit(BuildPodGroup(job, options));
  for (Value& o : objects) emit(std::move(o));
  constexpr size_t kBatch = 256;
  std::vector<Value> scratch;
  const auto flush = [&]() -> absl::Status {
    scratch.clear();
    if (absl::Status s = internal::ApplyJobPlugins(job, options, scratch, drafts); !s.ok()) return s;
    for (PodDraft& d : drafts) emit(std::move(d.pod));
    drafts.clear();
    return absl::OkStatus();
  };
  for (const JobTask& t : job.tasks) {
    if (!options.only_tasks.empty() &&
        std::find(options.only_tasks.begin(), options.only_tasks.end(), t.name) == options.only_tasks.end()) {
      continue;
    }
    for (int32_t i = 0; i < t.replicas; ++i) {
      drafts.push_back(BuildPod(job, t, i, options));
      if (drafts.size() == kBatch) {
        if (absl::Status s = flush(); !s.ok()) return s;
      }
    }
  }
  return flush();
}

absl::StatusOr<Expansion> ExpandJob(const VolcanoJob& job, const ExpandOptions& options) {
  Expansion out;
  bool first = true;
  absl::Status s = ExpandJobTo(job, options, [&](Value v) {
    if (first) {
      out.pod_group = std::move(v);
      first = false;
      return;
    }
    const Value* kind = v.Find("kind");
    if (kind != nullptr && kind->text() == "Pod") out.pods.push_back(std::move(v));
    else out.plugin_objects.push_back(std::move(v));
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace vcsched::lifecycle
