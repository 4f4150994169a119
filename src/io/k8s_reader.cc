#include "src/io/k8s_reader.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "vcsched/arguments.h"

namespace vcsched::io_internal {
namespace {

std::string At(absl::string_view field, size_t i) { return absl::StrCat(field, "[", i, "]"); }

}  // namespace

std::vector<std::string> StringList(ObjectReader& r, const DocNode& parent, const char* key, absl::string_view field) {
  std::vector<std::string> out;
  const DocNode l = r.List(parent, key, field);
  if (!l.IsDefined()) return out;
  const std::vector<DocNode> l_items = l.Items();
  for (size_t i = 0; i < l_items.size(); ++i) {
    if (!l_items[i].IsScalar()) {
      r.Fail(l_items[i], At(field, i), absl::StrCat("expected a string, got ", Describe(l_items[i])));
      continue;
    }
    if (r.NotAString(l_items[i], At(field, i))) continue;
    out.push_back(l_items[i].Scalar());
  }
  return out;
}

std::vector<LabelSelectorRequirement> Requirements(ObjectReader& r, const DocNode& parent, const char* key,
                                                   absl::string_view field) {
  std::vector<LabelSelectorRequirement> out;
  const DocNode l = r.List(parent, key, field);
  if (!l.IsDefined()) return out;
  const std::vector<DocNode> l_items = l.Items();
  for (size_t i = 0; i < l_items.size(); ++i) {
    const std::string f = At(field, i);
    LabelSelectorRequirement req;
    req.key = r.String(l_items[i], "key", absl::StrCat(f, ".key")).value_or("");
    const std::string op = r.String(l_items[i], "operator", absl::StrCat(f, ".operator")).value_or("");
    using Op = LabelSelectorRequirement::Operator;
    if (op == "In") req.op = Op::kIn;
    else if (op == "NotIn") req.op = Op::kNotIn;
    else if (op == "Exists") req.op = Op::kExists;
    else if (op == "DoesNotExist") req.op = Op::kDoesNotExist;
    else if (op == "Gt") req.op = Op::kGt;
    else if (op == "Lt") req.op = Op::kLt;
    else r.Fail(l_items[i], absl::StrCat(f, ".operator"), absl::StrCat("unknown operator \"", op, "\""));
    req.values = StringList(r, l_items[i], "values", absl::StrCat(f, ".values"));
    out.push_back(std::move(req));
  }
  return out;
}

LabelSelector Selector(ObjectReader& r, const DocNode& node, absl::string_view field) {
  LabelSelector s;
  s.match_labels = r.StringMap(node, "matchLabels", absl::StrCat(field, ".matchLabels"));
  s.match_expressions = Requirements(r, node, "matchExpressions", absl::StrCat(field, ".matchExpressions"));
  return s;
}

NodeSelectorTerm Term(ObjectReader& r, const DocNode& node, absl::string_view field) {
  NodeSelectorTerm t;
  t.match_expressions = Requirements(r, node, "matchExpressions", absl::StrCat(field, ".matchExpressions"));
  t.match_fields = Requirements(r, node, "matchFields", absl::StrCat(field, ".matchFields"));
  return t;
}

namespace {


PodAffinityTerm PodTerm(ObjectReader& r, const DocNode& node, absl::string_view field) {
  PodAffinityTerm t;
  const DocNode sel = r.Map(node, "labelSelector", absl::StrCat(field, ".labelSelector"));
  t.has_label_selector = sel.IsDefined();
  if (sel.IsDefined()) t.label_selector = Selector(r, sel, absl::StrCat(field, ".labelSelector"));
  t.namespaces = StringList(r, node, "namespaces", absl::StrCat(field, ".namespaces"));
  const DocNode ns = r.Map(node, "namespaceSelector", absl::StrCat(field, ".namespaceSelector"));
  if (ns.IsDefined()) t.namespace_selector = Selector(r, ns, absl::StrCat(field, ".namespaceSelector"));
  t.topology_key = r.String(node, "topologyKey", absl::StrCat(field, ".topologyKey")).value_or("");
  // The API server refuses an empty key; Kubernetes' scheduler plugin, given one, finds
  // it on no node (a required affinity term then fits nowhere, an anti-affinity term
  // excludes nothing), and so does vcsched (tests/k8s-tables).
  if (t.topology_key.empty()) {
    r.Warn(absl::StrCat(field, ".topologyKey"), "empty: no node has this topology key, so the term matches no domain");
  }
  return t;
}

void PodTerms(ObjectReader& r, const DocNode& parent, absl::string_view field,
              std::vector<PodAffinityTerm>* required, std::vector<WeightedPodAffinityTerm>* preferred) {
  const std::string req_f = absl::StrCat(field, ".requiredDuringSchedulingIgnoredDuringExecution");
  const DocNode req = r.List(parent, "requiredDuringSchedulingIgnoredDuringExecution", req_f);
  const std::vector<DocNode> req_items = req.Items();
  for (size_t i = 0; i < req_items.size(); ++i) required->push_back(PodTerm(r, req_items[i], At(req_f, i)));
  const std::string pref_f = absl::StrCat(field, ".preferredDuringSchedulingIgnoredDuringExecution");
  const DocNode pref = r.List(parent, "preferredDuringSchedulingIgnoredDuringExecution", pref_f);
  const std::vector<DocNode> pref_items = pref.Items();
  for (size_t i = 0; i < pref_items.size(); ++i) {
    WeightedPodAffinityTerm w;
    w.weight = r.Int32(pref_items[i], "weight", absl::StrCat(At(pref_f, i), ".weight")).value_or(0);
    const DocNode term = r.Map(pref_items[i], "podAffinityTerm", absl::StrCat(At(pref_f, i), ".podAffinityTerm"));
    if (term.IsDefined()) w.term = PodTerm(r, term, absl::StrCat(At(pref_f, i), ".podAffinityTerm"));
    preferred->push_back(std::move(w));
  }
}

Affinity ReadAffinity(ObjectReader& r, const DocNode& value) {
  Affinity a;
  const DocNode aff = r.AsMap(value, "spec.affinity");
  if (!aff.IsDefined()) return a;
  const DocNode na = r.Map(aff, "nodeAffinity", "spec.affinity.nodeAffinity");
  if (na.IsDefined()) {
    const std::string rf = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution";
    const DocNode req = r.Map(na, "requiredDuringSchedulingIgnoredDuringExecution", rf);
    if (req.IsDefined()) {
      a.has_required_node_terms = true;
      const DocNode terms = r.List(req, "nodeSelectorTerms", absl::StrCat(rf, ".nodeSelectorTerms"));
      const std::vector<DocNode> terms_items = terms.Items();
      for (size_t i = 0; i < terms_items.size(); ++i) {
        a.required_node_terms.push_back(Term(r, terms_items[i], At(absl::StrCat(rf, ".nodeSelectorTerms"), i)));
      }
    }
    const std::string pf = "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution";
    const DocNode pref = r.List(na, "preferredDuringSchedulingIgnoredDuringExecution", pf);
    const std::vector<DocNode> pref_items = pref.Items();
    for (size_t i = 0; i < pref_items.size(); ++i) {
      PreferredSchedulingTerm t;
      t.weight = r.Int32(pref_items[i], "weight", absl::StrCat(At(pf, i), ".weight")).value_or(0);
      const DocNode p = r.Map(pref_items[i], "preference", absl::StrCat(At(pf, i), ".preference"));
      if (p.IsDefined()) t.preference = Term(r, p, absl::StrCat(At(pf, i), ".preference"));
      a.preferred_node_terms.push_back(std::move(t));
    }
  }
  const DocNode pa = r.Map(aff, "podAffinity", "spec.affinity.podAffinity");
  if (pa.IsDefined()) PodTerms(r, pa, "spec.affinity.podAffinity", &a.required_pod_affinity, &a.preferred_pod_affinity);
  const DocNode paa = r.Map(aff, "podAntiAffinity", "spec.affinity.podAntiAffinity");
  if (paa.IsDefined()) {
    PodTerms(r, paa, "spec.affinity.podAntiAffinity", &a.required_pod_anti_affinity, &a.preferred_pod_anti_affinity);
  }
  return a;
}

// `field` is "spec.containers" or "spec.initContainers".
std::vector<Container> Containers(ObjectReader& r, const DocNode& value, absl::string_view field, bool init,
                                  bool host_network) {
  std::vector<Container> out;
  const DocNode l = r.AsList(value, field);
  if (!l.IsDefined()) return out;
  out.reserve(l.size());
  size_t i = 0;
  l.ForEachItem([&](const DocNode& item) {
    Container c;
    const auto [name, image, resources, restart_policy, ports_value] =
        item.Fields({"name", "image", "resources", "restartPolicy", "ports"});
    r.AsStringInto(name, FieldPath(field, i, ".name"), "", &c.name);
    r.AsStringInto(image, FieldPath(field, i, ".image"), "", &c.image);
    const DocNode res = r.AsMap(resources, FieldPath(field, i, ".resources"));
    const auto [requests, limits_value, claims] = res.Fields({"requests", "limits", "claims"});
    c.requests = r.AsResources(requests, FieldPath(field, i, ".resources.requests"));
    // The API server defaults a missing request to the limit.
    c.limits = r.AsResources(limits_value, FieldPath(field, i, ".resources.limits"));
    for (const auto& [resource, v] : c.limits) c.requests.emplace(resource, v);
    if (claims.IsDefined()) r.Warn(FieldPath(field, i, ".resources.claims"), "dynamic resource claims are not modelled");
    if (init) c.restartable = r.AsString(restart_policy, FieldPath(field, i, ".restartPolicy")).value_or("") == "Always";
    const DocNode ports = r.AsList(ports_value, FieldPath(field, i, ".ports"));
    for (size_t p = 0; ports.IsDefined() && p < ports.size(); ++p) {
      if (!ports[p].IsMap()) continue;
      const std::string at = At(absl::StrCat(At(field, i), ".ports"), p);
      HostPort hp;
      const std::optional<int32_t> host = r.Int32(ports[p], "hostPort", absl::StrCat(at, ".hostPort"));
      // A hostNetwork pod's container ports are host ports (the API server copies them).
      const int32_t container =
          host_network ? r.Int32(ports[p], "containerPort", absl::StrCat(at, ".containerPort")).value_or(0) : 0;
      if (!host.value_or(0) && !container) continue;
      hp.port = host.value_or(0) ? *host : container;
      hp.protocol = r.String(ports[p], "protocol", absl::StrCat(at, ".protocol")).value_or("TCP");
      hp.host_ip = r.String(ports[p], "hostIP", absl::StrCat(at, ".hostIP")).value_or("");
      c.host_ports.push_back(std::move(hp));
    }
    out.push_back(std::move(c));
    ++i;
  });
  return out;
}

}  // namespace

// vcsched.io/expected-runtime (docs/ETA.md), when given, must parse: estimates read it.
void CheckExpectedRuntime(ObjectReader& r, const DocNode& at, const Labels& annotations) {
  auto it = annotations.find(kExpectedRuntimeAnnotation);
  if (it == annotations.end()) return;
  if (absl::StatusOr<RuntimeRange> range = ParseRuntimeRange(it->second); !range.ok()) {
    r.Fail(at, absl::StrCat("metadata.annotations[", kExpectedRuntimeAnnotation, "]"), range.status().message());
  }
}

// The node's load from its annotations (NodeMetrics): none when no annotation names it;
// the two numbers and the time otherwise, each required.
std::optional<NodeMetrics> ReadNodeMetrics(ObjectReader& r, const DocNode& meta, const Labels& annotations) {
  const char* const keys[] = {kNodeCpuUsageAnnotation, kNodeMemoryUsageAnnotation, kNodeUsageTimeAnnotation};
  bool any = false;
  for (const char* key : keys) any = any || annotations.count(key) > 0;
  if (!any) return std::nullopt;
  NodeMetrics m;
  bool ok = true;
  const auto field = [](const char* key) { return absl::StrCat("metadata.annotations[", key, "]"); };
  for (const char* key : keys) {
    auto it = annotations.find(key);
    if (it == annotations.end()) {
      r.Fail(meta, field(key), "is required beside the other node metrics annotations");
      ok = false;
      continue;
    }
    if (key == kNodeUsageTimeAnnotation) {
      if (!ParseApiTime(it->second, &m.time)) {
        r.Fail(meta, field(key), absl::StrCat("\"", it->second, "\" is not an RFC 3339 time"));
        ok = false;
      }
      continue;
    }
    double v = 0;
    if (!absl::SimpleAtod(it->second, &v) || !std::isfinite(v) || v < 0) {
      r.Fail(meta, field(key), absl::StrCat("\"", it->second, "\" is not a percentage (a number, 0 or more)"));
      ok = false;
      continue;
    }
    (key == kNodeCpuUsageAnnotation ? m.cpu_percent : m.memory_percent) = v;
  }
  if (!ok) return std::nullopt;
  return m;
}

void ReadNode(ObjectReader& r, const DocNode& doc, NodeSpec* out) {
  NodeSpec& n = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  n.name = r.String(meta, "name", "metadata.name").value_or("");
  n.labels = r.StringMap(meta, "labels", "metadata.labels");
  n.annotations = r.StringMap(meta, "annotations", "metadata.annotations");
  n.metrics = ReadNodeMetrics(r, meta, n.annotations);
  const DocNode spec = r.Map(doc, "spec", "spec");
  n.unschedulable = r.Bool(spec, "unschedulable", "spec.unschedulable").value_or(false);
  const DocNode taints = r.List(spec, "taints", "spec.taints");
  const std::vector<DocNode> taints_items = taints.Items();
  for (size_t i = 0; i < taints_items.size(); ++i) {
    const std::string f = At("spec.taints", i);
    Taint t;
    t.key = r.String(taints_items[i], "key", absl::StrCat(f, ".key")).value_or("");
    t.value = r.String(taints_items[i], "value", absl::StrCat(f, ".value")).value_or("");
    t.effect = r.String(taints_items[i], "effect", absl::StrCat(f, ".effect")).value_or("");
    if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute") {
      r.Fail(taints_items[i], absl::StrCat(f, ".effect"), absl::StrCat("unknown effect \"", t.effect, "\""));
    }
    n.taints.push_back(std::move(t));
  }
  const DocNode status = r.Map(doc, "status", "status");
  const bool has_alloc = status.IsDefined() && status.Get("allocatable").IsDefined() && !status.Get("allocatable").IsNull();
  n.capacity = r.Resources(status, "capacity", "status.capacity");
  n.allocatable = has_alloc ? r.Resources(status, "allocatable", "status.allocatable") : n.capacity;
  const std::vector<DocNode> images = r.List(status, "images", "status.images").Items();
  for (size_t i = 0; i < images.size(); ++i) {
    const std::string f = At("status.images", i);
    NodeImage& image = n.images.emplace_back();
    image.size_bytes = r.Int(images[i], "sizeBytes", absl::StrCat(f, ".sizeBytes")).value_or(0);
    if (image.size_bytes < 0) r.Fail(images[i], absl::StrCat(f, ".sizeBytes"), "must not be negative");
    const std::vector<DocNode> names = r.List(images[i], "names", absl::StrCat(f, ".names")).Items();
    for (size_t k = 0; k < names.size(); ++k) {
      std::optional<std::string> name = r.AsString(names[k], At(absl::StrCat(f, ".names"), k));
      if (name) image.names.push_back(std::move(*name));
    }
  }
}

// Pods are the bulk of a snapshot: each object's fields are found in one pass (Fields).
void ReadPod(ObjectReader& r, const DocNode& doc, PodSpec* out) {
  PodSpec& p = *out;
  const auto [metadata, spec_value, status_value] = doc.Fields({"metadata", "spec", "status"});
  const DocNode meta = r.AsMap(metadata, "metadata");
  const auto [name, namespace_, uid, labels, annotations, created, deleted, owner_references, resource_version] =
      meta.Fields({"name", "namespace", "uid", "labels", "annotations", "creationTimestamp", "deletionTimestamp",
                   "ownerReferences", "resourceVersion"});
  r.AsStringInto(name, "metadata.name", "", &p.name);
  r.AsStringInto(namespace_, "metadata.namespace", "default", &p.namespace_);
  r.AsStringInto(uid, "metadata.uid", "", &p.uid);
  r.AsStringInto(resource_version, "metadata.resourceVersion", "", &p.resource_version);
  p.labels = r.AsStringMap(labels, "metadata.labels");
  p.annotations = r.AsStringMap(annotations, "metadata.annotations");
  CheckExpectedRuntime(r, annotations, p.annotations);
  p.creation_time = r.AsTime(created, "metadata.creationTimestamp");
  p.deleting = deleted.IsDefined() && !deleted.IsNull();
  const DocNode owners = r.AsList(owner_references, "metadata.ownerReferences");
  const std::vector<DocNode> owners_items = owners.Items();
  for (size_t i = 0; i < owners_items.size(); ++i) {
    if (r.Bool(owners_items[i], "controller", FieldPath("metadata.ownerReferences", i, ".controller")).value_or(false)) {
      p.controller_uid = r.String(owners_items[i], "uid", FieldPath("metadata.ownerReferences", i, ".uid")).value_or("");
    }
  }
  const DocNode spec = r.AsMap(spec_value, "spec");
  const auto [scheduler_name, node_name, priority, priority_class_name, preemption_policy, node_selector, affinity,
              tolerations, spread_constraints, containers, init_containers, overhead, scheduling_gates, volumes,
              host_network_value, active_deadline] =
      spec.Fields({"schedulerName", "nodeName", "priority", "priorityClassName", "preemptionPolicy", "nodeSelector",
                   "affinity", "tolerations", "topologySpreadConstraints", "containers", "initContainers",
                   "overhead", "schedulingGates", "volumes", "hostNetwork", "activeDeadlineSeconds"});
  r.AsStringInto(scheduler_name, "spec.schedulerName", "", &p.scheduler_name);
  r.AsStringInto(node_name, "spec.nodeName", "", &p.node_name);
  if (auto v = r.AsInt32(priority, "spec.priority")) p.priority = *v;
  if (auto v = r.AsInt(active_deadline, "spec.activeDeadlineSeconds")) p.active_deadline_seconds = *v;
  r.AsStringInto(priority_class_name, "spec.priorityClassName", "", &p.priority_class_name);
  r.AsStringInto(preemption_policy, "spec.preemptionPolicy", "", &p.preemption_policy);
  p.node_selector = r.AsStringMap(node_selector, "spec.nodeSelector");
  if (affinity.IsDefined()) p.affinity = ReadAffinity(r, affinity);
  const DocNode tols = r.AsList(tolerations, "spec.tolerations");
  const std::vector<DocNode> tols_items = tols.Items();
  for (size_t i = 0; i < tols_items.size(); ++i) {
    const char* f = "spec.tolerations";
    Toleration t;
    t.key = r.String(tols_items[i], "key", FieldPath(f, i, ".key")).value_or("");
    t.op = r.String(tols_items[i], "operator", FieldPath(f, i, ".operator")).value_or("Equal");
    t.value = r.String(tols_items[i], "value", FieldPath(f, i, ".value")).value_or("");
    t.effect = r.String(tols_items[i], "effect", FieldPath(f, i, ".effect")).value_or("");
    // Gt and Lt are API values since Kubernetes 1.35 (TaintTolerationComparisonOperators);
    // Volcano runs the taint plugins with that gate off, so such a toleration tolerates
    // no taint (tests/k8s-tables/tainttoleration-filter.yaml).
    if (t.op != "Equal" && t.op != "Exists" && t.op != "Gt" && t.op != "Lt") {
      r.Fail(tols_items[i], FieldPath(f, i, ".operator"), absl::StrCat("unknown operator \"", t.op, "\""));
    }
    p.tolerations.push_back(std::move(t));
  }
  const DocNode tsc = r.AsList(spread_constraints, "spec.topologySpreadConstraints");
  const std::vector<DocNode> tsc_items = tsc.Items();
  for (size_t i = 0; i < tsc_items.size(); ++i) {
    const std::string f = At("spec.topologySpreadConstraints", i);
    TopologySpreadConstraint c;
    c.max_skew = r.Int32(tsc_items[i], "maxSkew", absl::StrCat(f, ".maxSkew")).value_or(1);
    if (c.max_skew < 1) r.Fail(tsc_items[i], absl::StrCat(f, ".maxSkew"), "must be at least 1");
    c.topology_key = r.String(tsc_items[i], "topologyKey", absl::StrCat(f, ".topologyKey")).value_or("");
    const std::string when = r.String(tsc_items[i], "whenUnsatisfiable", absl::StrCat(f, ".whenUnsatisfiable")).value_or("DoNotSchedule");
    if (when != "DoNotSchedule" && when != "ScheduleAnyway") {
      r.Fail(tsc_items[i], absl::StrCat(f, ".whenUnsatisfiable"), absl::StrCat("unknown value \"", when, "\""));
    }
    c.do_not_schedule = when == "DoNotSchedule";
    const DocNode sel = r.Map(tsc_items[i], "labelSelector", absl::StrCat(f, ".labelSelector"));
    c.has_label_selector = sel.IsDefined();
    if (sel.IsDefined()) c.label_selector = Selector(r, sel, absl::StrCat(f, ".labelSelector"));
    // matchLabelKeys: the pod's own values of these keys are ANDed into the selector (a
    // key the pod lacks is ignored), as the API server merges them.
    for (const std::string& key : StringList(r, tsc_items[i], "matchLabelKeys", absl::StrCat(f, ".matchLabelKeys"))) {
      auto own = p.labels.find(key);
      if (own == p.labels.end() || !c.has_label_selector) continue;
      c.label_selector.match_expressions.push_back({key, LabelSelectorRequirement::Operator::kIn, {own->second}});
    }
    c.min_domains = r.Int32(tsc_items[i], "minDomains", absl::StrCat(f, ".minDomains")).value_or(1);
    const auto policy = [&](const char* key, bool honor_by_default) {
      const std::optional<std::string> v = r.String(tsc_items[i], key, absl::StrCat(f, ".", key));
      if (!v) return honor_by_default;
      if (*v != "Honor" && *v != "Ignore") {
        r.Fail(tsc_items[i], absl::StrCat(f, ".", key), absl::StrCat("unknown policy \"", *v, "\" (Honor or Ignore)"));
      }
      return *v == "Honor";
    };
    c.honor_node_affinity = policy("nodeAffinityPolicy", true);
    c.honor_node_taints = policy("nodeTaintsPolicy", false);
    p.topology_spread_constraints.push_back(std::move(c));
  }
  const bool host_network = r.AsBool(host_network_value, "spec.hostNetwork").value_or(false);
  p.containers = Containers(r, containers, "spec.containers", false, host_network);
  p.init_containers = Containers(r, init_containers, "spec.initContainers", true, host_network);
  p.overhead = r.AsResources(overhead, "spec.overhead");
  const DocNode gates = r.AsList(scheduling_gates, "spec.schedulingGates");
  p.scheduling_gated = gates.IsDefined() && gates.size() > 0;
  const DocNode vols = r.AsList(volumes, "spec.volumes");
  const std::vector<DocNode> vols_items = vols.Items();
  for (size_t i = 0; i < vols_items.size(); ++i) {
    if (!vols_items[i].IsMap()) continue;
    const std::string f = At("spec.volumes", i);
    const std::string volume = r.String(vols_items[i], "name", absl::StrCat(f, ".name")).value_or("");
    const DocNode claim = r.Map(vols_items[i], "persistentVolumeClaim", absl::StrCat(f, ".persistentVolumeClaim"));
    if (claim.IsDefined()) {
      p.volume_claims.push_back(
          {volume, r.String(claim, "claimName", absl::StrCat(f, ".persistentVolumeClaim.claimName")).value_or("")});
    } else if (r.Map(vols_items[i], "ephemeral", absl::StrCat(f, ".ephemeral")).IsDefined()) {
      // A generic ephemeral volume: its claim is "<pod>-<volume>" (ephemeral.VolumeClaimName).
      p.volume_claims.push_back({volume, absl::StrCat(p.name, "-", volume), /*ephemeral=*/true});
    }
    const DocNode image = r.Map(vols_items[i], "image", absl::StrCat(At("spec.volumes", i), ".image"));
    if (image.IsDefined()) {  // an image volume: ImageLocality counts its image
      std::optional<std::string> ref = r.String(image, "reference", absl::StrCat(At("spec.volumes", i), ".image.reference"));
      if (ref && !ref->empty()) p.image_volumes.push_back(std::move(*ref));
    }
  }
  const DocNode status = r.AsMap(status_value, "status");
  const auto [phase, nominated_node_name, conditions, start_time, qos_class] =
      status.Fields({"phase", "nominatedNodeName", "conditions", "startTime", "qosClass"});
  r.AsStringInto(qos_class, "status.qosClass", "", &p.qos_class);
  if (start_time.IsDefined() && !start_time.IsNull()) p.start_time = r.AsTime(start_time, "status.startTime");
  r.AsStringInto(phase, "status.phase", "Pending", &p.phase);
  if (conditions.IsDefined() && !conditions.IsNull()) {
    const std::vector<DocNode> items = r.AsList(conditions, "status.conditions").Items();
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string field = At("status.conditions", i);
      const DocNode c = r.AsMap(items[i], field);
      if (r.String(c, "type", field + ".type").value_or("") != "PodScheduled" ||
          r.String(c, "status", field + ".status").value_or("") != "True") {
        continue;
      }
      p.scheduled_time = r.Time(c, "lastTransitionTime", field + ".lastTransitionTime");
    }
  }
  static const char* kPodPhases[] = {"Pending", "Running", "Succeeded", "Failed", "Unknown"};
  if (std::find(std::begin(kPodPhases), std::end(kPodPhases), p.phase) == std::end(kPodPhases)) {
    r.Fail(phase, "status.phase", absl::StrCat("unknown phase \"", p.phase, "\""));
  }
  r.AsStringInto(nominated_node_name, "status.nominatedNodeName", "", &p.nominated_node_name);
}

namespace {

std::optional<NetworkTopologySpec> NetworkTopology(ObjectReader& r, const DocNode& parent, const char* key,
                                                   const std::string& field) {
  const DocNode n = r.Map(parent, key, field);
  if (!n.IsDefined()) return std::nullopt;
  NetworkTopologySpec t;
  const std::string mode = r.String(n, "mode", field + ".mode").value_or("hard");
  if (mode == "soft") {
    t.mode = NetworkTopologySpec::Mode::kSoft;
  } else if (mode.empty()) {
    t.mode = NetworkTopologySpec::Mode::kNeither;
    r.Warn(field + ".mode", "empty: neither hard nor soft, so no tier limit applies (the CRD's default is hard)");
  } else if (mode != "hard") {
    r.Fail(n.Get("mode"), field + ".mode", absl::StrCat("unknown mode \"", mode, "\" (hard or soft)"));
  }
  t.highest_tier_allowed = r.Int32(n, "highestTierAllowed", field + ".highestTierAllowed");
  t.highest_tier_name = r.String(n, "highestTierName", field + ".highestTierName").value_or("");
  if (t.highest_tier_allowed && !t.highest_tier_name.empty()) {
    r.Fail(n, field, "highestTierAllowed and highestTierName must not both be set");
  }
  return t;
}

SubGroupPolicySpec SubGroupPolicy(ObjectReader& r, const DocNode& n, const std::string& field) {
  SubGroupPolicySpec p;
  p.name = r.String(n, "name", field + ".name").value_or("");
  if (p.name.empty()) r.Fail(n, field + ".name", "is required");
  p.sub_group_size = r.Int32(n, "subGroupSize", field + ".subGroupSize");
  if (p.sub_group_size && *p.sub_group_size < 0) r.Fail(n.Get("subGroupSize"), field + ".subGroupSize", "must not be negative");
  p.min_sub_groups = r.Int32(n, "minSubGroups", field + ".minSubGroups").value_or(0);
  if (p.min_sub_groups < 0) r.Fail(n.Get("minSubGroups"), field + ".minSubGroups", "must not be negative");
  p.match_label_keys = StringList(r, n, "matchLabelKeys", field + ".matchLabelKeys");
  const DocNode sel = r.Map(n, "labelSelector", field + ".labelSelector");
  if (sel.IsDefined()) p.label_selector = Selector(r, sel, field + ".labelSelector");
  p.network_topology = NetworkTopology(r, n, "networkTopology", field + ".networkTopology");
  return p;
}

HyperNodeMember Member(ObjectReader& r, const DocNode& n, const std::string& field) {
  HyperNodeMember m;
  const std::string type = r.String(n, "type", field + ".type").value_or("");
  if (type == "HyperNode") {
    m.type = HyperNodeMember::Type::kHyperNode;
  } else if (type != "Node") {
    r.Fail(n.Get("type"), field + ".type", absl::StrCat("expected Node or HyperNode, got \"", type, "\""));
  }
  const DocNode sel = r.Map(n, "selector", field + ".selector");
  int selectors = 0;
  if (const DocNode exact = r.Map(sel, "exactMatch", field + ".selector.exactMatch"); exact.IsDefined()) {
    ++selectors;
    m.match = HyperNodeMember::Match::kExact;
    m.name = r.String(exact, "name", field + ".selector.exactMatch.name").value_or("");
  }
  if (const DocNode regex = r.Map(sel, "regexMatch", field + ".selector.regexMatch"); regex.IsDefined()) {
    ++selectors;
    m.match = HyperNodeMember::Match::kRegex;
    m.name = r.String(regex, "pattern", field + ".selector.regexMatch.pattern").value_or("");
  }
  if (const DocNode label = r.Map(sel, "labelMatch", field + ".selector.labelMatch"); label.IsDefined()) {
    ++selectors;
    m.match = HyperNodeMember::Match::kLabel;
    m.labels = Selector(r, label, field + ".selector.labelMatch");
  }
  if (selectors != 1) {
    r.Fail(n, field + ".selector", "needs exactly one of exactMatch, regexMatch and labelMatch");
  }
  return m;
}

}  // namespace

void ReadHyperNode(ObjectReader& r, const DocNode& doc, HyperNodeSpec* out) {
  HyperNodeSpec& h = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  h.name = r.String(meta, "name", "metadata.name").value_or("");
  h.labels = r.StringMap(meta, "labels", "metadata.labels");
  const DocNode spec = r.Map(doc, "spec", "spec");
  const size_t errors_before = r.error_count();
  const std::optional<int32_t> tier = r.Int32(spec, "tier", "spec.tier");
  if (!tier && r.error_count() == errors_before) r.Fail(spec, "spec.tier", "is required");
  h.tier = tier.value_or(0);
  if (h.tier < 0) r.Fail(spec.Get("tier"), "spec.tier", "must not be negative");
  h.tier_name = r.String(spec, "tierName", "spec.tierName").value_or("");
  const DocNode members = r.List(spec, "members", "spec.members");
  if (members.IsDefined()) {
    const std::vector<DocNode> items = members.Items();
    for (size_t i = 0; i < items.size(); ++i) h.members.push_back(Member(r, items[i], At("spec.members", i)));
  }
}

void ReadPodGroup(ObjectReader& r, const DocNode& doc, PodGroupSpec* out) {
  PodGroupSpec& g = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  g.name = r.String(meta, "name", "metadata.name").value_or("");
  g.namespace_ = r.String(meta, "namespace", "metadata.namespace").value_or("default");
  g.uid = r.String(meta, "uid", "metadata.uid").value_or("");
  g.labels = r.StringMap(meta, "labels", "metadata.labels");
  g.annotations = r.StringMap(meta, "annotations", "metadata.annotations");
  CheckExpectedRuntime(r, meta, g.annotations);
  g.creation_time = r.Time(meta, "creationTimestamp", "metadata.creationTimestamp");
  const DocNode spec = r.Map(doc, "spec", "spec");
  g.min_member = r.Int32(spec, "minMember", "spec.minMember").value_or(0);
  if (spec.IsDefined() && spec.Get("minResources").IsDefined() && !spec.Get("minResources").IsNull()) {
    const size_t errors = r.error_count();
    g.min_resources = r.Resources(spec, "minResources", "spec.minResources");
    // Every name again, for resourcequota; a bad quantity is reported once.
    if (r.error_count() == errors) g.quota_min_resources = r.Quotas(spec, "minResources", "spec.minResources");
  }
  r.Map(spec, "minTaskMember", "spec.minTaskMember").ForEachEntry([&](const std::string& role, const DocNode& n) {
    if (const std::optional<int32_t> v = r.AsInt32(n, absl::StrCat("spec.minTaskMember.", role))) {
      g.min_task_member[role] = *v;
    } else if (n.IsNull()) {
      r.Fail(n, absl::StrCat("spec.minTaskMember.", role), "expected an integer, got null");
    }
  });
  g.queue = r.String(spec, "queue", "spec.queue").value_or("");
  g.priority_class_name = r.String(spec, "priorityClassName", "spec.priorityClassName").value_or("");
  g.network_topology = NetworkTopology(r, spec, "networkTopology", "spec.networkTopology");
  const DocNode policies = r.List(spec, "subGroupPolicy", "spec.subGroupPolicy");
  if (policies.IsDefined()) {
    const std::vector<DocNode> items = policies.Items();
    for (size_t i = 0; i < items.size(); ++i) {
      g.sub_group_policy.push_back(SubGroupPolicy(r, items[i], At("spec.subGroupPolicy", i)));
    }
  }
  const DocNode status = r.Map(doc, "status", "status");
  g.phase = r.String(status, "phase", "status.phase").value_or("Pending");
  g.running = r.Int32(status, "running", "status.running").value_or(0);
  g.succeeded = r.Int32(status, "succeeded", "status.succeeded").value_or(0);
  g.failed = r.Int32(status, "failed", "status.failed").value_or(0);
  const DocNode conditions = r.List(status, "conditions", "status.conditions");
  if (conditions.IsDefined()) {
    const std::vector<DocNode> items = conditions.Items();
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string field = At("status.conditions", i);
      const DocNode c = r.AsMap(items[i], field);
      PodGroupConditionSpec& out_c = g.conditions.emplace_back();
      out_c.type = r.String(c, "type", field + ".type").value_or("");
      out_c.status = r.String(c, "status", field + ".status").value_or("");
      out_c.transition_id = r.String(c, "transitionID", field + ".transitionID").value_or("");
      out_c.last_transition_time = r.Time(c, "lastTransitionTime", field + ".lastTransitionTime");
      out_c.reason = r.String(c, "reason", field + ".reason").value_or("");
      out_c.message = r.String(c, "message", field + ".message").value_or("");
    }
  }
  if (g.min_member < 0) r.Fail(spec.Get("minMember"), "spec.minMember", "must not be negative");
  for (const auto& [role, n] : g.min_task_member) {
    if (n < 0) r.Fail(spec.Get("minTaskMember"), absl::StrCat("spec.minTaskMember.", role), "must not be negative");
  }
  static const char* kPhases[] = {"Pending", "Inqueue", "Running", "Unknown", "Completed"};
  if (std::find(std::begin(kPhases), std::end(kPhases), g.phase) == std::end(kPhases)) {
    r.Fail(status.Get("phase"), "status.phase", absl::StrCat("unknown phase \"", g.phase, "\""));
  }
}

void ReadQueue(ObjectReader& r, const DocNode& doc, QueueSpec* out) {
  QueueSpec& q = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  q.name = r.String(meta, "name", "metadata.name").value_or("");
  q.annotations = r.StringMap(meta, "annotations", "metadata.annotations");
  q.creation_time = r.Time(meta, "creationTimestamp", "metadata.creationTimestamp");
  const DocNode spec = r.Map(doc, "spec", "spec");
  q.weight = r.Int32(spec, "weight", "spec.weight").value_or(1);
  if (q.weight < 0) r.Fail(spec.Get("weight"), "spec.weight", "must not be negative");
  q.priority = r.Int32(spec, "priority", "spec.priority").value_or(0);
  q.capability = r.Resources(spec, "capability", "spec.capability");
  const DocNode guarantee = r.Map(spec, "guarantee", "spec.guarantee");
  q.guarantee = r.Resources(guarantee, "resource", "spec.guarantee.resource");
  q.deserved = r.Resources(spec, "deserved", "spec.deserved");
  q.reclaimable = r.Bool(spec, "reclaimable", "spec.reclaimable").value_or(true);
  q.parent = r.String(spec, "parent", "spec.parent").value_or("");
  const DocNode affinity = r.Map(spec, "affinity", "spec.affinity");
  if (affinity.IsDefined() && !affinity.IsNull()) {
    QueueAffinity& a = q.affinity.emplace();
    const DocNode pro = r.Map(affinity, "nodeGroupAffinity", "spec.affinity.nodeGroupAffinity");
    const DocNode anti = r.Map(affinity, "nodeGroupAntiAffinity", "spec.affinity.nodeGroupAntiAffinity");
    a.has_affinity = pro.IsDefined() && !pro.IsNull();
    a.has_anti_affinity = anti.IsDefined() && !anti.IsNull();
    constexpr const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
    constexpr const char* kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";
    a.affinity_required = StringList(r, pro, kRequired, absl::StrCat("spec.affinity.nodeGroupAffinity.", kRequired));
    a.affinity_preferred = StringList(r, pro, kPreferred, absl::StrCat("spec.affinity.nodeGroupAffinity.", kPreferred));
    a.anti_affinity_required =
        StringList(r, anti, kRequired, absl::StrCat("spec.affinity.nodeGroupAntiAffinity.", kRequired));
    a.anti_affinity_preferred =
        StringList(r, anti, kPreferred, absl::StrCat("spec.affinity.nodeGroupAntiAffinity.", kPreferred));
  }
  const DocNode status = r.Map(doc, "status", "status");
  // The queue controller turns an empty state into Open at once.
  q.state = r.String(status, "state", "status.state").value_or("Open");
  if (q.state.empty()) q.state = "Open";
}

void ReadPriorityClass(ObjectReader& r, const DocNode& doc, PriorityClassSpec* out) {
  PriorityClassSpec& c = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  c.name = r.String(meta, "name", "metadata.name").value_or("");
  const DocNode value = doc.Get("value");
  if (!value.IsDefined() || value.IsNull()) r.Fail(doc, "value", "is required");
  c.value = r.AsInt32(value, "value").value_or(0);
  c.global_default = r.Bool(doc, "globalDefault", "globalDefault").value_or(false);
  c.preemption_policy = r.String(doc, "preemptionPolicy", "preemptionPolicy").value_or("");
}

}  // namespace vcsched::io_internal
