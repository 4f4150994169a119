// A YAML document tree read with libyaml's event parser: flat arrays of nodes, child
// links and scalar text, several times faster to build and to read than yaml-cpp's
// node graph, which the loader keeps only for the few kinds whose readers are written
// on it (configurations, expectations, Volcano Jobs).
//
// What Kubernetes' YAML decoder does is done while the tree is built: merge keys
// (`<<: *base`, `<<: [*a, *b]`) are expanded, a key repeated in one mapping and a key
// that is not a scalar are errors. An alias is a link to its anchor's node, not a copy;
// the nodes aliases stand for are counted against kMaxDocumentNodes, so that no reader
// walking the tree can be made to walk billions of them. An anchor counts from the end
// of its node: an alias inside the node it names is an error, so the tree has no cycle.
#ifndef VCSCHED_SRC_IO_YAML_TREE_H_
#define VCSCHED_SRC_IO_YAML_TREE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace vcsched::io_internal {

class YamlTree {
 public:
  YamlTree();
  ~YamlTree();
  YamlTree(YamlTree&&) noexcept;
  YamlTree& operator=(YamlTree&&) noexcept;

  enum class Kind : uint8_t { kNull, kScalar, kMap, kList };
  struct Node {
    Kind kind = Kind::kNull;
    // Written quoted or as a block scalar, or tagged !!str: a string whatever its text.
    bool quoted = false;
    // A plain, untagged `<<` (or one tagged !!merge): a key that merges mappings.
    bool merge_key = false;
    int32_t line = 0;    // 0-based, in the parsed text
    int32_t column = 0;  // 0-based
    // A scalar: its text in the tree's text store. A collection: its children in the
    // tree's links (a map's as key, value, key, value, ...); `size` counts entries.
    uint32_t begin = 0;
    uint32_t size = 0;
  };

  // Why Parse failed: the text is not YAML (kSyntax), or it is, but holds what a
  // manifest may not (kContent: a repeated key, a merge key on a scalar, too many nodes
  // through aliases).
  enum class Failure : uint8_t { kNone, kSyntax, kContent };

  // Which reader reads the text: the block scanner (yaml_block_scanner.h) when it can,
  // else libyaml; or libyaml alone (the trees are the same: tests compare them).
  enum class Reader : uint8_t { kAny, kLibyaml };

  // Reads every document of `text`, replacing what the tree held (its storage is reused).
  // On failure, *error says where ("line 3:7: ...", lines counted from `line_offset` + 1)
  // and the tree holds the documents before the failing one.
  Failure Parse(absl::string_view text, int line_offset, int max_depth, std::string* error,
                Reader reader = Reader::kAny);
  // Whether the last Parse was the block scanner's.
  bool last_parse_fast() const { return last_parse_fast_; }

  // The root node of each document, in order.
  const std::vector<int32_t>& documents() const { return documents_; }
  const Node& node(int32_t i) const { return nodes_[static_cast<size_t>(i)]; }
  absl::string_view text(const Node& n) const { return absl::string_view(text_.data() + n.begin, n.size); }
  // The k-th link of a collection: item k of a list; for a map, 2k is entry k's key and
  // 2k + 1 its value.
  int32_t link(const Node& n, uint32_t k) const { return links_[n.begin + k]; }
  // Entry k of map node `n`: its key's text and its value's node.
  absl::string_view key(const Node& n, uint32_t k) const { return text(node(link(n, 2 * k))); }
  int32_t value(const Node& n, uint32_t k) const { return link(n, 2 * k + 1); }
  // The text last parsed (for the readers that re-read a document with yaml-cpp).
  absl::string_view source() const { return source_; }

 private:
  friend class YamlTreeBuilder;
  void Clear();  // the documents, keeping the storage
  struct Scratch;  // the builder's working storage, kept for the next parse
  std::unique_ptr<Scratch> scratch_;
  std::vector<Node> nodes_;
  std::vector<int32_t> links_;
  std::string text_;
  std::vector<int32_t> documents_;
  absl::string_view source_;
  bool last_parse_fast_ = false;
};

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_YAML_TREE_H_
