#include "src/plugins/vgpu_cards.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace vcsched::internal {
namespace {

constexpr char kHamiCore[] = "hami-core";

std::string Annotation(const PodSpec& pod, const char* key) {
  auto it = pod.annotations.find(key);
  return it == pod.annotations.end() ? std::string() : it->second;
}

// nvidia.com/use-gputype and nvidia.com/nouse-gputype: parts of the card's type, any case.
bool TypeAllowed(const PodSpec& pod, const std::string& card_type) {
  const std::string type = absl::AsciiStrToUpper(card_type);
  const auto any_in = [&type](const std::string& list) {
    for (absl::string_view part : absl::StrSplit(list, ',')) {
      if (absl::StrContains(type, absl::AsciiStrToUpper(part))) return true;
    }
    return false;
  };
  if (auto use = pod.annotations.find(kVgpuUseTypeAnnotation); use != pod.annotations.end()) return any_in(use->second);
  if (auto no = pod.annotations.find(kVgpuNoUseTypeAnnotation); no != pod.annotations.end()) return !any_in(no->second);
  return true;
}

std::vector<std::string> UuidList(const std::string& value) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(value, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (!part.empty()) out.emplace_back(part);
  }
  return out;
}

}  // namespace

std::string VgpuGroupKey(const PodSpec& pod) {
  std::string group = Annotation(pod, "scheduling.k8s.io/group-name");
  if (group.empty()) group = Annotation(pod, "scheduling.volcano.sh/group-name");
  return group.empty() ? std::string() : absl::StrCat(pod.namespace_, "/", group);
}

VgpuNode::VgpuNode(std::string name, const std::vector<VgpuCard>& cards) : name_(std::move(name)) {
  for (const VgpuCard& c : cards) cards_.push_back({c, 0, 0, 0, {}});
}

VgpuCardUse* VgpuNode::CardFor(const std::string& grant_uuid) {
  for (VgpuCardUse& c : cards_) {
    if (absl::StrContains(grant_uuid, c.card.uuid)) return &c;
  }
  return nullptr;
}

void VgpuNode::AddRunning(TaskIndex t, const PodSpec& pod, const std::vector<std::vector<VgpuGrant>>& grants) {
  for (const std::vector<VgpuGrant>& container : grants) {
    for (const VgpuGrant& g : container) {
      VgpuCardUse* c = CardFor(g.uuid);
      if (c == nullptr || c->holders.count(t) != 0) continue;
      c->holders[t] = {static_cast<uint64_t>(g.memory), static_cast<uint64_t>(g.cores), VgpuGroupKey(pod)};
      ++c->used_num;
      c->used_mem += static_cast<uint64_t>(g.memory);
      c->used_core += static_cast<uint64_t>(g.cores);
    }
  }
}

void VgpuNode::SubRunning(TaskIndex t, const std::vector<std::vector<VgpuGrant>>& grants) {
  for (const std::vector<VgpuGrant>& container : grants) {
    for (const VgpuGrant& g : container) {
      VgpuCardUse* c = CardFor(g.uuid);
      if (c == nullptr || c->holders.erase(t) == 0) continue;
      --c->used_num;
      c->used_mem -= static_cast<uint64_t>(g.memory);
      c->used_core -= static_cast<uint64_t>(g.cores);
    }
  }
}

void VgpuNode::Record(TaskIndex t, const PodSpec& pod, const std::vector<std::vector<VgpuGrant>>& grants) {
  const std::string group = VgpuGroupKey(pod);
  for (const std::vector<VgpuGrant>& container : grants) {
    for (const VgpuGrant& g : container) {
      for (VgpuCardUse& c : cards_) {
        if (!absl::StrContains(g.uuid, c.card.uuid)) continue;
        VgpuCardUse::Holder& h = c.holders[t];
        h.mem += static_cast<uint64_t>(g.memory);
        h.core += static_cast<uint64_t>(g.cores);
        h.group = group;
      }
    }
  }
}

std::vector<size_t> VgpuNode::Order(const std::string& policy) const {
  std::vector<size_t> order;
  const auto by_id = [this](int64_t id) -> std::optional<size_t> {
    for (size_t i = 0; i < cards_.size(); ++i) {
      if (cards_[i].card.id == id) return i;
    }
    return std::nullopt;
  };
  if (policy == "binpack" || policy == "spread") {
    for (size_t i = 0; i < cards_.size(); ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const VgpuCardUse& x = cards_[a];
      const VgpuCardUse& y = cards_[b];
      if (policy == "binpack" && x.used_mem != y.used_mem) return x.used_mem > y.used_mem;
      if (policy == "spread" && x.used_num != y.used_num) return x.used_num < y.used_num;
      return x.card.id < y.card.id;
    });
    return order;
  }
  // Volcano walks indices count-1 down to 0 (a gap in them would make it panic; skipped here).
  for (int64_t id = static_cast<int64_t>(cards_.size()) - 1; id >= 0; --id) {
    if (std::optional<size_t> i = by_id(id)) order.push_back(*i);
  }
  return order;
}

VgpuFit VgpuNode::Fit(const PodSpec& pod, const std::string& policy, bool commit) {
  VgpuFit out;
  if (!PodAsksVgpu(pod)) {
    out.fit = true;
    return out;
  }
  if (auto mode = pod.annotations.find(kVgpuModeAnnotation); mode != pod.annotations.end() && mode->second != kHamiCore) {
    out.error = absl::StrCat("pod required sharing mode ", mode->second, " is not the same as the node mode ", kHamiCore);
    return out;
  }
  const std::vector<VgpuRequest> requests = PodVgpuRequests(pod);
  if (requests.empty()) {
    out.fit = true;
    return out;
  }
  const std::vector<VgpuCardUse> before = commit ? std::vector<VgpuCardUse>() : cards_;
  struct Tentative {
    size_t card;
    uint64_t mem, core;
  };
  std::vector<Tentative> taken;
  const auto rollback = [&] {  // Volcano's rollbackTentative: never below zero
    for (const Tentative& a : taken) {
      VgpuCardUse& c = cards_[a.card];
      if (c.used_num > 0) --c.used_num;
      c.used_mem = c.used_mem >= a.mem ? c.used_mem - a.mem : 0;
      c.used_core = c.used_core >= a.core ? c.used_core - a.core : 0;
    }
  };
  const std::string group =
      Annotation(pod, kVgpuGroupPolicyAnnotation) == "spread" ? VgpuGroupKey(pod) : std::string();
  const std::vector<std::string> allow = UuidList(Annotation(pod, kVgpuUseUuidAnnotation));
  const std::vector<std::string> deny = UuidList(Annotation(pod, kVgpuNoUseUuidAnnotation));
  const bool filtering = !allow.empty() || !deny.empty();
  const auto uuid_ok = [&](const std::string& id) {
    if (id.empty() && filtering) return false;
    if (!allow.empty() && std::find(allow.begin(), allow.end(), id) == allow.end()) return false;
    return std::find(deny.begin(), deny.end(), id) == deny.end();
  };
  for (VgpuRequest want : requests) {
    std::vector<VgpuGrant> grants;
    bool uuid_matched = false;
    if (want.cards > static_cast<int64_t>(cards_.size())) {
      rollback();
      out.error = absl::StrCat("no enough gpu cards on node ", name_);
      break;
    }
    for (size_t i : Order(policy)) {
      VgpuCardUse& c = cards_[i];
      if (!uuid_ok(c.card.uuid)) continue;
      uuid_matched = true;
      if (static_cast<uint64_t>(c.card.number) <= c.used_num) continue;
      if (!group.empty() && std::any_of(c.holders.begin(), c.holders.end(), [&group](const auto& h) {
            return h.second.group == group && (h.second.mem > 0 || h.second.core > 0);
          })) {
        continue;
      }
      const uint64_t memory = static_cast<uint64_t>(c.card.memory);
      const uint64_t mem = want.memory_percent != 101
                               ? static_cast<uint64_t>(static_cast<double>(memory) *
                                                       static_cast<double>(want.memory_percent) / 100.0)
                               : static_cast<uint64_t>(want.memory);
      if (static_cast<int64_t>(memory - c.used_mem) < static_cast<int64_t>(mem)) continue;
      const uint64_t core = static_cast<uint64_t>(want.cores);
      if (c.used_core + core > 100) continue;
      if (want.cores == 100 && c.used_num > 0) continue;
      if (c.used_core == 100 && want.cores == 0) continue;
      if (!absl::StrContains(c.card.type, "NVIDIA") || !TypeAllowed(pod, c.card.type)) continue;
      ++c.used_num;  // hami-core's TryAddPod
      c.used_mem += mem;
      c.used_core += core;
      taken.push_back({i, mem, core});
      if (want.cards > 0) {
        --want.cards;
        grants.push_back({c.card.uuid, "NVIDIA", static_cast<int64_t>(mem), static_cast<int64_t>(core)});
        if (policy == "binpack") out.score += 100 * (static_cast<double>(c.used_mem) / static_cast<double>(memory));
        if (policy == "spread" && c.used_num == 0) out.score += 100;
      }
      if (want.cards == 0) break;
    }
    if (want.cards > 0) {
      rollback();
      out.error = filtering && !uuid_matched
                      ? absl::StrCat("no GPU matches UUID constraints ", kVgpuUseUuidAnnotation, "=\"",
                                     Annotation(pod, kVgpuUseUuidAnnotation), "\", ", kVgpuNoUseUuidAnnotation, "=\"",
                                     Annotation(pod, kVgpuNoUseUuidAnnotation), "\" on node ", name_)
                      : "not enough gpu fitted on this node";
      break;
    }
    out.grants.push_back(std::move(grants));
  }
  out.fit = out.error.empty();
  if (!out.fit) out.grants.clear();
  if (!commit) cards_ = before;
  return out;
}

}  // namespace vcsched::internal
