#include "src/model/gpu_share.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "src/model/go_parse.h"

namespace vcsched::internal {
namespace {

// A quantity's Value(): stored milli-units rounded up to whole ones.
int64_t WholeUnits(int64_t milli) {
  return milli / 1000 + (milli % 1000 > 0 ? 1 : 0);
}

int64_t Amount(const ResourceList& list, const char* name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : WholeUnits(it->second);
}

// Volcano's rule for both resources: containers add up, init containers run one at a
// time, and the pod asks the larger.
template <typename Of>
int64_t PodAmount(const PodSpec& pod, Of of) {
  int64_t sum = 0;
  for (const Container& c : pod.containers) sum = std::min(sum + std::max<int64_t>(of(c), 0), int64_t{1} << 62);
  int64_t init = 0;
  for (const Container& c : pod.init_containers) init = std::max(init, of(c));
  return std::max(sum, init);
}

}  // namespace

std::optional<std::vector<GpuCard>> NodeGpuCards(const NodeSpec& node) {
  auto memory = node.capacity.find(kGpuMemoryResource);
  auto number = node.capacity.find(kGpuNumberResource);
  if (memory == node.capacity.end() || number == node.capacity.end()) return std::nullopt;
  const int64_t cards = WholeUnits(number->second);
  if (cards == 0) return std::nullopt;
  std::vector<GpuCard> out;
  if (cards < 0) return out;  // Volcano keeps the device, with no card
  std::vector<int64_t> unhealthy;
  if (auto it = node.annotations.find(kGpuUnhealthyAnnotation); it != node.annotations.end()) {
    for (absl::string_view part : absl::StrSplit(it->second, ',')) {
      if (std::optional<int64_t> id = GoAtoi(part)) unhealthy.push_back(*id);
    }
  }
  const int64_t per_card = std::max<int64_t>(WholeUnits(memory->second) / cards, 0);
  const int64_t count = std::min<int64_t>(cards, 1 << 16);  // a bound on hostile input
  for (int64_t id = 0; id < count; ++id) {
    if (std::find(unhealthy.begin(), unhealthy.end(), id) != unhealthy.end()) continue;
    out.push_back({id, per_card});
  }
  return out;
}

int64_t PodGpuMemory(const PodSpec& pod) {
  return PodAmount(pod, [](const Container& c) { return Amount(c.limits, kGpuMemoryResource); });
}
int64_t PodGpuNumber(const PodSpec& pod) {
  return PodAmount(pod, [](const Container& c) { return Amount(c.limits, kGpuNumberResource); });
}
int64_t PodGpuMemoryRequested(const PodSpec& pod) {
  return PodAmount(pod, [](const Container& c) { return Amount(c.requests, kGpuMemoryResource); });
}
int64_t PodGpuNumberRequested(const PodSpec& pod) {
  return PodAmount(pod, [](const Container& c) { return Amount(c.requests, kGpuNumberResource); });
}

std::vector<int64_t> PodGpuIndex(const PodSpec& pod) {
  auto it = pod.annotations.find(kGpuIndexAnnotation);
  if (it == pod.annotations.end()) return {};
  std::vector<int64_t> ids;
  for (absl::string_view part : absl::StrSplit(it->second, ',')) {
    std::optional<int64_t> id = GoAtoi(part);
    if (!id) return {};
    ids.push_back(*id);
  }
  return ids;
}

std::string GpuIndexText(const std::vector<int64_t>& ids) { return absl::StrJoin(ids, ","); }

std::string GpuMemoryText(int64_t amount) {
  constexpr int64_t kMi = int64_t{1} << 20;
  constexpr int64_t kGi = int64_t{1} << 30;
  if (amount >= kGi && amount % kGi == 0) return absl::StrCat(amount / kGi, "Gi");
  if (amount >= kMi && amount % kMi == 0) return absl::StrCat(amount / kMi, "Mi");
  return absl::StrCat(amount);
}

}  // namespace vcsched::internal
