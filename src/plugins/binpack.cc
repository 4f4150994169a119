// binpack: prefer nodes whose requested resources are already most used
// (docs/reference/scheduler.md §10.10).
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/ascii.h"
#include "src/util/status_macros.h"
#include "src/plugins/plugins.h"

namespace vcsched::internal {
namespace {

class BinpackPlugin : public Plugin {
 public:
  BinpackPlugin(int64_t weight, std::map<std::string, int64_t> resource_weights)
      : weight_(weight), names_(std::move(resource_weights)) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    if (weight_ == 0) return absl::OkStatus();  // binpack.weight 0 disables the plugin
    const Session& s = ssn;
    s_ = &s;
    weights_.assign(static_cast<size_t>(s.dims()), -1);
    for (const auto& [name, w] : names_) {
      const int d = s.snapshot().space().Find(name);
      if (d >= 0 && d != kPods) weights_[static_cast<size_t>(d)] = w;
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
      const int64_t w = weights_[d];
      if (req[d] <= 0 || w < 0) continue;
      if (alloc[d] > 0 && w > 0) {
        if (SaturatingAdd(used[d], req[d]) > alloc[d]) return 0;  // an over-full resource zeroes the node
        score += static_cast<double>(w) * (static_cast<double>(used[d]) + static_cast<double>(req[d])) / static_cast<double>(alloc[d]);
      }
      wsum = SaturatingAdd(wsum, w);
    }
    if (wsum > 0) score /= static_cast<double>(wsum);
    return score * 100.0 * static_cast<double>(weight_);
  }

  int64_t weight_;
  std::map<std::string, int64_t> names_;
  const Session* s_ = nullptr;
  std::vector<int64_t> weights_;  // per dimension; -1 when not configured
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewBinpackPlugin(const Arguments& args) {
  auto non_negative = [](int64_t w) { return w < 0 ? int64_t{1} : w; };
  VCSCHED_ASSIGN_OR_RETURN(int64_t weight, args.GetInt("binpack.weight", 1));
  std::map<std::string, int64_t> weights;
  VCSCHED_ASSIGN_OR_RETURN(int64_t cpu, args.GetInt("binpack.cpu", 1));
  VCSCHED_ASSIGN_OR_RETURN(int64_t mem, args.GetInt("binpack.memory", 1));
  weights["cpu"] = non_negative(cpu);
  weights["memory"] = non_negative(mem);
  VCSCHED_ASSIGN_OR_RETURN(std::string extra, args.GetString("binpack.resources", ""));
  for (absl::string_view name : absl::StrSplit(extra, ',', absl::SkipWhitespace())) {
    const std::string n(absl::StripAsciiWhitespace(name));
    if (n.empty() || n == "cpu" || n == "memory") continue;
    VCSCHED_ASSIGN_OR_RETURN(int64_t w, args.GetInt(absl::StrCat("binpack.resources.", n), 1));
    weights[n] = non_negative(w);
  }
  return std::unique_ptr<Plugin>(new BinpackPlugin(weight, std::move(weights)));
}

}  // namespace vcsched::internal
