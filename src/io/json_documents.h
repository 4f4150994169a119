// The documents of a JSON stream as Values, for the readers that take manifests as
// Values (LoadManifests): numbered and read as the scenario loader reads them.
#ifndef VCSCHED_SRC_IO_JSON_DOCUMENTS_H_
#define VCSCHED_SRC_IO_JSON_DOCUMENTS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "vcsched/value.h"

namespace vcsched::io_internal {

// JSON text (`kubectl get -o json`): its first non-blank character opens an object or
// an array.
bool LooksLikeJson(absl::string_view text);

// One document of a JSON stream: its number, as the loader numbers them (each item of a
// top-level array is one; a null one is numbered and not read), and its value, or why
// it is not read.
struct JsonDocument {
  int number = 0;
  Value value;
  std::string error;  // empty when the value was read
};

// The documents of `text` when it is JSON values one after another; nullopt when it is
// not (a value that does not parse, nesting past the limit, an incomplete last value).
std::optional<std::vector<JsonDocument>> ReadJsonStream(absl::string_view text);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_JSON_DOCUMENTS_H_
