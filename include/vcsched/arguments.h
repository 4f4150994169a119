// Plugin and action arguments: the free-form `arguments:` map of a configuration.
//
// Values keep the YAML shape (a Value tree: scalar, map, list, null; a null reads as an
// empty plain scalar). Typed getters apply Volcano's reading
// rules and report a wrongly typed value as an error naming the key, e.g.
// `argument "binpack.weight": expected an integer, got "heavy"` (the error carries the
// key: WrongTypeArgument). Given a sink (set_wrong_type_sink), a getter instead returns
// its fallback for such a value and appends the error's text to the sink: Volcano ignores
// a wrongly typed argument, and the registry builds each plugin once that way.
#ifndef VCSCHED_ARGUMENTS_H_
#define VCSCHED_ARGUMENTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/value.h"

namespace vcsched {

class Arguments {
 public:
  Arguments() = default;
  explicit Arguments(Value root) : root_(std::move(root)) {}
  // Copies take the values, not the sink (which belongs to the one who set it).
  Arguments(const Arguments& other) : root_(other.root_) {}
  Arguments(Arguments&& other) noexcept : root_(std::move(other.root_)) {}
  Arguments& operator=(const Arguments& other) {
    root_ = other.root_;
    return *this;
  }
  Arguments& operator=(Arguments&& other) noexcept {
    root_ = std::move(other.root_);
    return *this;
  }

  bool empty() const { return root_.size() == 0; }
  const Value& root() const { return root_; }
  const Value* Find(absl::string_view key) const { return root_.Find(key); }
  void Set(absl::string_view key, Value value) { root_.Set(key, std::move(value)); }
  // Removes `key`; false when absent.
  bool Erase(absl::string_view key) { return root_.Erase(key); }

  // The value at `key`, `fallback` when absent. An integer must be an unquoted YAML
  // integer; a float accepts integers; a bool accepts true/false (any case) and the
  // strings Go's strconv.ParseBool takes.
  absl::StatusOr<int64_t> GetInt(absl::string_view key, int64_t fallback) const;
  absl::StatusOr<double> GetFloat(absl::string_view key, double fallback) const;
  absl::StatusOr<bool> GetBool(absl::string_view key, bool fallback) const;
  absl::StatusOr<std::string> GetString(absl::string_view key, std::string fallback) const;
  // Where wrongly typed values go (see above); nullptr: they are errors.
  void set_wrong_type_sink(std::vector<std::string>* sink) { wrong_type_sink_ = sink; }

 private:
  // A wrongly typed value at `key`: an error, or (with a sink) `fallback`, noted.
  template <typename T>
  absl::StatusOr<T> WrongTypeOr(absl::string_view key, absl::string_view want, const Value& v, T fallback) const;
  std::vector<std::string>* wrong_type_sink_ = nullptr;
  Value root_ = Value::Map();
};

// The key a getter's wrong-type error names, or nullopt for any other status.
std::optional<std::string> WrongTypeArgument(const absl::Status& status);

// Go's strconv.ParseBool: "1", "t", "T", "true", "TRUE", "True" and their false
// counterparts; false (and *out untouched) for anything else.
bool ParseGoBool(absl::string_view text, bool* out);
// Parses a Go duration ("90s", "1h30m", "3m"). kInvalidArgument on bad text.
absl::StatusOr<int64_t> ParseGoDurationSeconds(absl::string_view text);
// The same in milliseconds, rounded to the nearest.
absl::StatusOr<int64_t> ParseGoDurationMillis(absl::string_view text);

// The annotation vcsched.io/expected-runtime (docs/ETA.md): a Go duration ("90m"), or one
// with a spread ("1h±20m" or "1h+-20m": the range [1h-20m, 1h+20m], never below zero).
inline constexpr char kExpectedRuntimeAnnotation[] = "vcsched.io/expected-runtime";
struct RuntimeRange {
  int64_t low_ms = 0;
  int64_t high_ms = 0;  // equal to low_ms without a spread
  bool spread = false;
};
// kInvalidArgument, saying what is wrong, on bad text.
absl::StatusOr<RuntimeRange> ParseRuntimeRange(absl::string_view text);

}  // namespace vcsched

#endif  // VCSCHED_ARGUMENTS_H_
