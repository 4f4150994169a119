// predicates: Kubernetes filters as Volcano's predicates plugin runs them
// (docs/reference/scheduler.md §10.6): pod count, NodeUnschedulable, NodeAffinity, TaintToleration,
// NodePorts, InterPodAffinity, VolumeZone, PodTopologySpread and VolumeBinding. Its event handlers
// keep the shared node view current with this session's placements, and reserve the volumes
// matched to placed pods' claims.
#include <algorithm>
#include <map>
#include <memory>
#include <string_view>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "src/model/host_ports.h"
#include "src/model/k8s_match.h"
#include "src/util/status_macros.h"
#include "src/internal/toleration_index.h"
#include "src/plugins/plugins.h"
#include "src/plugins/pod_affinity_state.h"
#include "src/plugins/topology.h"
#include "src/plugins/volume_filters.h"

namespace vcsched::internal {
namespace {

class PredicatesPlugin : public Plugin {
 public:
  struct Flags {
    bool node_affinity = true;
    bool node_ports = true;
    bool taint_toleration = true;
    bool pod_affinity = true;
    bool topology_spread = true;
    bool volume_zone = true;
    bool volume_binding = true;
    // VolumeBinding or DynamicResources is on: Volcano runs their Reserve before a task
    // joins the Kubernetes node view (below).
    bool reserve_plugins = true;
  };
  explicit PredicatesPlugin(Flags flags) : flags_(flags) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    ssn_ = &ssn;
    view_ = &ssn.Shared<NodeView>();
    pod_number_ = ssn.InternReason("node(s) pod number exceeded");
    unschedulable_ = ssn.InternReason("node(s) were unschedulable");
    affinity_ = ssn.InternReason("node(s) didn't match Pod's node affinity/selector");
    taint_ = ssn.InternReason("node(s) had untolerated taint(s)");
    pod_affinity_ = ssn.InternReason("node(s) didn't match pod affinity rules");
    pod_anti_affinity_ = ssn.InternReason("node(s) didn't match pod anti-affinity rules");
    existing_anti_ = ssn.InternReason("node(s) didn't satisfy existing pods anti-affinity rules");
    spread_ = ssn.InternReason("node(s) didn't match pod topology spread constraints");
    spread_label_ = ssn.InternReason("node(s) didn't match pod topology spread constraints (missing required label)");
    ports_ = ssn.InternReason("node(s) didn't have free ports for the requested pod ports");
    if (flags_.volume_zone || flags_.volume_binding) {
      bool any = false;
      for (const TaskInfo& task : ssn.snapshot().tasks()) any = any || !task.pod->volume_claims.empty();
      if (any) volumes_ = std::make_unique<VolumeFilters>(ssn.snapshot(), flags_.volume_zone, flags_.volume_binding);
      zone_ = ssn.InternReason(VolumeFilters::kZoneConflict);
      for (const char* c : {VolumeFilters::kNodeConflict, VolumeFilters::kBindConflict, VolumeFilters::kPVNotExist}) {
        binding_reasons_.emplace(c, ssn.InternReason(c));
      }
    }
    has_ports_.assign(ssn.snapshot().tasks().size(), -1);
    prefilter_seq_.assign(ssn.snapshot().tasks().size(), -1);
    // The affinity and spread filters see the pods as they were when the task's
    // PreFilter ran, as Kubernetes' cycle state does.
    ssn.AddPrePredicateFn([this](TaskIndex t) {
      const Session& st = *ssn_;
      prefilter_seq_[static_cast<size_t>(t)] = view_->seq();
      if (NeedsAffinityState(t)) {
        Remember(t, view_->seq(), PodAffinityState::FromView(st.snapshot(), t, *view_));
      }
      if (volumes_ != nullptr && volumes_->Applies(t)) {
        if (std::string why = volumes_->PreFilter(t); !why.empty()) {
          return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, ssn_->InternReason(why));
        }
      }
      return FitResult::Success();
    });
    // Steps 1 and 2 of the filter see the node's own state, step 3 other pods' places.
    ssn.AddSplitPredicateFn([this](TaskIndex t, NodeIndex n) { return Filter(t, n, true); },
                            [this](TaskIndex t, NodeIndex n) { return Filter(t, n, false); },
                            [this](TaskIndex t) { return PlacementMatters(t); },
                            [this](TaskIndex t, std::vector<NodeIndex>& nodes) { KeepPlacementFeasible(t, nodes); },
                            [this](TaskIndex t, PlacementBound& bound) { return BoundPlacement(t, bound); });
    // Topology-aware preemption's dry run: only inter-pod affinity is re-checked, on the
    // PreFilter-time view without the simulated victims.
    ssn.AddSimulatePredicateFn([this](TaskIndex t, NodeIndex n, absl::Span<const TaskIndex> removed) {
      FitResult result;
      if (!flags_.pod_affinity) return result;
      std::vector<NodeView::Placement> placed = Placements(t);
      if (!removed.empty()) {
        placed.erase(std::remove_if(placed.begin(), placed.end(),
                                    [&](const NodeView::Placement& p) {
                                      return std::find(removed.begin(), removed.end(), p.task) != removed.end();
                                    }),
                     placed.end());
      }
      auto fail = [&](FitCode code, ReasonId reason) {
        if (result.code == FitCode::kSuccess || code == FitCode::kUnschedulableAndUnresolvable) result.code = code;
        result.reasons.push_back(reason);
      };
      const Session& st = *ssn_;
      PodAffinityFilter(PodAffinityState::FromPlacements(st.snapshot(), t, *view_, placed), n, fail);
      return result;
    });
    // Volcano's handler runs the Reserve plugins first, and VolumeBinding's and
    // DynamicResources' Reserve fail for a pod whose PreFilter never ran this session
    // (no cycle state): a running pod whose eviction is undone never comes back into the
    // Kubernetes node view, so later scores and filters no longer count it.
    ssn.AddEventHandler({[this](TaskIndex t) {
                           if (flags_.reserve_plugins && prefilter_seq_[static_cast<size_t>(t)] < 0) return;
                           const NodeIndex n = ssn_->task_node(t);
                           if (volumes_ != nullptr && flags_.volume_binding && volumes_->Applies(t)) {
                             volumes_->Reserve(t, ssn_->node_info(n).spec);
                           }
                           view_->Add(t, n);
                           if (ports_built_ && HasPorts(t)) HoldPorts(t, n, true);
                         },
                         [this](TaskIndex t) {
                           const NodeIndex n = ports_built_ && HasPorts(t) ? view_->node_of(t) : kNone;
                           view_->Remove(t);
                           if (n >= 0) HoldPorts(t, n, false);
                           if (volumes_ != nullptr) volumes_->Unreserve(t);
                         }});
    return absl::OkStatus();
  }

 private:
  void OnSessionClose(Session& ssn) override {
    if (volumes_ == nullptr) return;
    const auto bound = [&](TaskIndex t) { return IsAllocatedStatus(ssn.task_status(t)); };
    for (VolumeBinding& b : volumes_->Bindings(bound)) ssn.AddVolumeBinding(std::move(b));
  }

  // Whether step 3 can fail for `t`: it has affinity or DoNotSchedule spread terms, or a
  // placed pod's term selects it (or the pods changed since its PreFilter: its state
  // may then hold terms the view no longer has).
  bool PlacementMatters(TaskIndex t) const {
    const Session& s = *ssn_;
    if (flags_.node_ports && HasPorts(t)) return true;
    if (volumes_ != nullptr && volumes_->Applies(t)) return true;
    if (flags_.topology_spread && (s.task_flags(t) & kTaskPlacementTerms) &&
        HasSpreadConstraint(*s.task(t).pod, /*do_not_schedule=*/true)) {
      return true;
    }
    if (!flags_.pod_affinity || !NeedsAffinityState(t)) return false;
    return (s.task_flags(t) & kTaskPodAffinityTerms) || prefilter_seq_[static_cast<size_t>(t)] != view_->seq() ||
           view_->AnyPlacedTermSelects(t);
  }

  // Steps 1 and 2, and step 3 when `placement` (the whole filter).
  FitResult Filter(TaskIndex t, NodeIndex n, bool placement) const {
    const Session& s = *ssn_;
    const TaskInfo& task = s.task(t);
    const uint8_t task_flags = s.task_flags(t);
    const NodeSpec& node = s.node_info(n).spec;
    FitResult result;
    auto fail = [&](FitCode code, ReasonId reason) {
      if (result.code == FitCode::kSuccess || code == FitCode::kUnschedulableAndUnresolvable) {
        result.code = code;
      }
      result.reasons.push_back(reason);
    };
    // 1. Pod count; evaluation goes on.
    const int64_t max_pods = s.node_info(n).allocatable[kPods];
    if (max_pods <= static_cast<int64_t>(view_->pod_count(n))) {
      fail(FitCode::kUnschedulable, pod_number_);
    }
    // 2. Stable filters; stop at an unresolvable one.
    if (node.unschedulable &&
        !ToleratesTaint(task.pod->tolerations, {"node.kubernetes.io/unschedulable", "", "NoSchedule"})) {
      fail(FitCode::kUnschedulableAndUnresolvable, unschedulable_);
      return result;
    }
    if (flags_.node_affinity && (task_flags & kTaskNodeSelection) && !MatchNodeSelectorAndAffinity(*task.pod, node)) {
      fail(FitCode::kUnschedulableAndUnresolvable, affinity_);
      return result;
    }
    if (flags_.taint_toleration && !node.taints.empty()) {
      const TolerationIndex& tolerations = TolerationsOf(t);
      for (const Taint& taint : node.taints) {
        if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
        if (!tolerations.Tolerates(taint)) {
          fail(FitCode::kUnschedulableAndUnresolvable, taint_);
          return result;
        }
      }
    }
    if (placement) PlacementFilter(t, n, fail);
    return result;
  }

  // 3. Filters that read other pods' places.
  template <typename Fail>
  void PlacementFilter(TaskIndex t, NodeIndex n, Fail& fail) const {
    if (flags_.node_ports && HasPorts(t) && PortsTaken(t, n)) fail(FitCode::kUnschedulable, ports_);
    if (flags_.pod_affinity && NeedsAffinityState(t) && !PodAffinityFilter(AffinityStateOf(t), n, fail)) return;
    const bool volumes = volumes_ != nullptr && volumes_->Applies(t);
    if (volumes && flags_.volume_zone && !volumes_->ZoneFits(t, ssn_->node_info(n).spec)) {
      fail(FitCode::kUnschedulableAndUnresolvable, zone_);
      return;
    }
    if (flags_.topology_spread && (ssn_->task_flags(t) & kTaskPlacementTerms)) TopologySpreadFilter(t, n, fail);
    if (volumes && flags_.volume_binding) VolumeBindingFilter(t, n, fail);
  }

  template <typename Fail>
  void VolumeBindingFilter(TaskIndex t, NodeIndex n, Fail& fail) const {
    std::string error;
    const std::vector<const char*> conflicts = volumes_->BindingConflicts(t, ssn_->node_info(n).spec, &error);
    if (!error.empty()) fail(FitCode::kError, ssn_->InternReason(error));
    for (const char* c : conflicts) fail(FitCode::kUnschedulableAndUnresolvable, binding_reasons_.at(c));
  }

  // Whether the volume filters keep node n for `t`.
  bool VolumesFit(TaskIndex t, NodeIndex n) const {
    if (volumes_ == nullptr || !volumes_->Applies(t)) return true;
    const NodeSpec& node = ssn_->node_info(n).spec;
    if (flags_.volume_zone && !volumes_->ZoneFits(t, node)) return false;
    if (!flags_.volume_binding) return true;
    std::string error;
    return volumes_->BindingConflicts(t, node, &error).empty() && error.empty();
  }

  // Where step 3 may fail for `t` (PlacementBoundFn): the nodes of the domains holding a
  // pod that its affinity state counts; and, with DoNotSchedule spread constraints all
  // on one topology key, between that key's domains (a node's answer is its domain's).
  bool BoundPlacement(TaskIndex t, PlacementBound& bound) const {
    const PodSpec& pod = *ssn_->task(t).pod;
    // The volume filters may fail anywhere, unless a claim confines the task to a few nodes
    // (every other node then fails alike).
    if (volumes_ != nullptr && volumes_->Applies(t) && !(flags_.volume_binding && volumes_->ConfiningNodes(t, &bound.nodes))) {
      return false;
    }
    if (flags_.node_ports && HasPorts(t)) {  // NodePorts fails only where a wanted port is held
      for (NodeIndex n = 0; n < ssn_->num_nodes(); ++n) {
        if (PortsTaken(t, n)) bound.nodes.push_back(n);
      }
    }
    if (flags_.topology_spread && (ssn_->task_flags(t) & kTaskPlacementTerms)) {
      for (const TopologySpreadConstraint& c : pod.topology_spread_constraints) {
        if (!c.do_not_schedule) continue;
        if (!bound.domain_key.empty() && bound.domain_key != c.topology_key) return false;
        bound.domain_key = c.topology_key;
      }
    }
    if (!flags_.pod_affinity || !NeedsAffinityState(t)) return true;
    return AffinityStateOf(t).AppendFailableNodes(bound.nodes);
  }

  // Step 3 over many nodes, its per-task state looked up once: keeps the nodes it passes.
  void KeepPlacementFeasible(TaskIndex t, std::vector<NodeIndex>& nodes) const {
    const PodSpec& pod = *ssn_->task(t).pod;
    const PodAffinityState* affinity =
        flags_.pod_affinity && NeedsAffinityState(t) ? &AffinityStateOf(t) : nullptr;
    if (affinity != nullptr && affinity->PassesEverywhere()) affinity = nullptr;
    const bool spread = flags_.topology_spread && (ssn_->task_flags(t) & kTaskPlacementTerms) &&
                        HasSpreadConstraint(pod, /*do_not_schedule=*/true);
    const bool ports = flags_.node_ports && HasPorts(t);
    const bool volumes = volumes_ != nullptr && volumes_->Applies(t);
    if (affinity == nullptr && !spread && !ports && !volumes) return;
    // TopologySpreadFilter's answer per domain of each DoNotSchedule constraint: a node
    // passes when it has a domain of each and every one passes.
    std::vector<DomainPass>& passes = domain_passes_;
    passes.clear();
    if (spread) {
      const std::vector<SpreadCounts>& all = SpreadCountsOf(t);
      for (size_t i = 0; i < pod.topology_spread_constraints.size(); ++i) {
        const TopologySpreadConstraint& c = pod.topology_spread_constraints[i];
        if (!c.do_not_schedule) continue;
        DomainPass& p = passes.emplace_back();
        p.of_node = &all[i].counts.domains->of_node;
        p.pass.resize(all[i].counts.count.size());
        for (size_t d = 0; d < p.pass.size(); ++d) {
          p.pass[d] = all[i].SkewOk(all[i].counts.count[d], c);
        }
      }
    }
    bool failed = false;
    auto fail = [&](FitCode, ReasonId) { failed = true; };
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                               [&](NodeIndex n) {
                                 failed = false;
                                 if (ports && PortsTaken(t, n)) return true;
                                 if (affinity != nullptr && (!PodAffinityFilter(*affinity, n, fail) || failed)) {
                                   return true;
                                 }
                                 for (const DomainPass& p : passes) {
                                   const int32_t d = (*p.of_node)[static_cast<size_t>(n)];
                                   if (d < 0 || !p.pass[static_cast<size_t>(d)]) return true;
                                 }
                                 return volumes && !VolumesFit(t, n);
                               }),
                nodes.end());
  }

  // NodePorts. Whether the task's pod asks for host ports (worked out once per task).
  bool HasPorts(TaskIndex t) const {
    int8_t& known = has_ports_[static_cast<size_t>(t)];
    if (known < 0) known = HasPodHostPorts(*ssn_->task(t).pod) ? 1 : 0;
    return known == 1;
  }

  // Whether a port the task wants is held on node n (the node's ports in use, as the
  // Kubernetes node view keeps them: made on first use from the pods placed then).
  bool PortsTaken(TaskIndex t, NodeIndex n) const {
    if (!ports_built_) BuildPorts();
    const std::vector<HostPort>& used = used_ports_[static_cast<size_t>(n)];
    if (used.empty()) return false;
    for (const HostPort& want : PodHostPorts(*ssn_->task(t).pod)) {
      for (const HostPort& u : used) {
        if (HostPortsConflict(want, u)) return true;
      }
    }
    return false;
  }

  void BuildPorts() const {
    used_ports_.assign(static_cast<size_t>(ssn_->num_nodes()), {});
    ports_built_ = true;
    for (const TaskInfo& task : ssn_->snapshot().tasks()) {
      if (!HasPorts(task.index)) continue;
      const NodeIndex n = view_->node_of(task.index);
      if (n >= 0) HoldPorts(task.index, n, true);
    }
  }

  // A node's ports are a set, as Kubernetes' HostPortInfo: a pod leaving frees its
  // entries even when another pod there holds the same one.
  void HoldPorts(TaskIndex t, NodeIndex n, bool hold) const {
    std::vector<HostPort>& used = used_ports_[static_cast<size_t>(n)];
    for (const HostPort& p : PodHostPorts(*ssn_->task(t).pod)) {
      auto same = [&](const HostPort& u) { return u.port == p.port && u.protocol == p.protocol && u.host_ip == p.host_ip; };
      auto it = std::find_if(used.begin(), used.end(), same);
      if (hold && it == used.end()) used.push_back(p);
      if (!hold && it != used.end()) used.erase(it);
    }
  }

  // The task's tolerations, indexed once for all the nodes it is tried on.
  const TolerationIndex& TolerationsOf(TaskIndex t) const {
    if (tolerations_task_ != t) {
      tolerations_ = TolerationIndex(&ssn_->task(t).pod->tolerations);
      tolerations_task_ = t;
    }
    return tolerations_;
  }

  // The pods placed when `t`'s PreFilter ran (cached across the nodes of one pass).
  const std::vector<NodeView::Placement>& Placements(TaskIndex t) const {
    const int64_t seq = prefilter_seq_[static_cast<size_t>(t)];
    const int64_t now = view_->seq();
    if (cache_task_ != t || cache_seq_ != seq || cache_now_ != now) {
      cache_ = view_->AsOf(seq);
      cache_task_ = t;
      cache_seq_ = seq;
      cache_now_ = now;
    }
    return cache_;
  }

  bool NeedsAffinityState(TaskIndex t) const {
    const Session& s = *ssn_;
    return (s.task_flags(t) & kTaskPodAffinityTerms) || view_->has_pods_with_affinity();
  }

  // The task's affinity state as of its PreFilter: made there, or (when that was long
  // ago or never) again from the view as it was then.
  const PodAffinityState& AffinityStateOf(TaskIndex t) const {
    const Session& s = *ssn_;
    const int64_t seq = prefilter_seq_[static_cast<size_t>(t)];
    const int64_t at = seq >= 0 ? seq : view_->seq();
    for (const auto& [task, when, state] : affinity_states_) {
      if (task == t && when == at) return state;
    }
    // As the spread counts do: the live view when nothing was placed since, else the log.
    if (at == view_->seq()) return Remember(t, at, PodAffinityState::FromView(s.snapshot(), t, *view_));
    return Remember(t, at, PodAffinityState::FromPlacements(s.snapshot(), t, *view_, view_->AsOf(seq)));
  }

  // Keeps the states of the last few tasks (a task is filtered right after its PreFilter).
  const PodAffinityState& Remember(TaskIndex t, int64_t at, PodAffinityState state) const {
    constexpr size_t kKept = 8;
    if (affinity_states_.size() == kKept) affinity_states_.erase(affinity_states_.begin());
    affinity_states_.push_back({t, at, std::move(state)});
    return std::get<2>(affinity_states_.back());
  }

  // Kubernetes' InterPodAffinity filter over the PreFilter state. Returns false when
  // evaluation must stop (an unresolvable failure).
  template <typename Fail>
  bool PodAffinityFilter(const PodAffinityState& state, NodeIndex n, Fail& fail) const {
    if (!state.ExistingAntiAffinityOk(n)) {
      fail(FitCode::kUnschedulable, existing_anti_);
      return true;
    }
    if (!state.AntiAffinityOk(n)) {
      fail(FitCode::kUnschedulable, pod_anti_affinity_);
      return true;
    }
    if (!state.AffinityOk(n)) {
      fail(FitCode::kUnschedulableAndUnresolvable, pod_affinity_);
      return false;
    }
    return true;
  }

  // Matching pods per domain of each constraint, and the smallest count that applies,
  // worked out once per task as of its PreFilter (PodTopologySpread's PreFilter state).
  struct SpreadCounts {
    DomainCounts counts;
    int64_t min_count = 0;
    bool self_matches = false;  // the pod counts for its own constraint
    // Whether the pod may go to a domain holding `count` matching pods.
    bool SkewOk(int64_t count, const TopologySpreadConstraint& c) const {
      return count + (self_matches ? 1 : 0) - min_count <= c.max_skew;
    }
  };
  template <typename Fail>
  void TopologySpreadFilter(TaskIndex t, NodeIndex n, Fail& fail) const {
    TopologySpreadFilter(*ssn_->task(t).pod, SpreadCountsOf(t), n, fail);
  }
  template <typename Fail>
  void TopologySpreadFilter(const PodSpec& pod, const std::vector<SpreadCounts>& all, NodeIndex n,
                            Fail& fail) const {
    for (size_t i = 0; i < pod.topology_spread_constraints.size(); ++i) {
      const TopologySpreadConstraint& c = pod.topology_spread_constraints[i];
      if (!c.do_not_schedule) continue;
      const DomainCounts& counts = all[i].counts;
      if (counts.domains->of_node[static_cast<size_t>(n)] < 0) {  // the node lacks the key
        fail(FitCode::kUnschedulableAndUnresolvable, spread_label_);
        return;
      }
      if (!all[i].SkewOk(counts.OfNode(n), c)) {
        fail(FitCode::kUnschedulable, spread_);
        return;
      }
    }
  }

  const std::vector<SpreadCounts>& SpreadCountsOf(TaskIndex t) const {
    const int64_t seq = prefilter_seq_[static_cast<size_t>(t)];
    const int64_t at = seq >= 0 ? seq : view_->seq();
    if (spread_task_ == t && spread_at_ == at) return spread_counts_;
    spread_counts_.clear();
    const PodSpec& pod = *ssn_->task(t).pod;
    for (const TopologySpreadConstraint& c : pod.topology_spread_constraints) {
      SpreadCounts& sc = spread_counts_.emplace_back();
      if (!c.do_not_schedule) continue;
      sc.self_matches = SelfMatches(pod, c);
      // As of the PreFilter: the live view when nothing was placed since, else the log.
      sc.counts = at == view_->seq()
                      ? CountPodsPerDomainNow(*ssn_, t, c, *view_)
                      : CountPodsPerDomain(*ssn_, t, c, Placements(t));
      if (sc.counts.present_domains >= c.min_domains && sc.counts.present_domains > 0) {
        sc.min_count = sc.counts.MinPresent();
      }
    }
    spread_task_ = t;
    spread_at_ = at;
    return spread_counts_;
  }

  struct DomainPass {
    const std::vector<int32_t>* of_node;  // the constraint's domain of each node
    std::vector<uint8_t> pass;            // by domain id
  };
  mutable std::vector<DomainPass> domain_passes_;  // KeepPlacementFeasible's scratch
  mutable std::vector<int8_t> has_ports_;               // by task: -1 not worked out yet
  mutable std::vector<std::vector<HostPort>> used_ports_;  // by node, once built
  mutable bool ports_built_ = false;

  Flags flags_;
  std::unique_ptr<VolumeFilters> volumes_;  // only when a task uses a claim
  // VolumeBinding's fixed messages, interned once. Keyed by text: the same literal may have
  // a different address in each translation unit (and does, in some builds).
  std::map<std::string_view, ReasonId> binding_reasons_;
  Session* ssn_ = nullptr;
  NodeView* view_ = nullptr;  // the session's, shared with nodeorder
  mutable std::vector<SpreadCounts> spread_counts_;
  mutable TaskIndex spread_task_ = kNone;
  mutable int64_t spread_at_ = -2;
  std::vector<int64_t> prefilter_seq_;
  mutable std::vector<NodeView::Placement> cache_;
  mutable TaskIndex cache_task_ = kNone;
  mutable std::vector<std::tuple<TaskIndex, int64_t, PodAffinityState>> affinity_states_;
  mutable TolerationIndex tolerations_;
  mutable TaskIndex tolerations_task_ = kNone;
  mutable int64_t cache_seq_ = -2, cache_now_ = -2;
  ReasonId pod_number_ = 0, unschedulable_ = 0, affinity_ = 0, taint_ = 0, pod_affinity_ = 0,
           pod_anti_affinity_ = 0, existing_anti_ = 0, spread_ = 0, spread_label_ = 0, ports_ = 0,
           zone_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewPredicatesPlugin(const Arguments& args) {
  PredicatesPlugin::Flags f;
  VCSCHED_ASSIGN_OR_RETURN(f.node_affinity, args.GetBool("predicate.NodeAffinityEnable", true));
  VCSCHED_ASSIGN_OR_RETURN(f.node_ports, args.GetBool("predicate.NodePortsEnable", true));
  VCSCHED_ASSIGN_OR_RETURN(f.taint_toleration, args.GetBool("predicate.TaintTolerationEnable", true));
  VCSCHED_ASSIGN_OR_RETURN(f.pod_affinity, args.GetBool("predicate.PodAffinityEnable", true));
  VCSCHED_ASSIGN_OR_RETURN(f.topology_spread, args.GetBool("predicate.PodTopologySpreadEnable", true));
  VCSCHED_ASSIGN_OR_RETURN(f.volume_binding, args.GetBool("predicate.VolumeBindingEnable", true));
  VCSCHED_ASSIGN_OR_RETURN(f.volume_zone, args.GetBool("predicate.VolumeZoneEnable", true));
  VCSCHED_ASSIGN_OR_RETURN(const bool dra, args.GetBool("predicate.DynamicResourceAllocationEnable", true));
  f.reserve_plugins = f.volume_binding || dra;
  // Accepted for compatibility; the filters they gate need data a snapshot does not carry
  // (DRA claims), are stricter in Volcano's cache already (NodeVolumeLimits: the CSI
  // volume counts are requests) or only change speed (CacheEnable).
  for (const char* key : {"predicate.NodeVolumeLimitsEnable", "predicate.CacheEnable",
                          "predicate.GPUSharingEnable", "predicate.GPUNumberEnable",
                          "predicate.ProportionalEnable"}) {
    VCSCHED_RETURN_IF_ERROR(args.GetBool(key, false).status());
  }
  return std::unique_ptr<Plugin>(new PredicatesPlugin(f));
}

}  // namespace vcsched::internal
