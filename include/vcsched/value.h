// A YAML/JSON-shaped document tree: what the lifecycle code reads (Volcano Jobs, CronJobs,
// JobFlows) and writes (PodGroups, pods, Services, ConfigMaps, Secrets) without knowing
// any YAML library. Maps keep document order, so printed objects read like their input.
#ifndef VCSCHED_VALUE_H_
#define VCSCHED_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace vcsched {

class Value {
 public:
  enum class Kind { kNull, kScalar, kMap, kList };

  Value() = default;
  static Value Null() { return Value(); }
  // A string that must stay a string when printed (quoted where YAML would read it
  // otherwise).
  static Value String(std::string text);
  // A plain scalar, as written unquoted in YAML: numbers, booleans, bare words.
  static Value Plain(std::string text);
  static Value Int(int64_t v);
  static Value Bool(bool v);
  static Value Map();
  static Value List();

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_scalar() const { return kind_ == Kind::kScalar; }
  bool is_map() const { return kind_ == Kind::kMap; }
  bool is_list() const { return kind_ == Kind::kList; }
  // Scalar text; empty for other kinds.
  const std::string& text() const { return text_; }
  bool quoted() const { return quoted_; }

  // Map access. Find returns null when absent or when this is not a map.
  const Value* Find(absl::string_view key) const;
  Value* Find(absl::string_view key);
  // The entry for `key`, created (null) when absent; a null value becomes a map first.
  Value& operator[](absl::string_view key);
  void Set(absl::string_view key, Value v) { (*this)[key] = std::move(v); }
  bool Erase(absl::string_view key);
  const std::vector<std::pair<std::string, Value>>& entries() const { return map_; }
  std::vector<std::pair<std::string, Value>>& entries() { return map_; }

  // List access; Push turns a null value into a list first.
  const std::vector<Value>& items() const { return list_; }
  std::vector<Value>& items() { return list_; }
  void Push(Value v);

  // Number of entries or items (0 for scalars and null).
  size_t size() const { return kind_ == Kind::kMap ? map_.size() : list_.size(); }
  // A short description for messages: the scalar text, "a map", "a list" or "null".
  std::string Describe() const;

  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }

 private:
  Kind kind_ = Kind::kNull;
  std::string text_;
  bool quoted_ = false;
  std::vector<std::pair<std::string, Value>> map_;
  std::vector<Value> list_;
};

// Dotted path lookup ("spec.template.metadata"); null when any step is missing.
const Value* FindPath(const Value& root, absl::string_view dotted);

}  // namespace vcsched

#endif  // VCSCHED_VALUE_H_
