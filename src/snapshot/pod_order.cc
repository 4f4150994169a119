#include "src/snapshot/pod_order.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"

namespace vcsched::internal {

namespace {

// The first 16 bytes of `s` as two big-endian numbers (zero padded): comparing them
// orders most names without reading their text.
std::pair<uint64_t, uint64_t> Prefix(absl::string_view s) {
  unsigned char bytes[16] = {};
  std::memcpy(bytes, s.data(), std::min<size_t>(s.size(), 16));
  uint64_t w[2] = {0, 0};
  for (int i = 0; i < 16; ++i) w[i / 8] = (w[i / 8] << 8) | bytes[i];
  return {w[0], w[1]};
}

// The most sorted runs merged one after another (each merge is linear) before a sort is
// cheaper.
constexpr size_t kMaxMergedRuns = 8;

}  // namespace

std::vector<const PodSpec*> PodsInKeyOrder(const std::vector<const PodSpec*>& pods,
                                           std::vector<const PodSpec*>* duplicates,
                                           const std::function<void(const PodSpec&)>& visit) {
  struct Entry {
    uint32_t ns;  // first an index into `namespaces`, then its rank in byte order
    uint32_t name_size;
    std::pair<uint64_t, uint64_t> prefix;
    size_t at;  // the name's offset in `text`
    const PodSpec* pod;
  };
  // Namespaces are few: each is compared as one number, its rank.
  absl::flat_hash_map<absl::string_view, uint32_t> namespace_index;
  std::vector<absl::string_view> namespaces;
  std::string text;  // the names, packed
  std::vector<Entry> entries;
  entries.reserve(pods.size());
  for (const PodSpec* pod : pods) {
    const PodSpec& p = *pod;
    const auto [it, added] = namespace_index.try_emplace(p.namespace_, static_cast<uint32_t>(namespaces.size()));
    if (added) namespaces.push_back(p.namespace_);
    entries.push_back({it->second, static_cast<uint32_t>(p.name.size()), Prefix(p.name), text.size(), pod});
    text += p.name;
    visit(p);  // while the spec is in cache
  }
  std::vector<uint32_t> by_bytes(namespaces.size()), rank(namespaces.size());
  for (uint32_t i = 0; i < by_bytes.size(); ++i) by_bytes[i] = i;
  std::sort(by_bytes.begin(), by_bytes.end(), [&](uint32_t a, uint32_t b) { return namespaces[a] < namespaces[b]; });
  for (uint32_t r = 0; r < by_bytes.size(); ++r) rank[by_bytes[r]] = r;
  for (Entry& e : entries) e.ns = rank[e.ns];

  const auto name = [&](const Entry& e) { return absl::string_view(text.data() + e.at, e.name_size); };
  const auto before = [&](const Entry& a, const Entry& b) {
    if (a.ns != b.ns) return a.ns < b.ns;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return name(a) < name(b);
  };
  const auto same = [&](const Entry& a, const Entry& b) { return a.ns == b.ns && name(a) == name(b); };
  // Listings (kubectl's among them) usually come sorted already, and a host's state comes
  // as a few sorted runs (its changed pods, then its unchanged ones): runs are merged,
  // anything else is sorted.
  std::vector<size_t> run_starts;
  for (size_t i = 1; i < entries.size() && run_starts.size() <= kMaxMergedRuns; ++i) {
    if (before(entries[i], entries[i - 1])) run_starts.push_back(i);
  }
  if (run_starts.size() > kMaxMergedRuns) {
    std::sort(entries.begin(), entries.end(), before);
  } else {
    run_starts.push_back(entries.size());  // the end of the last run
    for (size_t r = 0; r + 1 < run_starts.size(); ++r) {  // [0, start of r) is merged; add run r
      std::inplace_merge(entries.begin(), entries.begin() + static_cast<ptrdiff_t>(run_starts[r]),
                         entries.begin() + static_cast<ptrdiff_t>(run_starts[r + 1]), before);
    }
  }
  std::vector<const PodSpec*> out;
  out.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0 && same(entries[i], entries[i - 1]) && (i < 2 || !same(entries[i - 1], entries[i - 2]))) {
      duplicates->push_back(entries[i].pod);
    }
    out.push_back(entries[i].pod);
  }
  return out;
}

}  // namespace vcsched::internal
