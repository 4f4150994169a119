// A strict reader of small JSON values in annotations, accepting what Go's
// encoding/json accepts for the shapes Volcano unmarshals there (objects of strings and
// numbers, null); errors say what was wrong and where.
#ifndef VCSCHED_SRC_MODEL_STRICT_JSON_H_
#define VCSCHED_SRC_MODEL_STRICT_JSON_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace vcsched::internal {

class StrictJsonReader {
 public:
  explicit StrictJsonReader(absl::string_view text) : s_(text) {}

  // The members of an object whose '{' was eaten, each key given to `member` with the
  // reader at its value; the first error is kept (status()).
  template <typename F>
  absl::Status Object(F&& member) {
    Space();
    if (Eat('}')) return absl::OkStatus();
    while (true) {
      Space();
      absl::StatusOr<std::string> key = String();
      if (!key.ok()) return Fail(key.status());
      Space();
      if (!Eat(':')) return Fail(Error("expected ':'"));
      Space();
      if (absl::Status s = member(*std::move(key)); !s.ok()) return Fail(s);
      Space();
      if (Eat('}')) return absl::OkStatus();
      if (!Eat(',')) return Fail(Error("expected ',' or '}'"));
    }
  }
  absl::StatusOr<std::string> String();
  // A JSON number's text; empty when there is none.
  std::string Number();
  bool Null();
  // OK when only spaces are left.
  absl::Status End();
  void Space();
  bool Eat(char c);
  char Peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  absl::Status Error(absl::string_view what) const;
  const absl::Status& status() const { return status_; }

 private:
  absl::Status Fail(absl::Status s) {
    if (status_.ok()) status_ = s;
    return s;
  }

  absl::string_view s_;
  size_t i_ = 0;
  absl::Status status_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_STRICT_JSON_H_
