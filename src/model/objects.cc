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

PodGroupSpec ImplicitPodGroupFor(const PodSpec& p) {
  const std::string owner = !p.controller_uid.empty() ? p.controller_uid
                            : (p.uid.empty() ? absl::StrCat(p.namespace_, "-", p.name) : p.uid);
  PodGroupSpec g;
  g.name = absl::StrCat("podgroup-", owner);
  g.namespace_ = p.namespace_;
  g.creation_time = p.creation_time;
  g.min_member = 1;
  g.priority_class_name = p.priority_class_name;
  auto q = p.annotations.find("scheduling.volcano.sh/queue-name");
  if (q != p.annotations.end()) g.queue = q->second;
  for (const char* k : {"volcano.sh/preemptable", "volcano.sh/cooldown-time", "volcano.sh/jdb-min-available",
                        "volcano.sh/jdb-max-unavailable"}) {
    auto a = p.annotations.find(k);
    if (a != p.annotations.end()) g.annotations[k] = a->second;
  }
  ResourceList min;  // the pod's request x minMember(1)
  for (const Container& c : p.containers) {
    for (const auto& [n, v] : c.requests) min[n] = SaturatingAdd(min[n], v);
  }
  g.min_resources = min;
  return g;
}

}  // namespace vcsched
