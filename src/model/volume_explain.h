// Why a node fails a pod's volumes, in words for explain: which claim, which volume,
// which label or class. Kubernetes' filters give only their fixed messages.
#ifndef VCSCHED_SRC_MODEL_VOLUME_EXPLAIN_H_
#define VCSCHED_SRC_MODEL_VOLUME_EXPLAIN_H_

#include <string>

#include "absl/strings/string_view.h"
#include "vcsched/objects.h"
#include "vcsched/storage.h"

namespace vcsched::internal {

// `text` is one of the VolumeZone / VolumeBinding messages; the answer names the cause on
// `node` as the state shows it (volumes taken earlier in the session are not seen), or
// is `text` itself when no cause is found.
std::string VolumeCause(const StorageObjects& storage, const PodSpec& pod, const NodeSpec& node, absl::string_view text);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_VOLUME_EXPLAIN_H_
