// overcommit: admit PodGroups while the cluster, inflated by a factor, has room for
// their minResources (docs/reference/scheduler.md §10.4).
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "src/util/status_macros.h"
#include "src/plugins/plugins.h"
#include "src/plugins/queue_amounts.h"
#include "src/plugins/queue_explain.h"

namespace vcsched::internal {
namespace {

class OvercommitPlugin : public Plugin {
 public:
  explicit OvercommitPlugin(double factor) : factor_(factor) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    const int dims = s.dims();
    idle_.assign(static_cast<size_t>(dims), 0);
    inqueue_.assign(static_cast<size_t>(dims), 0);
    for (int d = 0; d < dims; ++d) {
      int64_t used = 0;  // saturating: node sums near the int64 limit would wrap
      for (NodeIndex n = 0; n < s.num_nodes(); ++n) used = SaturatingAdd(used, s.node_used(n)[static_cast<size_t>(d)]);
      idle_[static_cast<size_t>(d)] = static_cast<double>(s.total_resource()[d]) * factor_ - static_cast<double>(used);
    }
    for (JobIndex j = 0; j < static_cast<JobIndex>(s.num_jobs()); ++j) {
      // The dense facts first: most jobs are passed over without reading their record.
      if (s.queue_of(j) == kNone || !s.job_has_min_resources(j)) continue;
      const JobInfo& job = s.job(j);
      const absl::string_view phase = ssn.job_phase(job.index);  // compared by length first
      if (phase == "Inqueue") {
        for (int d = 0; d < dims; ++d) inqueue_[static_cast<size_t>(d)] += static_cast<double>(job.min_resources[d]);
      } else if (phase == "Running" && AllocatedTaskCount(ssn, job.index) >= ssn.job_min_member(job.index)) {
        const auto alloc = ssn.job_allocated(job.index);
        for (int d = 0; d < dims; ++d) {
          inqueue_[static_cast<size_t>(d)] += static_cast<double>(std::max<int64_t>(job.min_resources[d] - alloc[d], 0));
        }
      }
    }
    ssn.AddJobEnqueueableFn([this, &s](JobIndex j) {
      const JobInfo& job = s.job(j);
      if (!job.has_min_resources) return Vote::kPermit;
      for (int d = 0; d < s.dims(); ++d) {
        if (d == kPods || job.min_resources[d] <= 0) continue;
        if (inqueue_[static_cast<size_t>(d)] + static_cast<double>(job.min_resources[d]) > idle_[static_cast<size_t>(d)]) {
          if (s.explaining()) Explain(s, job);
          return Vote::kReject;
        }
      }
      return Vote::kPermit;
    });
    ssn.AddJobEnqueuedFn([this, &s](JobIndex j) {
      const JobInfo& job = s.job(j);
      if (!job.has_min_resources) return;
      for (int d = 0; d < s.dims(); ++d) inqueue_[static_cast<size_t>(d)] += static_cast<double>(job.min_resources[d]);
    });
    return absl::OkStatus();
  }

  // "resource in cluster is overused": each resource where inqueue + minResources passes
  // the budget (total allocatable x factor - used).
  void Explain(const Session& s, const JobInfo& job) const {
    CheckNumbers numbers{{"overcommit-factor", absl::StrCat(factor_)}};
    for (int d = 0; d < s.dims(); ++d) {
      const size_t i = static_cast<size_t>(d);
      if (d == kPods || job.min_resources[d] <= 0) continue;
      if (inqueue_[i] + static_cast<double>(job.min_resources[d]) <= idle_[i]) continue;
      const std::string& name = s.snapshot().space().name(d);
      numbers.emplace_back(name + ".allocatable", AmountText(s, i, static_cast<double>(s.total_resource()[d])));
      numbers.emplace_back(name + ".budget", AmountText(s, i, idle_[i]));
      numbers.emplace_back(name + ".inqueue", AmountText(s, i, inqueue_[i]));
      numbers.emplace_back(name + ".minResources", AmountText(s, i, static_cast<double>(job.min_resources[d])));
    }
    std::string message = absl::StrCat(EventText("resource in cluster is overused", "overused", numbers, ".budget"),
                                       " (inqueue + minResources > allocatable x factor - used)");
    s.ExplainJob(job.index, reason_code::kClusterOvercommitted, std::move(message), std::move(numbers));
  }

 private:
  double factor_;
  std::vector<double> idle_, inqueue_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewOvercommitPlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(double factor, args.GetFloat("overcommit-factor", 1.2));
  if (factor < 1.0) factor = 1.2;  // Volcano's rule for a factor below one
  return std::unique_ptr<Plugin>(new OvercommitPlugin(factor));
}

}  // namespace vcsched::internal
