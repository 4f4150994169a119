// The Queue annotation volcano.sh/nodegroup-resource-limits (the nodegroup plugin): a
// JSON object of node group -> resource list, {"gpu-pool": {"cpu": "64", "memory": "256Gi"}}.
#ifndef VCSCHED_SRC_MODEL_NODE_GROUP_LIMITS_H_
#define VCSCHED_SRC_MODEL_NODE_GROUP_LIMITS_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace vcsched::internal {

inline constexpr absl::string_view kNodeGroupResourceLimitsAnnotation = "volcano.sh/nodegroup-resource-limits";

// Per group, each resource it names with its limit in stored units (a name the resource
// model does not track keeps its amount in thousandths). "pods" is kept with a limit of 0:
// Volcano's Resource counts pods apart from its scalars, so its limit reads as 0.
using NodeGroupLimits = std::map<std::string, std::vector<std::pair<std::string, int64_t>>>;

// What Go's json.Unmarshal into map[string]v1.ResourceList accepts: an object of objects
// (or null) of quantities as strings or numbers (or null, a zero quantity). Anything else
// is an error naming what was wrong.
absl::StatusOr<NodeGroupLimits> ParseNodeGroupLimits(absl::string_view json);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_NODE_GROUP_LIMITS_H_
