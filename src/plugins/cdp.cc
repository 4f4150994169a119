// cdp (cool-down protection): a running pod that names a cool-down
// (`volcano.sh/cooldown-time`, a Go duration, in its labels or else its annotations) is
// not a victim of preempt or reclaim until that long after its PodScheduled condition
// (docs/reference/scheduler.md, "cdp"). The clock is the session's (RunOptions::now_seconds)
// where Volcano reads the wall clock.
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vcsched/arguments.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

constexpr const char* kCooldownTime = "volcano.sh/cooldown-time";

int64_t SaturatingMillis(int64_t seconds) {
  if (seconds > INT64_MAX / 1000) return INT64_MAX;
  if (seconds < INT64_MIN / 1000) return INT64_MIN;
  return seconds * 1000;
}

class CdpPlugin : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    explained_.clear();
    auto filter = [this, &s](TaskIndex preemptor, absl::Span<const TaskIndex> candidates) {
      std::vector<TaskIndex> victims;
      for (TaskIndex t : candidates) {
        const int64_t until = ProtectedUntilMillis(*s.task(t).pod);
        if (until > SaturatingMillis(s.now_seconds())) {
          if (s.explaining()) Explain(s, preemptor, t, until);
          continue;
        }
        victims.push_back(t);
      }
      return std::make_pair(std::move(victims), Vote::kPermit);
    };
    ssn.AddPreemptableFn(filter);
    ssn.AddReclaimableFn(filter);
    return absl::OkStatus();
  }

 private:
  // When the pod's cool-down ends, in milliseconds since the epoch; INT64_MIN when it has
  // none: no cool-down named or a bad duration (Volcano logs it), not Running, or no
  // PodScheduled condition.
  static int64_t ProtectedUntilMillis(const PodSpec& pod) {
    auto it = pod.labels.find(kCooldownTime);
    if (it == pod.labels.end()) {
      it = pod.annotations.find(kCooldownTime);
      if (it == pod.annotations.end()) return INT64_MIN;
    }
    if (pod.phase != "Running" || !pod.scheduled_time) return INT64_MIN;
    const absl::StatusOr<int64_t> cooldown = ParseGoDurationMillis(it->second);
    if (!cooldown.ok()) return INT64_MIN;
    return SaturatingAdd(SaturatingMillis(*pod.scheduled_time), *cooldown);
  }

  // Once per job: the first pod its cool-down kept, and until when.
  void Explain(const Session& s, TaskIndex preemptor, TaskIndex kept, int64_t until_ms) {
    const JobIndex j = s.job_of(preemptor);
    if (j == kNone || !explained_.insert(j).second) return;
    const int64_t left_s = (until_ms - SaturatingMillis(s.now_seconds()) + 999) / 1000;
    s.ExplainJob(j, reason_code::kCooldownProtected,
                 absl::StrCat("pod ", s.task(kept).key, " is in its cool-down (", kCooldownTime, " ",
                              s.task(kept).pod->labels.count(kCooldownTime) ? s.task(kept).pod->labels.at(kCooldownTime)
                                                                             : s.task(kept).pod->annotations.at(kCooldownTime),
                              " from its PodScheduled time) for ", left_s, "s more: not evicted for pod ",
                              s.task(preemptor).key),
                 {{"pod", s.task(kept).key}, {"secondsLeft", absl::StrCat(left_s)}, {"preemptor", s.task(preemptor).key}});
  }

  std::set<JobIndex> explained_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewCdpPlugin(const Arguments&) {
  return std::unique_ptr<Plugin>(new CdpPlugin());
}

}  // namespace vcsched::internal
