// YAML text for what the model prints itself (the scheduler configuration): scalars and
// keys written so that a YAML reader gives back the very text, plain where that is safe
// and double-quoted with escapes otherwise, and Value trees as block YAML.
#ifndef VCSCHED_SRC_MODEL_YAML_TEXT_H_
#define VCSCHED_SRC_MODEL_YAML_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "vcsched/value.h"

namespace vcsched::model_internal {

// `s` double-quoted, with a backslash escape for quotes, backslashes, control characters
// and the characters a YAML 1.1 reader takes as line breaks or drops (U+0085, U+2028,
// U+2029, U+FEFF).
std::string YamlDoubleQuoted(absl::string_view s);

// `s` as a block-context value: plain when a reader takes it back as the same plain text,
// double-quoted otherwise.
std::string YamlScalar(absl::string_view s);

// Appends `map`'s entries at `indent` spaces as a block mapping (keys quoted where they
// must be, quoted scalars kept quoted, empty maps and lists as {} and []).
void AppendYamlMap(const Value& map, int indent, std::string* out);

}  // namespace vcsched::model_internal

#endif  // VCSCHED_SRC_MODEL_YAML_TEXT_H_
