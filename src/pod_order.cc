#include "src/pod_order.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"

namespace vcsched::internal {

namespace {

// The first 16 bytes of `s` as two big-endian numbers (zero padded): comparing them
// orders most names without reading their text.
std::pair<uint64_t, uint64_t> Prefix(absl::string_view s) {
  uint64_t w[2] = {0, 0};
  for (size_t i = 0; i < std::min<size_t>(s.size(), 16); ++i) {
    w[i / 8] |= uint64_t{static_cast<unsigned char>(s[i])} << (56 - 8 * (i % 8));
  }
  return {w[0], w[1]};
}

}  // namespace

std::vector<PodSpec*> PodsInKeyOrder(std::deque<PodSpec>& pods, std::vector<const PodSpec*>* duplicates) {
  // Namespaces are few: each gets its rank in byte order, so an entry compares its
  // namespace as one number.
  absl::flat_hash_map<absl::string_view, uint32_t> namespace_rank;
  for (const PodSpec& p : pods) namespace_rank.try_emplace(p.namespace_, 0);
  std::vector<absl::string_view> namespaces;
  namespaces.reserve(namespace_rank.size());
  for (const auto& [ns, rank] : namespace_rank) namespaces.push_back(ns);
  std::sort(namespaces.begin(), namespaces.end());
  for (uint32_t i = 0; i < namespaces.size(); ++i) namespace_rank[namespaces[i]] = i;

  struct Entry {
    uint32_t ns;
    uint32_t name_size;
    std::pair<uint64_t, uint64_t> prefix;
    size_t at;  // the name's offset in `text`
    PodSpec* pod;
  };
  std::string text;  // the names, packed
  std::vector<Entry> entries;
  entries.reserve(pods.size());
  for (PodSpec& p : pods) {
    entries.push_back({namespace_rank[p.namespace_], static_cast<uint32_t>(p.name.size()), Prefix(p.name), text.size(), &p});
    text += p.name;
  }
  const auto name = [&](const Entry& e) { return absl::string_view(text.data() + e.at, e.name_size); };
  const auto before = [&](const Entry& a, const Entry& b) {
    if (a.ns != b.ns) return a.ns < b.ns;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return name(a) < name(b);
  };
  const auto same = [&](const Entry& a, const Entry& b) { return a.ns == b.ns && name(a) == name(b); };
  // Listings (kubectl's among them) usually come sorted already.
  if (!std::is_sorted(entries.begin(), entries.end(), before)) std::sort(entries.begin(), entries.end(), before);
  std::vector<PodSpec*> out;
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
