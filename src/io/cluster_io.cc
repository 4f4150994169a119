// Objects back to manifests (the inverse of k8s_reader.cc, field for field), and
// objects into a cluster.
#include "vcsched/io/cluster_io.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "src/model/cpu_topology.h"
#include "vcsched/io/manifests.h"
#include "vcsched/policy.h"
#include "vcsched/quantity.h"
#include "vcsched/resource.h"

namespace vcsched {
namespace {

Value Str(const std::string& s) { return Value::String(s); }

Value Quantities(const ResourceList& list) {
  Value out = Value::Map();
  for (const auto& [name, amount] : list) {
    switch (ClassifyResourceName(name)) {
      case ResourceKind::kMemoryBytes: out[name] = Str(FormatBytes(amount)); break;
      case ResourceKind::kPodCount: out[name] = Str(absl::StrCat(amount)); break;
      default: out[name] = Str(FormatMilli(amount)); break;
    }
  }
  return out;
}

Value QuotaQuantities(const QuotaList& list) {
  Value out = Value::Map();
  for (const auto& [name, amount] : list) out[name] = Str(FormatQuotaAmount(name, amount));
  return out;
}

Value StringMap(const Labels& labels) {
  Value out = Value::Map();
  for (const auto& [k, v] : labels) out[k] = Str(v);
  return out;
}

Value Time(int64_t seconds) {
  return Str(absl::FormatTime(absl::RFC3339_sec, absl::FromUnixSeconds(seconds), absl::UTCTimeZone()));
}

Value Manifest(const char* api_version, const char* kind) {
  Value v = Value::Map();
  v["apiVersion"] = Str(api_version);
  v["kind"] = Str(kind);
  return v;
}

Value Requirements(const std::vector<LabelSelectorRequirement>& reqs) {
  static const char* kOps[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
  Value out = Value::List();
  for (const LabelSelectorRequirement& r : reqs) {
    Value item = Value::Map();
    item["key"] = Str(r.key);
    item["operator"] = Str(kOps[static_cast<int>(r.op)]);
    if (!r.values.empty()) {
      Value values = Value::List();
      for (const std::string& s : r.values) values.Push(Str(s));
      item["values"] = std::move(values);
    }
    out.Push(std::move(item));
  }
  return out;
}

Value Selector(const LabelSelector& s) {
  Value out = Value::Map();
  if (!s.match_labels.empty()) out["matchLabels"] = StringMap(s.match_labels);
  if (!s.match_expressions.empty()) out["matchExpressions"] = Requirements(s.match_expressions);
  return out;
}

Value NodeTerm(const NodeSelectorTerm& t) {
  Value out = Value::Map();
  if (!t.match_expressions.empty()) out["matchExpressions"] = Requirements(t.match_expressions);
  if (!t.match_fields.empty()) out["matchFields"] = Requirements(t.match_fields);
  return out;
}

Value PodTerm(const PodAffinityTerm& t) {
  Value out = Value::Map();
  if (t.has_label_selector) out["labelSelector"] = Selector(t.label_selector);
  if (!t.namespaces.empty()) {
    Value ns = Value::List();
    for (const std::string& n : t.namespaces) ns.Push(Str(n));
    out["namespaces"] = std::move(ns);
  }
  if (t.namespace_selector) out["namespaceSelector"] = Selector(*t.namespace_selector);
  out["topologyKey"] = Str(t.topology_key);
  return out;
}

Value PodTerms(const std::vector<PodAffinityTerm>& required, const std::vector<WeightedPodAffinityTerm>& preferred) {
  Value out = Value::Map();
  if (!required.empty()) {
    Value l = Value::List();
    for (const PodAffinityTerm& t : required) l.Push(PodTerm(t));
    out["requiredDuringSchedulingIgnoredDuringExecution"] = std::move(l);
  }
  if (!preferred.empty()) {
    Value l = Value::List();
    for (const WeightedPodAffinityTerm& w : preferred) {
      Value item = Value::Map();
      item["weight"] = Value::Int(w.weight);
      item["podAffinityTerm"] = PodTerm(w.term);
      l.Push(std::move(item));
    }
    out["preferredDuringSchedulingIgnoredDuringExecution"] = std::move(l);
  }
  return out;
}

Value AffinityValue(const Affinity& a) {
  Value out = Value::Map();
  Value node = Value::Map();
  if (a.has_required_node_terms) {
    Value terms = Value::List();
    for (const NodeSelectorTerm& t : a.required_node_terms) terms.Push(NodeTerm(t));
    Value req = Value::Map();
    req["nodeSelectorTerms"] = std::move(terms);
    node["requiredDuringSchedulingIgnoredDuringExecution"] = std::move(req);
  }
  if (!a.preferred_node_terms.empty()) {
    Value l = Value::List();
    for (const PreferredSchedulingTerm& p : a.preferred_node_terms) {
      Value item = Value::Map();
      item["weight"] = Value::Int(p.weight);
      item["preference"] = NodeTerm(p.preference);
      l.Push(std::move(item));
    }
    node["preferredDuringSchedulingIgnoredDuringExecution"] = std::move(l);
  }
  if (node.size() > 0) out["nodeAffinity"] = std::move(node);
  if (!a.required_pod_affinity.empty() || !a.preferred_pod_affinity.empty()) {
    out["podAffinity"] = PodTerms(a.required_pod_affinity, a.preferred_pod_affinity);
  }
  if (!a.required_pod_anti_affinity.empty() || !a.preferred_pod_anti_affinity.empty()) {
    out["podAntiAffinity"] = PodTerms(a.required_pod_anti_affinity, a.preferred_pod_anti_affinity);
  }
  return out;
}

Value Containers(const std::vector<Container>& containers, bool init) {
  Value out = Value::List();
  for (const Container& c : containers) {
    Value item = Value::Map();
    item["name"] = Str(c.name);
    if (!c.image.empty()) item["image"] = Str(c.image);
    Value resources = Value::Map();
    resources["requests"] = Quantities(c.requests);
    if (!c.limits.empty()) resources["limits"] = Quantities(c.limits);
    item["resources"] = std::move(resources);
    if (init && c.restartable) item["restartPolicy"] = Str("Always");
    if (!c.host_ports.empty()) {  // written as hostPort, which reads back the same
      Value ports = Value::List();
      for (const HostPort& hp : c.host_ports) {
        Value port = Value::Map();
        port["hostPort"] = Value::Int(hp.port);
        port["protocol"] = Str(hp.protocol);
        if (!hp.host_ip.empty()) port["hostIP"] = Str(hp.host_ip);
        ports.Push(std::move(port));
      }
      item["ports"] = std::move(ports);
    }
    out.Push(std::move(item));
  }
  return out;
}

Value NodeManifest(const NodeSpec& n) {
  Value v = Manifest("v1", "Node");
  v["metadata"]["name"] = Str(n.name);
  if (!n.labels.empty()) v["metadata"]["labels"] = StringMap(n.labels);
  if (!n.annotations.empty()) v["metadata"]["annotations"] = StringMap(n.annotations);
  if (n.metrics) {
    Value& annotations = v["metadata"]["annotations"];
    annotations[kNodeCpuUsageAnnotation] = Str(absl::StrFormat("%.17g", n.metrics->cpu_percent));
    annotations[kNodeMemoryUsageAnnotation] = Str(absl::StrFormat("%.17g", n.metrics->memory_percent));
    annotations[kNodeUsageTimeAnnotation] = Time(n.metrics->time);
  }
  if (n.unschedulable) v["spec"]["unschedulable"] = Value::Bool(true);
  if (!n.taints.empty()) {
    Value taints = Value::List();
    for (const Taint& t : n.taints) {
      Value item = Value::Map();
      item["key"] = Str(t.key);
      if (!t.value.empty()) item["value"] = Str(t.value);
      item["effect"] = Str(t.effect);
      taints.Push(std::move(item));
    }
    v["spec"]["taints"] = std::move(taints);
  }
  if (!n.capacity.empty()) v["status"]["capacity"] = Quantities(n.capacity);
  v["status"]["allocatable"] = Quantities(n.allocatable);
  if (!n.images.empty()) {
    Value images = Value::List();
    for (const NodeImage& image : n.images) {
      Value item = Value::Map();
      Value names = Value::List();
      for (const std::string& name : image.names) names.Push(Str(name));
      item["names"] = std::move(names);
      item["sizeBytes"] = Value::Int(image.size_bytes);
      images.Push(std::move(item));
    }
    v["status"]["images"] = std::move(images);
  }
  return v;
}

Value PodManifest(const PodSpec& p) {
  Value v = Manifest("v1", "Pod");
  Value& meta = v["metadata"];
  meta["name"] = Str(p.name);
  meta["namespace"] = Str(p.namespace_);
  if (!p.uid.empty()) meta["uid"] = Str(p.uid);
  if (!p.resource_version.empty()) meta["resourceVersion"] = Str(p.resource_version);
  if (!p.labels.empty()) meta["labels"] = StringMap(p.labels);
  if (!p.annotations.empty()) meta["annotations"] = StringMap(p.annotations);
  if (p.creation_time != 0) meta["creationTimestamp"] = Time(p.creation_time);
  // Only its presence is read: the time is the creation time (or the epoch).
  if (p.deleting) meta["deletionTimestamp"] = Time(p.creation_time);
  if (!p.controller_uid.empty()) {
    Value owner = Value::Map();
    owner["controller"] = Value::Bool(true);
    owner["uid"] = Str(p.controller_uid);
    meta["ownerReferences"].Push(std::move(owner));
  }
  Value& spec = v["spec"];
  spec["schedulerName"] = Str(p.scheduler_name);
  if (!p.node_name.empty()) spec["nodeName"] = Str(p.node_name);
  if (p.priority) spec["priority"] = Value::Int(*p.priority);
  if (!p.priority_class_name.empty()) spec["priorityClassName"] = Str(p.priority_class_name);
  if (!p.preemption_policy.empty()) spec["preemptionPolicy"] = Str(p.preemption_policy);
  if (!p.node_selector.empty()) spec["nodeSelector"] = StringMap(p.node_selector);
  if (Value affinity = AffinityValue(p.affinity); affinity.size() > 0) spec["affinity"] = std::move(affinity);
  if (!p.tolerations.empty()) {
    Value tols = Value::List();
    for (const Toleration& t : p.tolerations) {
      Value item = Value::Map();
      if (!t.key.empty()) item["key"] = Str(t.key);
      item["operator"] = Str(t.op);
      if (!t.value.empty()) item["value"] = Str(t.value);
      if (!t.effect.empty()) item["effect"] = Str(t.effect);
      tols.Push(std::move(item));
    }
    spec["tolerations"] = std::move(tols);
  }
  if (!p.topology_spread_constraints.empty()) {
    Value l = Value::List();
    for (const TopologySpreadConstraint& c : p.topology_spread_constraints) {
      Value item = Value::Map();
      item["maxSkew"] = Value::Int(c.max_skew);
      item["topologyKey"] = Str(c.topology_key);
      item["whenUnsatisfiable"] = Str(c.do_not_schedule ? "DoNotSchedule" : "ScheduleAnyway");
      if (c.has_label_selector) item["labelSelector"] = Selector(c.label_selector);
      item["minDomains"] = Value::Int(c.min_domains);
      item["nodeAffinityPolicy"] = Str(c.honor_node_affinity ? "Honor" : "Ignore");
      item["nodeTaintsPolicy"] = Str(c.honor_node_taints ? "Honor" : "Ignore");
      l.Push(std::move(item));
    }
    spec["topologySpreadConstraints"] = std::move(l);
  }
  spec["containers"] = Containers(p.containers, false);
  if (!p.init_containers.empty()) spec["initContainers"] = Containers(p.init_containers, true);
  if (!p.overhead.empty()) spec["overhead"] = Quantities(p.overhead);
  if (!p.image_volumes.empty() || !p.volume_claims.empty()) {
    Value volumes = Value::List();
    for (const PodVolumeClaim& c : p.volume_claims) {
      Value volume = Value::Map();
      volume["name"] = Str(c.volume);
      if (c.ephemeral) volume["ephemeral"]["volumeClaimTemplate"] = Value::Map();
      else volume["persistentVolumeClaim"]["claimName"] = Str(c.claim);
      volumes.Push(std::move(volume));
    }
    for (size_t i = 0; i < p.image_volumes.size(); ++i) {
      Value volume = Value::Map();
      volume["name"] = Str(absl::StrCat("image-", i));
      volume["image"]["reference"] = Str(p.image_volumes[i]);
      volumes.Push(std::move(volume));
    }
    spec["volumes"] = std::move(volumes);
  }
  if (p.active_deadline_seconds) spec["activeDeadlineSeconds"] = Value::Int(*p.active_deadline_seconds);
  if (p.scheduling_gated) {
    Value gate = Value::Map();
    gate["name"] = Str("gated");
    spec["schedulingGates"].Push(std::move(gate));
  }
  v["status"]["phase"] = Str(p.phase);
  if (!p.nominated_node_name.empty()) v["status"]["nominatedNodeName"] = Str(p.nominated_node_name);
  if (p.start_time) v["status"]["startTime"] = Time(*p.start_time);
  if (!p.qos_class.empty()) v["status"]["qosClass"] = Str(p.qos_class);
  if (p.scheduled_time) {
    Value c = Value::Map();
    c["type"] = Str("PodScheduled");
    c["status"] = Str("True");
    c["lastTransitionTime"] = Time(*p.scheduled_time);
    v["status"]["conditions"] = Value::List();
    v["status"]["conditions"].Push(std::move(c));
  }
  return v;
}

Value NetworkTopology(const NetworkTopologySpec& t) {
  Value out = Value::Map();
  out["mode"] = Str(t.mode == NetworkTopologySpec::Mode::kHard   ? "hard"
                    : t.mode == NetworkTopologySpec::Mode::kSoft ? "soft"
                                                                 : "");
  if (t.highest_tier_allowed) out["highestTierAllowed"] = Value::Int(*t.highest_tier_allowed);
  if (!t.highest_tier_name.empty()) out["highestTierName"] = Str(t.highest_tier_name);
  return out;
}

Value PodGroupManifest(const PodGroupSpec& g) {
  Value v = Manifest("scheduling.volcano.sh/v1beta1", "PodGroup");
  Value& meta = v["metadata"];
  meta["name"] = Str(g.name);
  meta["namespace"] = Str(g.namespace_);
  if (!g.uid.empty()) meta["uid"] = Str(g.uid);
  if (!g.labels.empty()) meta["labels"] = StringMap(g.labels);
  if (!g.annotations.empty()) meta["annotations"] = StringMap(g.annotations);
  if (g.creation_time != 0) meta["creationTimestamp"] = Time(g.creation_time);
  Value& spec = v["spec"];
  spec["minMember"] = Value::Int(g.min_member);
  // Every name it was given (requests.cpu, count/pods: resourcequota reads them).
  if (g.min_resources) spec["minResources"] = g.quota_min_resources.empty() ? Quantities(*g.min_resources)
                                                                            : QuotaQuantities(g.quota_min_resources);
  if (!g.min_task_member.empty()) {
    Value m = Value::Map();
    for (const auto& [role, n] : g.min_task_member) m[role] = Value::Int(n);
    spec["minTaskMember"] = std::move(m);
  }
  if (!g.queue.empty()) spec["queue"] = Str(g.queue);
  if (!g.priority_class_name.empty()) spec["priorityClassName"] = Str(g.priority_class_name);
  if (g.network_topology) spec["networkTopology"] = NetworkTopology(*g.network_topology);
  for (const SubGroupPolicySpec& p : g.sub_group_policy) {
    Value policy = Value::Map();
    policy["name"] = Str(p.name);
    if (p.sub_group_size) policy["subGroupSize"] = Value::Int(*p.sub_group_size);
    if (p.min_sub_groups != 0) policy["minSubGroups"] = Value::Int(p.min_sub_groups);
    for (const std::string& key : p.match_label_keys) policy["matchLabelKeys"].Push(Str(key));
    if (p.label_selector) policy["labelSelector"] = Selector(*p.label_selector);
    if (p.network_topology) policy["networkTopology"] = NetworkTopology(*p.network_topology);
    spec["subGroupPolicy"].Push(std::move(policy));
  }
  Value& status = v["status"];
  status["phase"] = Str(g.phase.empty() ? "Pending" : g.phase);
  if (g.running != 0) status["running"] = Value::Int(g.running);
  if (g.succeeded != 0) status["succeeded"] = Value::Int(g.succeeded);
  if (g.failed != 0) status["failed"] = Value::Int(g.failed);
  for (const PodGroupConditionSpec& c : g.conditions) {
    Value item = Value::Map();
    item["type"] = Str(c.type);
    item["status"] = Str(c.status);
    if (!c.transition_id.empty()) item["transitionID"] = Str(c.transition_id);
    if (c.last_transition_time != 0) item["lastTransitionTime"] = Time(c.last_transition_time);
    if (!c.reason.empty()) item["reason"] = Str(c.reason);
    if (!c.message.empty()) item["message"] = Str(c.message);
    status["conditions"].Push(std::move(item));
  }
  return v;
}

Value HyperNodeManifest(const HyperNodeSpec& h) {
  Value v = Manifest("topology.volcano.sh/v1alpha1", "HyperNode");
  v["metadata"]["name"] = Str(h.name);
  if (!h.labels.empty()) v["metadata"]["labels"] = StringMap(h.labels);
  Value& spec = v["spec"];
  spec["tier"] = Value::Int(h.tier);
  if (!h.tier_name.empty()) spec["tierName"] = Str(h.tier_name);
  for (const HyperNodeMember& m : h.members) {
    Value member = Value::Map();
    member["type"] = Str(m.type == HyperNodeMember::Type::kNode ? "Node" : "HyperNode");
    Value& selector = member["selector"];
    switch (m.match) {
      case HyperNodeMember::Match::kExact: selector["exactMatch"]["name"] = Str(m.name); break;
      case HyperNodeMember::Match::kRegex: selector["regexMatch"]["pattern"] = Str(m.name); break;
      case HyperNodeMember::Match::kLabel: selector["labelMatch"] = Selector(m.labels); break;
    }
    spec["members"].Push(std::move(member));
  }
  return v;
}

Value StringList(const std::vector<std::string>& items) {
  Value out = Value::List();
  for (const std::string& s : items) out.Push(Str(s));
  return out;
}

Value QueueManifest(const QueueSpec& q) {
  Value v = Manifest("scheduling.volcano.sh/v1beta1", "Queue");
  v["metadata"]["name"] = Str(q.name);
  if (!q.annotations.empty()) v["metadata"]["annotations"] = StringMap(q.annotations);
  if (q.creation_time != 0) v["metadata"]["creationTimestamp"] = Time(q.creation_time);
  Value& spec = v["spec"];
  spec["weight"] = Value::Int(q.weight);
  if (q.priority != 0) spec["priority"] = Value::Int(q.priority);
  if (!q.capability.empty()) spec["capability"] = Quantities(q.capability);
  if (!q.guarantee.empty()) spec["guarantee"]["resource"] = Quantities(q.guarantee);
  if (!q.deserved.empty()) spec["deserved"] = Quantities(q.deserved);
  spec["reclaimable"] = Value::Bool(q.reclaimable);
  if (!q.parent.empty()) spec["parent"] = Str(q.parent);
  if (q.affinity) {
    const QueueAffinity& a = *q.affinity;
    Value& affinity = spec["affinity"];
    affinity = Value::Map();
    const auto lists = [&](const char* key, bool given, const std::vector<std::string>& required,
                           const std::vector<std::string>& preferred) {
      if (!given) return;
      Value& g = affinity[key];
      g = Value::Map();
      if (!required.empty()) g["requiredDuringSchedulingIgnoredDuringExecution"] = StringList(required);
      if (!preferred.empty()) g["preferredDuringSchedulingIgnoredDuringExecution"] = StringList(preferred);
    };
    lists("nodeGroupAffinity", a.has_affinity, a.affinity_required, a.affinity_preferred);
    lists("nodeGroupAntiAffinity", a.has_anti_affinity, a.anti_affinity_required, a.anti_affinity_preferred);
  }
  v["status"]["state"] = Str(q.state);
  return v;
}

Value PriorityClassManifest(const PriorityClassSpec& pc) {
  Value v = Manifest("scheduling.k8s.io/v1", "PriorityClass");
  v["metadata"]["name"] = Str(pc.name);
  v["value"] = Value::Int(pc.value);
  if (pc.global_default) v["globalDefault"] = Value::Bool(true);
  if (!pc.preemption_policy.empty()) v["preemptionPolicy"] = Str(pc.preemption_policy);
  return v;
}

Value NamespaceManifest(const NamespaceSpec& ns) {
  Value v = Manifest("v1", "Namespace");
  v["metadata"]["name"] = Str(ns.name);
  if (!ns.labels.empty()) v["metadata"]["labels"] = StringMap(ns.labels);
  return v;
}


Value ClaimManifest(const PersistentVolumeClaimSpec& c) {
  Value v = Manifest("v1", "PersistentVolumeClaim");
  v["metadata"]["name"] = Str(c.name);
  v["metadata"]["namespace"] = Str(c.namespace_);
  if (!c.uid.empty()) v["metadata"]["uid"] = Str(c.uid);
  if (!c.annotations.empty()) v["metadata"]["annotations"] = StringMap(c.annotations);
  if (!c.controller_uid.empty()) {
    Value owner = Value::Map();
    owner["apiVersion"] = Str("v1");
    owner["kind"] = Str("Pod");
    owner["uid"] = Str(c.controller_uid);
    owner["controller"] = Value::Bool(true);
    v["metadata"]["ownerReferences"] = Value::List();
    v["metadata"]["ownerReferences"].Push(std::move(owner));
  }
  if (c.deleting) v["metadata"]["deletionTimestamp"] = Str("1970-01-01T00:00:00Z");
  Value& spec = v["spec"];
  spec = Value::Map();
  if (!c.access_modes.empty()) spec["accessModes"] = StringList(c.access_modes);
  if (c.storage_class_name) spec["storageClassName"] = Str(*c.storage_class_name);
  if (!c.volume_name.empty()) spec["volumeName"] = Str(c.volume_name);
  if (!c.volume_mode.empty()) spec["volumeMode"] = Str(c.volume_mode);
  if (!c.volume_attributes_class_name.empty()) spec["volumeAttributesClassName"] = Str(c.volume_attributes_class_name);
  if (c.selector) spec["selector"] = Selector(*c.selector);
  spec["resources"]["requests"]["storage"] = Str(std::to_string(c.storage_request));
  v["status"]["phase"] = Str(c.phase);
  return v;
}

Value VolumeManifest(const PersistentVolumeSpec& pv) {
  Value v = Manifest("v1", "PersistentVolume");
  v["metadata"]["name"] = Str(pv.name);
  if (!pv.labels.empty()) v["metadata"]["labels"] = StringMap(pv.labels);
  if (!pv.annotations.empty()) v["metadata"]["annotations"] = StringMap(pv.annotations);
  if (pv.deleting) v["metadata"]["deletionTimestamp"] = Str("1970-01-01T00:00:00Z");
  Value& spec = v["spec"];
  spec["capacity"]["storage"] = Str(std::to_string(pv.capacity));
  if (!pv.access_modes.empty()) spec["accessModes"] = StringList(pv.access_modes);
  if (!pv.storage_class_name.empty()) spec["storageClassName"] = Str(pv.storage_class_name);
  if (!pv.volume_mode.empty()) spec["volumeMode"] = Str(pv.volume_mode);
  if (!pv.volume_attributes_class_name.empty()) spec["volumeAttributesClassName"] = Str(pv.volume_attributes_class_name);
  if (pv.has_node_affinity) {
    Value terms = Value::List();
    for (const NodeSelectorTerm& t : pv.node_affinity) terms.Push(NodeTerm(t));
    spec["nodeAffinity"]["required"]["nodeSelectorTerms"] = std::move(terms);
  }
  if (pv.claim_ref) {
    Value& ref = spec["claimRef"];
    ref["namespace"] = Str(pv.claim_ref->namespace_);
    ref["name"] = Str(pv.claim_ref->name);
    if (!pv.claim_ref->uid.empty()) ref["uid"] = Str(pv.claim_ref->uid);
  }
  if (!pv.csi_driver.empty() || !pv.csi_volume_handle.empty()) {
    spec["csi"]["driver"] = Str(pv.csi_driver);
    spec["csi"]["volumeHandle"] = Str(pv.csi_volume_handle);
  }
  if (!pv.phase.empty()) v["status"]["phase"] = Str(pv.phase);
  return v;
}

Value StorageClassManifest(const StorageClassSpec& sc) {
  Value v = Manifest("storage.k8s.io/v1", "StorageClass");
  v["metadata"]["name"] = Str(sc.name);
  v["provisioner"] = Str(sc.provisioner);
  v["volumeBindingMode"] = Str(sc.volume_binding_mode);
  if (!sc.parameters.empty()) v["parameters"] = StringMap(sc.parameters);
  if (!sc.allowed_topologies.empty()) {
    Value terms = Value::List();
    for (const TopologySelectorTerm& t : sc.allowed_topologies) {
      Value exprs = Value::List();
      for (const auto& [key, values] : t.match_label_expressions) {
        Value e = Value::Map();
        e["key"] = Str(key);
        e["values"] = StringList(values);
        exprs.Push(std::move(e));
      }
      Value term = Value::Map();
      term["matchLabelExpressions"] = std::move(exprs);
      terms.Push(std::move(term));
    }
    v["allowedTopologies"] = std::move(terms);
  }
  return v;
}

Value QuotaManifest(const ResourceQuotaSpec& q) {
  Value v = Manifest("v1", "ResourceQuota");
  v["metadata"]["name"] = Str(q.name);
  v["metadata"]["namespace"] = Str(q.namespace_);
  Value& spec = v["spec"];
  spec = Value::Map();
  if (!q.spec_hard.empty()) spec["hard"] = QuotaQuantities(q.spec_hard);
  if (!q.scopes.empty()) spec["scopes"] = StringList(q.scopes);
  if (!q.hard.empty()) v["status"]["hard"] = QuotaQuantities(q.hard);
  if (!q.used.empty()) v["status"]["used"] = QuotaQuantities(q.used);
  return v;
}

// An IntOrString as written: a number when it is one.
Value CountOrPercent(const std::string& text) {
  int32_t n = 0;
  return absl::SimpleAtoi(text, &n) ? Value::Int(n) : Str(text);
}

Value BudgetManifest(const PodDisruptionBudgetSpec& b) {
  Value v = Manifest("policy/v1", "PodDisruptionBudget");
  v["metadata"]["name"] = Str(b.name);
  v["metadata"]["namespace"] = Str(b.namespace_);
  Value& spec = v["spec"];
  spec = Value::Map();
  if (b.selector) spec["selector"] = Selector(*b.selector);
  if (!b.min_available.empty()) spec["minAvailable"] = CountOrPercent(b.min_available);
  if (!b.max_unavailable.empty()) spec["maxUnavailable"] = CountOrPercent(b.max_unavailable);
  Value& status = v["status"];
  status["disruptionsAllowed"] = Value::Int(b.disruptions_allowed);
  status["currentHealthy"] = Value::Int(b.current_healthy);
  status["desiredHealthy"] = Value::Int(b.desired_healthy);
  status["expectedPods"] = Value::Int(b.expected_pods);
  if (!b.disrupted_pods.empty()) {
    Value pods = Value::Map();
    // (The times are not kept: only which pods are listed bears on a decision.)
    for (const std::string& p : b.disrupted_pods) pods[p] = Str("1970-01-01T00:00:00Z");
    status["disruptedPods"] = std::move(pods);
  }
  return v;
}

Value NodeShardManifest(const NodeShardSpec& n) {
  Value v = Manifest("shard.volcano.sh/v1alpha1", "NodeShard");
  v["metadata"]["name"] = Str(n.name);
  v["spec"]["nodesDesired"] = StringList(n.nodes_desired);
  Value& status = v["status"];
  status = Value::Map();
  if (!n.nodes_in_use.empty()) status["nodesInUse"] = StringList(n.nodes_in_use);
  if (!n.nodes_to_remove.empty()) status["nodesToRemove"] = StringList(n.nodes_to_remove);
  if (!n.nodes_to_add.empty()) status["nodesToAdd"] = StringList(n.nodes_to_add);
  return v;
}

Value NumatopologyManifest(const NumatopologySpec& t) {
  Value v = Manifest("nodeinfo.volcano.sh/v1alpha1", "Numatopology");
  v["metadata"]["name"] = Str(t.name);
  Value& spec = v["spec"];
  spec = Value::Map();
  if (!t.policies.empty()) spec["policies"] = StringMap(Labels(t.policies.begin(), t.policies.end()));
  if (!t.reserved.empty()) spec["resReserved"] = StringMap(Labels(t.reserved.begin(), t.reserved.end()));
  for (const auto& [name, res] : t.resources) {
    Value item = Value::Map();
    item["allocatable"] = Str(internal::FormatCpuList(internal::CpuSet(res.allocatable.begin(), res.allocatable.end())));
    item["capacity"] = Value::Int(res.capacity);
    spec["numares"][name] = std::move(item);
  }
  for (const auto& [cpu, info] : t.cpus) {
    Value item = Value::Map();
    item["numa"] = Value::Int(info.numa);
    item["socket"] = Value::Int(info.socket);
    item["core"] = Value::Int(info.core);
    spec["cpuDetail"][std::to_string(cpu)] = std::move(item);
  }
  for (const NumaPodAllocation& p : t.pod_allocations) {
    Value item = Value::Map();
    if (!p.uid.empty()) item["uid"] = Str(p.uid);
    if (!p.name.empty()) item["name"] = Str(p.name);
    if (!p.namespace_.empty()) item["namespace"] = Str(p.namespace_);
    spec["podAllocations"].Push(std::move(item));  // Push makes the list on first use
  }
  return v;
}

Value CSINodeManifest(const CSINodeSpec& n) {
  Value v = Manifest("storage.k8s.io/v1", "CSINode");
  v["metadata"]["name"] = Str(n.name);
  Value drivers = Value::List();
  for (const CSINodeDriver& d : n.drivers) {
    Value item = Value::Map();
    item["name"] = Str(d.name);
    item["nodeID"] = Str(d.node_id);
    if (d.allocatable_count) item["allocatable"]["count"] = Value::Int(*d.allocatable_count);
    if (!d.topology_keys.empty()) item["topologyKeys"] = StringList(d.topology_keys);
    drivers.Push(std::move(item));
  }
  v["spec"]["drivers"] = std::move(drivers);
  return v;
}

}  // namespace

std::string ClusterToYaml(const Cluster& c, const SchedulerConfig* config) {
  std::vector<Value> objects;
  for (const auto& [_, ns] : c.namespaces()) objects.push_back(NamespaceManifest(ns));
  for (const auto& [_, pc] : c.priority_classes()) objects.push_back(PriorityClassManifest(pc));
  for (const auto& [_, q] : c.queues()) objects.push_back(QueueManifest(q));
  for (const auto& [_, n] : c.nodes()) objects.push_back(NodeManifest(n));
  for (const auto& [_, h] : c.hyper_nodes()) objects.push_back(HyperNodeManifest(h));
  for (const auto& [_, sc] : c.storage().classes) objects.push_back(StorageClassManifest(sc));
  for (const auto& [_, n] : c.storage().csi_nodes) objects.push_back(CSINodeManifest(n));
  for (const auto& [_, pv] : c.storage().volumes) objects.push_back(VolumeManifest(pv));
  for (const auto& [_, claim] : c.storage().claims) objects.push_back(ClaimManifest(claim));
  for (const auto& [_, q] : c.policy().quotas) objects.push_back(QuotaManifest(q));
  for (const auto& [_, b] : c.policy().disruption_budgets) objects.push_back(BudgetManifest(b));
  for (const auto& [_, n] : c.policy().node_shards) objects.push_back(NodeShardManifest(n));
  for (const auto& [_, n] : c.policy().numatopologies) objects.push_back(NumatopologyManifest(n));
  const size_t before_jobs = objects.size();
  for (const auto& [_, g] : c.pod_groups()) objects.push_back(PodGroupManifest(g));
  for (const auto& [_, p] : c.pods()) objects.push_back(PodManifest(*p));
  // Volcano Jobs as they were given, before the PodGroups and pods their controller made
  // (which, being in the text, are read back as they are: nothing is made again).
  std::vector<const Value*> views;
  views.reserve(objects.size() + c.volcano_jobs().size());
  for (size_t i = 0; i < before_jobs; ++i) views.push_back(&objects[i]);
  for (const auto& [_, job] : c.volcano_jobs()) views.push_back(&job);
  for (size_t i = before_jobs; i < objects.size(); ++i) views.push_back(&objects[i]);
  std::string out;
  if (config != nullptr) {
    // (Each object's document starts with its own "---".)
    absl::StrAppend(&out, "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\n", config->ToYaml());
  }
  if (!views.empty()) out += ToYaml(views);
  return out;
}

ScenarioObjects ClusterObjects(const Cluster& c) {
  ScenarioObjects o;
  for (const auto& [_, ns] : c.namespaces()) o.namespaces.push_back(ns);
  for (const auto& [_, pc] : c.priority_classes()) o.priority_classes.push_back(pc);
  for (const auto& [_, q] : c.queues()) o.queues.push_back(q);
  for (const auto& [_, n] : c.nodes()) o.nodes.push_back(n);
  for (const auto& [_, h] : c.hyper_nodes()) o.hyper_nodes.push_back(h);
  for (const auto& [_, sc] : c.storage().classes) o.storage_classes.push_back(sc);
  for (const auto& [_, n] : c.storage().csi_nodes) o.csi_nodes.push_back(n);
  for (const auto& [_, pv] : c.storage().volumes) o.volumes.push_back(pv);
  for (const auto& [_, claim] : c.storage().claims) o.claims.push_back(claim);
  for (const auto& [_, q] : c.policy().quotas) o.quotas.push_back(q);
  for (const auto& [_, b] : c.policy().disruption_budgets) o.disruption_budgets.push_back(b);
  for (const auto& [_, n] : c.policy().node_shards) o.node_shards.push_back(n);
  for (const auto& [_, n] : c.policy().numatopologies) o.numatopologies.push_back(n);
  for (const auto& [_, job] : c.volcano_jobs()) o.volcano_jobs.push_back(job);
  for (const auto& [_, g] : c.pod_groups()) o.pod_groups.push_back(g);
  for (const auto& [_, p] : c.pods()) o.pods.push_back(*p);
  return o;
}

absl::Status PutObjects(ScenarioObjects& o, Cluster& c) {
  absl::Status s;
  for (QueueSpec& q : o.queues) s.Update(c.PutQueue(std::move(q)));
  for (PriorityClassSpec& pc : o.priority_classes) s.Update(c.PutPriorityClass(std::move(pc)));
  for (NamespaceSpec& ns : o.namespaces) s.Update(c.PutNamespace(std::move(ns)));
  for (NodeSpec& n : o.nodes) s.Update(c.PutNode(std::move(n)));
  for (HyperNodeSpec& h : o.hyper_nodes) s.Update(c.PutHyperNode(std::move(h)));
  for (StorageClassSpec& sc : o.storage_classes) s.Update(c.PutStorageClass(std::move(sc)));
  for (CSINodeSpec& n : o.csi_nodes) s.Update(c.PutCSINode(std::move(n)));
  for (PersistentVolumeSpec& pv : o.volumes) s.Update(c.PutPersistentVolume(std::move(pv)));
  for (PersistentVolumeClaimSpec& claim : o.claims) s.Update(c.PutPersistentVolumeClaim(std::move(claim)));
  for (ResourceQuotaSpec& q : o.quotas) s.Update(c.PutResourceQuota(std::move(q)));
  for (PodDisruptionBudgetSpec& b : o.disruption_budgets) s.Update(c.PutPodDisruptionBudget(std::move(b)));
  for (NodeShardSpec& n : o.node_shards) s.Update(c.PutNodeShard(std::move(n)));
  for (NumatopologySpec& n : o.numatopologies) s.Update(c.PutNumatopology(std::move(n)));
  for (Value& job : o.volcano_jobs) s.Update(c.PutVolcanoJob(std::move(job)));
  for (PodGroupSpec& g : o.pod_groups) s.Update(c.PutPodGroup(std::move(g)));
  for (PodSpec& p : o.pods) s.Update(c.PutPod(std::move(p)));
  return s;
}

}  // namespace vcsched
