// The Kubernetes and Volcano objects a snapshot is built from, as plain values.
//
// These mirror the fields of Node, Pod, PodGroup, Queue and PriorityClass that change a
// scheduling decision (see docs/FORMAT.md). Quantities are already converted to
// stored units (ParseResourceList); everything else is as the API server prints it.
// Hosts fill these directly; the YAML loader (io/scenario.h) fills them from manifests.
#ifndef VCSCHED_OBJECTS_H_
#define VCSCHED_OBJECTS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace vcsched {

// Longest object name Kubernetes accepts (a DNS-1123 subdomain); longer names are
// rejected as input errors.
inline constexpr size_t kMaxNameLength = 253;

// Transparent comparison: lookups by string_view or literal build no key string.
using Labels = std::map<std::string, std::string, std::less<>>;
// Resource name -> amount in stored units (milli for cpu and scalars, bytes for memory,
// a count for pods). Names Volcano ignores are not kept.
using ResourceList = std::map<std::string, int64_t>;
// Quantities under every name a ResourceQuota may hold (cpu, requests.cpu, limits.memory,
// pods, count/pods, requests.storage, ...), where a ResourceList keeps only the names the
// resource model tracks. Units by name (QuotaUnitIsBytes in policy.h): bytes for memory,
// storage and hugepages names, thousandths for every other name.
using QuotaList = std::map<std::string, int64_t>;

// Converts Kubernetes quantities (name -> text) into a ResourceList. Names Volcano does
// not track are dropped; `dropped`, when given, receives them. Negative amounts are
// rejected. Errors name the resource: `memory: invalid quantity "4Gx"`.
absl::StatusOr<ResourceList> ParseResourceList(
    const std::vector<std::pair<std::string, std::string>>& quantities,
    std::vector<std::string>* dropped = nullptr);
// One quantity of a ResourceList in stored units; `*tracked` is false for a name Volcano
// does not track (its quantity must still parse). Errors do not name the resource:
// `invalid quantity "4Gx"`.
absl::StatusOr<int64_t> ParseResourceQuantity(absl::string_view name, absl::string_view text, bool* tracked);
// An RFC 3339 time (metadata.creationTimestamp) as seconds since the epoch; false when the
// text is not one. The API server's own form, "2026-11-29T18:04:21Z", is read without a
// general time parser.
bool ParseApiTime(absl::string_view text, int64_t* seconds);

struct LabelSelectorRequirement {
  enum class Operator { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };
  std::string key;
  Operator op = Operator::kIn;
  std::vector<std::string> values;
};

// metav1.LabelSelector. An empty selector matches everything.
struct LabelSelector {
  Labels match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
};

// Kubernetes' matching: the requirement holds for `labels` (Gt and Lt compare integers;
// a value that is not one fails); a selector matches when every matchLabels pair and
// every expression holds.
bool MatchesRequirement(const LabelSelectorRequirement& requirement, const Labels& labels);
bool MatchesLabelSelector(const LabelSelector& selector, const Labels& labels);

// A node selector term: all requirements must hold. match_fields supports only
// metadata.name, as Kubernetes does.
struct NodeSelectorTerm {
  std::vector<LabelSelectorRequirement> match_expressions;
  std::vector<LabelSelectorRequirement> match_fields;
  // False when Kubernetes could not parse a requirement (a value that is not a label
  // value, a key that is not a qualified name, a Gt without one integer, ...): the term
  // then matches no node. Set by SnapshotBuilder::Build.
  bool parses = true;
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
};

struct PodAffinityTerm {
  LabelSelector label_selector;
  bool has_label_selector = false;  // a term without a selector matches no pod
  std::vector<std::string> namespaces;  // empty and no namespace selector: the pod's own
  // Selects namespaces by their Namespace objects' labels (kind: Namespace in the input;
  // every namespace also has kubernetes.io/metadata.name); an empty one selects all.
  std::optional<LabelSelector> namespace_selector;
  std::string topology_key;
};

struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm term;
};

struct Affinity {
  // requiredDuringSchedulingIgnoredDuringExecution of nodeAffinity: terms are ORed.
  bool has_required_node_terms = false;
  std::vector<NodeSelectorTerm> required_node_terms;
  std::vector<PreferredSchedulingTerm> preferred_node_terms;
  std::vector<PodAffinityTerm> required_pod_affinity;
  std::vector<WeightedPodAffinityTerm> preferred_pod_affinity;
  std::vector<PodAffinityTerm> required_pod_anti_affinity;
  std::vector<WeightedPodAffinityTerm> preferred_pod_anti_affinity;
};

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
};

struct Toleration {
  std::string key;  // empty with operator Exists: tolerates every taint
  std::string op = "Equal";  // Equal or Exists
  std::string value;
  std::string effect;  // empty: every effect
};

struct TopologySpreadConstraint {
  int32_t max_skew = 1;
  std::string topology_key;
  bool do_not_schedule = true;  // whenUnsatisfiable DoNotSchedule; else ScheduleAnyway
  // The selector, with matchLabelKeys merged in (key In the pod's own value). Without a
  // labelSelector the constraint selects no pod, as Kubernetes reads it.
  LabelSelector label_selector;
  bool has_label_selector = false;
  int32_t min_domains = 1;
  // Node inclusion policies (Kubernetes' defaults): only nodes that match the pod's
  // node affinity and selector count (nodeAffinityPolicy Honor); taints are not
  // considered (nodeTaintsPolicy Ignore).
  bool honor_node_affinity = true;
  bool honor_node_taints = false;
};

// A container port that takes a port on the node: hostPort, or containerPort of a
// hostNetwork pod. The predicates plugin's NodePorts filter keeps two pods that want the
// same one off a node (src/model/host_ports.h has Kubernetes' rules).
struct HostPort {
  int32_t port = 0;
  std::string protocol = "TCP";
  std::string host_ip;  // empty: every address
};

struct Container {
  std::string name;
  ResourceList requests;
  bool restartable = false;  // an init container with restartPolicy Always (a sidecar)
  std::vector<HostPort> host_ports;
  std::string image;  // as the pod gives it; ImageLocality adds ":latest" to an untagged one
  ResourceList limits;  // resources.limits (the usage plugin's estimate reads them)
};

// An image a node holds (status.images[]): its names and size, for ImageLocality.
struct NodeImage {
  std::vector<std::string> names;
  int64_t size_bytes = 0;
};

// A pod volume backed by a claim: spec.volumes[].persistentVolumeClaim, or an ephemeral
// volume, whose claim is "<pod>-<volume>" and must be controlled by the pod.
struct PodVolumeClaim {
  std::string volume;  // the volume's name in the pod
  std::string claim;   // the claim's name, in the pod's namespace
  bool ephemeral = false;
};

// A node's load as a host's metrics source measured it (Volcano's NodeUsage), carried
// by the node's annotations (docs/FORMAT.md "Node metrics"): CPU and memory in use,
// averaged over the source's period, in percent of the node's capacity.
struct NodeMetrics {
  double cpu_percent = 0;
  double memory_percent = 0;
  int64_t time = 0;  // when they were measured, seconds since the epoch
};

struct NodeSpec {
  std::string name;
  Labels labels;
  std::vector<Taint> taints;
  bool unschedulable = false;
  ResourceList allocatable;  // status.allocatable, or status.capacity when absent
  ResourceList capacity;     // status.capacity as given (empty when absent)
  std::vector<NodeImage> images;  // status.images
  std::optional<NodeMetrics> metrics;
  // metadata.annotations as given (deviceshare reads volcano.sh/gpu-unhealthy-ids).
  Labels annotations;
};

// The annotations that carry NodeMetrics: two numbers and an RFC 3339 time.
inline constexpr const char* kNodeCpuUsageAnnotation = "vcsched.io/cpu-usage-percent";
inline constexpr const char* kNodeMemoryUsageAnnotation = "vcsched.io/memory-usage-percent";
inline constexpr const char* kNodeUsageTimeAnnotation = "vcsched.io/usage-time";

// A Namespace object: its labels are what pod affinity terms' namespaceSelector reads.
struct NamespaceSpec {
  std::string name;
  Labels labels;
};

struct PodSpec {
  std::string name;
  std::string namespace_ = "default";
  // The labels of the pod's namespace (its Namespace object's, or just
  // kubernetes.io/metadata.name); set by SnapshotBuilder::Build.
  std::shared_ptr<const Labels> namespace_labels;
  std::string uid;  // empty: "<namespace>-<name>"
  // metadata.resourceVersion as given (a Cluster ignores a pod event older than the pod
  // it holds); decides nothing.
  std::string resource_version;
  Labels labels;
  Labels annotations;
  int64_t creation_time = 0;  // seconds since the epoch; 0 when unset
  std::string scheduler_name = "volcano";
  std::string node_name;
  std::optional<int32_t> priority;
  std::string priority_class_name;
  std::string preemption_policy;  // "", PreemptLowerPriority or Never
  Labels node_selector;
  Affinity affinity;
  std::vector<Toleration> tolerations;
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  std::vector<std::string> image_volumes;  // spec.volumes[].image.reference
  ResourceList overhead;
  std::string phase = "Pending";  // Pending, Running, Succeeded, Failed, Unknown
  bool deleting = false;          // metadata.deletionTimestamp is set
  std::string nominated_node_name;
  // status.conditions' PodScheduled=True lastTransitionTime (seconds since the epoch): when
  // the pod was bound. cdp's cool-down runs from it. A Cluster's Apply sets it on a bind.
  std::optional<int64_t> scheduled_time;
  std::optional<int64_t> start_time;  // status.startTime (seconds since the epoch)
  // spec.activeDeadlineSeconds: decides nothing in a session; start-time estimates
  // (vcsched/eta.h) take it as the pod's runtime when no other is given.
  std::optional<int64_t> active_deadline_seconds;
  std::string qos_class;  // status.qosClass as given (Guaranteed, Burstable, BestEffort); empty: unset
  bool scheduling_gated = false;  // spec.schedulingGates is non-empty
  std::string controller_uid;     // uid of the controlling ownerReference, if any
  std::vector<PodVolumeClaim> volume_claims;  // spec.volumes backed by PersistentVolumeClaims
};

// PodGroup spec.networkTopology (and a sub-group policy's): how far apart in the network
// the job's pods may be (docs/FORMAT-hypernode.md rule 8).
struct NetworkTopologySpec {
  // kNeither: an explicit empty mode, which Volcano's scheduler reads as neither hard nor
  // soft (no tier limit; pods still scored by network distance).
  enum class Mode { kHard, kSoft, kNeither };
  Mode mode = Mode::kHard;  // the CRD's default
  std::optional<int32_t> highest_tier_allowed;
  std::string highest_tier_name;  // empty: unset; never set together with the tier
};

// One entry of PodGroup spec.subGroupPolicy (rule 7).
struct SubGroupPolicySpec {
  std::string name;
  std::optional<int32_t> sub_group_size;  // unset: 1
  int32_t min_sub_groups = 0;
  std::vector<std::string> match_label_keys;
  std::optional<LabelSelector> label_selector;
  std::optional<NetworkTopologySpec> network_topology;
};

// One entry of a PodGroup's status.conditions, as Volcano's scheduler writes them. No
// decision reads them: they are the scheduler's report, kept so the state round-trips.
struct PodGroupConditionSpec {
  std::string type;    // Scheduled, Unschedulable, ...
  std::string status;  // "True", "False", "Unknown"
  std::string transition_id;
  int64_t last_transition_time = 0;  // seconds since the epoch; 0: unset
  std::string reason;
  std::string message;
};

struct PodGroupSpec {
  std::string name;
  std::string namespace_ = "default";
  std::string uid;
  Labels labels;
  Labels annotations;
  int64_t creation_time = 0;
  int32_t min_member = 0;
  std::optional<ResourceList> min_resources;
  // spec.minResources under every name, in QuotaList units: the resourcequota plugin
  // compares names the resource model drops (requests.cpu, count/pods). Empty while
  // min_resources is set: the plugin reads min_resources instead (QuotaListOf).
  QuotaList quota_min_resources;
  std::map<std::string, int32_t> min_task_member;
  std::string queue;  // empty: the default queue
  std::string priority_class_name;
  std::string phase = "Pending";  // Pending, Inqueue, Running, Unknown, Completed
  std::optional<NetworkTopologySpec> network_topology;
  std::vector<SubGroupPolicySpec> sub_group_policy;
  // The rest of status, as the scheduler last wrote it; read by no decision.
  int32_t running = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  std::vector<PodGroupConditionSpec> conditions;
};

// A member of a HyperNode: nodes or a child HyperNode, chosen by exactly one selector.
struct HyperNodeMember {
  enum class Type { kNode, kHyperNode };
  enum class Match { kExact, kRegex, kLabel };
  Type type = Type::kNode;
  Match match = Match::kExact;
  std::string name;     // kExact: the node's or HyperNode's name; kRegex: the pattern (RE2, unanchored)
  LabelSelector labels; // kLabel: an empty selector selects nothing
};

// A topology.volcano.sh/v1alpha1 HyperNode: a network domain (docs/FORMAT-hypernode.md).
struct HyperNodeSpec {
  std::string name;
  Labels labels;  // metadata.labels (the label discoverer marks its own)
  int32_t tier = 0;
  std::string tier_name;
  std::vector<HyperNodeMember> members;
};

// The deepest queue hierarchy a snapshot accepts, in levels below root. Volcano's webhook
// allows 5 by default; a scheduler fed objects directly sees whatever exists, so the
// bound is generous, and only there to keep memory and stack use small.
inline constexpr int kMaxQueueHierarchyDepth = 256;

// A Queue's spec.affinity: node groups (nodes labelled volcano.sh/nodegroup-name) its
// jobs' pods may, should, should not or must not use (the nodegroup plugin).
struct QueueAffinity {
  std::vector<std::string> affinity_required, affinity_preferred;            // nodeGroupAffinity
  std::vector<std::string> anti_affinity_required, anti_affinity_preferred;  // nodeGroupAntiAffinity
  bool has_affinity = false, has_anti_affinity = false;  // the lists' parents were given
};

struct QueueSpec {
  std::string name;
  Labels annotations;
  int64_t creation_time = 0;
  int32_t weight = 1;
  int32_t priority = 0;
  ResourceList capability;  // empty: unlimited
  ResourceList guarantee;
  ResourceList deserved;
  bool reclaimable = true;
  std::string parent;  // empty: root (hierarchical capacity)
  std::string state = "Open";  // Open, Closing, Closed, Unknown
  std::optional<QueueAffinity> affinity;  // spec.affinity; nullopt when absent
};

struct PriorityClassSpec {
  std::string name;
  int32_t value = 0;
  bool global_default = false;
  std::string preemption_policy;
};

// The annotation that names a pod's PodGroup.
inline constexpr absl::string_view kPodGroupAnnotation = "scheduling.k8s.io/group-name";

// The PodGroup Volcano's controller creates for a pod that names none
// (docs/reference/lifecycle.md §9): one per owner (the controlling ownerReference, else
// the pod), named "podgroup-<owner uid>", minMember 1, minResources the pod's container
// requests, queue and priority class from the pod. Call it for a pod without
// kPodGroupAnnotation; the pod then joins it through that annotation.
PodGroupSpec ImplicitPodGroupFor(const PodSpec& pod);

}  // namespace vcsched

#endif  // VCSCHED_OBJECTS_H_
