#include "vcsched/objects.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "vcsched/quantity.h"
#include "vcsched/resource.h"

namespace vcsched {

absl::StatusOr<ResourceList> ParseResourceList(
    const std::vector<std::pair<std::string, std::string>>& quantities,
    std::vector<std::string>* dropped) {
  ResourceList out;
  for (const auto& [name, text] : quantities) {
    const ResourceKind kind = ClassifyResourceName(name);
    // Every quantity must parse, even one Volcano then ignores.
    absl::StatusOr<int64_t> value = (kind == ResourceKind::kMemoryBytes || kind == ResourceKind::kPodCount)
                                        ? ParseValue(text)
                                        : ParseMilliValue(text);
    if (!value.ok()) return absl::InvalidArgumentError(absl::StrCat(name, ": ", value.status().message()));
    if (*value < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": quantity \"", text, "\" must not be negative"));
    }
    if (kind == ResourceKind::kIgnored) {
      if (dropped != nullptr) dropped->push_back(name);
      continue;
    }
    out[name] += *value;
  }
  return out;
}

}  // namespace vcsched
