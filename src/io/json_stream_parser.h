// A simdjson parser made ready for parse_many over a whole text, as every JSON-stream
// reader here sets it up.
#ifndef VCSCHED_SRC_IO_JSON_STREAM_PARSER_H_
#define VCSCHED_SRC_IO_JSON_STREAM_PARSER_H_

#include <algorithm>
#include <cstddef>

#include <simdjson.h>

namespace vcsched::io_internal {

// The batch to give parse_many over `text_size` bytes: as large as the text (parse_many
// needs one as large as its largest value), so a small input does not pay for a megabyte
// of buffers.
inline size_t StreamBatch(size_t text_size) { return std::max<size_t>(text_size, size_t{1} << 12); }

// Allocates `parser` for a stream of `text_size` bytes nested at most `max_depth` deep
// and returns StreamBatch(text_size), or 0 when memory runs out. The library starts no
// threads of its own.
inline size_t PrepareStreamParser(simdjson::dom::parser& parser, size_t text_size, size_t max_depth) {
#ifdef SIMDJSON_THREADS_ENABLED
  parser.threaded = false;
#endif
  const size_t batch = StreamBatch(text_size);
  return parser.allocate(batch, max_depth + 1) == simdjson::SUCCESS ? batch : 0;
}

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_JSON_STREAM_PARSER_H_
