// Quota quantities (vcsched/policy.h): every name a ResourceQuota may hold, in units
// that keep the sums of a large cluster inside int64.
#include <limits>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/strings/string_view.h"
#include "vcsched/policy.h"
#include "vcsched/quantity.h"
#include "vcsched/resource.h"

namespace vcsched {

bool QuotaUnitIsBytes(absl::string_view name) {
  if (!absl::ConsumePrefix(&name, "requests.")) absl::ConsumePrefix(&name, "limits.");
  return name == "memory" || absl::EndsWith(name, "storage") || absl::StartsWith(name, "hugepages-");
}

absl::StatusOr<int64_t> ParseQuotaQuantity(absl::string_view name, absl::string_view text) {
  return QuotaUnitIsBytes(name) ? ParseValue(text) : ParseMilliValue(text);
}

namespace {
// Bytes with the largest exact decimal suffix: "20G", "1500M", "7".
std::string DecimalBytes(int64_t bytes) {
  static constexpr std::pair<int64_t, const char*> kSuffixes[] = {
      {1000000000000000000, "E"}, {1000000000000000, "P"}, {1000000000000, "T"},
      {1000000000, "G"},          {1000000, "M"},          {1000, "k"}};
  if (bytes != 0) {
    for (const auto& [unit, suffix] : kSuffixes) {
      if (bytes % unit == 0) return absl::StrCat(bytes / unit, suffix);
    }
  }
  return absl::StrCat(bytes);
}
}  // namespace

std::string FormatQuotaAmount(absl::string_view name, int64_t amount) {
  if (!QuotaUnitIsBytes(name)) return FormatMilli(amount);
  // Whichever of the binary and decimal forms is shorter: "4Gi", "20G".
  std::string binary = FormatBytes(amount);
  std::string decimal = DecimalBytes(amount);
  return decimal.size() < binary.size() ? decimal : binary;
}

QuotaList QuotaListOf(const ResourceList& resources) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  QuotaList out;
  for (const auto& [name, v] : resources) {
    const ResourceKind kind = ClassifyResourceName(name);
    if (kind == ResourceKind::kPodCount) {
      out[name] = v > kMax / 1000 ? kMax : v * 1000;  // a count, in thousandths
    } else if (kind != ResourceKind::kMemoryBytes && QuotaUnitIsBytes(name)) {
      out[name] = v / 1000 + (v % 1000 > 0 ? 1 : 0);  // thousandths of a byte, rounded up
    } else {
      out[name] = v;
    }
  }
  return out;
}

std::set<std::string, std::less<>> NodesInShard(const PolicyObjects& policy, absl::string_view shard_name) {
  std::set<std::string, std::less<>> nodes;
  auto own = policy.node_shards.find(shard_name);
  if (own == policy.node_shards.end()) return nodes;
  nodes.insert(own->second.nodes_desired.begin(), own->second.nodes_desired.end());
  for (const auto& [name, shard] : policy.node_shards) {
    if (name == shard_name) continue;
    for (const std::string& n : shard.nodes_in_use) {
      if (auto it = nodes.find(n); it != nodes.end()) nodes.erase(it);
    }
  }
  return nodes;
}

}  // namespace vcsched
