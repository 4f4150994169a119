#include "src/lifecycle/field_reader.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace vcsched::lifecycle::internal {

std::string Join(const std::string& path, absl::string_view key) {
  return path.empty() ? std::string(key) : absl::StrCat(path, ".", key);
}

std::string Index(const std::string& path, size_t i) { return absl::StrCat(path, "[", i, "]"); }

namespace {

const Value* Present(const Value& parent, absl::string_view key) {
  const Value* v = parent.Find(key);
  return v == nullptr || v->is_null() ? nullptr : v;
}

}  // namespace

std::optional<std::string> FieldReader::String(const Value& parent, absl::string_view key, const std::string& path) {
  const Value* v = Present(parent, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_scalar()) {
    Fail(Join(path, key), absl::StrCat("expected a string, got ", v->Describe()));
    return std::nullopt;
  }
  return v->text();
}

std::optional<int64_t> FieldReader::Int(const Value& parent, absl::string_view key, const std::string& path) {
  const Value* v = Present(parent, key);
  if (v == nullptr) return std::nullopt;
  int64_t n = 0;
  if (!v->is_scalar() || v->quoted() || !absl::SimpleAtoi(v->text(), &n)) {
    Fail(Join(path, key), absl::StrCat("expected an integer, got ", v->Describe()));
    return std::nullopt;
  }
  return n;
}

std::optional<int32_t> FieldReader::Int32(const Value& parent, absl::string_view key, const std::string& path) {
  std::optional<int64_t> n = Int(parent, key, path);
  if (!n) return std::nullopt;
  if (*n < INT32_MIN || *n > INT32_MAX) {
    Fail(Join(path, key), absl::StrCat("value ", *n, " does not fit a 32-bit integer"));
    return std::nullopt;
  }
  return static_cast<int32_t>(*n);
}

std::optional<bool> FieldReader::Bool(const Value& parent, absl::string_view key, const std::string& path) {
  const Value* v = Present(parent, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_scalar() && !v->quoted() && (v->text() == "true" || v->text() == "false")) return v->text() == "true";
  Fail(Join(path, key), absl::StrCat("expected true or false, got ", v->Describe()));
  return std::nullopt;
}

std::vector<std::string> FieldReader::Strings(const Value& parent, absl::string_view key, const std::string& path) {
  std::vector<std::string> out;
  const Value* list = List(parent, key, path);
  if (list == nullptr) return out;
  for (size_t i = 0; i < list->items().size(); ++i) {
    const Value& item = list->items()[i];
    if (item.is_scalar()) out.push_back(item.text());
    else Fail(Index(Join(path, key), i), absl::StrCat("expected a string, got ", item.Describe()));
  }
  return out;
}

std::map<std::string, std::string> FieldReader::StringMap(const Value& parent, absl::string_view key,
                                                          const std::string& path) {
  std::map<std::string, std::string> out;
  const Value* map = Map(parent, key, path);
  if (map == nullptr) return out;
  for (const auto& [k, v] : map->entries()) {
    if (v.is_scalar()) out[k] = v.text();
    else if (v.is_null()) out[k] = "";
    else Fail(Join(Join(path, key), k), absl::StrCat("expected a string, got ", v.Describe()));
  }
  return out;
}

const Value* FieldReader::Shaped(const Value& parent, absl::string_view key, const std::string& path,
                                 Value::Kind kind, const char* what) {
  const Value* v = Present(parent, key);
  if (v == nullptr) return nullptr;
  if (v->kind() != kind) {
    Fail(Join(path, key), absl::StrCat("expected ", what, ", got ", v->Describe()));
    return nullptr;
  }
  return v;
}

const Value* FieldReader::Map(const Value& parent, absl::string_view key, const std::string& path) {
  return Shaped(parent, key, path, Value::Kind::kMap, "a map");
}

const Value* FieldReader::List(const Value& parent, absl::string_view key, const std::string& path) {
  return Shaped(parent, key, path, Value::Kind::kList, "a list");
}

}  // namespace vcsched::lifecycle::internal
