#include "src/plugins/device_cards.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace vcsched::internal {

NodeCards::NodeCards(const std::vector<GpuCard>& cards) {
  cards_.reserve(cards.size());
  for (const GpuCard& c : cards) cards_.push_back({c.id, c.memory, 0, {}, {}});
}

const GpuCardUse* NodeCards::FirstWithFree(int64_t memory) const {
  for (const GpuCardUse& c : cards_) {
    if (c.Free() >= memory) return &c;
  }
  return nullptr;
}

int64_t NodeCards::IdleCount() const {
  return std::count_if(cards_.begin(), cards_.end(), [](const GpuCardUse& c) { return c.holders.empty(); });
}

std::vector<int64_t> NodeCards::FirstIdle(int64_t count) const {
  std::vector<int64_t> ids;
  for (const GpuCardUse& c : cards_) {
    if (static_cast<int64_t>(ids.size()) >= count) break;
    if (c.holders.empty()) ids.push_back(c.id);
  }
  if (static_cast<int64_t>(ids.size()) < count) ids.clear();
  return ids;
}

void NodeCards::Hold(TaskIndex t, const std::vector<int64_t>& ids, int64_t memory) {
  for (int64_t id : ids) {
    auto it = std::lower_bound(cards_.begin(), cards_.end(), id, [](const GpuCardUse& c, int64_t v) { return c.id < v; });
    if (it == cards_.end() || it->id != id) continue;
    if (std::find(it->holders.begin(), it->holders.end(), t) != it->holders.end()) continue;  // a set, as Volcano's PodMap
    it->holders.push_back(t);
    it->holder_memory.push_back(memory);
    it->used += memory;
  }
}

void NodeCards::Release(TaskIndex t) {
  for (GpuCardUse& c : cards_) {
    for (size_t i = 0; i < c.holders.size(); ++i) {
      if (c.holders[i] != t) continue;
      c.used -= c.holder_memory[i];
      c.holders.erase(c.holders.begin() + static_cast<ptrdiff_t>(i));
      c.holder_memory.erase(c.holder_memory.begin() + static_cast<ptrdiff_t>(i));
      break;
    }
  }
}

void GpuCardState::Open(const Session& ssn) {
  nodes_.assign(static_cast<size_t>(ssn.num_nodes()), std::nullopt);
  placed_on_.clear();
  bool any = false;
  for (NodeIndex n = 0; n < ssn.num_nodes(); ++n) {
    std::optional<std::vector<GpuCard>> cards = NodeGpuCards(ssn.node_info(n).spec);
    if (cards) nodes_[static_cast<size_t>(n)].emplace(*cards);
    any = any || cards.has_value();
  }
  if (!any) return;
  // Volcano's node accounting counts a pod on its annotated cards unless it is
  // releasing or pipelined (NodeInfo.AddTask); terminated pods are on no node.
  for (TaskIndex t = 0; t < ssn.num_tasks(); ++t) {
    const TaskStatus s = ssn.task_status(t);
    const NodeIndex n = ssn.task_node(t);
    if (n == kNone || s == TaskStatus::kPending || s == TaskStatus::kSucceeded || s == TaskStatus::kFailed ||
        s == TaskStatus::kReleasing || s == TaskStatus::kPipelined) {
      continue;
    }
    NodeCards* node = mutable_node(n);
    if (node == nullptr) continue;
    const PodSpec& pod = *ssn.task(t).pod;
    const int64_t memory = PodGpuMemory(pod);
    if (memory <= 0 && PodGpuNumber(pod) <= 0) continue;
    node->Hold(t, PodGpuIndex(pod), memory);
    placed_on_[t] = n;
  }
}

NodeIndex GpuCardState::NodeOf(TaskIndex t, NodeIndex current) {
  if (current != kNone) return current;
  auto it = placed_on_.find(t);
  return it == placed_on_.end() ? kNone : it->second;
}

std::string CardsVerdict(const Session& ssn, const NodeCards& node, int64_t memory_ask, int64_t number_ask) {
  std::vector<std::string> parts;
  if (memory_ask > 0) {
    for (const GpuCardUse& c : node.cards()) parts.push_back(absl::StrCat("gpu", c.id, " ", GpuMemoryText(c.Free())));
    if (parts.empty()) return "no card is healthy";
    return absl::StrCat("no card with ", GpuMemoryText(memory_ask), " free: ", absl::StrJoin(parts, ", "));
  }
  for (const GpuCardUse& c : node.cards()) {
    if (c.holders.empty()) {
      parts.push_back(absl::StrCat("gpu", c.id, " idle"));
    } else {
      parts.push_back(absl::StrCat("gpu", c.id, " held by ", ssn.task(c.holders.front()).key,
                                   c.holders.size() > 1 ? absl::StrCat(" and ", c.holders.size() - 1, " more") : ""));
    }
  }
  return absl::StrCat(number_ask, " idle cards asked, ", node.IdleCount(), " of ", node.cards().size(), " idle",
                      parts.empty() ? "" : ": ", absl::StrJoin(parts, ", "));
}

}  // namespace vcsched::internal
