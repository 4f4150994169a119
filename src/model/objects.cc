#include "vcsched/objects.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "vcsched/quantity.h"
#include "vcsched/resource.h"

namespace vcsched {

absl::StatusOr<int64_t> ParseResourceQuantity(absl::string_view name, absl::string_view text, bool* tracked) {
  const ResourceKind kind = ClassifyResourceName(name);
  // Every quantity must parse, even one Volcano then ignores.
  absl::StatusOr<int64_t> value = (kind == ResourceKind::kMemoryBytes || kind == ResourceKind::kPodCount)
                                      ? ParseValue(text)
                                      : ParseMilliValue(text);
  if (!value.ok()) return value.status();
  if (*value < 0) return absl::InvalidArgumentError(absl::StrCat("quantity \"", text, "\" must not be negative"));
  *tracked = kind != ResourceKind::kIgnored;
  return value;
}

absl::StatusOr<ResourceList> ParseResourceList(
    const std::vector<std::pair<std::string, std::string>>& quantities,
    std::vector<std::string>* dropped) {
  ResourceList out;
  for (const auto& [name, text] : quantities) {
    bool tracked = false;
    absl::StatusOr<int64_t> value = ParseResourceQuantity(name, text, &tracked);
    if (!value.ok()) return absl::InvalidArgumentError(absl::StrCat(name, ": ", value.status().message()));
    if (!tracked) {
      if (dropped != nullptr) dropped->push_back(name);
      continue;
    }
    out[name] += *value;
  }
  return out;
}

}  // namespace vcsched
