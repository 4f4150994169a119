// Many short strings in one buffer, read back as views: a pass that copies thousands of
// them (decisions naming their tasks and jobs) then reads memory in order instead of
// chasing one heap block per string.
#ifndef VCSCHED_SRC_SNAPSHOT_PACKED_STRINGS_H_
#define VCSCHED_SRC_SNAPSHOT_PACKED_STRINGS_H_

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
    const size_t from = begin == 0 ? 0 : other.ends_[begin - 1];
    const size_t shift = text_.size() - from;
    text_.append(other.text_, from, other.ends_[end - 1] - from);
    const size_t at = ends_.size();
    ends_.resize(at + (end - begin));  // sized once: the loop below is a plain add
    for (size_t i = begin; i < end; ++i) ends_[at + (i - begin)] = other.ends_[i] + shift;
  }
  size_t size() const { return ends_.size(); }
  absl::string_view operator[](size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return absl::string_view(text_).substr(begin, ends_[i] - begin);
  }

 private:
  std::string text_;
  std::vector<size_t> ends_;  // end of each string in text_
};

}  // namespace vcsched

#endif  // VCSCHED_SRC_SNAPSHOT_PACKED_STRINGS_H_
