#include "vcsched/value.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace vcsched {

Value Value::String(std::string text) {
  Value v;
  v.kind_ = Kind::kScalar;
  v.text_ = std::move(text);
  v.quoted_ = true;
  return v;
}

Value Value::Plain(std::string text) {
  Value v;
  v.kind_ = Kind::kScalar;
  v.text_ = std::move(text);
  return v;
}

Value Value::Int(int64_t n) { return Plain(absl::StrCat(n)); }
Value Value::Bool(bool b) { return Plain(b ? "true" : "false"); }

Value Value::Map() {
  Value v;
  v.kind_ = Kind::kMap;
  return v;
}

Value Value::List() {
  Value v;
  v.kind_ = Kind::kList;
  return v;
}

const Value* Value::Find(absl::string_view key) const {
  if (kind_ != Kind::kMap) return nullptr;
  for (const auto& [k, v] : map_) {
    if (k == key) return &v;
  }
  return nullptr;
}

Value* Value::Find(absl::string_view key) {
  return const_cast<Value*>(static_cast<const Value*>(this)->Find(key));
}

Value& Value::operator[](absl::string_view key) {
  if (kind_ == Kind::kNull) kind_ = Kind::kMap;
  if (Value* v = Find(key)) return *v;
  map_.emplace_back(std::string(key), Value());
  return map_.back().second;
}

bool Value::Erase(absl::string_view key) {
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    if (it->first == key) {
      map_.erase(it);
      return true;
    }
  }
  return false;
}

void Value::Push(Value v) {
  if (kind_ == Kind::kNull) kind_ = Kind::kList;
  list_.push_back(std::move(v));
}

std::string Value::Describe() const {
  switch (kind_) {
    case Kind::kNull: return "null";
    case Kind::kScalar: return absl::StrCat("\"", text_.substr(0, 64), "\"");
    case Kind::kMap: return "a map";
    case Kind::kList: return "a list";
  }
  return "";
}

// Quoting is presentation, not content: "1" and 1 differ only where a reader types them.
bool operator==(const Value& a, const Value& b) {
  return a.kind_ == b.kind_ && a.text_ == b.text_ && a.map_ == b.map_ && a.list_ == b.list_;
}

const Value* FindPath(const Value& root, absl::string_view dotted) {
  const Value* at = &root;
  for (absl::string_view step : absl::StrSplit(dotted, '.')) {
    at = at->Find(step);
    if (at == nullptr) return nullptr;
  }
  return at;
}

}  // namespace vcsched
