#include "tests/testing/yaml_tree_compare.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "src/io/yaml_tree.h"

namespace vcsched::testing {
namespace {

using io_internal::YamlTree;

// How the subtrees at a (in tree x) and b (in tree y) differ, or "".
std::string Diff(const YamlTree& x, int32_t a, const YamlTree& y, int32_t b, int depth) {
  const YamlTree::Node& n = x.node(a);
  const YamlTree::Node& m = y.node(b);
  const std::string at = absl::StrCat("node at line ", m.line + 1, ":", m.column + 1);
  if (n.kind != m.kind) return absl::StrCat(at, ": kind ", static_cast<int>(n.kind), " vs ", static_cast<int>(m.kind));
  if (n.line != m.line || n.column != m.column) {
    return absl::StrCat(at, ": placed at ", n.line + 1, ":", n.column + 1, " by the scanner");
  }
  if (n.quoted != m.quoted || n.merge_key != m.merge_key) return absl::StrCat(at, ": quoted or merge flag differs");
  if (n.size != m.size) return absl::StrCat(at, ": size ", n.size, " vs ", m.size);
  if (n.kind == YamlTree::Kind::kScalar) {
    if (x.text(n) != y.text(m)) return absl::StrCat(at, ": text \"", x.text(n), "\" vs \"", y.text(m), "\"");
    return "";
  }
  if (n.kind == YamlTree::Kind::kNull || depth > 1000) return "";
  const uint32_t links = n.kind == YamlTree::Kind::kMap ? 2 * n.size : n.size;
  for (uint32_t k = 0; k < links; ++k) {
    if (std::string d = Diff(x, x.link(n, k), y, y.link(m, k), depth + 1); !d.empty()) return d;
  }
  return "";
}

}  // namespace

ReaderComparison CompareYamlReaders(absl::string_view text, int max_depth) {
  YamlTree fast, slow;
  std::string fast_error, slow_error;
  const YamlTree::Failure f = fast.Parse(text, 0, max_depth, &fast_error, YamlTree::Reader::kAny);
  ReaderComparison out;
  out.fast = fast.last_parse_fast();
  const YamlTree::Failure s = slow.Parse(text, 0, max_depth, &slow_error, YamlTree::Reader::kLibyaml);
  if (f != s || fast_error != slow_error) {
    out.difference = absl::StrCat("failure ", static_cast<int>(f), " \"", fast_error, "\" vs ", static_cast<int>(s),
                                  " \"", slow_error, "\"");
    return out;
  }
  if (fast.documents().size() != slow.documents().size()) {
    out.difference = absl::StrCat(fast.documents().size(), " documents vs ", slow.documents().size());
    return out;
  }
  for (size_t i = 0; i < fast.documents().size() && out.difference.empty(); ++i) {
    out.difference = Diff(fast, fast.documents()[i], slow, slow.documents()[i], 0);
    if (!out.difference.empty()) out.difference = absl::StrCat("document ", i + 1, ": ", out.difference);
  }
  return out;
}

}  // namespace vcsched::testing
