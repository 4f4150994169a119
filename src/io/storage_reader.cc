// PersistentVolumeClaim, PersistentVolume, StorageClass and CSINode manifests.
#include "absl/strings/str_cat.h"
#include "src/io/k8s_reader.h"

namespace vcsched::io_internal {
namespace {

// A storage size ("10Gi") in bytes; 0 when absent.
int64_t StorageBytes(ObjectReader& r, const DocNode& parent, const char* key, absl::string_view field) {
  const std::optional<std::string> text = r.String(parent, key, field);
  if (!text) return 0;
  bool tracked = false;
  // Read as memory is: bytes, a fraction rounded up.
  absl::StatusOr<int64_t> bytes = ParseResourceQuantity("memory", *text, &tracked);
  if (!bytes.ok()) {
    r.Fail(parent.Get(key), field, bytes.status().message());
    return 0;
  }
  return *bytes;
}

// The controlling ownerReference's uid, if any.
std::string ControllerUid(ObjectReader& r, const DocNode& meta) {
  const DocNode owners = r.List(meta, "ownerReferences", "metadata.ownerReferences");
  const std::vector<DocNode> items = owners.Items();
  for (size_t i = 0; i < items.size(); ++i) {
    if (r.Bool(items[i], "controller", FieldPath("metadata.ownerReferences", i, ".controller")).value_or(false)) {
      return r.String(items[i], "uid", FieldPath("metadata.ownerReferences", i, ".uid")).value_or("");
    }
  }
  return "";
}

bool Deleting(const DocNode& meta) {
  const DocNode d = meta.Get("deletionTimestamp");
  return d.IsDefined() && !d.IsNull();
}

}  // namespace

void ReadPersistentVolumeClaim(ObjectReader& r, const DocNode& doc, PersistentVolumeClaimSpec* out) {
  PersistentVolumeClaimSpec& c = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  c.name = r.String(meta, "name", "metadata.name").value_or("");
  c.namespace_ = r.String(meta, "namespace", "metadata.namespace").value_or("default");
  c.uid = r.String(meta, "uid", "metadata.uid").value_or("");
  c.annotations = r.StringMap(meta, "annotations", "metadata.annotations");
  c.deleting = Deleting(meta);
  c.controller_uid = ControllerUid(r, meta);
  const DocNode spec = r.Map(doc, "spec", "spec");
  c.storage_class_name = r.String(spec, "storageClassName", "spec.storageClassName");
  c.volume_name = r.String(spec, "volumeName", "spec.volumeName").value_or("");
  c.access_modes = StringList(r, spec, "accessModes", "spec.accessModes");
  c.volume_mode = r.String(spec, "volumeMode", "spec.volumeMode").value_or("");
  c.volume_attributes_class_name =
      r.String(spec, "volumeAttributesClassName", "spec.volumeAttributesClassName").value_or("");
  const DocNode resources = r.Map(spec, "resources", "spec.resources");
  const DocNode requests = r.Map(resources, "requests", "spec.resources.requests");
  c.storage_request = StorageBytes(r, requests, "storage", "spec.resources.requests.storage");
  const DocNode selector = r.Map(spec, "selector", "spec.selector");
  if (selector.IsDefined()) c.selector = Selector(r, selector, "spec.selector");
  const DocNode status = r.Map(doc, "status", "status");
  c.phase = r.String(status, "phase", "status.phase").value_or("Pending");
}

void ReadPersistentVolume(ObjectReader& r, const DocNode& doc, PersistentVolumeSpec* out) {
  PersistentVolumeSpec& v = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  v.name = r.String(meta, "name", "metadata.name").value_or("");
  v.labels = r.StringMap(meta, "labels", "metadata.labels");
  v.annotations = r.StringMap(meta, "annotations", "metadata.annotations");
  v.deleting = Deleting(meta);
  const DocNode spec = r.Map(doc, "spec", "spec");
  v.storage_class_name = r.String(spec, "storageClassName", "spec.storageClassName").value_or("");
  const DocNode capacity = r.Map(spec, "capacity", "spec.capacity");
  v.capacity = StorageBytes(r, capacity, "storage", "spec.capacity.storage");
  v.access_modes = StringList(r, spec, "accessModes", "spec.accessModes");
  v.volume_mode = r.String(spec, "volumeMode", "spec.volumeMode").value_or("");
  v.volume_attributes_class_name =
      r.String(spec, "volumeAttributesClassName", "spec.volumeAttributesClassName").value_or("");
  const DocNode affinity = r.Map(spec, "nodeAffinity", "spec.nodeAffinity");
  const DocNode required = r.Map(affinity, "required", "spec.nodeAffinity.required");
  if (required.IsDefined()) {
    v.has_node_affinity = true;
    const DocNode terms = r.List(required, "nodeSelectorTerms", "spec.nodeAffinity.required.nodeSelectorTerms");
    const std::vector<DocNode> items = terms.Items();
    for (size_t i = 0; i < items.size(); ++i) {
      v.node_affinity.push_back(Term(r, items[i], absl::StrCat("spec.nodeAffinity.required.nodeSelectorTerms[", i, "]")));
    }
  }
  const DocNode ref = r.Map(spec, "claimRef", "spec.claimRef");
  if (ref.IsDefined()) {
    ClaimReference c;
    c.namespace_ = r.String(ref, "namespace", "spec.claimRef.namespace").value_or("");
    c.name = r.String(ref, "name", "spec.claimRef.name").value_or("");
    c.uid = r.String(ref, "uid", "spec.claimRef.uid").value_or("");
    v.claim_ref = std::move(c);
  }
  const DocNode csi = r.Map(spec, "csi", "spec.csi");
  if (csi.IsDefined()) {
    v.csi_driver = r.String(csi, "driver", "spec.csi.driver").value_or("");
    v.csi_volume_handle = r.String(csi, "volumeHandle", "spec.csi.volumeHandle").value_or("");
  }
  const DocNode status = r.Map(doc, "status", "status");
  v.phase = r.String(status, "phase", "status.phase").value_or("");
}

void ReadStorageClass(ObjectReader& r, const DocNode& doc, StorageClassSpec* out) {
  StorageClassSpec& c = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  c.name = r.String(meta, "name", "metadata.name").value_or("");
  c.provisioner = r.String(doc, "provisioner", "provisioner").value_or("");
  c.volume_binding_mode = r.String(doc, "volumeBindingMode", "volumeBindingMode").value_or("Immediate");
  c.parameters = r.StringMap(doc, "parameters", "parameters");
  const DocNode topologies = r.List(doc, "allowedTopologies", "allowedTopologies");
  const std::vector<DocNode> terms = topologies.Items();
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string f = absl::StrCat("allowedTopologies[", i, "].matchLabelExpressions");
    TopologySelectorTerm t;
    const DocNode exprs = r.List(terms[i], "matchLabelExpressions", f);
    const std::vector<DocNode> items = exprs.Items();
    for (size_t j = 0; j < items.size(); ++j) {
      const std::string fj = absl::StrCat(f, "[", j, "]");
      std::string key = r.String(items[j], "key", absl::StrCat(fj, ".key")).value_or("");
      t.match_label_expressions.emplace_back(std::move(key), StringList(r, items[j], "values", absl::StrCat(fj, ".values")));
    }
    c.allowed_topologies.push_back(std::move(t));
  }
}

void ReadCSINode(ObjectReader& r, const DocNode& doc, CSINodeSpec* out) {
  CSINodeSpec& n = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  n.name = r.String(meta, "name", "metadata.name").value_or("");
  const DocNode spec = r.Map(doc, "spec", "spec");
  const DocNode drivers = r.List(spec, "drivers", "spec.drivers");
  const std::vector<DocNode> items = drivers.Items();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string f = absl::StrCat("spec.drivers[", i, "]");
    CSINodeDriver d;
    d.name = r.String(items[i], "name", absl::StrCat(f, ".name")).value_or("");
    d.node_id = r.String(items[i], "nodeID", absl::StrCat(f, ".nodeID")).value_or("");
    const DocNode allocatable = r.Map(items[i], "allocatable", absl::StrCat(f, ".allocatable"));
    d.allocatable_count = r.Int32(allocatable, "count", absl::StrCat(f, ".allocatable.count"));
    d.topology_keys = StringList(r, items[i], "topologyKeys", absl::StrCat(f, ".topologyKeys"));
    n.drivers.push_back(std::move(d));
  }
}

}  // namespace vcsched::io_internal
