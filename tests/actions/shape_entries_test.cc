// The node-choice caches' per-shape entries stay within their budget of node slots,
// dropping the least recently used shape first.
#include <catch2/catch.hpp>

#include "src/actions/shape_entries.h"

namespace vcsched::internal {
namespace {

struct Counter {
  int value = 0;
};

TEST_CASE("Shape entries keep at most the budget's worth, least recently used out first", "[actions][cache]") {
  ShapeEntries<Counter> entries;
  // Nodes enough for two entries.
  const size_t nodes = ShapeEntries<Counter>::kNodeSlots / 2;
  auto [a, fresh_a] = entries.Get(1, nodes);
  CHECK(fresh_a);
  a->value = 10;
  auto [b, fresh_b] = entries.Get(2, nodes);
  CHECK(fresh_b);
  b->value = 20;
  CHECK_FALSE(entries.Get(1, nodes).second);  // 1 is now the most recent
  CHECK(entries.Get(1, nodes).first->value == 10);
  CHECK(entries.Get(3, nodes).second);  // 2 goes
  CHECK_FALSE(entries.Get(1, nodes).second);
  auto [again, fresh_again] = entries.Get(2, nodes);
  CHECK(fresh_again);
  CHECK(again->value == 0);
}

TEST_CASE("Shape entries on a small cluster keep every shape a real workload has", "[actions][cache]") {
  ShapeEntries<Counter> entries;
  for (int32_t shape = 0; shape < 500; ++shape) entries.Get(shape, 5000).first->value = shape;
  for (int32_t shape = 0; shape < 500; ++shape) {
    const auto [e, fresh] = entries.Get(shape, 5000);
    CHECK_FALSE(fresh);
    CHECK(e->value == shape);
  }
}

TEST_CASE("Shape entries on a cluster larger than the budget keep one", "[actions][cache]") {
  ShapeEntries<Counter> entries;
  const size_t nodes = ShapeEntries<Counter>::kNodeSlots * 4;
  CHECK(entries.Get(7, nodes).second);
  CHECK_FALSE(entries.Get(7, nodes).second);
  CHECK(entries.Get(8, nodes).second);
  CHECK(entries.Get(7, nodes).second);
}

}  // namespace
}  // namespace vcsched::internal
