// resource-strategy-fit, as Volcano HEAD runs it (docs/reference/scheduler.md §10.16):
// per-resource LeastAllocated / MostAllocated scores with weights (a name ending in '*'
// matches by prefix, the longest prefix winning; a pod's annotations may set its own
// type and weights), the sra score (nodes without the scarce resources score higher for
// pods that do not need them) and the proportional filter (a node keeps cpu and memory
// in proportion to its idle scarce resources for the pods that would use them).
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "src/model/strict_json.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

constexpr absl::string_view kScoringTypeAnnotation = "volcano.sh/resource-strategy-scoring-type";
constexpr absl::string_view kWeightAnnotation = "volcano.sh/resource-strategy-weight";
constexpr double kMaxNodeScore = 100;

enum class ScoringType { kLeast, kMost, kOther };

struct Strategy {
  ScoringType type = ScoringType::kLeast;
  int64_t weight = 1;
};

// A pod's own weights (the weight annotation): Go's json.Unmarshal into
// map[ResourceName]int. nullopt when it does not parse (Volcano then scores the pod 0).
std::optional<std::map<std::string, int64_t>> ParsePodWeights(absl::string_view json) {
  StrictJsonReader r(json);
  std::map<std::string, int64_t> out;
  r.Space();
  if (r.Null()) return r.End().ok() ? std::optional(out) : std::nullopt;
  if (!r.Eat('{')) return std::nullopt;
  const absl::Status parsed = r.Object([&](std::string name) -> absl::Status {
    if (r.Null()) return absl::OkStatus();  // null leaves the value as it was
    const std::string text = r.Number();
    int64_t v = 0;
    // An integer literal only: Go refuses a fraction or an exponent for an int.
    const bool integer = !text.empty() && text.find_first_of(".eE+") == std::string::npos;
    if (!integer || !absl::SimpleAtoi(text, &v)) return r.Error("expected an integer");
    out[name] = v;
    return absl::OkStatus();
  });
  if (!parsed.ok() || !r.End().ok()) return std::nullopt;
  return out;
}

class ResourceStrategyFitPlugin : public Plugin {
 public:
  struct Sra {
    int64_t weight = 0;
    std::vector<std::pair<std::string, int64_t>> resources;  // name, weight
    int64_t weight_sum = 0;
  };
  struct Proportion {
    std::string resource;
    double cpu = 1, memory = 1;  // cores and decimal gigabytes kept per unit of the resource
  };

  ResourceStrategyFitPlugin(int64_t weight, std::vector<std::pair<std::string, Strategy>> resources, Sra sra,
                            std::optional<std::vector<Proportion>> proportional)
      : weight_(weight), resources_(std::move(resources)), sra_(std::move(sra)), proportional_(std::move(proportional)) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    s_ = &s;
    const ResourceSpace& space = s.snapshot().space();
    per_dim_.assign(static_cast<size_t>(s.dims()), std::nullopt);
    for (int d = 0; d < s.dims(); ++d) per_dim_[static_cast<size_t>(d)] = StrategyFor(space.name(d));
    sra_dims_.clear();
    for (const auto& [name, w] : sra_.resources) sra_dims_.emplace_back(space.Find(name), w);
    proportional_dims_.clear();
    if (proportional_) {
      for (const Proportion& p : *proportional_) proportional_dims_.emplace_back(space.Find(p.resource), &p);
      ssn.AddPredicateFn([this](TaskIndex t, NodeIndex n) { return Proportional(t, n); });
    }
    for (const Proportion* p : ProportionalOrder()) {
      reasons_[p] = ssn.InternReason(absl::StrCat("proportional of resource ", p->resource, " check failed"));
    }
    if (weight_ > 0 || sra_.weight > 0) {
      // A pod's own scoring annotations are not part of its shape: its scores are its own.
      ssn.AddNodeChoiceVetoFn([&s](TaskIndex t) {
        const Labels& a = s.task(t).pod->annotations;
        auto it = a.find(std::string(kScoringTypeAnnotation));
        return it != a.end() && !it->second.empty();
      });
      ssn.AddNodeOrderFn([this](TaskIndex t, NodeIndex n) {
        double score = 0;
        if (weight_ > 0) score += StrategyScore(t, n);
        if (sra_.weight > 0) score += SraScore(t, n);
        return score;
      });
    }
    return absl::OkStatus();
  }

 private:
  // The configured strategy of a resource: its exact name, else the longest matching
  // prefix pattern.
  std::optional<Strategy> StrategyFor(const std::string& name) const {
    std::optional<Strategy> best;
    size_t best_len = 0;
    for (const auto& [pattern, strategy] : resources_) {
      if (pattern == name) return strategy;
      if (!pattern.empty() && pattern.back() == '*') {
        const absl::string_view prefix = absl::string_view(pattern).substr(0, pattern.size() - 1);
        if (absl::StartsWith(name, prefix) && (!best || prefix.size() > best_len)) {
          best = strategy;
          best_len = prefix.size();
        }
      }
    }
    return best;
  }

  double StrategyScore(TaskIndex t, NodeIndex n) const {
    const auto req = s_->task_resreq(t);
    const auto alloc = s_->node_allocatable(n);
    const auto used = s_->node_used(n);
    const Labels& annotations = s_->task(t).pod->annotations;
    std::optional<ScoringType> pod_type;
    std::map<std::string, int64_t> pod_weights;
    if (auto it = annotations.find(std::string(kScoringTypeAnnotation)); it != annotations.end() && !it->second.empty()) {
      pod_type = it->second == "MostAllocated" ? ScoringType::kMost
                 : it->second == "LeastAllocated" ? ScoringType::kLeast
                                                  : ScoringType::kOther;
      auto w = annotations.find(std::string(kWeightAnnotation));
      if (w == annotations.end() || w->second.empty()) return 0;
      std::optional<std::map<std::string, int64_t>> parsed = ParsePodWeights(w->second);
      if (!parsed) return 0;
      pod_weights = *std::move(parsed);
    }
    double score = 0;
    int64_t wsum = 0;
    for (size_t d = 0; d < req.size(); ++d) {
      if (req[d] <= 0) continue;
      Strategy st;
      if (pod_type) {
        auto it = pod_weights.find(s_->snapshot().space().name(static_cast<int>(d)));
        if (it == pod_weights.end()) continue;
        st = {*pod_type, it->second};
      } else if (per_dim_[d]) {
        st = *per_dim_[d];
      } else {
        continue;
      }
      double part = 0;
      if (st.type != ScoringType::kOther && st.weight != 0 && alloc[d] != 0) {
        const int64_t after = SaturatingAdd(used[d], req[d]);  // huge requests cannot wrap
        if (after > alloc[d]) return 0;  // Volcano: the node has not enough of it
        const double a = static_cast<double>(alloc[d]);
        const double u = static_cast<double>(after);
        part = st.type == ScoringType::kMost ? u * static_cast<double>(st.weight) / a
                                             : (a - u) * static_cast<double>(st.weight) / a;
      }
      score += part;
      wsum = SaturatingAdd(wsum, st.weight);
    }
    if (wsum > 0) score /= static_cast<double>(wsum);
    return score * kMaxNodeScore * static_cast<double>(weight_);
  }

  // sra: 0 on a node lacking a resource the pod requests; else higher the fewer of the
  // scarce resources the node has: (1 - their weights there / all their weights) x 100 x
  // weight.
  double SraScore(TaskIndex t, NodeIndex n) const {
    const auto req = s_->task_resreq(t);
    const auto alloc = s_->node_allocatable(n);
    for (size_t d = 0; d < req.size(); ++d) {
      if (req[d] > 0 && alloc[d] == 0) return 0;
    }
    double score = 0;
    for (const auto& [d, w] : sra_dims_) {
      if (d >= 0 && alloc[static_cast<size_t>(d)] > 0) score += static_cast<double>(w);
    }
    if (sra_.weight_sum > 0) score = 1.0 - score / static_cast<double>(sra_.weight_sum);
    return score * kMaxNodeScore * static_cast<double>(sra_.weight);
  }

  // The proportional filter: a pod that requests none of the resources must leave, on
  // every node with them, cpu and memory in proportion to their idle amounts.
  FitResult Proportional(TaskIndex t, NodeIndex n) const {
    const auto req = s_->task_resreq(t);
    for (const auto& [d, p] : proportional_dims_) {
      if (d >= kPods && req[static_cast<size_t>(d)] > 0) return FitResult::Success();
    }
    const auto idle = s_->node_idle(n);
    const auto alloc = s_->node_allocatable(n);
    for (const Proportion* p : ProportionalOrder()) {
      int d = -1;
      for (const auto& [dim, q] : proportional_dims_) {
        if (q == p) d = dim;
      }
      // A node "has" the resource when it offers it at all (its idle amount may be 0).
      if (d < kPods || alloc[static_cast<size_t>(d)] <= 0) continue;
      const double amount = static_cast<double>(idle[static_cast<size_t>(d)]);  // thousandths
      const double cpu_kept = amount * p->cpu;                     // millicores
      const double memory_kept = amount * p->memory * 1000 * 1000;  // bytes
      if (static_cast<double>(idle[kCpu] - req[kCpu]) < cpu_kept ||
          static_cast<double>(idle[kMemory] - req[kMemory]) < memory_kept) {
        return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, reasons_.at(p));
      }
    }
    return FitResult::Success();
  }

  // The configured proportions by resource name (Volcano walks its map in random order;
  // vcsched names the first failing resource by name).
  std::vector<const Proportion*> ProportionalOrder() const {
    std::vector<const Proportion*> out;
    if (!proportional_) return out;
    for (const Proportion& p : *proportional_) out.push_back(&p);
    std::sort(out.begin(), out.end(), [](const Proportion* a, const Proportion* b) { return a->resource < b->resource; });
    return out;
  }

  const int64_t weight_;
  const std::vector<std::pair<std::string, Strategy>> resources_;
  const Sra sra_;
  const std::optional<std::vector<Proportion>> proportional_;
  const Session* s_ = nullptr;
  std::vector<std::optional<Strategy>> per_dim_;
  std::vector<std::pair<int, int64_t>> sra_dims_;                    // dimension (-1: none), weight
  std::vector<std::pair<int, const Proportion*>> proportional_dims_;  // dimension (-1: none)
  std::map<const Proportion*, ReasonId> reasons_;
};

// A comma-separated list of resource names, spaces trimmed, empty entries dropped.
std::vector<std::string> NameList(absl::string_view text) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (!part.empty()) out.emplace_back(part);
  }
  return out;
}

absl::StatusOr<ResourceStrategyFitPlugin::Sra> ReadSra(const Arguments& args) {
  ResourceStrategyFitPlugin::Sra sra;
  const Value* v = args.Find("sra");
  if (v == nullptr || v->is_null()) return sra;
  if (!v->is_map()) return absl::InvalidArgumentError("argument \"sra\": expected a map (enable, resources, weight, resourceWeight)");
  const Arguments sub(*v);
  VCSCHED_ASSIGN_OR_RETURN(const bool enable, sub.GetBool("enable", false));
  if (!enable) return sra;
  VCSCHED_ASSIGN_OR_RETURN(const std::string resources, sub.GetString("resources", ""));
  VCSCHED_ASSIGN_OR_RETURN(sra.weight, sub.GetInt("weight", 0));
  const Value* weights = sub.Find("resourceWeight");
  if (weights != nullptr && !weights->is_null() && !weights->is_map()) {
    return absl::InvalidArgumentError("argument \"sra.resourceWeight\": expected a map of resource name to weight");
  }
  for (const std::string& name : NameList(resources)) {
    int64_t w = 1;
    if (weights != nullptr && weights->is_map()) {
      VCSCHED_ASSIGN_OR_RETURN(w, Arguments(*weights).GetInt(name, 1));
    }
    if (w < 0) w = 1;
    // A repeated name is one entry, counted in the sum each time (as Volcano counts it).
    auto it = std::find_if(sra.resources.begin(), sra.resources.end(), [&](const auto& r) { return r.first == name; });
    if (it == sra.resources.end()) sra.resources.emplace_back(name, w);
    sra.weight_sum += w;
  }
  return sra;
}

absl::StatusOr<std::optional<std::vector<ResourceStrategyFitPlugin::Proportion>>> ReadProportional(const Arguments& args) {
  const Value* v = args.Find("proportional");
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_map()) return absl::InvalidArgumentError("argument \"proportional\": expected a map (enable, resources, resourceProportion)");
  const Arguments sub(*v);
  VCSCHED_ASSIGN_OR_RETURN(const bool enable, sub.GetBool("enable", false));
  if (!enable) return std::nullopt;
  VCSCHED_ASSIGN_OR_RETURN(const std::string resources, sub.GetString("resources", ""));
  const Value* rates = sub.Find("resourceProportion");
  if (rates != nullptr && !rates->is_null() && !rates->is_map()) {
    return absl::InvalidArgumentError("argument \"proportional.resourceProportion\": expected a map of <resource>.cpu and <resource>.memory to numbers");
  }
  std::vector<ResourceStrategyFitPlugin::Proportion> out;
  for (const std::string& name : NameList(resources)) {
    ResourceStrategyFitPlugin::Proportion p{name};
    if (rates != nullptr && rates->is_map()) {
      const Arguments r(*rates);
      VCSCHED_ASSIGN_OR_RETURN(p.cpu, r.GetFloat(name + ".cpu", 1));
      VCSCHED_ASSIGN_OR_RETURN(p.memory, r.GetFloat(name + ".memory", 1));
    }
    if (p.cpu < 0) p.cpu = 1;
    if (p.memory < 0) p.memory = 1;
    out.erase(std::remove_if(out.begin(), out.end(), [&](const auto& q) { return q.resource == name; }), out.end());
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewResourceStrategyFitPlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(int64_t weight, args.GetInt("resourceStrategyFitWeight", 10));
  if (weight < 0) weight = 10;  // Volcano's default for a negative weight
  std::vector<std::pair<std::string, Strategy>> resources;
  const Value* list = args.Find("resources");
  if (list != nullptr && !list->is_null() && !list->is_map()) {
    return absl::InvalidArgumentError("argument \"resources\": expected a map of resource name to {type, weight}");
  }
  // Volcano's default (cpu and memory, LeastAllocated) stands for an absent or empty map
  // only: a map whose every pattern is ignored scores nothing.
  if (list == nullptr || list->size() == 0) resources = {{"cpu", {}}, {"memory", {}}};
  if (list != nullptr && list->is_map()) {
    for (const auto& entry : list->entries()) {
      const std::string& name = entry.first;  // (a lambda below captures it: not a structured binding)
      const Value& spec = entry.second;
      if (!spec.is_map() && !spec.is_null()) {
        return absl::InvalidArgumentError(absl::StrCat("argument \"resources.", name, "\": expected a map"));
      }
      // Patterns Volcano ignores: '*' alone, or a '*' anywhere but once at the end.
      const size_t stars = static_cast<size_t>(std::count(name.begin(), name.end(), '*'));
      if (stars > 0 && (name == "*" || stars != 1 || name.back() != '*')) continue;
      Strategy st;
      if (spec.is_map()) {
        const Arguments sub(spec);
        VCSCHED_ASSIGN_OR_RETURN(const std::string type, sub.GetString("type", ""));
        st.type = type == "MostAllocated" ? ScoringType::kMost : ScoringType::kLeast;  // anything else: Least
        VCSCHED_ASSIGN_OR_RETURN(st.weight, sub.GetInt("weight", 0));
      } else {
        st.weight = 0;
      }
      if (st.weight <= 0) st.weight = 1;
      resources.erase(std::remove_if(resources.begin(), resources.end(), [&](const auto& r) { return r.first == name; }),
                      resources.end());
      resources.emplace_back(name, st);
    }
  }
  VCSCHED_ASSIGN_OR_RETURN(ResourceStrategyFitPlugin::Sra sra, ReadSra(args));
  VCSCHED_ASSIGN_OR_RETURN(auto proportional, ReadProportional(args));
  return std::unique_ptr<Plugin>(
      new ResourceStrategyFitPlugin(weight, std::move(resources), std::move(sra), std::move(proportional)));
}

}  // namespace vcsched::internal
