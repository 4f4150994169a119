// What Kubernetes' YAML decoder does and yaml-cpp does not: merge keys (`<<: *base`,
// `<<: [*a, *b]`) are expanded, and a key repeated in one mapping is an error instead
// of a silent first-value-wins.
#ifndef VCSCHED_SRC_IO_YAML_NORMALIZE_H_
#define VCSCHED_SRC_IO_YAML_NORMALIZE_H_

#include <cstdint>
#include <string>

#include <yaml-cpp/yaml.h>

#include "src/io/expansion_limits.h"

namespace vcsched::io_internal {

// Rewrites `doc` in place: every mapping with a `<<` key gets the merged entries
// (its own keys win, then the merged mappings in order). Returns an empty string, or an
// error with its place ("line 12:5: duplicate key \"cpu\" (first at line 12:3)")
// counted from `line_offset`.
std::string NormalizeYamlDocument(YAML::Node& doc, int line_offset);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_YAML_NORMALIZE_H_
