// usage: load-aware filtering and scoring from the nodes' measured load (NodeSpec::metrics,
// which a host fills from its metrics source; docs/FORMAT.md "Node metrics"). A node whose
// CPU or memory average is past its threshold refuses pods; nodes score by how much of
// them stays free once the pods the metrics cannot see yet are added: pods placed in this
// session, bound but not running, or started within the metrics interval ("shadow" load,
// estimated from requests and limits). Readings older than five minutes are ignored.
// Volcano visits nodes and their pods in map order when it estimates that shadow load (a
// node's risk factor grows as its pods are counted); vcsched counts them in task order.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"
#include "vcsched/quantity.h"

namespace vcsched::internal {
namespace {

constexpr double kMaxNodeScore = 100;
constexpr int64_t kMetricsActiveSeconds = 5 * 60;
constexpr int64_t kDefaultMetricsIntervalMs = 30 * 1000;
constexpr const char* kCpuTooHigh = "the CPU load of the node exceeds the upper limit.";
constexpr const char* kMemoryTooHigh = "the memory load of the node exceeds the upper limit.";

struct UsageSettings {
  int64_t usage_weight = 5;
  int64_t cpu_weight = 1;
  int64_t memory_weight = 1;
  double cpu_threshold = 80;
  double memory_threshold = 80;
  double request_ratio = 0.7;
  double burst_ratio = 0;
  double risk_threshold = 0.6;
  double risk_factor = 1.2;
  double best_effort_cpu = 250;                     // millicores
  double best_effort_memory = 200.0 * 1024 * 1024;  // bytes
};

// An int argument Volcano keeps only when it is an integer within [lo, hi] (a value of
// another type keeps the default, as its GetInt does).
absl::StatusOr<int64_t> IntWithin(const Arguments& args, absl::string_view key, int64_t fallback, int64_t lo,
                                  int64_t hi) {
  VCSCHED_ASSIGN_OR_RETURN(const int64_t v, args.GetInt(key, fallback));
  return v >= lo && v <= hi ? v : fallback;
}

absl::StatusOr<double> FloatWithin(const Arguments& args, absl::string_view key, double fallback, double lo,
                                   double hi) {
  VCSCHED_ASSIGN_OR_RETURN(const double v, args.GetFloat(key, fallback));
  return v >= lo && v <= hi ? v : fallback;
}

// be_cpu / be_mem: an integer (millicores; MiB), or a quantity string; anything else, or a
// negative amount, keeps the default.
double BestEffortAmount(const Value* v, double fallback, bool memory) {
  if (v == nullptr || !v->is_scalar()) return fallback;
  const std::string& text = v->text();
  int64_t n = 0;
  if (!v->quoted() && absl::SimpleAtoi(text, &n)) {
    if (n < 0) return fallback;
    return memory ? static_cast<double>(n) * 1024 * 1024 : static_cast<double>(n);
  }
  if (!v->quoted() && !text.empty() && (absl::ascii_isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-')) {
    double d = 0;  // a YAML float is neither an int nor a string to Volcano
    if (absl::SimpleAtod(text, &d)) return fallback;
  }
  absl::StatusOr<int64_t> q = memory ? ParseValue(text) : ParseMilliValue(text);
  if (!q.ok() || *q < 0) return fallback;
  return static_cast<double>(*q);
}

// A section of the arguments (thresholds, estimator) as arguments of their own.
Arguments Section(const Arguments& args, absl::string_view key) {
  const Value* v = args.Find(key);
  if (v == nullptr || !v->is_map()) return Arguments();
  return Arguments(*v);
}

absl::StatusOr<UsageSettings> ReadSettings(const Arguments& args) {
  UsageSettings s;
  VCSCHED_ASSIGN_OR_RETURN(s.usage_weight, IntWithin(args, "usage.weight", 5, 0, INT32_MAX));
  VCSCHED_ASSIGN_OR_RETURN(s.cpu_weight, IntWithin(args, "cpu.weight", 1, 0, INT32_MAX));
  VCSCHED_ASSIGN_OR_RETURN(s.memory_weight, IntWithin(args, "memory.weight", 1, 0, INT32_MAX));
  const Arguments thresholds = Section(args, "thresholds");
  VCSCHED_ASSIGN_OR_RETURN(const int64_t cpu, IntWithin(thresholds, "cpu", 80, 0, 100));
  VCSCHED_ASSIGN_OR_RETURN(const int64_t mem, IntWithin(thresholds, "mem", 80, 0, 100));
  s.cpu_threshold = static_cast<double>(cpu);
  s.memory_threshold = static_cast<double>(mem);
  const Arguments estimator = Section(args, "estimator");
  VCSCHED_ASSIGN_OR_RETURN(s.request_ratio, FloatWithin(estimator, "request_ratio", 0.7, 0, 1));
  VCSCHED_ASSIGN_OR_RETURN(s.burst_ratio, FloatWithin(estimator, "burst_ratio", 0, 0, 1));
  VCSCHED_ASSIGN_OR_RETURN(s.risk_threshold, FloatWithin(estimator, "risk_threshold", 0.6, 0, 1));
  VCSCHED_ASSIGN_OR_RETURN(s.risk_factor, FloatWithin(estimator, "risk_factor", 1.2, 1, 1e308));
  s.best_effort_cpu = BestEffortAmount(estimator.Find("be_cpu"), s.best_effort_cpu, false);
  s.best_effort_memory = BestEffortAmount(estimator.Find("be_mem"), s.best_effort_memory, true);
  return s;
}

// The pod's cpu (millicores) and memory (bytes) limits as Volcano sums them: containers
// added, init containers folded in beside their sidecars, overhead added to a limit set.
std::pair<double, double> PodLimits(const PodSpec& pod) {
  const auto amount = [](const ResourceList& list, const char* name) {
    auto it = list.find(name);
    return it == list.end() ? 0.0 : static_cast<double>(it->second);
  };
  double cpu = 0, mem = 0;
  for (const Container& c : pod.containers) {
    cpu += amount(c.limits, "cpu");
    mem += amount(c.limits, "memory");
  }
  double sidecar_cpu = 0, sidecar_mem = 0, init_cpu = 0, init_mem = 0;
  for (const Container& c : pod.init_containers) {
    const double ccpu = amount(c.limits, "cpu"), cmem = amount(c.limits, "memory");
    if (c.restartable) {
      cpu += ccpu;
      mem += cmem;
      sidecar_cpu += ccpu;
      sidecar_mem += cmem;
      init_cpu = std::max(init_cpu, sidecar_cpu);
      init_mem = std::max(init_mem, sidecar_mem);
    } else {
      init_cpu = std::max(init_cpu, ccpu + sidecar_cpu);
      init_mem = std::max(init_mem, cmem + sidecar_mem);
    }
  }
  cpu = std::max(cpu, init_cpu);
  mem = std::max(mem, init_mem);
  if (cpu != 0) cpu += amount(pod.overhead, "cpu");
  if (mem != 0) mem += amount(pod.overhead, "memory");
  return {cpu, mem};
}

double EstimateAmount(double request, double limit, const UsageSettings& s, double risk) {
  request = std::max(request, 0.0);
  const double effective_limit = limit <= 0 || limit < request ? request : limit;
  const double burst = std::max(effective_limit - request, 0.0);
  const double estimate = (request * s.request_ratio + burst * s.burst_ratio) * risk;
  return std::clamp(estimate, 0.0, effective_limit);
}

// Measured plus shadow load, as a fraction of capacity within [0, 1].
double Composite(double percent, double shadow, double capacity) {
  if (capacity <= 0) return 0;
  return std::clamp((percent / 100 * capacity + shadow) / capacity, 0.0, 1.0);
}

class UsagePlugin : public Plugin {
 public:
  explicit UsagePlugin(UsageSettings settings) : s_(settings) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    ssn_ = &ssn;
    const Session& s = ssn;
    interval_ms_ = kDefaultMetricsIntervalMs;
    if (auto it = s.config().metrics.find("interval"); it != s.config().metrics.end()) {
      absl::StatusOr<int64_t> ms = ParseGoDurationMillis(it->second);
      if (ms.ok() && *ms > 0) interval_ms_ = *ms;
    }
    const size_t nodes = static_cast<size_t>(s.num_nodes());
    shadow_.assign(nodes, {0, 0});
    placed_.clear();
    cpu_too_high_ = ssn.InternReason(kCpuTooHigh);
    memory_too_high_ = ssn.InternReason(kMemoryTooHigh);
    for (NodeIndex n = 0; n < s.num_nodes(); ++n) {
      for (TaskIndex t : s.node_tasks(n)) {
        if (Unseen(s, t)) Add(t, n);
      }
    }
    ssn.AddEventHandler({[this](TaskIndex t) { Add(t, ssn_->task_node(t)); }, [this](TaskIndex t) { Remove(t); }});
    ssn.AddPredicateFn([this](TaskIndex, NodeIndex n) { return Predicate(n); });
    ssn.AddNodeOrderFn([this](TaskIndex, NodeIndex n) { return Fresh(n) ? Score(n) : 0.0; });
    return absl::OkStatus();
  }

 private:
  struct Estimate {
    NodeIndex node = kNone;
    double cpu = 0, memory = 0;
  };

  const NodeMetrics* Metrics(NodeIndex n) const {
    const std::optional<NodeMetrics>& m = ssn_->node_info(n).spec.metrics;
    return m ? &*m : nullptr;
  }
  // Readings at most five minutes old count; a node without readings has none.
  bool Fresh(NodeIndex n) const {
    const NodeMetrics* m = Metrics(n);
    return m != nullptr && ssn_->now_seconds() - m->time <= kMetricsActiveSeconds;
  }

  // Whether the metrics cannot see the task's load yet: placed and not running, or
  // running since less than the metrics interval (or since an unknown time).
  bool Unseen(const Session& s, TaskIndex t) const {
    switch (s.task_status(t)) {
      case TaskStatus::kAllocated:
      case TaskStatus::kBinding:
      case TaskStatus::kBound:
        return true;
      case TaskStatus::kRunning: {
        const std::optional<int64_t>& start = s.task(t).pod->start_time;
        if (!start) return true;
        // Both within years 0..9999: the product cannot wrap.
        return (s.now_seconds() - *start) * 1000 < interval_ms_;
      }
      default:
        return false;
    }
  }

  double Capacity(NodeIndex n, const char* name) const {
    const ResourceList& c = ssn_->node_info(n).spec.capacity;
    auto it = c.find(name);
    return it == c.end() ? 0.0 : static_cast<double>(it->second);
  }
  double CpuComposite(NodeIndex n) const {
    const NodeMetrics* m = Metrics(n);
    return Composite(m != nullptr ? m->cpu_percent : 0, shadow_[static_cast<size_t>(n)].first, Capacity(n, "cpu"));
  }
  double MemoryComposite(NodeIndex n) const {
    const NodeMetrics* m = Metrics(n);
    return Composite(m != nullptr ? m->memory_percent : 0, shadow_[static_cast<size_t>(n)].second,
                     Capacity(n, "memory"));
  }

  double RiskFactor(NodeIndex n) const {
    const int64_t total = s_.cpu_weight + s_.memory_weight;
    const double load = total == 0 ? 0
                                   : (CpuComposite(n) * static_cast<double>(s_.cpu_weight) +
                                      MemoryComposite(n) * static_cast<double>(s_.memory_weight)) /
                                         static_cast<double>(total);
    return load >= s_.risk_threshold ? s_.risk_factor : 1.0;
  }

  void Add(TaskIndex t, NodeIndex n) {
    if (n == kNone) return;
    const double risk = RiskFactor(n);
    const TaskInfo& task = ssn_->task(t);
    Estimate e;
    e.node = n;
    if (task.best_effort) {
      e.cpu = s_.best_effort_cpu * risk;
      e.memory = s_.best_effort_memory * risk;
    } else {
      const auto req = ssn_->task_resreq(t);
      const auto [cpu_limit, memory_limit] = PodLimits(*task.pod);
      e.cpu = EstimateAmount(static_cast<double>(req[kCpu]), cpu_limit, s_, risk);
      e.memory = EstimateAmount(static_cast<double>(req[kMemory]), memory_limit, s_, risk);
    }
    Remove(t);  // a task counted twice replaces its first estimate
    auto& load = shadow_[static_cast<size_t>(n)];
    load.first += e.cpu;
    load.second += e.memory;
    placed_[t] = e;
  }

  void Remove(TaskIndex t) {
    auto it = placed_.find(t);
    if (it == placed_.end()) return;
    auto& load = shadow_[static_cast<size_t>(it->second.node)];
    load.first = std::max(load.first - it->second.cpu, 0.0);
    load.second = std::max(load.second - it->second.memory, 0.0);
    placed_.erase(it);
  }

  FitResult Predicate(NodeIndex n) const {
    if (!Fresh(n)) return FitResult::Success();
    const NodeMetrics& m = *Metrics(n);
    if (m.cpu_percent > s_.cpu_threshold) return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, cpu_too_high_);
    if (m.memory_percent > s_.memory_threshold) {
      return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, memory_too_high_);
    }
    return FitResult::Success();
  }

  double Score(NodeIndex n) const {
    const int64_t total = s_.cpu_weight + s_.memory_weight;
    if (total == 0) return 0;
    const double cpu = (1.0 - CpuComposite(n)) * static_cast<double>(s_.cpu_weight);
    const double memory = (1.0 - MemoryComposite(n)) * static_cast<double>(s_.memory_weight);
    return (cpu + memory) / static_cast<double>(total) * kMaxNodeScore * static_cast<double>(s_.usage_weight);
  }

  const UsageSettings s_;
  Session* ssn_ = nullptr;
  int64_t interval_ms_ = kDefaultMetricsIntervalMs;
  std::vector<std::pair<double, double>> shadow_;  // per node: cpu millicores, memory bytes
  std::map<TaskIndex, Estimate> placed_;           // what each counted task added
  ReasonId cpu_too_high_ = 0;
  ReasonId memory_too_high_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewUsagePlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(const UsageSettings settings, ReadSettings(args));
  return std::unique_ptr<Plugin>(new UsagePlugin(settings));
}

}  // namespace vcsched::internal
