#include "tests/testing/value_host_tree.h"

#include <simdjson.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace vcsched::testing {
namespace {

const Value* Of(HostTree::Node n) { return static_cast<const Value*>(n); }

// A JSON scalar spelled as DocNode spells it (src/io/doc_node.cc).
Value FromScalar(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::STRING: return Value::String(std::string(std::string_view(e)));
    case simdjson::dom::element_type::INT64: return Value::Plain(absl::StrCat(int64_t(e)));
    case simdjson::dom::element_type::UINT64: return Value::Plain(absl::StrCat(uint64_t(e)));
    case simdjson::dom::element_type::DOUBLE: return Value::Plain(absl::StrFormat("%.17g", double(e)));
    case simdjson::dom::element_type::BOOL: return Value::Plain(bool(e) ? "true" : "false");
    default: break;
  }
  return Value::Null();
}

// False on a key repeated within an object (the JSON reader refuses it; a Value map,
// like a Python dict, cannot hold it).
bool FromJson(simdjson::dom::element e, Value* out) {
  switch (e.type()) {
    case simdjson::dom::element_type::OBJECT: {
      *out = Value::Map();
      for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e)) {
        if (out->Find(absl::string_view(kv.key.data(), kv.key.size())) != nullptr) return false;
        out->entries().emplace_back(std::string(kv.key), Value());
        if (!FromJson(kv.value, &out->entries().back().second)) return false;
      }
      return true;
    }
    case simdjson::dom::element_type::ARRAY: {
      *out = Value::List();
      for (simdjson::dom::element item : simdjson::dom::array(e)) {
        out->items().emplace_back();
        if (!FromJson(item, &out->items().back())) return false;
      }
      return true;
    }
    default: *out = FromScalar(e); return true;
  }
}

}  // namespace

HostTree::Kind ValueHostTree::kind(Node n) const {
  const Value* v = Of(n);
  if (v == unreadable) return Kind::kOther;
  switch (v->kind()) {
    case Value::Kind::kNull: return Kind::kNull;
    case Value::Kind::kScalar: return Kind::kScalar;
    case Value::Kind::kMap: return Kind::kMap;
    case Value::Kind::kList: return Kind::kList;
  }
  return Kind::kOther;
}

absl::string_view ValueHostTree::scalar(Node n, std::string* scratch) const {
  if (kind(n) != Kind::kScalar) return "";
  *scratch = Of(n)->text();  // through the scratch, as a host that converts does
  return *scratch;
}

bool ValueHostTree::quoted(Node n) const { return Of(n)->quoted(); }

size_t ValueHostTree::size(Node n) const {
  return kind(n) == Kind::kMap || kind(n) == Kind::kList ? Of(n)->size() : 0;
}

bool ValueHostTree::next_entry(Node map, size_t* cursor, absl::string_view* key, Node* value) const {
  const Value* v = Of(map);
  if (kind(map) != Kind::kMap || *cursor >= v->entries().size()) return false;
  const auto& entry = v->entries()[(*cursor)++];
  *key = entry.first;
  *value = &entry.second;
  return true;
}

HostTree::Node ValueHostTree::item(Node list, size_t i) const { return &Of(list)->items()[i]; }

absl::StatusOr<Value> JsonToValue(absl::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto err = parser.parse(json.data(), json.size()).get(doc); err != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(simdjson::error_message(err));
  }
  Value out;
  if (!FromJson(doc, &out)) return absl::InvalidArgumentError("a key repeated within an object");
  return out;
}

}  // namespace vcsched::testing
