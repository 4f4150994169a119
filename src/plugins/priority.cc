// priority: higher priority first for jobs and tasks; lower priority may be preempted
// (docs/reference/scheduler.md §10.1).
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

int Desc(int64_t l, int64_t r) { return l > r ? -1 : (l < r ? 1 : 0); }

class PriorityPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    ssn.AddTaskOrderFn([&s](TaskIndex l, TaskIndex r) { return Desc(s.task(l).priority, s.task(r).priority); });
    // Higher priority first; priorities are int32, exact as doubles.
    ssn.AddJobOrderKeyFn([&s](JobIndex j) { return -static_cast<double>(s.job_priority(j)); });
    ssn.AddPreemptableFn([&s](TaskIndex preemptor, absl::Span<const TaskIndex> cands) {
      const TaskInfo& p = s.task(preemptor);
      std::vector<TaskIndex> victims;
      for (TaskIndex c : cands) {
        const TaskInfo& v = s.task(c);
        if (v.job != p.job) {
          if (v.job != kNone && p.job != kNone && s.job_priority(v.job) < s.job_priority(p.job)) victims.push_back(c);
        } else if (v.priority < p.priority) {
          victims.push_back(c);
        }
      }
      return std::make_pair(std::move(victims), Vote::kPermit);
    });
    ssn.AddUnifiedEvictableFn([&s](EvictionKind kind, JobIndex pj, absl::Span<const TaskIndex> cands) {
      std::vector<TaskIndex> out;
      for (TaskIndex c : cands) {
        const JobIndex vj = s.job_of(c);
        if (kind == EvictionKind::kGangReclaim || (vj != kNone && s.job_priority(vj) < s.job_priority(pj))) {
          out.push_back(c);
        }
      }
      return std::make_pair(std::move(out), Vote::kPermit);
    });
    ssn.AddJobStarvingFn([&ssn](JobIndex j) {
      return ssn.JobReadyTaskNum(j) + ssn.JobWaitingTaskNum(j) <
             static_cast<int32_t>(ssn.job(j).tasks.size());
    });
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewPriorityPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new PriorityPlugin());
}

}  // namespace vcsched::internal
