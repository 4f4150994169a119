// A fast reader for the YAML most manifests are written in (what `kubectl get -o yaml`
// and generators print, and what people write by hand): block mappings and sequences,
// one-line plain and quoted scalars and flow collections, comments. It hands a tree
// builder exactly the events, with the positions, that libyaml's parser would, and
// gives up on anything else (flow collections over several lines, anchors, tags, block
// and multi-line scalars, tabs, non-ASCII text...) and on anything malformed, so that
// libyaml reads those documents and reports their errors. Nothing it accepts is read
// differently: tests/io/yaml_block_scanner_test.cc and the yaml_fast_fuzz target
// compare its trees with libyaml's.
#ifndef VCSCHED_SRC_IO_YAML_BLOCK_SCANNER_H_
#define VCSCHED_SRC_IO_YAML_BLOCK_SCANNER_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace vcsched::io_internal {

// What receives a document's parse events (YamlTree's builder). Positions are 0-based.
// A method that returns false stops the scan (the builder refused the content).
class YamlEventSink {
 public:
  virtual ~YamlEventSink() = default;
  virtual void StartDocument() = 0;
  virtual void EndDocument() = 0;
  // An untagged scalar without anchor: `plain` unless written quoted.
  virtual bool Scalar(absl::string_view value, bool plain, int32_t line, int32_t column) = 0;
  virtual bool OpenCollection(bool map, int32_t line, int32_t column) = 0;
  virtual bool CloseCollection(bool map) = 0;
};

// Feeds `sink` the events of every document of `text`; false when some of the text is
// outside what this reader handles (the sink may have been fed part of it: start over).
bool ScanBlockYaml(absl::string_view text, YamlEventSink* sink);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_YAML_BLOCK_SCANNER_H_
