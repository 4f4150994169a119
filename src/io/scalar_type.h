// How Kubernetes' decoders type a scalar, so that a string field given a number or a
// boolean is refused as the API server refuses it. kubectl turns YAML into JSON with
// sigs.k8s.io/yaml, which resolves plain scalars by YAML 1.1 (go-yaml v2's resolve.go):
// an unquoted `y`, `no`, `on` or `off` is a boolean and `1.5` or `0x1F` a number, and the
// API server's JSON decoder then refuses either where the field is a string.
#ifndef VCSCHED_SRC_IO_SCALAR_TYPE_H_
#define VCSCHED_SRC_IO_SCALAR_TYPE_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace vcsched::io_internal {

enum class ScalarType : uint8_t { kString, kBool, kNumber, kNull };

// The type YAML 1.1 gives a plain (unquoted, untagged) scalar with this text. Dates and
// times resolve to strings, as they reach JSON as text.
ScalarType PlainYamlScalarType(absl::string_view text);

// "the boolean", "the number" (for messages); "" for a string or null.
absl::string_view ScalarTypeNoun(ScalarType type);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_SCALAR_TYPE_H_
