// A tournament tree over a list of nodes: the root holds the best of them by a caller's
// `better(a, b)`, which gets the earlier slot's node as `a` (so it can keep ties), and a
// slot's node can be replaced or masked (kNone) in O(log size).
#ifndef VCSCHED_SRC_ACTIONS_NODE_TOURNAMENT_H_
#define VCSCHED_SRC_ACTIONS_NODE_TOURNAMENT_H_

#include <cstddef>
#include <vector>

#include "absl/types/span.h"
#include "vcsched/snapshot.h"

namespace vcsched::internal {

class NodeTournament {
 public:
  // Slot i holds members[i].
  template <typename Better>
  void Build(absl::Span<const NodeIndex> members, Better better) {
    leaves_ = 1;
    while (leaves_ < members.size()) leaves_ *= 2;
    tree_.assign(2 * leaves_, kNone);
    for (size_t i = 0; i < members.size(); ++i) tree_[leaves_ + i] = members[i];
    for (size_t k = leaves_ - 1; k >= 1; --k) tree_[k] = Match(tree_[2 * k], tree_[2 * k + 1], better);
  }

  // Puts `node` (kNone: nobody) in `slot` and replays the matches above it.
  template <typename Better>
  void Set(size_t slot, NodeIndex node, Better better) {
    const size_t leaf = leaves_ + slot;
    tree_[leaf] = node;
    for (size_t k = leaf / 2; k >= 1; k /= 2) tree_[k] = Match(tree_[2 * k], tree_[2 * k + 1], better);
  }

  NodeIndex Best() const { return tree_.size() > 1 ? tree_[1] : kNone; }

 private:
  template <typename Better>
  static NodeIndex Match(NodeIndex a, NodeIndex b, Better& better) {
    if (b == kNone) return a;
    if (a == kNone) return b;
    return better(a, b);
  }

  std::vector<NodeIndex> tree_;  // leaves at [leaves_, 2 * leaves_)
  size_t leaves_ = 0;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_NODE_TOURNAMENT_H_
