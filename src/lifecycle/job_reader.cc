#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/lifecycle/field_reader.h"
#include "vcsched/arguments.h"
#include "vcsched/lifecycle/events.h"
#include "vcsched/lifecycle/job.h"

namespace vcsched::lifecycle {

using internal::FieldReader;
using internal::Index;
using internal::Join;

const JobTask* VolcanoJob::FindTask(const std::string& name) const {
  for (const JobTask& t : tasks) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

bool VolcanoJob::HasPlugin(const std::string& name) const { return PluginArguments(name) != nullptr; }

const std::vector<std::string>* VolcanoJob::PluginArguments(const std::string& name) const {
  for (const auto& [n, args] : plugins) {
    if (n == name) return &args;
  }
  return nullptr;
}

int64_t VolcanoJob::TotalReplicas() const {
  int64_t n = 0;
  for (const JobTask& t : tasks) n += t.replicas;
  return n;
}

const std::vector<std::string>& PolicyEvents() {
  static const std::vector<std::string>* const kEvents = [] {
    auto* out = new std::vector<std::string>;
    for (JobEvent e : PolicyJobEvents()) out->emplace_back(JobEventName(e));
    return out;
  }();
  return *kEvents;
}

const std::vector<std::string>& PolicyActions() {
  static const std::vector<std::string>* const kActions = [] {
    auto* out = new std::vector<std::string>;
    for (JobAction a : PolicyJobActions()) out->emplace_back(JobActionName(a));
    return out;
  }();
  return *kActions;
}

namespace {

auto Tie(const LifecyclePolicy& p) { return std::tie(p.events, p.action, p.exit_code, p.timeout_seconds); }

bool SamePolicies(const std::vector<LifecyclePolicy>& a, const std::vector<LifecyclePolicy>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Tie(a[i]) != Tie(b[i])) return false;
  }
  return true;
}

bool SameTask(const JobTask& a, const JobTask& b) {
  auto deps = [](const JobTask& t) {
    return t.depends_on ? std::make_pair(t.depends_on->names, t.depends_on->iteration)
                        : std::make_pair(std::vector<std::string>{}, std::string("<none>"));
  };
  auto part = [](const JobTask& t) {
    return t.partition_policy ? std::make_tuple(true, t.partition_policy->total_partitions,
                                                t.partition_policy->partition_size, t.partition_policy->min_partitions,
                                                t.partition_policy->network_topology)
                              : std::make_tuple(false, 0, 0, 0, Value());
  };
  return a.name == b.name && a.replicas == b.replicas && a.min_available == b.min_available &&
         a.pod_template == b.pod_template && SamePolicies(a.policies, b.policies) &&
         a.topology_policy == b.topology_policy && a.max_retry == b.max_retry && deps(a) == deps(b) &&
         part(a) == part(b);
}

}  // namespace

bool SameJobSpec(const VolcanoJob& a, const VolcanoJob& b) {
  if (a.tasks.size() != b.tasks.size() || a.volumes.size() != b.volumes.size()) return false;
  for (size_t i = 0; i < a.tasks.size(); ++i) {
    if (!SameTask(a.tasks[i], b.tasks[i])) return false;
  }
  for (size_t i = 0; i < a.volumes.size(); ++i) {
    const JobVolume &x = a.volumes[i], &y = b.volumes[i];
    if (x.mount_path != y.mount_path || x.volume_claim_name != y.volume_claim_name || x.volume_claim != y.volume_claim) {
      return false;
    }
  }
  return a.scheduler_name == b.scheduler_name && a.min_available == b.min_available &&
         a.min_success == b.min_success && SamePolicies(a.policies, b.policies) && a.plugins == b.plugins &&
         a.queue == b.queue && a.max_retry == b.max_retry &&
         a.ttl_seconds_after_finished == b.ttl_seconds_after_finished &&
         a.priority_class_name == b.priority_class_name && a.network_topology == b.network_topology;
}

std::string DerivedUid(const std::string& kind, const std::string& namespace_, const std::string& name) {
  // Two 64-bit FNV-1a hashes with different seeds make the 128 bits of the UUID shape.
  auto fnv = [&](uint64_t h) {
    for (const std::string* part : {&kind, &namespace_, &name}) {
      for (unsigned char c : *part) h = (h ^ c) * 1099511628211ull;
      h = (h ^ 0xff) * 1099511628211ull;
    }
    return h;
  };
  const uint64_t a = fnv(14695981039346656037ull), b = fnv(0x9e3779b97f4a7c15ull);
  return absl::StrFormat("%08x-%04x-%04x-%04x-%012x", a >> 32, (a >> 16) & 0xffff, a & 0xffff, b >> 48,
                         b & 0xffffffffffffull);
}

ObjectMeta ReadObjectMeta(const Value& doc, Findings* findings) {
  FieldReader r(findings);
  ObjectMeta m;
  const Value* meta = r.Map(doc, "metadata", "");
  if (meta == nullptr) return m;
  m.name = r.String(*meta, "name", "metadata").value_or("");
  m.namespace_ = r.String(*meta, "namespace", "metadata").value_or("default");
  if (m.namespace_.empty()) m.namespace_ = "default";
  m.uid = r.String(*meta, "uid", "metadata").value_or("");
  m.labels = r.StringMap(*meta, "labels", "metadata");
  m.annotations = r.StringMap(*meta, "annotations", "metadata");
  m.creation_timestamp = r.String(*meta, "creationTimestamp", "metadata").value_or("");
  return m;
}

namespace {

std::vector<LifecyclePolicy> ReadPolicies(FieldReader& r, const Value& parent, const std::string& path) {
  std::vector<LifecyclePolicy> out;
  r.ForEachMap(parent, "policies", path, [&](const Value& item, const std::string& at) {
    LifecyclePolicy p;
    if (auto e = r.String(item, "event", at)) p.events.push_back(*e);
    for (std::string& e : r.Strings(item, "events", at)) p.events.push_back(std::move(e));
    p.action = r.String(item, "action", at).value_or("");
    p.exit_code = r.Int32(item, "exitCode", at);
    if (auto t = r.String(item, "timeout", at)) {
      absl::StatusOr<int64_t> secs = ParseGoDurationSeconds(*t);
      if (secs.ok()) p.timeout_seconds = *secs;
      else r.Fail(Join(at, "timeout"), absl::StrCat("expected a duration such as \"10m\", got \"", *t, "\""));
    }
    out.push_back(std::move(p));
  });
  return out;
}

JobTask ReadTask(FieldReader& r, const Value& item, const std::string& at) {
  JobTask t;
  t.name = r.String(item, "name", at).value_or("");
  t.replicas = r.Int32(item, "replicas", at).value_or(0);
  t.min_available = r.Int32(item, "minAvailable", at);
  if (const Value* tmpl = r.Map(item, "template", at)) t.pod_template = *tmpl;
  t.policies = ReadPolicies(r, item, at);
  t.topology_policy = r.String(item, "topologyPolicy", at).value_or("");
  t.max_retry = r.Int32(item, "maxRetry", at);
  if (const Value* dep = r.Map(item, "dependsOn", at)) {
    TaskDependsOn d;
    d.names = r.Strings(*dep, "name", Join(at, "dependsOn"));
    d.iteration = r.String(*dep, "iteration", Join(at, "dependsOn")).value_or("");
    if (!d.iteration.empty() && d.iteration != "any" && d.iteration != "all") {
      r.Fail(Join(at, "dependsOn.iteration"), absl::StrCat("must be any or all, got \"", d.iteration, "\""));
    }
    t.depends_on = std::move(d);
  }
  if (const Value* pp = r.Map(item, "partitionPolicy", at)) {
    const std::string pat = Join(at, "partitionPolicy");
    PartitionPolicy p;
    p.total_partitions = r.Int32(*pp, "totalPartitions", pat).value_or(0);
    p.partition_size = r.Int32(*pp, "partitionSize", pat).value_or(0);
    p.min_partitions = r.Int32(*pp, "minPartitions", pat).value_or(0);
    if (const Value* nt = r.Map(*pp, "networkTopology", pat)) p.network_topology = *nt;
    t.partition_policy = std::move(p);
  }
  return t;
}

}  // namespace

VolcanoJob ReadJob(const Value& doc, Findings* findings) {
  FieldReader r(findings);
  ObjectMeta meta = ReadObjectMeta(doc, findings);
  const Value* spec = r.Map(doc, "spec", "");
  if (spec == nullptr) {
    if (doc.Find("spec") == nullptr) findings->Error("spec", "is required");
    return ReadJobSpec(Value::Map(), "spec", std::move(meta), findings);
  }
  return ReadJobSpec(*spec, "spec", std::move(meta), findings);
}

VolcanoJob ReadJobSpec(const Value& spec, const std::string& path, ObjectMeta metadata, Findings* findings) {
  FieldReader r(findings);
  VolcanoJob j;
  j.metadata = std::move(metadata);
  if (j.metadata.uid.empty()) j.metadata.uid = DerivedUid("Job", j.metadata.namespace_, j.metadata.name);
  j.scheduler_name = r.String(spec, "schedulerName", path).value_or("");
  j.min_available = r.Int32(spec, "minAvailable", path);
  j.min_success = r.Int32(spec, "minSuccess", path);
  r.ForEachMap(spec, "tasks", path, [&](const Value& item, const std::string& at) { j.tasks.push_back(ReadTask(r, item, at)); });
  j.policies = ReadPolicies(r, spec, path);
  if (const Value* plugins = r.Map(spec, "plugins", path)) {
    for (const auto& [name, args] : plugins->entries()) {
      j.plugins.emplace_back(name, r.Strings(*plugins, name, Join(path, "plugins")));
    }
  }
  j.queue = r.String(spec, "queue", path).value_or("");
  j.max_retry = r.Int32(spec, "maxRetry", path);
  j.ttl_seconds_after_finished = r.Int32(spec, "ttlSecondsAfterFinished", path);
  j.priority_class_name = r.String(spec, "priorityClassName", path).value_or("");
  r.ForEachMap(spec, "volumes", path, [&](const Value& item, const std::string& at) {
    JobVolume v;
    v.mount_path = r.String(item, "mountPath", at).value_or("");
    v.volume_claim_name = r.String(item, "volumeClaimName", at).value_or("");
    if (const Value* c = r.Map(item, "volumeClaim", at)) v.volume_claim = *c;
    j.volumes.push_back(std::move(v));
  });
  if (const Value* nt = r.Map(spec, "networkTopology", path)) j.network_topology = *nt;
  return j;
}

}  // namespace vcsched::lifecycle
