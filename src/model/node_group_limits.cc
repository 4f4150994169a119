// A strict reader for the one JSON shape of the nodegroup resource-limits annotation.
#include "src/model/node_group_limits.h"

#include "absl/strings/str_cat.h"
#include "src/model/strict_json.h"
#include "vcsched/objects.h"

namespace vcsched::internal {

absl::StatusOr<NodeGroupLimits> ParseNodeGroupLimits(absl::string_view json) {
  StrictJsonReader r(json);
  NodeGroupLimits out;
  r.Space();
  if (r.Null()) {
    if (absl::Status s = r.End(); !s.ok()) return s;
    return out;
  }
  if (!r.Eat('{')) return r.Error("expected an object");
  const absl::Status parsed = r.Object([&](std::string group) -> absl::Status {
    std::vector<std::pair<std::string, int64_t>>& limits = out[group];
    limits.clear();  // a repeated key: the last wins, as in Go
    if (r.Null()) return absl::OkStatus();
    if (!r.Eat('{')) return r.Error("expected a resource list");
    return r.Object([&](std::string name) -> absl::Status {
      std::string text = "0";
      if (!r.Null()) {
        if (r.Peek() == '"') {
          absl::StatusOr<std::string> str = r.String();
          if (!str.ok()) return str.status();
          text = *std::move(str);
        } else {
          text = r.Number();
          if (text.empty()) return r.Error("expected a quantity");
        }
      }
      bool tracked = false;
      absl::StatusOr<int64_t> v = ParseResourceQuantity(name, text, &tracked);
      if (!v.ok()) return r.Error(absl::StrCat(group, ".", name, ": ", v.status().message()));
      for (auto it = limits.begin(); it != limits.end(); ++it) {
        if (it->first == name) {
          limits.erase(it);
          break;
        }
      }
      limits.emplace_back(name, name == "pods" ? 0 : *v);
      return absl::OkStatus();
    });
  });
  if (!parsed.ok()) return r.status().ok() ? parsed : r.status();
  if (absl::Status s = r.End(); !s.ok()) return s;
  return out;
}

}  // namespace vcsched::internal
