// The path of a field in messages ("spec.containers[0].resources.requests"), put
// together only when a message needs it: reading a valid object builds no paths.
//
// It holds views: pass it down a call, never keep it.
#ifndef VCSCHED_SRC_IO_FIELD_PATH_H_
#define VCSCHED_SRC_IO_FIELD_PATH_H_

#include <cstddef>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace vcsched::io_internal {

class FieldPath {
 public:
  // A literal's length is taken only when a message needs the path.
  FieldPath(const char* path) : literal_(path) {}               // NOLINT: paths convert freely
  FieldPath(absl::string_view path) : head_(path) {}            // NOLINT
  FieldPath(const std::string& path) : head_(path) {}           // NOLINT
  // head + tail, e.g. ("spec.taints[0]", ".key").
  FieldPath(absl::string_view head, absl::string_view tail) : head_(head), tail_(tail) {}
  // head[index] + tail, e.g. ("spec.containers", 0, ".name").
  FieldPath(absl::string_view head, size_t index, absl::string_view tail)
      : head_(head), tail_(tail), index_(index), indexed_(true) {}

  std::string str() const {
    const absl::string_view head = literal_ != nullptr ? absl::string_view(literal_) : head_;
    return indexed_ ? absl::StrCat(head, "[", index_, "]", tail_) : absl::StrCat(head, tail_);
  }
  bool empty() const { return (literal_ == nullptr || *literal_ == '\0') && head_.empty() && tail_.empty() && !indexed_; }

 private:
  const char* literal_ = nullptr;  // the whole path, when built from a literal
  absl::string_view head_, tail_;
  size_t index_ = 0;
  bool indexed_ = false;
};

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_FIELD_PATH_H_
