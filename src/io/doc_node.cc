#include "src/io/doc_node.h"

#include <limits>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/io/value_yaml.h"
#include "src/io/yaml_normalize.h"

namespace vcsched::io_internal {

bool DocNode::IsScalar() const {
  if (const YamlTree::Node* t = tree_node()) return t->kind == YamlTree::Kind::kScalar;
  if (const YAML::Node* y = yaml_node()) return y->IsScalar();
  if (const Value* v = value_node()) return v->is_scalar();
  if (host() != nullptr) return host_kind() == HostTree::Kind::kScalar;
  const simdjson::dom::element* j = json_node();
  if (j == nullptr) return false;
  const simdjson::dom::element_type t = j->type();
  return t != simdjson::dom::element_type::OBJECT && t != simdjson::dom::element_type::ARRAY &&
         t != simdjson::dom::element_type::NULL_VALUE;
}

std::string DocNode::Scalar() const {
  if (const YamlTree::Node* t = tree_node()) {
    return t->kind == YamlTree::Kind::kScalar ? std::string(tree_->text(*t)) : std::string();
  }
  if (const YAML::Node* y = yaml_node()) return y->IsScalar() ? y->Scalar() : std::string();
  if (const Value* v = value_node()) return v->is_scalar() ? v->text() : std::string();
  if (const HostTree* h = host()) {
    std::string scratch;
    const absl::string_view text = h->scalar(host_node_, &scratch);
    return text.data() == scratch.data() ? scratch : std::string(text);
  }
  const simdjson::dom::element* j = json_node();
  if (j == nullptr) return "";
  switch (j->type()) {
    case simdjson::dom::element_type::STRING: return std::string(std::string_view(*j));
    case simdjson::dom::element_type::INT64: return absl::StrCat(int64_t(*j));
    case simdjson::dom::element_type::UINT64: return absl::StrCat(uint64_t(*j));
    case simdjson::dom::element_type::DOUBLE: return absl::StrFormat("%.17g", double(*j));
    case simdjson::dom::element_type::BOOL: return bool(*j) ? "true" : "false";
    default: return "";
  }
}

ScalarType DocNode::TypeAsKubernetesReads() const {
  if (!IsScalar()) return ScalarType::kNull;
  if (const YamlTree::Node* t = tree_node()) {
    return t->quoted ? ScalarType::kString : PlainYamlScalarType(tree_->text(*t));
  }
  if (const YAML::Node* y = yaml_node()) {
    // yaml-cpp tags a plain scalar "?", a quoted one "!"; an explicit tag is kept.
    const std::string& tag = y->Tag();
    if (tag == "?") return PlainYamlScalarType(y->Scalar());
    if (tag == "tag:yaml.org,2002:bool") return ScalarType::kBool;
    if (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float") return ScalarType::kNumber;
    return ScalarType::kString;
  }
  if (const Value* v = value_node()) return v->quoted() ? ScalarType::kString : PlainYamlScalarType(v->text());
  if (const HostTree* h = host()) {
    // A host's number or boolean is given as its plain text.
    if (h->quoted(host_node_)) return ScalarType::kString;
    std::string scratch;
    return PlainYamlScalarType(h->scalar(host_node_, &scratch));
  }
  switch (json_node()->type()) {
    case simdjson::dom::element_type::STRING: return ScalarType::kString;
    case simdjson::dom::element_type::BOOL: return ScalarType::kBool;
    default: return ScalarType::kNumber;
  }
}

absl::string_view DocNode::ScalarRef(std::string* scratch) const {
  if (const YamlTree::Node* t = tree_node(); t != nullptr && t->kind == YamlTree::Kind::kScalar) {
    return tree_->text(*t);
  }
  if (const simdjson::dom::element* j = json_node(); j != nullptr && j->is_string()) {
    const std::string_view v(*j);
    return absl::string_view(v.data(), v.size());
  }
  if (const Value* v = value_node(); v != nullptr && v->is_scalar()) return v->text();
  if (const HostTree* h = host()) return h->scalar(host_node_, scratch);
  *scratch = Scalar();
  return *scratch;
}

size_t DocNode::size() const {
  if (const YamlTree::Node* t = tree_node()) {
    return t->kind == YamlTree::Kind::kMap || t->kind == YamlTree::Kind::kList ? t->size : 0;
  }
  if (const YAML::Node* y = yaml_node()) return y->IsMap() || y->IsSequence() ? y->size() : 0;
  if (const Value* v = value_node()) return v->is_map() || v->is_list() ? v->size() : 0;
  if (const HostTree* h = host()) return h->size(host_node_);
  const simdjson::dom::element* j = json_node();
  if (j == nullptr) return 0;
  simdjson::dom::array arr;
  if (j->get(arr) == simdjson::SUCCESS) return arr.size();
  simdjson::dom::object obj;
  if (j->get(obj) == simdjson::SUCCESS) return obj.size();
  return 0;
}

DocNode DocNode::Get(const char* key) const {
  if (const YamlTree::Node* t = tree_node()) {
    if (t->kind != YamlTree::Kind::kMap) return DocNode();
    const absl::string_view want(key);
    for (uint32_t k = 0; k < t->size; ++k) {
      if (tree_->key(*t, k) == want) return DocNode(tree_, tree_->value(*t, k));
    }
    return DocNode();
  }
  if (const YAML::Node* y = yaml_node()) {
    if (!y->IsMap()) return DocNode();
    const YAML::Node child = (*y)[key];
    return child.IsDefined() ? DocNode(child) : DocNode();
  }
  if (const Value* v = value_node()) {
    const Value* child = v->Find(key);
    return child != nullptr ? DocNode(child) : DocNode();
  }
  if (const HostTree* h = host()) {
    const absl::string_view want(key);
    size_t cursor = 0;
    absl::string_view k;
    HostTree::Node child = nullptr;
    while (h->next_entry(host_node_, &cursor, &k, &child)) {
      if (k == want) return DocNode(h, child);
    }
    return DocNode();
  }
  const simdjson::dom::element* j = json_node();
  simdjson::dom::object obj;
  simdjson::dom::element child;
  if (j == nullptr || j->get(obj) != simdjson::SUCCESS || obj.at_key(key).get(child) != simdjson::SUCCESS) {
    return DocNode();
  }
  return DocNode(child);
}

DocNode DocNode::operator[](size_t i) const {
  if (const YamlTree::Node* t = tree_node()) {
    return t->kind == YamlTree::Kind::kList && i < t->size ? DocNode(tree_, tree_->link(*t, static_cast<uint32_t>(i)))
                                                            : DocNode();
  }
  if (const YAML::Node* y = yaml_node()) return y->IsSequence() && i < y->size() ? DocNode((*y)[i]) : DocNode();
  if (const Value* v = value_node()) return v->is_list() && i < v->size() ? DocNode(&v->items()[i]) : DocNode();
  if (const HostTree* h = host()) {
    return host_kind() == HostTree::Kind::kList && i < h->size(host_node_) ? DocNode(h, h->item(host_node_, i))
                                                                            : DocNode();
  }
  const simdjson::dom::element* j = json_node();
  simdjson::dom::array arr;
  simdjson::dom::element item;
  if (j == nullptr || j->get(arr) != simdjson::SUCCESS || arr.at(i).get(item) != simdjson::SUCCESS) return DocNode();
  return DocNode(item);
}

namespace {

// Depth-first; the path is put together only on the way back from a find.
bool FindDuplicate(simdjson::dom::element e, std::string* path, std::string* key, const char* skip) {
  if (simdjson::dom::array arr; e.get(arr) == simdjson::SUCCESS) {
    size_t i = 0;
    for (simdjson::dom::element item : arr) {
      if (FindDuplicate(item, path, key, nullptr)) {
        *path = absl::StrCat("[", i, "]", path->empty() || (*path)[0] == '[' ? "" : ".", *path);
        return true;
      }
      ++i;
    }
    return false;
  }
  simdjson::dom::object obj;
  if (e.get(obj) != simdjson::SUCCESS) return false;
  // Objects are small: a scan of the keys before each beats hashing them.
  std::vector<std::string_view> keys;
  keys.reserve(obj.size());
  for (simdjson::dom::key_value_pair kv : obj) {
    for (std::string_view k : keys) {
      if (k == kv.key) {
        *key = std::string(kv.key);
        path->clear();
        return true;
      }
    }
    keys.push_back(kv.key);
    if (keys.size() == 64) break;  // a large object: hashed below
  }
  if (keys.size() == 64) {
    absl::flat_hash_set<std::string_view> seen;
    for (simdjson::dom::key_value_pair kv : obj) {
      if (!seen.insert(kv.key).second) {
        *key = std::string(kv.key);
        path->clear();
        return true;
      }
    }
  }
  for (simdjson::dom::key_value_pair kv : obj) {
    if (skip != nullptr && kv.key == skip) continue;
    if (FindDuplicate(kv.value, path, key, nullptr)) {
      *path = absl::StrCat(absl::string_view(kv.key.data(), kv.key.size()), path->empty() || (*path)[0] == '[' ? "" : ".", *path);
      return true;
    }
  }
  return false;
}

}  // namespace

bool DocNode::FindDuplicateJsonKey(std::string* path, std::string* key, const char* skip) const {
  const simdjson::dom::element* j = json_node();
  return j != nullptr && FindDuplicate(*j, path, key, skip);
}

std::vector<DocNode> DocNode::Items() const {
  std::vector<DocNode> out;
  if (IsSequence()) out.reserve(size());
  ForEachItem([&](const DocNode& item) { out.push_back(item); });
  return out;
}

namespace {

// A host's subtree as a Value (for the readers written on yaml-cpp): bounded, as a
// cyclic or absurd object must be refused rather than followed.
constexpr int64_t kMaxHostNodes = int64_t{1} << 22;
constexpr int kMaxHostDepth = 200;

Value HostToValue(const HostTree& h, HostTree::Node n, int depth, int64_t* budget) {
  if (depth > kMaxHostDepth || --*budget < 0) throw HostTreeError("the object is nested too deep or too large");
  switch (h.kind(n)) {
    case HostTree::Kind::kNull: return Value::Null();
    case HostTree::Kind::kScalar: {
      std::string scratch;
      const absl::string_view text = h.scalar(n, &scratch);
      // Strings stay strings; numbers and booleans are plain, as a host's dict means them.
      return h.quoted(n) ? Value::String(std::string(text)) : Value::Plain(std::string(text));
    }
    case HostTree::Kind::kMap: {
      Value m = Value::Map();
      m.entries().reserve(h.size(n));
      size_t cursor = 0;
      absl::string_view key;
      HostTree::Node child = nullptr;
      while (h.next_entry(n, &cursor, &key, &child)) {
        m.entries().emplace_back(std::string(key), HostToValue(h, child, depth + 1, budget));
      }
      return m;
    }
    case HostTree::Kind::kList: {
      Value l = Value::List();
      const size_t size = h.size(n);
      l.items().reserve(size);
      for (size_t i = 0; i < size; ++i) l.Push(HostToValue(h, h.item(n, i), depth + 1, budget));
      return l;
    }
    case HostTree::Kind::kOther: break;
  }
  throw HostTreeError(absl::StrCat("cannot read ", h.describe(n), " as YAML"));
}

}  // namespace

std::string DocNode::Position(int line_offset) const {
  if (const YamlTree::Node* t = tree_node()) {
    return absl::StrCat("line ", int64_t{t->line} + 1 + line_offset, ":", t->column + 1);
  }
  const YAML::Node* y = yaml_node();
  if (y == nullptr || !y->IsDefined()) return "";
  const YAML::Mark m = y->Mark();
  if (m.line < 0) return "";
  return absl::StrCat("line ", m.line + 1 + line_offset, ":", m.column + 1);
}

YAML::Node DocNode::yaml() const {
  if (kind_ == Kind::kTree) {
    const std::vector<int32_t>& roots = tree_->documents();
    if (roots.size() == 1 && roots[0] == index_) {
      // The text yaml-cpp would have read: its nodes carry their positions. Read the way
      // libyaml read it, it is the same document; anything else falls back to the copy.
      try {
        YAML::Node doc = YAML::Load(std::string(tree_->source()));
        if (NormalizeYamlDocument(doc, 0).empty() && doc.IsMap() == IsMap() && doc.size() == size()) return doc;
      } catch (const YAML::Exception&) {
      }
    }
    // A copy without positions; the tree bounds what its aliases stand for.
    Value copy;
    int64_t unbounded = std::numeric_limits<int64_t>::max();
    ToValue(*tree_, index_, &copy, &unbounded);
    return ToYamlNode(copy);
  }
  if (const YAML::Node* y = yaml_node()) return *y;
  if (const Value* v = value_node()) return ToYamlNode(*v);
  if (const HostTree* h = host()) {
    int64_t budget = kMaxHostNodes;
    return ToYamlNode(HostToValue(*h, host_node_, 0, &budget));
  }
  const simdjson::dom::element* j = json_node();
  if (j == nullptr) return YAML::Node(YAML::NodeType::Undefined);
  return YAML::Load(simdjson::minify(*j));  // JSON is YAML
}

}  // namespace vcsched::io_internal
