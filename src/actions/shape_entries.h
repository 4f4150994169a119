// Per-shape entries of allocate's node-choice caches, a bounded number of them: each
// holds a few values per node, and a hostile input has as many shapes as pods, so the
// least recently used entry goes when the budget is spent. Dropping one only costs a
// refill; decisions never depend on it.
#ifndef VCSCHED_SRC_ACTIONS_SHAPE_ENTRIES_H_
#define VCSCHED_SRC_ACTIONS_SHAPE_ENTRIES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace vcsched::internal {

template <typename Entry>
class ShapeEntries {
 public:
  // About 4M node slots in all: a few hundred shapes on a cluster of thousands of nodes.
  static constexpr size_t kNodeSlots = size_t{1} << 22;

  // The entry of `shape` on a cluster of `num_nodes` nodes, and whether it was made now
  // (then it is default-constructed). The pointer lasts until the next call.
  std::pair<Entry*, bool> Get(int32_t shape, size_t num_nodes) {
    auto it = slots_.find(shape);
    if (it != slots_.end()) {
      it->second.used = ++clock_;
      return {&it->second.entry, false};
    }
    if (slots_.size() >= std::max<size_t>(1, kNodeSlots / std::max<size_t>(1, num_nodes))) {
      auto oldest = slots_.begin();
      for (auto i = slots_.begin(); i != slots_.end(); ++i) {
        if (i->second.used < oldest->second.used) oldest = i;
      }
      slots_.erase(oldest);
    }
    Slot& slot = slots_[shape];
    slot.used = ++clock_;
    return {&slot.entry, true};
  }

 private:
  struct Slot {
    Entry entry;
    uint64_t used = 0;
  };
  uint64_t clock_ = 0;
  absl::flat_hash_map<int32_t, Slot> slots_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_SHAPE_ENTRIES_H_
