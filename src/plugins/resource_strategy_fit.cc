// resource-strategy-fit: per-resource LeastAllocated / MostAllocated scoring with
// weights (docs/reference/scheduler.md §10.16). Resource names may end in '*' to match a prefix.
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/util/status_macros.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

struct Strategy {
  bool most_allocated = false;
  int64_t weight = 1;
};

class ResourceStrategyFitPlugin : public Plugin {
 public:
  ResourceStrategyFitPlugin(int64_t weight, std::vector<std::pair<std::string, Strategy>> resources)
      : weight_(weight), resources_(std::move(resources)) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    s_ = &s;
    per_dim_.assign(static_cast<size_t>(s.dims()), std::nullopt);
    for (int d = 0; d < s.dims(); ++d) {
      if (d == kPods) continue;
      const std::string& name = s.snapshot().space().name(d);
      for (const auto& [pattern, strategy] : resources_) {
        const bool wildcard = !pattern.empty() && pattern.back() == '*';
        if (pattern == name || (wildcard && absl::StartsWith(name, pattern.substr(0, pattern.size() - 1)))) {
          per_dim_[static_cast<size_t>(d)] = strategy;
          break;
        }
      }
    }
    ssn.AddNodeOrderFn([this](TaskIndex t, NodeIndex n) { return Score(t, n); });
    return absl::OkStatus();
  }

 private:
  double Score(TaskIndex t, NodeIndex n) const {
    const auto req = s_->task_resreq(t);
    const auto alloc = s_->node_allocatable(n);
    const auto used = s_->node_used(n);
    double score = 0;
    int64_t wsum = 0;
    for (size_t d = 0; d < req.size(); ++d) {
      const auto& st = per_dim_[d];
      if (req[d] <= 0 || !st.has_value()) continue;
      const int64_t after = SaturatingAdd(used[d], req[d]);  // huge requests cannot wrap
      if (alloc[d] <= 0 || after > alloc[d]) return 0;
      const double fill = static_cast<double>(after) / static_cast<double>(alloc[d]);
      score += static_cast<double>(st->weight) * (st->most_allocated ? fill : 1.0 - fill);
      wsum = SaturatingAdd(wsum, st->weight);
    }
    if (wsum > 0) score /= static_cast<double>(wsum);
    return score * 100.0 * static_cast<double>(weight_);
  }

  int64_t weight_;
  std::vector<std::pair<std::string, Strategy>> resources_;
  const Session* s_ = nullptr;
  std::vector<std::optional<Strategy>> per_dim_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewResourceStrategyFitPlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(int64_t weight, args.GetInt("resourceStrategyFitWeight", 10));
  std::vector<std::pair<std::string, Strategy>> resources;
  const Value* list = args.Find("resources");
  if (list == nullptr) {
    resources = {{"cpu", {}}, {"memory", {}}};
  } else if (!list->is_map()) {
    return absl::InvalidArgumentError("argument \"resources\": expected a map of resource name to {type, weight}");
  } else {
    for (const auto& [name, spec] : list->entries()) {
      Strategy st;
      const Arguments sub(spec);
      if (!spec.is_map()) {
        return absl::InvalidArgumentError(absl::StrCat("argument \"resources.", name, "\": expected a map"));
      }
      VCSCHED_ASSIGN_OR_RETURN(std::string type, sub.GetString("type", "LeastAllocated"));
      if (type == "MostAllocated") st.most_allocated = true;
      else if (type != "LeastAllocated") {
        return absl::InvalidArgumentError(absl::StrCat("argument \"resources.", name, ".type\": unknown type \"", type,
                                                       "\" (LeastAllocated or MostAllocated)"));
      }
      VCSCHED_ASSIGN_OR_RETURN(st.weight, sub.GetInt("weight", 1));
      resources.emplace_back(name, st);
    }
  }
  return std::unique_ptr<Plugin>(new ResourceStrategyFitPlugin(weight, std::move(resources)));
}

}  // namespace vcsched::internal
