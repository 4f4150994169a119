// sla: jobs that have waited past their waiting time go first and are admitted
// (docs/reference/scheduler.md §10.11). Time comes from the session clock.
#include "absl/strings/str_cat.h"
#include "vcsched/resource.h"
#include "src/util/status_macros.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

class SlaPlugin : public Plugin {
 public:
  explicit SlaPlugin(int64_t waiting) : default_waiting_(waiting) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    s_ = &s;
    ssn.AddJobOrderFn([this](JobIndex l, JobIndex r) {
      const int64_t lw = Waiting(l), rw = Waiting(r);
      if (lw < 0 && rw < 0) return 0;
      if (lw < 0) return 1;
      if (rw < 0) return -1;
      const int64_t ld = SaturatingAdd(s_->job(l).pod_group.creation_time, lw);
      const int64_t rd = SaturatingAdd(s_->job(r).pod_group.creation_time, rw);
      return ld < rd ? -1 : (ld > rd ? 1 : 0);
    });
    JobVoteFn overdue = [this](JobIndex j) {
      const int64_t w = Waiting(j);
      if (w < 0) return Vote::kAbstain;
      // Saturating: the host's clock may be anything an int64 holds.
      return SaturatingSub(s_->now_seconds(), s_->job(j).pod_group.creation_time) >= w ? Vote::kPermit
                                                                                       : Vote::kAbstain;
    };
    ssn.AddJobEnqueueableFn(overdue);
    ssn.AddJobPipelinedFn(overdue);
    return absl::OkStatus();
  }

 private:
  // The job's waiting time in seconds, or -1 when it has none.
  int64_t Waiting(JobIndex j) const {
    const int64_t w = s_->job(j).waiting_time_seconds;
    if (w > 0) return w;
    return default_waiting_ > 0 ? default_waiting_ : -1;
  }

  int64_t default_waiting_;
  const Session* s_ = nullptr;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewSlaPlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(std::string text, args.GetString("sla-waiting-time", ""));
  int64_t waiting = -1;
  if (!text.empty()) {
    absl::StatusOr<int64_t> d = ParseGoDurationSeconds(text);
    if (!d.ok()) return absl::InvalidArgumentError(absl::StrCat("argument \"sla-waiting-time\": ", d.status().message()));
    waiting = *d;
  }
  return std::unique_ptr<Plugin>(new SlaPlugin(waiting));
}

}  // namespace vcsched::internal
