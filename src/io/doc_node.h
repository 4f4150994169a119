// A document node from any parser the loader uses: libyaml (YAML, through YamlTree),
// simdjson (JSON), yaml-cpp (the documents Volcano Jobs expand to, and readers written on
// it), a Value tree a host built, or a host's own objects (Python dicts, through
// HostTree). The object readers see only this, so a Pod reads the same from any.
#ifndef VCSCHED_SRC_IO_DOC_NODE_H_
#define VCSCHED_SRC_IO_DOC_NODE_H_

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <simdjson.h>
#include "absl/strings/string_view.h"
#include <yaml-cpp/yaml.h>
#include "src/io/scalar_type.h"
#include "src/io/yaml_tree.h"
#include "vcsched/io/host_tree.h"
#include "vcsched/value.h"

namespace vcsched::io_internal {

// A host's tree that cannot be read as YAML (too deep, too large, a value YAML cannot
// hold), met where a reader copies a subtree whole. The reading is refused with it.
class HostTreeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DocNode {
 public:
  DocNode() = default;  // undefined (absent)
  DocNode(const YAML::Node& n)  // NOLINT: YAML nodes convert freely
      : kind_(Kind::kYaml), yaml_(std::make_shared<const YAML::Node>(n)) {}
  explicit DocNode(simdjson::dom::element e) : kind_(Kind::kJson), json_(e) {}
  // A Value read as YAML would be: scalars by their text, null as null. `v` must outlive
  // the node.
  explicit DocNode(const Value* v) : kind_(Kind::kValue), value_(v) {}
  // Node `index` of a YamlTree that must outlive the node.
  DocNode(const YamlTree* tree, int32_t index) : kind_(Kind::kTree), index_(index), tree_(tree) {}
  // Node `n` of a host's tree; both must outlive the node.
  // Its kind is asked for once, here: readers ask a node's kind several times.
  DocNode(const HostTree* host, HostTree::Node n)
      : kind_(Kind::kHost), host_kind_(host->kind(n)), host_node_(n), host_(host) {}

  // The JSON side of these is inline: a pod's reading asks them a few dozen times.
  bool IsDefined() const {
    return kind_ == Kind::kJson || kind_ == Kind::kValue || kind_ == Kind::kTree || kind_ == Kind::kHost ||
           (kind_ == Kind::kYaml && yaml_->IsDefined());
  }
  bool IsNull() const {
    if (kind_ == Kind::kTree) return tree_kind() == YamlTree::Kind::kNull;
    if (kind_ == Kind::kValue) return value_->is_null();
    if (kind_ == Kind::kHost) return host_kind() == HostTree::Kind::kNull;
    return kind_ == Kind::kJson ? json_.is_null() : kind_ == Kind::kYaml && yaml_->IsNull();
  }
  bool IsMap() const {
    if (kind_ == Kind::kTree) return tree_kind() == YamlTree::Kind::kMap;
    if (kind_ == Kind::kValue) return value_->is_map();
    if (kind_ == Kind::kHost) return host_kind() == HostTree::Kind::kMap;
    return kind_ == Kind::kJson ? json_.is_object() : kind_ == Kind::kYaml && yaml_->IsMap();
  }
  bool IsSequence() const {
    if (kind_ == Kind::kTree) return tree_kind() == YamlTree::Kind::kList;
    if (kind_ == Kind::kValue) return value_->is_list();
    if (kind_ == Kind::kHost) return host_kind() == HostTree::Kind::kList;
    return kind_ == Kind::kJson ? json_.is_array() : kind_ == Kind::kYaml && yaml_->IsSequence();
  }
  bool IsScalar() const;
  // The text of a scalar: a JSON number or boolean in its JSON spelling.
  std::string Scalar() const;
  // A scalar's type as Kubernetes' decoders see it (src/io/scalar_type.h): a JSON or
  // host value's own type; a YAML scalar's by YAML 1.1 unless it was quoted or tagged
  // !!str. kNull for anything that is not a scalar.
  ScalarType TypeAsKubernetesReads() const;
  // The same text; a JSON string is viewed in place, anything else is put in *scratch.
  absl::string_view ScalarRef(std::string* scratch) const;
  size_t size() const;
  // The map entry `key`, undefined when absent or when this is not a map.
  DocNode Get(const char* key) const;
  // The entries `keys` of this map, found in one pass over its entries (the first of a
  // repeated key, as Get finds): each undefined when absent, all when this is not a map.
  // Cheaper than a Get per key when several fields of one object are read.
  template <size_t N>
  std::array<DocNode, N> Fields(const absl::string_view (&keys)[N]) const;
  // A list item (small lists: for JSON this walks the list, so loops use Items()).
  DocNode operator[](size_t i) const;
  // Every item of a list, in one pass (empty when this is not a list).
  std::vector<DocNode> Items() const;
  // f(key, value) for each map entry, in document order.
  template <typename F>
  void ForEachEntry(F&& f) const;
  // f(item) for each list item.
  template <typename F>
  void ForEachItem(F&& f) const;
  // For a JSON node: the first key repeated within one object, as a field path below
  // this node ("status.allocatable" and "cpu"); false when there is none or this is not
  // JSON (the YAML reader finds repeats itself). `skip` names a top-level key whose value
  // is not searched (a List's items, read and checked one by one).
  bool FindDuplicateJsonKey(std::string* path, std::string* key, const char* skip = nullptr) const;
  // "line 12:5" for YAML nodes (with `line_offset` added); empty for JSON.
  std::string Position(int line_offset) const;
  // A host tree's node handle (nullptr for other kinds).
  HostTree::Node host_node() const { return kind_ == Kind::kHost ? host_node_ : nullptr; }
  // The node as yaml-cpp's, for the rare kinds whose readers are written on yaml-cpp.
  // JSON: the element re-read as YAML. A YamlTree document's root: its text re-read by
  // yaml-cpp (positions kept); a node below a root: a copy without positions.
  YAML::Node yaml() const;

 private:
  // Not a std::variant: a JSON node (16 bytes) is copied, compared and destroyed without
  // visiting alternatives, and never builds a YAML::Node; a YAML node is held through a
  // pointer, so that a DocNode stays small (readers make and drop dozens per object).
  enum class Kind : unsigned char { kAbsent, kYaml, kJson, kValue, kTree, kHost };
  const YAML::Node* yaml_node() const { return kind_ == Kind::kYaml ? &*yaml_ : nullptr; }
  const simdjson::dom::element* json_node() const { return kind_ == Kind::kJson ? &json_ : nullptr; }
  const Value* value_node() const { return kind_ == Kind::kValue ? value_ : nullptr; }
  const YamlTree::Node* tree_node() const { return kind_ == Kind::kTree ? &tree_->node(index_) : nullptr; }
  YamlTree::Kind tree_kind() const { return tree_->node(index_).kind; }
  HostTree::Kind host_kind() const { return host_kind_; }
  const HostTree* host() const { return kind_ == Kind::kHost ? host_ : nullptr; }
  // An undefined node (Fields' slots) made a node of a tree, a JSON element or a host's
  // tree in place: nothing to release, and no node made and moved for each field found.
  void Become(const YamlTree* tree, int32_t index) {
    kind_ = Kind::kTree;
    tree_ = tree;
    index_ = index;
  }
  void Become(simdjson::dom::element e) {
    kind_ = Kind::kJson;
    json_ = e;
  }
  void Become(const HostTree* host, HostTree::Node n) {
    kind_ = Kind::kHost;
    host_kind_ = host->kind(n);
    host_node_ = n;
    host_ = host;
  }
  Kind kind_ = Kind::kAbsent;
  HostTree::Kind host_kind_ = HostTree::Kind::kNull;  // a host node's
  int32_t index_ = 0;  // in tree_
  simdjson::dom::element json_;
  union {
    const Value* value_ = nullptr;
    HostTree::Node host_node_;  // in host_
  };
  union {
    const YamlTree* tree_ = nullptr;
    const HostTree* host_;
  };
  std::shared_ptr<const YAML::Node> yaml_;
};

template <size_t N>
std::array<DocNode, N> DocNode::Fields(const absl::string_view (&keys)[N]) const {
  std::array<DocNode, N> out;
  auto slot = [&](absl::string_view key) -> DocNode* {
    for (size_t i = 0; i < N; ++i) {
      // The first byte first: most keys differ there, and memcmp is a call.
      if (key.size() == keys[i].size() && (key.empty() || key[0] == keys[i][0]) && key == keys[i]) {
        return out[i].IsDefined() ? nullptr : &out[i];
      }
    }
    return nullptr;
  };
  if (const YamlTree::Node* t = tree_node(); t != nullptr && t->kind == YamlTree::Kind::kMap) {
    for (uint32_t k = 0; k < t->size; ++k) {
      if (DocNode* to = slot(tree_->key(*t, k))) to->Become(tree_, tree_->value(*t, k));
    }
  } else if (const YAML::Node* y = yaml_node(); y != nullptr && y->IsMap()) {
    for (const auto& kv : *y) {
      if (DocNode* to = kv.first.IsScalar() ? slot(kv.first.Scalar()) : nullptr) *to = DocNode(kv.second);
    }
  } else if (simdjson::dom::object obj; json_node() != nullptr && json_node()->get(obj) == simdjson::SUCCESS) {
    for (simdjson::dom::key_value_pair kv : obj) {
      if (DocNode* to = slot(absl::string_view(kv.key.data(), kv.key.size()))) to->Become(kv.value);
    }
  } else if (const Value* v = value_node(); v != nullptr && v->is_map()) {
    for (const auto& [key, child] : v->entries()) {
      if (DocNode* to = slot(key)) *to = DocNode(&child);
    }
  } else if (const HostTree* h = host(); h != nullptr) {
    size_t cursor = 0;
    absl::string_view key;
    HostTree::Node child = nullptr;
    while (h->next_entry(host_node_, &cursor, &key, &child)) {
      if (DocNode* to = slot(key)) to->Become(h, child);
    }
  }
  return out;
}

template <typename F>
void DocNode::ForEachEntry(F&& f) const {
  if (const YamlTree::Node* t = tree_node(); t != nullptr && t->kind == YamlTree::Kind::kMap) {
    for (uint32_t k = 0; k < t->size; ++k) {
      f(std::string(tree_->key(*t, k)), DocNode(tree_, tree_->value(*t, k)));
    }
  } else if (const YAML::Node* y = yaml_node(); y != nullptr && y->IsMap()) {
    for (const auto& kv : *y) f(kv.first.IsScalar() ? kv.first.Scalar() : std::string(), DocNode(kv.second));
  } else if (simdjson::dom::object obj; json_node() != nullptr && json_node()->get(obj) == simdjson::SUCCESS) {
    for (simdjson::dom::key_value_pair kv : obj) f(std::string(kv.key), DocNode(kv.value));
  } else if (const Value* v = value_node(); v != nullptr && v->is_map()) {
    for (const auto& [key, child] : v->entries()) f(key, DocNode(&child));
  } else if (const HostTree* h = host(); h != nullptr) {
    size_t cursor = 0;
    absl::string_view key;
    HostTree::Node child = nullptr;
    while (h->next_entry(host_node_, &cursor, &key, &child)) f(std::string(key), DocNode(h, child));
  }
}

template <typename F>
void DocNode::ForEachItem(F&& f) const {
  if (const YamlTree::Node* t = tree_node(); t != nullptr && t->kind == YamlTree::Kind::kList) {
    for (uint32_t k = 0; k < t->size; ++k) f(DocNode(tree_, tree_->link(*t, k)));
  } else if (const YAML::Node* y = yaml_node(); y != nullptr && y->IsSequence()) {
    for (const auto& item : *y) f(DocNode(item));
  } else if (simdjson::dom::array arr; json_node() != nullptr && json_node()->get(arr) == simdjson::SUCCESS) {
    for (simdjson::dom::element item : arr) f(DocNode(item));
  } else if (const Value* v = value_node(); v != nullptr && v->is_list()) {
    for (const Value& item : v->items()) f(DocNode(&item));
  } else if (const HostTree* h = host(); h != nullptr && host_kind_ == HostTree::Kind::kList) {
    const size_t n = h->size(host_node_);
    for (size_t i = 0; i < n; ++i) f(DocNode(h, h->item(host_node_, i)));
  }
}

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_DOC_NODE_H_
