// nodegroup: a queue's spec.affinity names the node groups (nodes labelled
// volcano.sh/nodegroup-name) its jobs' pods must, should, should not or must not use, and
// its annotation volcano.sh/nodegroup-resource-limits caps what they may hold in each
// group (docs/reference/scheduler.md, "nodegroup"). Arguments: strict (default true),
// enablePreferredOrder (false); with enableHierarchy a queue without affinity takes its
// nearest ancestor's.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/model/node_group_limits.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

constexpr absl::string_view kNodeGroupLabel = "volcano.sh/nodegroup-name";
constexpr double kBaseScore = 100;

struct QueueAttr {
  const QueueAffinity* affinity = nullptr;  // its own, or (hierarchy) its nearest ancestor's
  NodeGroupLimits limits;
  bool limits_invalid = false;
  std::map<std::string, std::vector<int64_t>> allocated;  // by group, per dimension
  // enablePreferredOrder: each preferred group's place in the list (a repeated name keeps
  // its last place, as Volcano's index map does).
  std::map<std::string, size_t, std::less<>> preferred_index;
};

bool Has(const std::vector<std::string>& list, const std::string& group) {
  return std::find(list.begin(), list.end(), group) != list.end();
}

class NodeGroupPlugin : public Plugin {
 public:
  NodeGroupPlugin(bool strict, bool preferred_order) : strict_(strict), preferred_order_(preferred_order) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    InitQueues(s, ssn.current_plugin().Enabled(Switch::kHierarchy));
    counted_.clear();
    for (JobIndex j = 0; j < static_cast<JobIndex>(s.num_jobs()); ++j) {
      if (s.queue_of(j) == kNone) continue;
      for (TaskIndex t : s.job(j).tasks) {
        if (IsAllocatedStatus(s.task_status(t))) Account(s, t, true);
      }
    }
    label_not_found_ = ssn.InternReason("node group label not found");
    affinity_not_found_ = ssn.InternReason("node group affinity not specified");
    unsatisfied_ = ssn.InternReason("node does not satisfy the node group affinity");
    limit_invalid_ = ssn.InternReason("node group resource limit annotation invalid");
    limit_exceeded_ = ssn.InternReason("node group resource limit exceeded");
    ssn.AddPredicateFn([this, &s](TaskIndex t, NodeIndex n) { return Predicate(s, t, n); });
    ssn.AddNodeOrderFn([this, &s](TaskIndex t, NodeIndex n) { return Score(s, t, n); });
    ssn.AddEventHandler({[this, &s](TaskIndex t) { Account(s, t, true); }, [this, &s](TaskIndex t) { Account(s, t, false); }});
    return absl::OkStatus();
  }

 private:
  void InitQueues(const Session& s, bool hierarchy) {
    attrs_.assign(static_cast<size_t>(s.num_queues()), QueueAttr());
    for (QueueIndex q = 0; q < s.num_queues(); ++q) {
      const QueueSpec& spec = s.queue(q).spec;
      QueueAttr& a = attrs_[static_cast<size_t>(q)];
      if (spec.affinity) a.affinity = &*spec.affinity;
      auto it = spec.annotations.find(kNodeGroupResourceLimitsAnnotation);
      if (it != spec.annotations.end() && !it->second.empty()) {
        absl::StatusOr<NodeGroupLimits> limits = ParseNodeGroupLimits(it->second);
        if (limits.ok()) a.limits = *std::move(limits);
        else a.limits_invalid = true;
      }
    }
    if (hierarchy) {
      // A queue without spec.affinity takes its nearest ancestor's (parent, then up to root).
      for (QueueIndex q = 0; q < s.num_queues(); ++q) {
        QueueAttr& a = attrs_[static_cast<size_t>(q)];
        int depth = 0;
        for (QueueIndex p = s.queue(q).parent;
             a.affinity == nullptr && p != kNone && p != q && depth <= kMaxQueueHierarchyDepth;
             p = s.queue(p).parent, ++depth) {
          if (s.queue(p).spec.affinity) a.affinity = &*s.queue(p).spec.affinity;
        }
      }
    }
    if (!preferred_order_) return;
    for (QueueAttr& a : attrs_) {
      if (a.affinity == nullptr) continue;
      const auto& list = a.affinity->affinity_preferred;
      for (size_t i = 0; i < list.size(); ++i) a.preferred_index[list[i]] = i;
    }
  }

  static const std::string* GroupOf(const NodeSpec& node) {
    auto it = node.labels.find(kNodeGroupLabel);
    return it == node.labels.end() ? nullptr : &it->second;
  }

  QueueAttr* AttrOf(const Session& s, TaskIndex t) {
    const JobIndex j = s.job_of(t);
    if (j == kNone || s.queue_of(j) == kNone) return nullptr;
    return &attrs_[static_cast<size_t>(s.queue_of(j))];
  }

  // What a task holds in its queue's node group: added where it is placed, taken back
  // from the group it was added to (the session has cleared its node by then).
  void Account(const Session& s, TaskIndex t, bool add) {
    QueueAttr* a = AttrOf(s, t);
    if (a == nullptr) return;
    std::string group;
    if (add) {
      const NodeIndex n = s.task_node(t);
      const std::string* g = n == kNone ? nullptr : GroupOf(s.node_info(n).spec);
      if (g == nullptr) return;
      group = *g;
      counted_[t] = group;
    } else {
      auto it = counted_.find(t);
      if (it == counted_.end()) return;
      group = std::move(it->second);
      counted_.erase(it);
    }
    std::vector<int64_t>& used = a->allocated[group];
    used.resize(static_cast<size_t>(s.dims()), 0);
    const absl::Span<const int64_t> req = s.task_resreq(t);
    for (int d = 0; d < s.dims(); ++d) {
      used[static_cast<size_t>(d)] = add ? SaturatingAdd(used[static_cast<size_t>(d)], req[d])
                                         : SaturatingAdd(used[static_cast<size_t>(d)], -req[d]);
    }
  }

  static bool Unset(const QueueAffinity* a) {
    return a == nullptr || (a->affinity_required.empty() && a->affinity_preferred.empty() &&
                            a->anti_affinity_required.empty() && a->anti_affinity_preferred.empty());
  }

  // Volcano's order: a preferred anti-affinity allows the group (it is scored down), a
  // required one forbids it unless the group is also preferred-anti.
  static bool Allows(const QueueAffinity& a, const std::string& group) {
    bool ok = Has(a.affinity_required, group) || Has(a.affinity_preferred, group);
    if (Has(a.anti_affinity_required, group)) ok = false;
    if (Has(a.anti_affinity_preferred, group)) ok = true;
    return ok;
  }

  bool WithinLimit(const Session& s, TaskIndex t, const std::string& group, const QueueAttr& a) const {
    auto limit = a.limits.find(group);
    if (limit == a.limits.end()) return true;
    auto used_it = a.allocated.find(group);
    const absl::Span<const int64_t> req = s.task_resreq(t);
    const ResourceSpace& space = s.snapshot().space();
    for (const auto& [name, cap] : limit->second) {
      const int d = space.Find(name);
      if (d < 0) {  // no pod asks for it: nothing is used
        if (cap < 0) return false;
        continue;
      }
      const int64_t used = used_it == a.allocated.end() || used_it->second.empty()
                               ? 0
                               : used_it->second[static_cast<size_t>(d)];
      if (SaturatingAdd(used, req[d]) > cap) return false;
    }
    return true;
  }

  FitResult Predicate(const Session& s, TaskIndex t, NodeIndex n) {
    const QueueAttr* a = AttrOf(s, t);
    const auto fail = [](ReasonId r) { return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, r); };
    if (a != nullptr && a->limits_invalid) return fail(limit_invalid_);
    const QueueAffinity* affinity = a == nullptr ? nullptr : a->affinity;
    const bool unset = Unset(affinity);
    const std::string* group = GroupOf(s.node_info(n).spec);
    if (group == nullptr) return !strict_ && unset ? FitResult::Success() : fail(label_not_found_);
    if (unset) return fail(affinity_not_found_);
    if (!Allows(*affinity, *group)) return fail(unsatisfied_);
    if (!WithinLimit(s, t, *group, *a)) return fail(limit_exceeded_);
    return FitResult::Success();
  }

  double Score(const Session& s, TaskIndex t, NodeIndex n) const {
    const std::string* group = GroupOf(s.node_info(n).spec);
    const JobIndex j = s.job_of(t);
    if (group == nullptr || j == kNone || s.queue_of(j) == kNone) return 0;
    const QueueAttr& attr = attrs_[static_cast<size_t>(s.queue_of(j))];
    const QueueAffinity* a = attr.affinity;
    if (a == nullptr) return 0;
    double score = 0;
    if (Has(a->affinity_required, *group)) score += kBaseScore;
    if (preferred_order_) {
      // The first listed preferred group scores most: 50 x (n - i) / n.
      const auto& index = attr.preferred_index;
      if (auto it = index.find(*group); it != index.end()) {
        const double count = static_cast<double>(index.size());
        score += 0.5 * kBaseScore * (count - static_cast<double>(it->second)) / count;
      }
    } else if (Has(a->affinity_preferred, *group)) {
      score += 0.5 * kBaseScore;
    }
    if (Has(a->anti_affinity_preferred, *group)) score = -1;
    return score;
  }

  const bool strict_;
  const bool preferred_order_;
  std::vector<QueueAttr> attrs_;
  std::map<TaskIndex, std::string> counted_;  // the group each counted task was added to
  ReasonId label_not_found_{}, affinity_not_found_{}, unsatisfied_{}, limit_invalid_{}, limit_exceeded_{};
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewNodeGroupPlugin(const Arguments& args) {
  bool strict = true, preferred_order = false;
  VCSCHED_ASSIGN_OR_RETURN(strict, args.GetBool("strict", true));
  VCSCHED_ASSIGN_OR_RETURN(preferred_order, args.GetBool("enablePreferredOrder", false));
  return std::unique_ptr<Plugin>(new NodeGroupPlugin(strict, preferred_order));
}

}  // namespace vcsched::internal
