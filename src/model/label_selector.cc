// Label selector matching (objects.h).
#include "vcsched/objects.h"

#include <algorithm>

#include "absl/strings/numbers.h"

namespace vcsched {

bool MatchesRequirement(const LabelSelectorRequirement& req, const Labels& labels) {
  using Op = LabelSelectorRequirement::Operator;
  auto it = labels.find(req.key);
  const bool has = it != labels.end();
  auto in_values = [&] {
    return has && std::find(req.values.begin(), req.values.end(), it->second) != req.values.end();
  };
  switch (req.op) {
    case Op::kIn: return in_values();
    case Op::kNotIn: return !in_values();
    case Op::kExists: return has;
    case Op::kDoesNotExist: return !has;
    case Op::kGt:
    case Op::kLt: {
      int64_t have = 0, want = 0;
      if (!has || req.values.size() != 1 || !absl::SimpleAtoi(it->second, &have) ||
          !absl::SimpleAtoi(req.values[0], &want)) {
        return false;
      }
      return req.op == Op::kGt ? have > want : have < want;
    }
  }
  return false;
}

bool MatchesLabelSelector(const LabelSelector& sel, const Labels& labels) {
  for (const auto& [k, v] : sel.match_labels) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  for (const auto& r : sel.match_expressions) {
    if (!MatchesRequirement(r, labels)) return false;
  }
  return true;
}

}  // namespace vcsched
