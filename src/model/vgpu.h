// HAMi's virtual GPUs as Volcano's deviceshare reads them (deviceshare.VGPUEnable; Volcano's
// api/devices/nvidia/vgpu, hami-core sharing): the cards a node registers in its
// volcano.sh/node-vgpu-register annotation, what a pod's containers ask, and the
// volcano.sh/vgpu-ids-new text that records which cards a pod was given.
#ifndef VCSCHED_SRC_MODEL_VGPU_H_
#define VCSCHED_SRC_MODEL_VGPU_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vcsched/objects.h"

namespace vcsched::internal {

inline constexpr char kVgpuRegisterAnnotation[] = "volcano.sh/node-vgpu-register";
inline constexpr char kVgpuNumberResource[] = "volcano.sh/vgpu-number";
inline constexpr char kVgpuMemoryResource[] = "volcano.sh/vgpu-memory";
inline constexpr char kVgpuCoresResource[] = "volcano.sh/vgpu-cores";
inline constexpr char kVgpuIdsAnnotation[] = "volcano.sh/vgpu-ids-new";
inline constexpr char kVgpuToAllocateAnnotation[] = "volcano.sh/devices-to-allocate";
inline constexpr char kVgpuNodeAnnotation[] = "volcano.sh/vgpu-node";
inline constexpr char kVgpuTimeAnnotation[] = "volcano.sh/vgpu-time";
inline constexpr char kVgpuBindTimeAnnotation[] = "volcano.sh/bind-time";
inline constexpr char kVgpuBindPhaseAnnotation[] = "volcano.sh/bind-phase";
inline constexpr char kVgpuModeAnnotation[] = "volcano.sh/vgpu-mode";
inline constexpr char kVgpuGroupPolicyAnnotation[] = "volcano.sh/vgpu-podgroup-policy";
inline constexpr char kVgpuUseUuidAnnotation[] = "volcano.sh/vgpu-use-gpuuuid";
inline constexpr char kVgpuNoUseUuidAnnotation[] = "volcano.sh/vgpu-nouse-gpuuuid";
inline constexpr char kVgpuUseTypeAnnotation[] = "nvidia.com/use-gputype";
inline constexpr char kVgpuNoUseTypeAnnotation[] = "nvidia.com/nouse-gputype";

// A registered card: "UUID,count,memory,type,health,mode" at position `id` of the
// annotation's ':'-separated list. `number` is how many pods may share it.
struct VgpuCard {
  int64_t id = 0;
  std::string uuid;
  int64_t number = 0;
  int64_t memory = 0;  // MiB
  std::string type;
};

// The node's cards, by id; nullopt when it offers none: no register annotation, a
// volcano.sh/vgpu-number, -cores or -memory allocatable that is absent or zero, an entry
// of fewer than six fields, or no entry at all. Every node shares in hami-core mode
// (Volcano falls back to it: MIG needs geometries from a ConfigMap vcsched does not read).
std::optional<std::vector<VgpuCard>> NodeVgpuCards(const NodeSpec& node);

// Whether a container limits volcano.sh/vgpu-memory or volcano.sh/vgpu-number.
bool PodAsksVgpu(const PodSpec& pod);

// One container's ask (Volcano's ContainerDeviceRequest): `cards` cards (its vgpu-number,
// else one), each with `memory` MiB, or `memory_percent` of the card when no memory is
// asked (100), and `cores` percent of its compute.
struct VgpuRequest {
  int64_t cards = 0;
  int64_t memory = 0;
  int64_t memory_percent = 101;  // 101: none, `memory` applies
  int64_t cores = 0;
};
std::vector<VgpuRequest> PodVgpuRequests(const PodSpec& pod);

// One card a container was given: "UUID,NVIDIA,memory,cores".
struct VgpuGrant {
  std::string uuid;
  std::string type;
  int64_t memory = 0;
  int64_t cores = 0;
};
// volcano.sh/vgpu-ids-new: containers separated by ';', cards by ':' (each ending in one).
std::string EncodeVgpuGrants(const std::vector<std::vector<VgpuGrant>>& containers);
std::vector<std::vector<VgpuGrant>> DecodeVgpuGrants(const std::string& text);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_VGPU_H_
