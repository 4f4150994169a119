// Many short strings in one buffer, read back as views: a pass that copies thousands of
// them (decisions naming their tasks and jobs) then reads memory in order instead of
// chasing one heap block per string.
#ifndef VCSCHED_SRC_SNAPSHOT_PACKED_STRINGS_H_
#define VCSCHED_SRC_SNAPSHOT_PACKED_STRINGS_H_

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace vcsched {

class PackedStrings {
 public:
  void reserve(size_t count) { ends_.reserve(count); }
  void reserve_text(size_t bytes) { text_.reserve(bytes); }
  size_t text_size() const { return text_.size(); }
  void push_back(absl::string_view s) {
    text_.append(s.data(), s.size());
    ends_.push_back(text_.size());
  }
  // Strings [begin, end) of `other`, appended in one copy.
  void append_range(const PackedStrings& other, size_t begin, size_t end) {
    if (begin >= end) return;
    const size_t from = other.StartOf(begin);
    const size_t shift = text_.size() - from;
    text_.append(other.text_, from, other.ends_[end - 1] - from);
    // Copied in one piece, then shifted: no capacity check per string.
    const size_t at = ends_.size();
    ends_.insert(ends_.end(), other.ends_.begin() + static_cast<ptrdiff_t>(begin),
                 other.ends_.begin() + static_cast<ptrdiff_t>(end));
    for (size_t i = at; i < ends_.size(); ++i) ends_[i] += shift;
  }
  // Lays the strings out again where they lie: each of `runs` (ascending, as
  // {old_begin, old_end, new_begin} of strings; the new places keep their order) keeps
  // its strings at its new index, and each index between them gets `fresh(i)`; `n`
  // strings in all. Text moves only where the strings before it changed in length, so a
  // long list changed in a few places is not copied whole.
  template <typename Runs, typename Fresh>
  void Rearrange(const Runs& runs, size_t n, Fresh&& fresh) {
    const auto at = [](auto i) { return static_cast<size_t>(i); };
    // Each run's text, where it is and where it goes; read before anything moves.
    std::vector<size_t> from(runs.size()), to(runs.size()), length(runs.size());
    size_t bytes = 0, next = 0;
    for (size_t k = 0; k < runs.size(); ++k) {
      const auto& r = runs[k];
      for (; next < at(r.new_begin); ++next) bytes += fresh(next).size();
      from[k] = StartOf(at(r.old_begin));
      length[k] = StartOf(at(r.old_end)) - from[k];
      to[k] = bytes;
      bytes += length[k];
      next = at(r.new_begin) + at(r.old_end - r.old_begin);
    }
    for (size_t i = next; i < n; ++i) bytes += fresh(i).size();
    if (bytes > text_.size()) text_.resize(bytes);
    if (n > ends_.size()) ends_.resize(n);
    // The text and the ends move apart: a run's text may go left while its ends go right.
    InSafeOrder(
        runs.size(), [&](size_t k) { return Direction(from[k], to[k]); },
        [&](size_t k) { std::memmove(&text_[to[k]], &text_[from[k]], length[k]); });
    InSafeOrder(
        runs.size(), [&](size_t k) { return Direction(at(runs[k].old_begin), at(runs[k].new_begin)); },
        [&](size_t k) {
          const auto& r = runs[k];
          std::memmove(&ends_[at(r.new_begin)], &ends_[at(r.old_begin)], at(r.old_end - r.old_begin) * sizeof(size_t));
        });
    // The runs' ends follow their text (unsigned: a shift left wraps back); the fresh
    // strings fill the places between.
    size_t end = 0, i = 0;
    const auto put_fresh = [&](size_t limit) {
      for (; i < limit; ++i) {
        const absl::string_view s = fresh(i);
        if (!s.empty()) std::memcpy(&text_[end], s.data(), s.size());
        end += s.size();
        ends_[i] = end;
      }
    };
    for (size_t k = 0; k < runs.size(); ++k) {
      const auto& r = runs[k];
      put_fresh(at(r.new_begin));
      const size_t count = at(r.old_end - r.old_begin);
      if (to[k] != from[k]) {
        for (size_t j = i; j < i + count; ++j) ends_[j] += to[k] - from[k];
      }
      i += count;
      end = to[k] + length[k];
    }
    put_fresh(n);
    ends_.resize(n);
    text_.resize(bytes);
  }
  size_t size() const { return ends_.size(); }
  absl::string_view operator[](size_t i) const {
    const size_t begin = StartOf(i);
    return absl::string_view(text_).substr(begin, ends_[i] - begin);
  }

 private:
  size_t StartOf(size_t i) const { return i == 0 ? 0 : ends_[i - 1]; }
  static int Direction(size_t from, size_t to) { return to < from ? -1 : to > from ? 1 : 0; }
  // Moves ranges whose new places keep their order (as MoveRuns does): those going left
  // in ascending order, then those going right in descending order, so that none is
  // overwritten before it moves.
  template <typename DirectionOf, typename Move>
  static void InSafeOrder(size_t count, DirectionOf direction, Move move) {
    for (size_t k = 0; k < count; ++k) {
      if (direction(k) < 0) move(k);
    }
    for (size_t k = count; k-- > 0;) {
      if (direction(k) > 0) move(k);
    }
  }

  std::string text_;
  std::vector<size_t> ends_;  // end of each string in text_
};

}  // namespace vcsched

#endif  // VCSCHED_SRC_SNAPSHOT_PACKED_STRINGS_H_
