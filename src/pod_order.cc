#include "src/pod_order.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace vcsched::internal {

std::vector<PodSpec*> PodsInKeyOrder(std::deque<PodSpec>& pods, std::vector<const PodSpec*>* duplicates) {
  struct Entry {
    size_t at;  // the namespace's offset in `text`; the name follows it
    uint32_t ns_size, name_size;
    PodSpec* pod;
  };
  std::string text;
  std::vector<Entry> entries;
  entries.reserve(pods.size());
  for (PodSpec& p : pods) {
    entries.push_back({text.size(), static_cast<uint32_t>(p.namespace_.size()), static_cast<uint32_t>(p.name.size()), &p});
    text += p.namespace_;
    text += p.name;
  }
  const auto ns = [&](const Entry& e) { return absl::string_view(text.data() + e.at, e.ns_size); };
  const auto name = [&](const Entry& e) { return absl::string_view(text.data() + e.at + e.ns_size, e.name_size); };
  const auto before = [&](const Entry& a, const Entry& b) {
    const int c = ns(a).compare(ns(b));
    return c != 0 ? c < 0 : name(a) < name(b);
  };
  // Listings (kubectl's among them) usually come sorted already.
  if (!std::is_sorted(entries.begin(), entries.end(), before)) std::sort(entries.begin(), entries.end(), before);
  std::vector<PodSpec*> out;
  out.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto same = [&](size_t a, size_t b) { return ns(entries[a]) == ns(entries[b]) && name(entries[a]) == name(entries[b]); };
    if (i > 0 && same(i, i - 1) && (i < 2 || !same(i - 1, i - 2))) duplicates->push_back(entries[i].pod);
    out.push_back(entries[i].pod);
  }
  return out;
}

}  // namespace vcsched::internal
