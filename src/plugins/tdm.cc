// tdm (time division multiplexing): nodes labelled volcano.sh/revocable-zone lend their
// resources to preemptable jobs while their zone's daily window is open, and shuffle
// takes those jobs' pods back when it closes (docs/reference/scheduler.md, "tdm"). The
// clock is the session's (RunOptions::now_seconds), in UTC, where Volcano reads the wall
// clock in the scheduler's local time zone.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "src/model/revocable_window.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"

namespace vcsched::internal {
namespace {

constexpr absl::string_view kRevocableZone = "volcano.sh/revocable-zone";
constexpr absl::string_view kPreemptable = "volcano.sh/preemptable";
constexpr absl::string_view kJdbMinAvailable = "volcano.sh/jdb-min-available";
constexpr absl::string_view kJdbMaxUnavailable = "volcano.sh/jdb-max-unavailable";
constexpr absl::string_view kZoneArgument = "tdm.revocable-zone.";
constexpr double kMaxNodeScore = 100;
constexpr int64_t kDefaultEvictPeriodMs = 60 * 1000;
constexpr const char* kEvictMemoryKey = "tdm.evict";

// A pod's or PodGroup's revocable zone: "*" when its annotations name the zone "*", or
// (without the zone annotation) say it is preemptable; "" otherwise.
bool AllowsRevocable(const Labels& annotations) {
  if (auto it = annotations.find(std::string(kRevocableZone)); it != annotations.end()) return it->second == "*";
  auto it = annotations.find(std::string(kPreemptable));
  bool preemptable = false;
  return it != annotations.end() && ParseGoBool(it->second, &preemptable) && preemptable;
}

// Kubernetes' intstr: an integer, or "N%" of `total` rounded up; anything else is 0 (Volcano
// logs it).
bool GoAtoi(absl::string_view text, int64_t* n) {
  for (char c : text) {
    if (absl::ascii_isspace(c)) return false;  // absl accepts spaces around; Go does not
  }
  return absl::SimpleAtoi(text, n) && *n >= INT32_MIN && *n <= INT32_MAX;
}

int64_t IntOrPercent(absl::string_view text, int64_t total) {
  int64_t n = 0;
  if (GoAtoi(text, &n)) return n;
  absl::string_view digits = text;
  if (!absl::ConsumeSuffix(&digits, "%") || !GoAtoi(digits, &n)) return 0;
  if (n > 0 && total > INT64_MAX / n) return INT64_MAX;
  const int64_t product = n * total;
  return product >= 0 ? (product + 99) / 100 : -((-product) / 100);
}

class TdmPlugin : public Plugin {
 public:
  TdmPlugin(std::map<std::string, std::string> zones, int64_t evict_period_ms)
      : zones_(std::move(zones)), evict_period_ms_(evict_period_ms) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    not_allowed_ = ssn.InternReason("not allow to dispatch to revocable node");
    // Why each closed zone a node names refuses pods, worked out once: the clock is fixed
    // for the session.
    zone_reason_.clear();
    for (NodeIndex n = 0; n < static_cast<NodeIndex>(s.snapshot().nodes().size()); ++n) {
      const std::string* zone = ZoneOf(s, n);
      if (zone == nullptr || zone_reason_.count(*zone)) continue;
      std::optional<std::string> closed = Closed(s, *zone);
      zone_reason_[*zone] = closed ? std::optional<ReasonId>(ssn.InternReason(*closed)) : std::nullopt;
    }
    ssn.AddPredicateFn([this, &s](TaskIndex t, NodeIndex n) { return Predicate(s, t, n); });
    ssn.AddNodeOrderFn([this, &s](TaskIndex t, NodeIndex n) {
      const std::string* zone = ZoneOf(s, n);
      if (zone == nullptr || Closed(s, *zone) || !AllowsRevocable(s.task(t).pod->annotations)) return 0.0;
      return kMaxNodeScore;
    });
    ssn.AddPreemptableFn([this, &s](TaskIndex preemptor, absl::Span<const TaskIndex> candidates) {
      if (s.task(preemptor).preemptable || AllowsRevocable(s.task(preemptor).pod->annotations)) {
        return std::make_pair(std::vector<TaskIndex>(), Vote::kReject);
      }
      std::vector<TaskIndex> eligible;
      for (TaskIndex t : candidates) {
        if (!s.task(t).preemptable || s.task_status(t) != TaskStatus::kRunning) continue;
        const NodeIndex n = s.task_node(t);
        if (n == kNone || ZoneOf(s, n) != nullptr) continue;
        eligible.push_back(t);
      }
      return std::make_pair(MaxVictimsByJob(s, eligible), Vote::kPermit);
    });
    ssn.AddVictimTasksFn([this, &ssn, &s](absl::Span<const TaskIndex>) {
      // The pods lent to zones whose window is closed, node by node (Volcano walks its
      // maps in random order; vcsched in zone, node and pod order), at most once per evict
      // period (the scheduler's memory keeps when tdm last looked).
      std::vector<TaskIndex> victims;
      if (!EvictionDue(ssn)) return victims;
      for (const auto& [zone, raw] : zones_) {
        if (!Closed(s, zone)) continue;
        std::vector<TaskIndex> lent;
        for (NodeIndex n = 0; n < static_cast<NodeIndex>(s.snapshot().nodes().size()); ++n) {
          const std::string* z = ZoneOf(s, n);
          if (z == nullptr || *z != zone) continue;
          for (TaskIndex t : s.node_tasks(n)) {
            if (s.task(t).preemptable && s.task_status(t) == TaskStatus::kRunning) lent.push_back(t);
          }
        }
        for (TaskIndex t : MaxVictimsByJob(s, lent)) victims.push_back(t);
      }
      return victims;
    });
    ssn.AddJobOrderFn([&s](JobIndex l, JobIndex r) {
      const bool lp = s.job(l).preemptable, rp = s.job(r).preemptable;
      return lp == rp ? 0 : lp ? 1 : -1;
    });
    ssn.AddJobPipelinedFn([&s](JobIndex j) { return s.JobIsPipelined(j) ? Vote::kPermit : Vote::kReject; });
    ssn.AddJobStarvingFn([&s](JobIndex j) {
      return !s.job(j).preemptable && s.job_count(j, TaskStatus::kPending) > 0;
    });
    return absl::OkStatus();
  }

 private:
  // Volcano looks for victims unless the last look was less than a period ago, and
  // records each look.
  bool EvictionDue(Session& ssn) const {
    SchedulerMemory& memory = ssn.memory();
    const int64_t now = ssn.now_ms();
    auto it = memory.last_run_ms.find(kEvictMemoryKey);
    if (it != memory.last_run_ms.end() && static_cast<__int128>(it->second) + evict_period_ms_ > now) {
      memory.due_ms[kEvictMemoryKey] = SaturatingAdd(it->second, evict_period_ms_);  // a look is owed then
      return false;
    }
    memory.last_run_ms[kEvictMemoryKey] = now;
    memory.due_ms.erase(kEvictMemoryKey);
    return true;
  }

  static const std::string* ZoneOf(const Session& s, NodeIndex n) {
    const Labels& labels = s.node_info(n).spec.labels;
    auto it = labels.find(std::string(kRevocableZone));
    return it == labels.end() || it->second.empty() ? nullptr : &it->second;
  }

  // Why `zone` is not open at the session's clock, in Volcano's words; nullopt when open.
  // The window is today's (UTC, RevocableWindow): one open over midnight is closed in its
  // early hours, as in Volcano.
  std::optional<std::string> Closed(const Session& s, const std::string& zone) const {
    auto it = zones_.find(zone);
    if (it == zones_.end()) return absl::StrCat("revocable zone ", zone, " not support");
    const absl::StatusOr<RevocableWindow> window = ParseRevocableWindow(it->second);
    if (!window.ok()) return std::string(window.status().message());
    if (!window->OpenAt(s.now_seconds())) return absl::StrCat("current time beyond revocable zone ", zone, ":", it->second);
    return std::nullopt;
  }

  FitResult Predicate(const Session& s, TaskIndex t, NodeIndex n) const {
    const std::string* zone = ZoneOf(s, n);
    if (zone == nullptr) return FitResult::Success();
    const std::optional<ReasonId>& closed = zone_reason_.find(*zone)->second;
    if (closed) return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, *closed);
    if (!AllowsRevocable(s.task(t).pod->annotations)) {
      return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, not_allowed_);
    }
    return FitResult::Success();
  }

  // Per job, the first of its `candidates` up to what its disruption budget lets go
  // (PodGroup annotations volcano.sh/jdb-max-unavailable, else jdb-min-available, else
  // one pod), jobs in index order.
  static std::vector<TaskIndex> MaxVictimsByJob(const Session& s, const std::vector<TaskIndex>& candidates) {
    std::map<JobIndex, std::vector<TaskIndex>> by_job;
    for (TaskIndex t : candidates) {
      if (s.job_of(t) != kNone) by_job[s.job_of(t)].push_back(t);
    }
    std::vector<TaskIndex> out;
    for (const auto& [j, tasks] : by_job) {
      const int64_t n = std::min<int64_t>(MaxEvictions(s, j), static_cast<int64_t>(tasks.size()));
      for (int64_t i = 0; i < n; ++i) out.push_back(tasks[static_cast<size_t>(i)]);
    }
    return out;
  }

  static int64_t MaxEvictions(const Session& s, JobIndex j) {
    const Labels& annotations = s.job(j).pod_group.annotations;
    const int64_t tasks = static_cast<int64_t>(s.job(j).tasks.size());
    const int64_t running = s.job_count(j, TaskStatus::kRunning);
    // The min-available annotation, when present, is the budget, even empty (no budget).
    if (auto it = annotations.find(std::string(kJdbMinAvailable)); it != annotations.end()) {
      if (it->second.empty()) return 1;
      const int64_t min_available = IntOrPercent(it->second, tasks);
      return running >= min_available ? running - min_available : 1;
    }
    if (auto it = annotations.find(std::string(kJdbMaxUnavailable)); it != annotations.end() && !it->second.empty()) {
      const int64_t max_unavailable = IntOrPercent(it->second, tasks);
      const int64_t finished = s.job_count(j, TaskStatus::kSucceeded) + s.job_count(j, TaskStatus::kFailed);
      const int64_t unavailable = tasks - finished - running;
      return unavailable >= max_unavailable ? 0 : max_unavailable - unavailable;
    }
    return 1;
  }

  const std::map<std::string, std::string> zones_;  // zone -> its "HH:MM-HH:MM" window
  const int64_t evict_period_ms_;
  ReasonId not_allowed_ = 0;
  std::map<std::string, std::optional<ReasonId>, std::less<>> zone_reason_;  // zones of nodes: why closed
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewTdmPlugin(const Arguments& args) {
  std::map<std::string, std::string> zones;
  for (const auto& [key, value] : args.root().entries()) {
    const size_t at = absl::string_view(key).find(kZoneArgument);
    if (at == std::string::npos) continue;
    if (!value.is_scalar()) return absl::InvalidArgumentError(absl::StrCat(key, ": expected a time window such as 10:00-21:00"));
    std::string zone = key;
    zone.erase(at, kZoneArgument.size());
    zones[zone] = value.text();
  }
  // tdm.evict.period (default 1m) spaces shuffle's evictions across sessions; an
  // unparsable period keeps the default, as Volcano.
  VCSCHED_ASSIGN_OR_RETURN(const std::string period, args.GetString("tdm.evict.period", "1m"));
  absl::StatusOr<int64_t> period_ms = ParseGoDurationMillis(period);
  return std::unique_ptr<Plugin>(new TdmPlugin(std::move(zones), period_ms.ok() ? *period_ms : kDefaultEvictPeriodMs));
}

}  // namespace vcsched::internal
