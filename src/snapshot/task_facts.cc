#include "src/snapshot/task_facts.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/model/pod_facts.h"
#include "src/snapshot/csi_volumes.h"
#include "vcsched/arguments.h"

namespace vcsched::internal {
namespace {

// Volcano HEAD's request: containers summed, init containers folded in with sidecars,
// overhead added, one pod slot.
Resource PodRequest(const ResourceSpace& space, const PodSpec& pod) {
  const auto add = [&](Resource& to, const ResourceList& list) {
    for (const auto& [name, v] : list) {
      if (const int d = space.Find(name); d >= 0) to[d] = SaturatingAdd(to[d], v);
    }
  };
  Resource sum(space.size());
  for (const Container& c : pod.containers) add(sum, c.requests);
  Resource init_max(space.size());  // stays zero without init containers (the common case)
  if (!pod.init_containers.empty()) {
    Resource sidecars(space.size());
    for (const Container& c : pod.init_containers) {
      Resource req(space.size());
      add(req, c.requests);
      if (c.restartable) {
        sum += req;
        sidecars += req;
      } else {
        init_max = Max(init_max.span(), (req + sidecars).span());
      }
    }
  }
  for (int d = 0; d < sum.dims(); ++d) sum[d] = std::max(sum[d], init_max[d]);
  add(sum, pod.overhead);
  sum[kPods] = 1;
  return sum;
}

// kube-scheduler's non-zero request: 100m cpu / 200Mi memory for a container that names none.
std::pair<int64_t, int64_t> NonZeroRequest(const PodSpec& pod) {
  auto one = [](const Container& c) {
    auto cpu = c.requests.find("cpu");
    auto mem = c.requests.find("memory");
    return std::make_pair(cpu == c.requests.end() ? int64_t{100} : cpu->second,
                          mem == c.requests.end() ? int64_t{200} * 1024 * 1024 : mem->second);
  };
  int64_t cpu = 0, mem = 0;
  for (const Container& c : pod.containers) {
    auto [a, b] = one(c);
    cpu = SaturatingAdd(cpu, a);
    mem = SaturatingAdd(mem, b);
  }
  for (const Container& c : pod.init_containers) {
    auto [a, b] = one(c);
    cpu = std::max(cpu, a);
    mem = std::max(mem, b);
  }
  return {cpu, mem};
}

TaskStatus StatusOf(const PodSpec& pod) {
  if (pod.phase == "Running") return pod.deleting ? TaskStatus::kReleasing : TaskStatus::kRunning;
  if (pod.phase == "Pending") {
    if (pod.deleting) return TaskStatus::kReleasing;
    return pod.node_name.empty() ? TaskStatus::kPending : TaskStatus::kBound;
  }
  if (pod.phase == "Succeeded") return TaskStatus::kSucceeded;
  if (pod.phase == "Failed") return TaskStatus::kFailed;
  return TaskStatus::kUnknown;
}

}  // namespace

Resource ToResource(const ResourceSpace& space, const ResourceList& list, int64_t missing) {
  Resource r = Resource::Filled(space.size(), missing);
  bool folded_seen = false;  // folded names add up (a PodGroup's minResources may name several)
  for (const auto& [name, v] : list) {
    const int d = space.Find(name);
    if (d < 0) continue;
    if (d != space.folded_dim()) {
      r[d] = v;
    } else {
      r[d] = folded_seen ? SaturatingAdd(r[d], v) : v;
      folded_seen = true;
    }
  }
  return r;
}

const std::string* AnnotationOrLabel(const Labels& annotations, const Labels& labels, absl::string_view key) {
  auto it = annotations.find(key);
  if (it != annotations.end()) return &it->second;
  it = labels.find(key);
  if (it != labels.end()) return &it->second;
  return nullptr;
}

void WorkOutPodFacts(const PodSpec& p, const Snapshot::Impl& impl, TaskInfo& t) {
  t.key = absl::StrCat(p.namespace_, "/", p.name);
  t.uid = p.uid.empty() ? absl::StrCat(p.namespace_, "-", p.name) : p.uid;
  t.status = StatusOf(p);
  t.resreq = PodRequest(impl.space, p);
  // Volcano's cache adds the pod's CSI volumes to its request (attach limits).
  if (!p.volume_claims.empty()) {
    for (const auto& [name, count] : PodCsiVolumeCounts(p, *impl.storage, impl.options)) {
      if (const int d = impl.space.Find(name); d >= 0) t.resreq[d] = SaturatingAdd(t.resreq[d], count);
    }
  }
  std::tie(t.nonzero_cpu, t.nonzero_memory) = NonZeroRequest(p);
  t.best_effort = t.resreq.IsEmpty();
  // A pod without spec.priority gets what the API server's Priority admission would have
  // written: its class's value, else the global default class's (no class named), else 0.
  // (Volcano's own fallback of 1 is never reached in a cluster: admission always sets it.)
  if (p.priority) {
    t.priority = *p.priority;
  } else if (!p.priority_class_name.empty()) {
    const auto v = impl.pc_by_name.find(p.priority_class_name);
    t.priority = v == impl.pc_by_name.end() ? 0 : impl.priority_classes[static_cast<size_t>(v->second)].value;
  } else {
    t.priority = GlobalDefaultPriority(impl.priority_classes).value_or(0);
  }
  auto tp = p.annotations.find("volcano.sh/task-priority");
  if (tp != p.annotations.end()) {
    int32_t v = 0;
    if (absl::SimpleAtoi(tp->second, &v)) t.priority = v;
  }
  if (const std::string* v = AnnotationOrLabel(p.annotations, p.labels, "volcano.sh/preemptable")) {
    bool b = false;
    t.preemptable = ParseGoBool(*v, &b) && b;
  }
  if (const std::string* v = AnnotationOrLabel(p.annotations, p.labels, "volcano.sh/task-spec")) t.role = *v;
  // The number after the last '-' of a name with at least three parts.
  const size_t last_dash = p.name.rfind('-');
  int64_t idx = 0;
  if (last_dash != std::string::npos && last_dash > 0 && p.name.rfind('-', last_dash - 1) != std::string::npos &&
      absl::SimpleAtoi(absl::string_view(p.name).substr(last_dash + 1), &idx)) {
    t.pod_index = idx;
  }
}

std::optional<int32_t> GlobalDefaultPriority(const std::vector<PriorityClassSpec>& sorted) {
  for (const PriorityClassSpec& pc : sorted) {
    if (pc.global_default) return pc.value;
  }
  return std::nullopt;
}

JobInfo WorkOutJobFacts(PodGroupSpec g, const Snapshot::Impl& impl, int32_t default_priority,
                        std::vector<std::string>& warnings) {
  JobInfo job;
  job.key = absl::StrCat(g.namespace_, "/", g.name);
  const std::string& queue = g.queue.empty() ? impl.options.default_queue : g.queue;
  if (auto q = impl.queue_by_name.find(queue); q != impl.queue_by_name.end()) {
    job.queue = q->second;
  } else {
    warnings.push_back(absl::StrCat("PodGroup \"", job.key, "\": spec.queue: queue \"", queue,
                                    "\" not found; the job is not scheduled"));
  }
  if (auto v = g.priority_class_name.empty() ? impl.pc_by_name.end() : impl.pc_by_name.find(g.priority_class_name);
      v != impl.pc_by_name.end()) {
    job.priority = impl.priority_classes[static_cast<size_t>(v->second)].value;
  } else {
    job.priority = default_priority;
  }
  if (const std::string* v = AnnotationOrLabel(g.annotations, g.labels, "volcano.sh/preemptable")) {
    bool b = false;
    job.preemptable = ParseGoBool(*v, &b) && b;
  }
  const std::string* wait = AnnotationOrLabel(g.annotations, {}, "volcano.sh/sla-waiting-time");
  if (wait == nullptr) wait = AnnotationOrLabel(g.annotations, {}, "sla-waiting-time");
  if (wait != nullptr) {
    absl::StatusOr<int64_t> d = ParseGoDurationSeconds(*wait);
    if (d.ok()) job.waiting_time_seconds = *d;
    else warnings.push_back(absl::StrCat("PodGroup \"", job.key, "\": metadata.annotations: ", d.status().message()));
  }
  job.has_min_resources = g.min_resources.has_value();
  job.min_resources = job.has_min_resources ? ToResource(impl.space, *g.min_resources, 0) : Resource(impl.space.size());
  for (const auto& [role, n] : g.min_task_member) {
    job.task_min_available_total = static_cast<int32_t>(std::min<int64_t>(int64_t{job.task_min_available_total} + n, INT32_MAX));
  }
  job.pod_group = std::move(g);
  return job;
}

void ShapeKeyOf(const TaskInfo& t, const PodSpec& p, std::string& key) {
  // Amounts go in as their 8 bytes: every key has the same number of them, so the text
  // that follows cannot be confused with them.
  const auto append_amount = [&key](int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  key.clear();
  for (int d = 0; d < t.resreq.dims(); ++d) append_amount(t.resreq[d]);
  append_amount(t.nonzero_cpu);
  append_amount(t.nonzero_memory);
  key += "|";
  for (const auto& [k, v] : p.node_selector) absl::StrAppend(&key, k, "=", v, ";");
  key += "|";
  for (const Toleration& tol : p.tolerations) {
    absl::StrAppend(&key, tol.key, "\x1f", tol.op, "\x1f", tol.value, "\x1f", tol.effect, ";");
  }
  // Images: ImageLocality scores a node by the images it holds of the pod's.
  key += "|";
  for (const std::vector<Container>* list : {&p.init_containers, &p.containers}) {
    for (const Container& c : *list) absl::StrAppend(&key, c.image, ";");
  }
  for (const std::string& image : p.image_volumes) absl::StrAppend(&key, image, ";");
}

std::string NodeNotFoundWarning(absl::string_view task_key, absl::string_view node) {
  return absl::StrCat("Pod \"", task_key, "\": spec.nodeName: node \"", node, "\" not found; its resources are not counted");
}

std::string PodGroupNotFoundWarning(absl::string_view task_key, absl::string_view group_key) {
  return absl::StrCat("Pod \"", task_key, "\": annotation ", kPodGroupAnnotation, ": PodGroup \"", group_key,
                      "\" not found; the pod is not scheduled");
}

void ParseNodeTerms(PodSpec& p) {
  for (NodeSelectorTerm& term : p.affinity.required_node_terms) term.parses = NodeSelectorTermParses(term);
  for (PreferredSchedulingTerm& pref : p.affinity.preferred_node_terms) {
    pref.preference.parses = NodeSelectorTermParses(pref.preference);
  }
}

bool NodeTermsParsed(const PodSpec& p) {
  for (const NodeSelectorTerm& term : p.affinity.required_node_terms) {
    if (term.parses != NodeSelectorTermParses(term)) return false;
  }
  for (const PreferredSchedulingTerm& pref : p.affinity.preferred_node_terms) {
    if (pref.preference.parses != NodeSelectorTermParses(pref.preference)) return false;
  }
  return true;
}

}  // namespace vcsched::internal
