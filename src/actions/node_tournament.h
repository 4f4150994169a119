// A tournament tree over a list of nodes: the root holds the best of them by a caller's
// `better(a, b)`, which gets the earlier slot's node as `a` (so it can keep ties), and a
// slot's node can be replaced or masked (kNone) in O(log size).
#ifndef VCSCHED_SRC_ACTIONS_NODE_TOURNAMENT_H_
#define VCSCHED_SRC_ACTIONS_NODE_TOURNAMENT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

  // The best node that `excluded(n)` does not name, or kNone: a best-first walk down
  // from the root, so each excluded node ranked above the answer costs O(log size).
  // `heap` is scratch.
  template <typename Excluded, typename Better>
  NodeIndex BestExcept(Excluded excluded, Better better, std::vector<size_t>& heap) const {
    // x goes before y: the better of the two, the lower index keeping ties.
    const auto before = [&](size_t x, size_t y) {
      const NodeIndex a = tree_[x], b = tree_[y];
      return (a < b ? better(a, b) : better(b, a)) == a;
    };
    const auto after = [&](size_t x, size_t y) { return before(y, x); };  // a max-heap on `before`
    heap.clear();
    if (Best() == kNone) return kNone;
    heap.push_back(1);
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), after);
      size_t k = heap.back();
      heap.pop_back();
      const NodeIndex w = tree_[k];
      if (!excluded(w)) return w;
      // Down w's path: the siblings left behind hold everything else of this subtree.
      while (k < leaves_) {
        const size_t left = 2 * k, right = left + 1;
        const size_t other = tree_[left] == w ? right : left;
        k = tree_[left] == w ? left : right;
        if (tree_[other] != kNone) {
          heap.push_back(other);
          std::push_heap(heap.begin(), heap.end(), after);
        }
      }
    }
    return kNone;
  }

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

// Volcano's order among nodes for a task, as a `better`: idle fit (rank 2) before future
// fit (1) before infeasible (0), then the higher score; `a` (the lower index) keeps ties.
struct ByRankThenScore {
  const std::vector<uint8_t>* rank;
  const std::vector<double>* score;
  NodeIndex operator()(NodeIndex a, NodeIndex b) const {
    const uint8_t ra = (*rank)[static_cast<size_t>(a)], rb = (*rank)[static_cast<size_t>(b)];
    if (ra != rb) return ra > rb ? a : b;
    return (*score)[static_cast<size_t>(b)] > (*score)[static_cast<size_t>(a)] ? b : a;
  }
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_NODE_TOURNAMENT_H_
