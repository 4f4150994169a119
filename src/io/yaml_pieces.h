// The pieces of a YAML stream (its documents, cut at their markers) parsed into trees,
// on as many threads as the host allows, and handed to a reader one at a time in
// stream order, on the caller's thread: what is read, and every message, is the same
// whatever the number of threads.
#ifndef VCSCHED_SRC_IO_YAML_PIECES_H_
#define VCSCHED_SRC_IO_YAML_PIECES_H_

#include <cstddef>
#include <functional>
#include <string>

#include "absl/types/span.h"
#include "src/io/yaml_reader.h"
#include "src/io/yaml_tree.h"

namespace vcsched::io_internal {

struct ParsedPiece {
  YamlTree tree;
  YamlTree::Failure failure = YamlTree::Failure::kNone;
  std::string error;  // when failure is not kNone
};

// Parses each piece (positions counted from its first line) and calls read(piece) in
// order. With `threads` > 1, that many threads parse (the caller's one of them) up to a
// bounded number of pieces ahead of the reader; trees are reused, so memory stays that
// of a few pieces. Returns when every piece was read, or rethrows what `read` threw.
void ParsePiecesInOrder(absl::Span<const DocumentText> pieces, int max_depth, int threads,
                        const std::function<void(const ParsedPiece&)>& read);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_YAML_PIECES_H_
