// rescheduling: once per `interval`, shuffle's victims include the pods its strategies
// move off busy nodes. HEAD has one strategy, lowNodeUtilization: when some nodes are
// below `thresholds` in every measured dimension and others above `targetThresholds` in
// one, the busy nodes give up pods (lowest priority, then lowest QoS class, first) while
// they stay at or above the target (docs/reference/scheduler.md, "rescheduling").
//
// Utilization is the node metrics' average (NodeSpec::metrics) for the plugin's
// `metricsPeriod`. Volcano's metrics source records its averages under the period "10m"
// only, so any other metricsPeriod (the default is "5m") reads 0% on every node, as HEAD
// does. The interval is kept in the scheduler's memory (Session::memory()).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/model/pod_facts.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"

namespace vcsched::internal {
namespace {

constexpr int64_t kDefaultIntervalMs = 5 * 60 * 1000;
constexpr const char* kDefaultMetricsPeriod = "5m";
constexpr const char* kRecordedMetricsPeriod = "10m";  // the period node metrics are kept for
constexpr const char* kLowNodeUtilization = "lowNodeUtilization";
constexpr const char* kMemoryKey = "rescheduling";

struct Thresholds {
  double cpu = 100;
  double memory = 100;
};

struct ReschedulingSettings {
  int64_t interval_ms = kDefaultIntervalMs;
  std::string metrics_period = kDefaultMetricsPeriod;
  bool low_node_utilization = true;  // a strategy of that name is configured
  Thresholds low;                    // lowNodeUtilization's thresholds
  Thresholds target;                 // and targetThresholds
};

// A threshold map's integers onto `out` (cpu and memory; "pod" is read by Volcano but no
// node reports it). Volcano asserts every value is an int (it panics on anything else).
absl::Status ReadThresholds(const Value& map, absl::string_view where, Thresholds* out) {
  Thresholds t = *out;
  for (const auto& [key, value] : map.entries()) {
    int64_t n = 0;
    if (!value.is_scalar() || value.quoted() || !absl::SimpleAtoi(value.text(), &n)) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".", key, ": expected an integer percentage, got ",
                                                     value.Describe(), " (Volcano HEAD stops on it)"));
    }
    if (key == "cpu") t.cpu = static_cast<double>(n);
    if (key == "memory") t.memory = static_cast<double>(n);
  }
  *out = t;
  return absl::OkStatus();
}

// lowNodeUtilization's params as Volcano reads them: a section that is not a map ends the
// reading (what was read stays).
absl::Status ReadLowNodeUtilization(const Value* params, absl::string_view where, ReschedulingSettings* s) {
  s->low = s->target = Thresholds();
  if (params == nullptr || !params->is_map() || params->size() == 0) return absl::OkStatus();
  for (const char* section : {"thresholds", "targetThresholds"}) {
    const Value* v = params->Find(section);
    if (v == nullptr) continue;
    if (!v->is_map()) return absl::OkStatus();
    Thresholds* out = absl::string_view(section) == "thresholds" ? &s->low : &s->target;
    VCSCHED_RETURN_IF_ERROR(ReadThresholds(*v, absl::StrCat(where, ".", section), out));
  }
  return absl::OkStatus();
}

absl::StatusOr<ReschedulingSettings> ReadSettings(const Arguments& args) {
  ReschedulingSettings s;
  VCSCHED_ASSIGN_OR_RETURN(const std::string interval, args.GetString("interval", ""));
  absl::StatusOr<int64_t> ms = ParseGoDurationMillis(interval);
  s.interval_ms = ms.ok() ? *ms : kDefaultIntervalMs;  // unparsable: the default, as Volcano
  VCSCHED_ASSIGN_OR_RETURN(s.metrics_period, args.GetString("metricsPeriod", kDefaultMetricsPeriod));
  if (s.metrics_period.empty()) s.metrics_period = kDefaultMetricsPeriod;
  const Value* strategies = args.Find("strategies");
  if (strategies == nullptr || !strategies->is_list() || strategies->size() == 0) return s;
  // A list replaces the default strategy; an entry Volcano cannot decode (not a map, a
  // name that is not a scalar, params that are not a map) is left out. The last entry of
  // a name gives its params.
  s.low_node_utilization = false;
  const Value* lnu_params = nullptr;
  std::string lnu_where;
  for (size_t i = 0; i < strategies->items().size(); ++i) {
    const Value& entry = strategies->items()[i];
    if (!entry.is_map()) continue;
    const Value* name = entry.Find("name");
    const Value* params = entry.Find("params");
    if (name != nullptr && !name->is_scalar() && !name->is_null()) continue;
    if (params != nullptr && !params->is_map() && !params->is_null()) continue;
    if (name == nullptr || name->text() != kLowNodeUtilization) continue;
    s.low_node_utilization = true;
    lnu_params = params;
    lnu_where = absl::StrCat("strategies[", i, "].params");
  }
  if (s.low_node_utilization) VCSCHED_RETURN_IF_ERROR(ReadLowNodeUtilization(lnu_params, lnu_where, &s));
  return s;
}

// Quantity.AsApproximateFloat64 of a cpu amount kept in millicores: whole cores as Go
// parses "4"; otherwise millicores scaled down.
double Cores(int64_t milli) {
  return milli % 1000 == 0 ? static_cast<double>(milli / 1000) : static_cast<double>(milli) * 0.001;
}

// amount * 100 / capacity in IEEE arithmetic (a node without status.capacity divides by 0).
double PercentOf(double amount, double capacity) {
  const double scaled = amount * 100;
  if (capacity != 0) return scaled / capacity;
  if (scaled == 0 || scaled != scaled) return std::numeric_limits<double>::quiet_NaN();
  return scaled > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

// Go's int64(f) for the amounts below (clamped where Go's conversion is undefined).
__int128 Truncate(double f) {
  if (!(f == f)) return 0;
  if (f >= 9.2e18) return INT64_MAX;
  if (f <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(f);
}

int64_t Amount(const ResourceList& list, const char* name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second;
}

struct NodeLoad {
  NodeIndex node = kNone;
  double cpu = 0;
  double memory = 0;
};

class LowNodeUtilization {
 public:
  LowNodeUtilization(const Session& s, const ReschedulingSettings& settings) : s_(s), settings_(settings) {}

  std::vector<TaskIndex> Victims(absl::Span<const TaskIndex> running) {
    std::vector<NodeLoad> low, high;
    const NodeIndex nodes = static_cast<NodeIndex>(s_.snapshot().nodes().size());
    for (NodeIndex n = 0; n < nodes; ++n) {
      const NodeLoad load = LoadOf(n);
      if (IsLow(n, load)) {
        low.push_back(load);
      } else if (load.cpu > settings_.target.cpu || load.memory > settings_.target.memory) {
        high.push_back(load);
      }
    }
    if (low.empty() || low.size() == static_cast<size_t>(nodes) || high.empty()) return {};
    for (const NodeLoad& l : low) {  // room below the target on the quiet nodes
      const ResourceList& alloc = s_.node_info(l.node).spec.allocatable;
      const double cpu = static_cast<double>(Amount(alloc, "cpu"));
      const double memory = static_cast<double>(Amount(alloc, "memory"));
      room_cpu_ += Truncate(settings_.target.cpu * cpu * 0.01) - Truncate(l.cpu * cpu * 0.01);
      room_memory_ += Truncate(settings_.target.memory * memory * 0.01) - Truncate(l.memory * memory * 0.01);
    }
    running_ = running;
    running_set_.insert(running.begin(), running.end());
    // Busiest first (cpu + memory); Volcano's sort is not stable over map order, vcsched
    // keeps node order among equals.
    std::stable_sort(high.begin(), high.end(),
                     [](const NodeLoad& a, const NodeLoad& b) { return a.cpu + a.memory > b.cpu + b.memory; });
    std::vector<TaskIndex> victims;
    for (NodeLoad& load : high) TakeFrom(load, &victims);
    return victims;
  }

 private:
  NodeLoad LoadOf(NodeIndex n) const {
    NodeLoad load{n, 0, 0};
    const std::optional<NodeMetrics>& m = s_.node_info(n).spec.metrics;
    if (m && settings_.metrics_period == kRecordedMetricsPeriod) {
      load.cpu = m->cpu_percent;
      load.memory = m->memory_percent;
    }
    return load;
  }

  bool IsLow(NodeIndex n, const NodeLoad& load) const {
    if (s_.node_info(n).spec.unschedulable) return false;
    return load.cpu < settings_.low.cpu && load.memory < settings_.low.memory;
  }

  bool KeepTaking(const NodeLoad& load) const {
    const bool over = load.cpu >= settings_.target.cpu || load.memory >= settings_.target.memory;
    return over && room_cpu_ != 0 && room_memory_ != 0;  // only an exact zero stops it
  }

  // The pods of a busy node, lowest priority, then best effort, burstable,
  // guaranteed, first (Volcano's order over map order; vcsched keeps task order among
  // equals), taken while the node stays at or above the target.
  void TakeFrom(NodeLoad& load, std::vector<TaskIndex>* victims) {
    std::vector<TaskIndex> pods = s_.node_tasks(load.node);
    std::vector<std::pair<std::pair<int32_t, int>, TaskIndex>> keyed;  // (priority, QoS rank), worked out once
    keyed.reserve(pods.size());
    for (TaskIndex t : pods) keyed.push_back({{AdmittedPriority(t), QosRank(t)}, t});
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < pods.size(); ++i) pods[i] = keyed[i].second;
    const ResourceList& capacity = s_.node_info(load.node).spec.capacity;
    const double capacity_cpu = Cores(Amount(capacity, "cpu"));
    const double capacity_memory = static_cast<double>(Amount(capacity, "memory"));
    for (TaskIndex pod : pods) {
      if (!KeepTaking(load)) return;
      const TaskIndex t = RunningTaskNamed(pod);
      if (t == kNone) continue;
      const int64_t cpu = s_.task_resreq(t)[kCpu];
      const int64_t memory = s_.task_resreq(t)[kMemory];
      room_cpu_ -= cpu;
      room_memory_ -= memory;
      load.cpu -= PercentOf(static_cast<double>(cpu) * 0.001, capacity_cpu);
      load.memory -= PercentOf(static_cast<double>(memory), capacity_memory);
      victims->push_back(t);
    }
  }

  // spec.priority as the API server's Priority admission leaves it (Volcano reads the
  // pod's, not the task's: no volcano.sh/task-priority): as given, else the class's
  // value, else the global default class's when no class is named, else 0.
  int32_t AdmittedPriority(TaskIndex t) const {
    const PodSpec& pod = *s_.task(t).pod;
    if (pod.priority) return *pod.priority;
    for (const PriorityClassSpec& pc : s_.snapshot().priority_classes()) {
      if (pod.priority_class_name.empty() ? pc.global_default : pc.name == pod.priority_class_name) return pc.value;
    }
    return 0;
  }

  int QosRank(TaskIndex t) const {
    switch (QosClassOf(*s_.task(t).pod)) {
      case PodQos::kBestEffort: return 0;
      case PodQos::kBurstable: return 1;
      default: return 2;
    }
  }

  // Volcano matches the node's pod to a running task by pod name alone: the pod itself
  // when it runs, else (vcsched's rule where Volcano takes the first in map order) the
  // first running task of that name in job order.
  TaskIndex RunningTaskNamed(TaskIndex pod) {
    if (running_set_.contains(pod)) return pod;
    if (running_by_name_.empty()) {  // rare (a pod on the node that does not run): built once
      for (TaskIndex t : running_) running_by_name_[s_.task(t).pod->name].push_back(t);
    }
    auto it = running_by_name_.find(s_.task(pod).pod->name);
    return it == running_by_name_.end() ? kNone : it->second.front();
  }

  const Session& s_;
  const ReschedulingSettings& settings_;
  __int128 room_cpu_ = 0;     // millicores
  __int128 room_memory_ = 0;  // bytes
  absl::Span<const TaskIndex> running_;  // shuffle's candidates, in job order
  absl::flat_hash_set<TaskIndex> running_set_;
  absl::flat_hash_map<std::string, std::vector<TaskIndex>> running_by_name_;
};

// t + interval, saturating (an interval of 0 or less is due a millisecond on).
int64_t Later(int64_t t, int64_t interval_ms) {
  return SaturatingAdd(t, std::max<int64_t>(interval_ms, 1));
}

class ReschedulingPlugin : public Plugin {
 public:
  explicit ReschedulingPlugin(ReschedulingSettings settings) : settings_(std::move(settings)) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    if (!DueNow(ssn) || !settings_.low_node_utilization) return absl::OkStatus();
    ssn.AddVictimTasksFn([this, &ssn](absl::Span<const TaskIndex> running) {
      return LowNodeUtilization(ssn, settings_).Victims(running);
    });
    return absl::OkStatus();
  }

 private:
  // Volcano runs the strategies when `interval` has passed since they last ran, or since
  // the scheduler started; it compares wall-clock times a moment apart even in the first
  // session, so vcsched counts an interval as passed when the elapsed time reaches it.
  bool DueNow(Session& ssn) const {
    SchedulerMemory& memory = ssn.memory();
    const int64_t now = ssn.now_ms();
    auto it = memory.last_run_ms.find(kMemoryKey);
    const int64_t last = it != memory.last_run_ms.end() ? it->second : memory.started_ms.value_or(now);
    const bool due = static_cast<__int128>(now) - last >= settings_.interval_ms;
    if (due) memory.last_run_ms[kMemoryKey] = now;
    memory.due_ms[kMemoryKey] = Later(due ? now : last, settings_.interval_ms);
    return due;
  }

  ReschedulingSettings settings_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewReschedulingPlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(ReschedulingSettings settings, ReadSettings(args));
  return std::unique_ptr<Plugin>(new ReschedulingPlugin(std::move(settings)));
}

}  // namespace vcsched::internal
