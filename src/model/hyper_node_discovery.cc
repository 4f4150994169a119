#include "vcsched/hyper_node_discovery.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"

namespace vcsched {
namespace {

constexpr absl::string_view kSourceLabel = "volcano.sh/network-topology-source";
constexpr absl::string_view kHostnameLabel = "kubernetes.io/hostname";

// Volcano's cleanString: letters lower-cased, digits, '.' and '-' kept, the rest '-'.
std::string Clean(absl::string_view s) {
  std::string out;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalpha(u)) out.push_back(static_cast<char>(std::tolower(u)));
    else if (std::isdigit(u) || c == '.' || c == '-') out.push_back(c);
    else out.push_back('-');
  }
  return out;
}

// Five characters of Kubernetes' rand.String alphabet from a hash of `seed`.
std::string Suffix(absl::string_view seed) {
  static constexpr absl::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : seed) h = (h ^ c) * 1099511628211ull;
  std::string out;
  for (int i = 0; i < 5; ++i, h /= kAlphabet.size()) out.push_back(kAlphabet[h % kAlphabet.size()]);
  return out;
}

struct Draft {
  int32_t tier = 0;
  std::string key, value;
  std::set<std::string> members;
};

}  // namespace

std::vector<HyperNodeSpec> DiscoverHyperNodes(const std::vector<const NodeSpec*>& nodes,
                                              const std::vector<std::string>& keys, absl::string_view topology_type) {
  // Narrowest first, without the node's own hostname label. A key given twice counts
  // once, at its widest place: a domain cannot contain itself.
  std::vector<std::string> climb;
  for (const std::string& key : keys) {
    if (std::find(climb.begin(), climb.end(), key) == climb.end()) climb.push_back(key);
  }
  std::reverse(climb.begin(), climb.end());
  if (!climb.empty() && climb.front() == kHostnameLabel) climb.erase(climb.begin());
  std::vector<const NodeSpec*> sorted = nodes;
  std::sort(sorted.begin(), sorted.end(), [](const NodeSpec* a, const NodeSpec* b) { return a->name < b->name; });
  const std::string type = Clean(topology_type);
  std::map<std::pair<std::string, std::string>, std::string> name_of;  // (key, value) -> name
  std::map<std::string, Draft> drafts;                                  // by name
  for (const NodeSpec* node : sorted) {
    std::string member = node->name;
    for (size_t i = 0; i < climb.size(); ++i) {
      auto label = node->labels.find(climb[i]);
      if (label == node->labels.end()) break;
      const int32_t tier = static_cast<int32_t>(i) + 1;
      auto [it, inserted] = name_of.try_emplace({climb[i], label->second});
      if (inserted) {
        const std::string base = absl::StrCat("hypernode-", type, "-tier", tier, "-");
        std::string seed = absl::StrCat(climb[i], "=", label->second);
        std::string name = base + Suffix(seed);
        for (int attempt = 1; drafts.count(name); ++attempt) name = base + Suffix(absl::StrCat(seed, "#", attempt));
        it->second = name;
        Draft& d = drafts[name];
        d.tier = tier;
        d.key = climb[i];
        d.value = label->second;
      }
      drafts[it->second].members.insert(member);
      member = it->second;
    }
  }
  std::vector<HyperNodeSpec> out;
  for (auto& [name, d] : drafts) {
    HyperNodeSpec h;
    h.name = name;
    h.tier = d.tier;
    h.tier_name = d.key;
    h.labels[std::string(kSourceLabel)] = "label";
    h.labels[d.key] = d.value;
    for (const std::string& m : d.members) {
      HyperNodeMember member;
      member.type = d.tier == 1 ? HyperNodeMember::Type::kNode : HyperNodeMember::Type::kHyperNode;
      member.name = m;
      h.members.push_back(std::move(member));
    }
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace vcsched
