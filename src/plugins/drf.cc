// drf: dominant resource fairness between jobs (docs/reference/scheduler.md §10.5, flat mode).
#include <cmath>
#include <map>

#include "src/util/status_macros.h"
#include "src/plugins/hdrf.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

constexpr double kShareDelta = 1e-6;

class DrfPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    s_ = &s;
    const size_t jobs = s.snapshot().jobs().size();
    allocated_.resize(jobs);
    share_.assign(jobs, 0);
    for (size_t j = 0; j < jobs; ++j) {
      allocated_[j] = Resource::FromSpan(ssn.job_allocated(static_cast<JobIndex>(j)));
      share_[j] = Share(allocated_[j].span());
    }
    ssn.AddJobOrderKeyFn([this](JobIndex j) { return share_[static_cast<size_t>(j)]; });
    ssn.AddPreemptableFn([this](TaskIndex preemptor, absl::Span<const TaskIndex> cands) {
      const TaskInfo& p = s_->task(preemptor);
      std::vector<TaskIndex> victims;
      if (p.job == kNone) return std::make_pair(victims, Vote::kPermit);
      Resource mine = allocated_[static_cast<size_t>(p.job)];
      mine += p.resreq;
      const double ls = Share(mine.span());
      std::map<JobIndex, Resource> running;
      for (TaskIndex c : cands) {
        const JobIndex vj = s_->job_of(c);
        if (vj == kNone) continue;
        auto it = running.find(vj);
        if (it == running.end()) it = running.emplace(vj, allocated_[static_cast<size_t>(vj)]).first;
        it->second -= s_->task_resreq(c);
        if (ls - Share(it->second.span()) <= kShareDelta) victims.push_back(c);
      }
      return std::make_pair(std::move(victims), Vote::kPermit);
    });
    if (ssn.current_plugin().Enabled(Switch::kHierarchy)) {
      tree_ = std::make_unique<HdrfTree>(ssn, allocated_);
      ssn.AddQueueOrderFn([this](QueueIndex l, QueueIndex r) {
        const double c = tree_->CompareQueues(l, r);
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
      });
      ssn.AddReclaimableFn([this](TaskIndex reclaimer, absl::Span<const TaskIndex> cands) {
        return HierarchicalReclaimable(reclaimer, cands);
      });
    }
    ssn.AddEventHandler({[this](TaskIndex t) { Update(t, 1); }, [this](TaskIndex t) { Update(t, -1); }});
    return absl::OkStatus();
  }

 private:
  double Share(absl::Span<const int64_t> alloc) const {
    double share = 0;
    for (int d = 0; d < s_->dims(); ++d) {
      if (s_->total_resource()[d] <= 0) continue;
      share = std::max(share, static_cast<double>(alloc[static_cast<size_t>(d)]) / static_cast<double>(s_->total_resource()[d]));
    }
    return share;
  }

  void Update(TaskIndex t, int sign) {
    const JobIndex j = s_->job_of(t);
    if (j == kNone) return;
    Resource& a = allocated_[static_cast<size_t>(j)];
    if (sign > 0) a += s_->task_resreq(t);
    else a -= s_->task_resreq(t);
    share_[static_cast<size_t>(j)] = Share(a.span());
    if (tree_) tree_->Update(allocated_);
  }

  // A reclaimee is a victim when, with the reclaimer's task added and the reclaimee's
  // removed, the reclaimer's queue ranks first. Each reclaimee is judged on its own.
  std::pair<std::vector<TaskIndex>, Vote> HierarchicalReclaimable(TaskIndex reclaimer,
                                                                 absl::Span<const TaskIndex> cands) const {
    std::vector<TaskIndex> victims;
    const JobIndex lj = s_->job_of(reclaimer);
    if (lj == kNone || s_->queue_of(lj) == kNone) return {victims, Vote::kPermit};
    std::vector<Resource> alloc = allocated_;
    alloc[static_cast<size_t>(lj)] += s_->task_resreq(reclaimer);
    HdrfTree tree = *tree_;
    for (TaskIndex v : cands) {
      const JobIndex rj = s_->job_of(v);
      if (rj == kNone || s_->queue_of(rj) == kNone) continue;
      alloc[static_cast<size_t>(rj)] -= s_->task_resreq(v);
      tree.Update(alloc);
      if (tree.CompareQueues(s_->queue_of(lj), s_->queue_of(rj)) < 0) victims.push_back(v);
      alloc[static_cast<size_t>(rj)] += s_->task_resreq(v);
    }
    return {victims, Vote::kPermit};
  }

  const Session* s_ = nullptr;
  std::vector<Resource> allocated_;
  std::vector<double> share_;
  std::unique_ptr<HdrfTree> tree_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewDrfPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new DrfPlugin());
}

}  // namespace vcsched::internal
