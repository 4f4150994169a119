// Plugin and action arguments: the free-form `arguments:` map of a configuration.
//
// Values keep the YAML shape (scalar, map, list). Typed getters apply Volcano's reading
// rules and report a wrongly typed value as an error naming the key, e.g.
// `argument "binpack.weight": expected an integer, got "heavy"`; the error carries the key
// (WrongTypeArgument), so that the registry can build the plugin again without it, with
// its default, as Volcano does.
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

namespace vcsched {

struct ArgValue {
  enum class Kind { kScalar, kMap, kList };
  Kind kind = Kind::kScalar;
  std::string scalar;  // the text of a scalar
  bool quoted = false; // the scalar was written as a quoted string
  std::vector<std::pair<std::string, ArgValue>> map;  // in document order
  std::vector<ArgValue> list;

  static ArgValue Scalar(std::string text, bool quoted = false) {
    ArgValue v;
    v.scalar = std::move(text);
    v.quoted = quoted;
    return v;
  }
  const ArgValue* Find(absl::string_view key) const;
};

class Arguments {
 public:
  Arguments() = default;
  explicit Arguments(ArgValue root) : root_(std::move(root)) {}

  bool empty() const { return root_.map.empty(); }
  const ArgValue& root() const { return root_; }
  const ArgValue* Find(absl::string_view key) const { return root_.Find(key); }
  void Set(std::string key, ArgValue value);
  // Removes `key`; false when absent.
  bool Erase(absl::string_view key);

  // The value at `key`, `fallback` when absent. An integer must be an unquoted YAML
  // integer; a float accepts integers; a bool accepts true/false (any case) and the
  // strings Go's strconv.ParseBool takes.
  absl::StatusOr<int64_t> GetInt(absl::string_view key, int64_t fallback) const;
  absl::StatusOr<double> GetFloat(absl::string_view key, double fallback) const;
  absl::StatusOr<bool> GetBool(absl::string_view key, bool fallback) const;
  absl::StatusOr<std::string> GetString(absl::string_view key, std::string fallback) const;

 private:
  ArgValue root_{ArgValue::Kind::kMap, "", false, {}, {}};
};

// The key a getter's wrong-type error names, or nullopt for any other status.
std::optional<std::string> WrongTypeArgument(const absl::Status& status);

// Parses a Go duration ("90s", "1h30m", "3m"). kInvalidArgument on bad text.
absl::StatusOr<int64_t> ParseGoDurationSeconds(absl::string_view text);

}  // namespace vcsched

#endif  // VCSCHED_ARGUMENTS_H_
