// Typed reading of Value fields for the lifecycle objects. A wrongly shaped value is an
// error at its path, e.g. `spec.tasks[0].replicas: expected an integer, got "two"`, and
// reading goes on so that one pass reports every problem.
#ifndef VCSCHED_SRC_LIFECYCLE_FIELD_READER_H_
#define VCSCHED_SRC_LIFECYCLE_FIELD_READER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "vcsched/lifecycle/findings.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle::internal {

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
std::string Join(const std::string& path, absl::string_view key);
// "spec.tasks" + 2 -> "spec.tasks[2]".
std::string Index(const std::string& path, size_t i);

class FieldReader {
 public:
  explicit FieldReader(Findings* findings) : findings_(findings) {}

  // Each returns nullopt when `key` is absent or null.
  std::optional<std::string> String(const Value& parent, absl::string_view key, const std::string& path);
  std::optional<int64_t> Int(const Value& parent, absl::string_view key, const std::string& path);
  std::optional<int32_t> Int32(const Value& parent, absl::string_view key, const std::string& path);
  std::optional<bool> Bool(const Value& parent, absl::string_view key, const std::string& path);
  std::vector<std::string> Strings(const Value& parent, absl::string_view key, const std::string& path);
  std::map<std::string, std::string> StringMap(const Value& parent, absl::string_view key, const std::string& path);
  // The map / list at `key`, or nullptr (absent, null, or wrong shape — reported).
  const Value* Map(const Value& parent, absl::string_view key, const std::string& path);
  const Value* List(const Value& parent, absl::string_view key, const std::string& path);

  // Calls f(item, item_path) for each map in the list at `key`; other items are errors.
  template <typename F>
  void ForEachMap(const Value& parent, absl::string_view key, const std::string& path, F&& f) {
    const Value* list = List(parent, key, path);
    for (size_t i = 0; list != nullptr && i < list->items().size(); ++i) {
      const Value& item = list->items()[i];
      const std::string at = Index(Join(path, key), i);
      if (item.is_map()) f(item, at);
      else Fail(at, "expected a map, got " + item.Describe());
    }
  }

  void Fail(const std::string& path, std::string message) { findings_->Error(path, std::move(message)); }

 private:
  const Value* Shaped(const Value& parent, absl::string_view key, const std::string& path, Value::Kind kind,
                      const char* what);

  Findings* findings_;
};

}  // namespace vcsched::lifecycle::internal

#endif  // VCSCHED_SRC_LIFECYCLE_FIELD_READER_H_
