// pdb: victims whose eviction would break a PodDisruptionBudget are not chosen by
// preempt, reclaim or shuffle (docs/reference/scheduler.md, "pdb").
//
// As Volcano counts it, per call: each budget starts at status.disruptionsAllowed; every
// candidate it selects (same namespace, a non-empty selector that matches, not already in
// status.disruptedPods) takes one from it, and a candidate that takes a budget below zero
// is kept from eviction. A pod without labels matches no budget and is never a victim.
// As the victim-tasks function (shuffle), every candidate that passes is a victim.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vcsched/policy.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

// Whether LabelSelectorAsSelector accepts the selector (an invalid one matches nothing).
bool ValidPolicySelector(const LabelSelector& selector) {
  using Op = LabelSelectorRequirement::Operator;
  for (const LabelSelectorRequirement& r : selector.match_expressions) {
    const bool set = r.op == Op::kIn || r.op == Op::kNotIn;
    const bool exists = r.op == Op::kExists || r.op == Op::kDoesNotExist;
    if ((set && r.values.empty()) || (exists && !r.values.empty()) || (!set && !exists)) return false;
  }
  return true;
}

class PdbPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    budgets_.clear();
    for (const auto& [_, b] : s.snapshot().policy().disruption_budgets) {
      if (!b.selector || (b.selector->match_labels.empty() && b.selector->match_expressions.empty())) continue;
      if (!ValidPolicySelector(*b.selector)) continue;
      budgets_[b.namespace_].push_back(&b);
    }
    explained_.clear();
    ssn.AddPreemptableFn([this, &s](TaskIndex preemptor, absl::Span<const TaskIndex> candidates) {
      return std::make_pair(Filter(s, candidates, preemptor), Vote::kPermit);
    });
    ssn.AddReclaimableFn([this, &s](TaskIndex reclaimer, absl::Span<const TaskIndex> candidates) {
      return std::make_pair(Filter(s, candidates, reclaimer), Vote::kPermit);
    });
    ssn.AddVictimTasksFn([this, &s](absl::Span<const TaskIndex> candidates) { return Filter(s, candidates, kNone); });
    return absl::OkStatus();
  }

 private:
  // The candidates that may be evicted. `for_task`: the pod they would make room for
  // (kNone for shuffle), whose job Explain tells of the budgets that kept pods.
  std::vector<TaskIndex> Filter(const Session& s, absl::Span<const TaskIndex> candidates, TaskIndex for_task) {
    std::map<const PodDisruptionBudgetSpec*, int64_t> allowed;
    std::map<const PodDisruptionBudgetSpec*, std::vector<TaskIndex>> kept;  // only while explaining
    std::vector<TaskIndex> victims;
    for (TaskIndex t : candidates) {
      const PodSpec& pod = *s.task(t).pod;
      if (pod.labels.empty()) continue;
      bool violated = false;
      if (auto ns = budgets_.find(pod.namespace_); ns != budgets_.end()) {
        for (const PodDisruptionBudgetSpec* b : ns->second) {
          if (!MatchesLabelSelector(*b->selector, pod.labels) || b->disrupted_pods.count(pod.name) != 0) continue;
          auto [it, fresh] = allowed.try_emplace(b, b->disruptions_allowed);
          if (--it->second < 0) {
            violated = true;
            if (s.explaining()) kept[b].push_back(t);
          }
        }
      }
      if (!violated) victims.push_back(t);
    }
    if (for_task != kNone) {
      for (const auto& [budget, tasks] : kept) Explain(s, for_task, *budget, tasks);
    }
    return victims;
  }

  // "PodDisruptionBudget ns/b allows 1 disruption: it kept ns/web-1, ns/web-2 from eviction
  // for pod ns/a-0", once per job and budget.
  void Explain(const Session& s, TaskIndex for_task, const PodDisruptionBudgetSpec& b, const std::vector<TaskIndex>& tasks) {
    const JobIndex j = s.job_of(for_task);
    if (!explained_.emplace(j, &b).second) return;
    std::string pods;
    for (size_t i = 0; i < tasks.size() && i < 5; ++i) absl::StrAppend(&pods, i == 0 ? "" : ", ", s.task(tasks[i]).key);
    if (tasks.size() > 5) absl::StrAppend(&pods, " and ", tasks.size() - 5, " more");
    const std::string name = absl::StrCat(b.namespace_, "/", b.name);
    s.ExplainJob(j, reason_code::kDisruptionBudgetProtected,
                 absl::StrCat("PodDisruptionBudget ", name, " allows ", b.disruptions_allowed, " disruption",
                              b.disruptions_allowed == 1 ? "" : "s", " (status.disruptionsAllowed): it kept ", pods,
                              " from eviction for pod ", s.task(for_task).key),
                 {{"podDisruptionBudget", name},
                  {"disruptionsAllowed", absl::StrCat(b.disruptions_allowed)},
                  {"kept", absl::StrCat(tasks.size())},
                  {"pod", s.task(for_task).key}});
  }

  std::map<std::string, std::vector<const PodDisruptionBudgetSpec*>> budgets_;  // by namespace
  std::set<std::pair<JobIndex, const PodDisruptionBudgetSpec*>> explained_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewPdbPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new PdbPlugin());
}

}  // namespace vcsched::internal
