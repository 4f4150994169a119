// Conversion between YAML trees (yaml-cpp's and YamlTree) and the library's Value trees.
#ifndef VCSCHED_SRC_IO_VALUE_YAML_H_
#define VCSCHED_SRC_IO_VALUE_YAML_H_

#include <yaml-cpp/yaml.h>

#include "src/io/expansion_limits.h"
#include "src/io/yaml_tree.h"
#include "vcsched/value.h"

namespace vcsched::io_internal {

// `budget` bounds the nodes visited (aliases can make a small document huge) and
// kMaxValueDepth the nesting (an anchor aliased inside itself makes a cycle); false when
// either ran out.
inline constexpr int kMaxValueDepth = 200;
bool ToValue(const YAML::Node& node, Value* out, int64_t* budget, int depth = 0);
// The same for a node of a YamlTree, which has no cycle and whose depth its parse bounded.
bool ToValue(const YamlTree& tree, int32_t index, Value* out, int64_t* budget);
YAML::Node ToYamlNode(const Value& value);
void EmitValue(YAML::Emitter& out, const Value& value);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_VALUE_YAML_H_
