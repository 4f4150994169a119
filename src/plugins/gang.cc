// gang: all-or-nothing by minMember (docs/reference/scheduler.md §10.2 and the close-hook conditions of
// §11.2).
#include "absl/strings/str_cat.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

// Whether every subGroupPolicy with minSubGroups has that many sub-groups for which
// `counts(k)` holds (Volcano's checkSubJobCondition and CheckSubJobValid).
template <typename Counts>
bool SubGroupsMeetMinimum(const Session& ssn, JobIndex j, Counts counts) {
  const JobInfo& job = ssn.job(j);
  const auto& policies = job.pod_group.sub_group_policy;
  for (size_t p = 0; p < policies.size(); ++p) {
    if (policies[p].min_sub_groups <= 0) continue;
    int32_t n = 0;
    for (size_t k = 0; k < job.sub_jobs.size(); ++k) {
      if (job.sub_jobs[k].policy == static_cast<int32_t>(p) && counts(static_cast<int32_t>(k))) ++n;
    }
    if (n < policies[p].min_sub_groups) return false;
  }
  return true;
}

class GangPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    Session* ssn_ptr = &ssn;
    ssn.AddJobValidFn([ssn_ptr](JobIndex j) -> std::optional<std::pair<std::string, std::string>> {
      if (!ssn_ptr->JobCheckTaskValid(j)) {
        return std::make_pair(std::string("NotEnoughPodsOfTask"),
                              std::string("Not enough valid pods of each task for gang-scheduling"));
      }
      if (!SubGroupsMeetMinimum(*ssn_ptr, j, [](int32_t) { return true; })) {
        return std::make_pair(std::string("NotEnoughPodsOfTask"),
                              std::string("Not enough valid subGroups of each task for gang-scheduling"));
      }
      const int32_t valid = ssn_ptr->JobValidTaskNum(j);
      const int32_t min = ssn_ptr->job_min_member(j);
      if (valid < min) {
        return std::make_pair(std::string("NotEnoughTasks"),
                              absl::StrCat("Not enough valid tasks for gang-scheduling, valid: ", valid, ", min: ", min));
      }
      return std::nullopt;
    });
    // A ready job yields to one that is not.
    ssn.AddJobOrderKeyFn([ssn_ptr](JobIndex j) { return ssn_ptr->JobIsReady(j) ? 1.0 : 0.0; });
    ssn.AddJobReadyFn([ssn_ptr](JobIndex j) {
      const Session& s = *ssn_ptr;
      return s.JobCheckTaskReady(j) &&
             SubGroupsMeetMinimum(s, j, [&](int32_t k) { return s.SubJobIsReady(j, k); }) && s.JobIsReady(j);
    });
    ssn.AddJobPipelinedFn([ssn_ptr](JobIndex j) {
      const Session& s = *ssn_ptr;
      return s.JobCheckTaskPipelined(j) &&
                     SubGroupsMeetMinimum(s, j, [&](int32_t k) { return s.SubJobIsPipelined(j, k); }) &&
                     s.JobIsPipelined(j)
                 ? Vote::kPermit
                 : Vote::kReject;
    });
    // Sub-groups: the same rules over a sub-group's own tasks.
    ssn.AddSubJobReadyFn([ssn_ptr](JobIndex j, int32_t k) { return ssn_ptr->SubJobIsReady(j, k); });
    ssn.AddSubJobPipelinedFn([ssn_ptr](JobIndex j, int32_t k) {
      return ssn_ptr->SubJobIsPipelined(j, k) ? Vote::kPermit : Vote::kReject;
    });
    ssn.AddSubJobOrderFn([ssn_ptr](JobIndex j, int32_t l, int32_t r) {
      const bool a = ssn_ptr->SubJobIsReady(j, l), b = ssn_ptr->SubJobIsReady(j, r);
      return a == b ? 0 : (a ? 1 : -1);
    });
    ssn.AddJobStarvingFn([ssn_ptr](JobIndex j) { return ssn_ptr->JobIsStarving(j); });
    EvictableFn keep_gangs = [ssn_ptr](TaskIndex, absl::Span<const TaskIndex> cands) {
      const Session& s = *ssn_ptr;
      std::map<JobIndex, int32_t> occupied;
      std::vector<TaskIndex> victims;
      for (TaskIndex c : cands) {
        const JobIndex j = s.job_of(c);
        if (j == kNone) continue;
        auto it = occupied.find(j);
        if (it == occupied.end()) it = occupied.emplace(j, ssn_ptr->JobReadyTaskNum(j)).first;
        if (it->second > s.job_min_member(j)) {
          --it->second;
          victims.push_back(c);
        }
      }
      return std::make_pair(std::move(victims), Vote::kPermit);
    };
    ssn.AddPreemptableFn(keep_gangs);
    // Bundles already keep gangs whole; gang permits every candidate there.
    ssn.AddUnifiedEvictableFn([](EvictionKind, JobIndex, absl::Span<const TaskIndex> cands) {
      return std::make_pair(std::vector<TaskIndex>(cands.begin(), cands.end()), Vote::kPermit);
    });
    ssn.AddReclaimableFn(keep_gangs);
    return absl::OkStatus();
  }

  void OnSessionClose(Session& ssn) override {
    for (JobIndex j = 0; j < ssn.num_jobs(); ++j) {
      if (ssn.queue_of(j) == kNone || ssn.job_tasks(j).empty()) continue;
      // Volcano HEAD's close hook does not ask JobValid: an invalid job reads as any job
      // that is not ready, and a gang that lost pods this session to evictions is left
      // alone while its releasing pods still hold the gang's place.
      if (!ssn.JobIsReady(j)) {
        const int32_t releasing_on_node = ssn.JobReleasingOnNodeNum(j);
        const int32_t scheduled = ssn.job_count(j, TaskStatus::kRunning) + ssn.job_count(j, TaskStatus::kBound) +
                                  ssn.job_count(j, TaskStatus::kFailed) + ssn.job_count(j, TaskStatus::kSucceeded);
        if (releasing_on_node > 0 && ssn.job_count(j, TaskStatus::kPending) == 0 &&
            ssn.job_count(j, TaskStatus::kPipelined) == 0 && scheduled + releasing_on_node >= ssn.job_min_member(j)) {
          continue;  // the gang is only restarting pods that are going away
        }
        const int32_t unready = ssn.job_min_member(j) - (ssn.JobReadyTaskNum(j) + ssn.JobPendingOnceAllocatedNum(j));
        ssn.SetJobCondition(j, SharedText::Literal("Unschedulable"), SharedText::Literal("NotEnoughResources"),
                            absl::StrCat(unready, "/", ssn.job_tasks(j).size(),
                                         " tasks in gang unschedulable: ", ssn.JobFitErrorText(j)));
      } else {
        ssn.SetJobCondition(j, SharedText::Literal("Scheduled"),
                            SharedText::Literal("tasks in gang are ready to be scheduled"), SharedText());
      }
    }
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewGangPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new GangPlugin());
}

}  // namespace vcsched::internal
