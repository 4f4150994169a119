// The use of a node's shared GPU cards in a session (deviceshare): which placed pods
// hold each card and how much of its memory they ask.
#ifndef VCSCHED_SRC_PLUGINS_DEVICE_CARDS_H_
#define VCSCHED_SRC_PLUGINS_DEVICE_CARDS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "src/model/gpu_share.h"
#include "vcsched/session.h"

namespace vcsched::internal {

struct GpuCardUse {
  int64_t id = 0;
  int64_t memory = 0;
  int64_t used = 0;                  // memory its holders ask (may pass `memory`)
  std::vector<TaskIndex> holders;    // a card with none is idle
  std::vector<int64_t> holder_memory;
  int64_t Free() const { return used >= memory ? 0 : memory - used; }
};

class NodeCards {
 public:
  explicit NodeCards(const std::vector<GpuCard>& cards);
  // The lowest-numbered card with `memory` free, or null.
  const GpuCardUse* FirstWithFree(int64_t memory) const;
  int64_t IdleCount() const;
  // The `count` lowest-numbered idle cards, or none when fewer are idle.
  std::vector<int64_t> FirstIdle(int64_t count) const;
  // Task t holds the cards `ids` names (ids of no card are skipped), asking `memory` on each.
  void Hold(TaskIndex t, const std::vector<int64_t>& ids, int64_t memory);
  void Release(TaskIndex t);  // from every card
  const std::vector<GpuCardUse>& cards() const { return cards_; }

 private:
  std::vector<GpuCardUse> cards_;  // by id
};

// Every node's cards, from the snapshot and the pods on the nodes at session open.
class GpuCardState {
 public:
  void Open(const Session& ssn);
  const NodeCards* node(NodeIndex n) const {
    return n < 0 || !nodes_[static_cast<size_t>(n)] ? nullptr : &*nodes_[static_cast<size_t>(n)];
  }
  NodeCards* mutable_node(NodeIndex n) { return n < 0 || !nodes_[static_cast<size_t>(n)] ? nullptr : &*nodes_[static_cast<size_t>(n)]; }
  // The node task t's cards are on: `current` while placed; else where it was placed
  // last (the session clears a task's node before telling plugins it left).
  NodeIndex NodeOf(TaskIndex t, NodeIndex current);
  void Remember(TaskIndex t, NodeIndex n) { placed_on_[t] = n; }

 private:
  std::vector<std::optional<NodeCards>> nodes_;
  absl::flat_hash_map<TaskIndex, NodeIndex> placed_on_;
};

// "no card with 8Gi free: gpu0 4Gi, gpu1 2Gi, gpu3 0" and "2 of 4 cards idle, 3 asked:
// gpu1 held by ns/a, ...": explain's account of a node's cards for a pod.
std::string CardsVerdict(const Session& ssn, const NodeCards& node, int64_t memory_ask, int64_t number_ask);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_DEVICE_CARDS_H_
