// Volcano's shared GPUs (deviceshare with deviceshare.GPUSharingEnable or
// deviceshare.GPUNumberEnable; Volcano's api/devices/nvidia/gpushare): how a node's cards
// and a pod's card requests are read from the objects. The plugin (src/plugins/deviceshare.cc)
// keeps the cards' use in a session; explain reads it to name each card's free memory.
#ifndef VCSCHED_SRC_MODEL_GPU_SHARE_H_
#define VCSCHED_SRC_MODEL_GPU_SHARE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vcsched/objects.h"

namespace vcsched::internal {

inline constexpr char kGpuMemoryResource[] = "volcano.sh/gpu-memory";
inline constexpr char kGpuNumberResource[] = "volcano.sh/gpu-number";
inline constexpr char kGpuIndexAnnotation[] = "volcano.sh/gpu-index";
inline constexpr char kGpuUnhealthyAnnotation[] = "volcano.sh/gpu-unhealthy-ids";

// One card: its index on the node and its memory (the node's volcano.sh/gpu-memory
// capacity divided evenly, rounded down, over its volcano.sh/gpu-number cards).
struct GpuCard {
  int64_t id = 0;
  int64_t memory = 0;
};

// The node's cards in index order, without the ones volcano.sh/gpu-unhealthy-ids names;
// nullopt when the node does not offer shared GPUs (no gpu-memory capacity, or a
// gpu-number of zero or none).
std::optional<std::vector<GpuCard>> NodeGpuCards(const NodeSpec& node);

// What a pod asks, from its containers' limits: the sum over containers or the largest
// init container's, whichever is more (whole units, rounded up).
int64_t PodGpuMemory(const PodSpec& pod);
int64_t PodGpuNumber(const PodSpec& pod);
// The same read from the requests (the resources the session's shapes hold).
int64_t PodGpuMemoryRequested(const PodSpec& pod);
int64_t PodGpuNumberRequested(const PodSpec& pod);

// The card indices of the pod's volcano.sh/gpu-index annotation ("0,2"); empty when it
// is absent or any part is not an integer (Volcano then counts the pod on no card).
std::vector<int64_t> PodGpuIndex(const PodSpec& pod);
// "0,2": the annotation's value for these cards.
std::string GpuIndexText(const std::vector<int64_t>& ids);
// An amount of GPU memory for messages: "8Gi", "512Mi", or the plain number.
std::string GpuMemoryText(int64_t amount);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_GPU_SHARE_H_
