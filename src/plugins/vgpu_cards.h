// HAMi vGPU cards in a session (deviceshare with deviceshare.VGPUEnable, hami-core
// sharing): each card's count of pods, memory and compute in use, which pods hold them,
// and the search that fits a pod's containers onto cards (Volcano's
// checkNodeGPUSharingPredicateAndScore), with its unsigned arithmetic.
#ifndef VCSCHED_SRC_PLUGINS_VGPU_CARDS_H_
#define VCSCHED_SRC_PLUGINS_VGPU_CARDS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/model/vgpu.h"
#include "vcsched/session.h"

namespace vcsched::internal {

struct VgpuCardUse {
  VgpuCard card;
  uint64_t used_num = 0, used_mem = 0, used_core = 0;  // Go's uint: they wrap as Volcano's do
  struct Holder {
    uint64_t mem = 0, core = 0;
    std::string group;  // "namespace/podgroup", empty without one
  };
  std::map<TaskIndex, Holder> holders;  // Volcano's PodMap
};

// What a fit found: per asking container, the cards given; the policy's score.
struct VgpuFit {
  bool fit = false;
  std::string error;  // why not, as Volcano words it
  std::vector<std::vector<VgpuGrant>> grants;
  double score = 0;
};

class VgpuNode {
 public:
  VgpuNode(std::string name, const std::vector<VgpuCard>& cards);
  // Fits the pod's asks; `commit` keeps the counts it took (Volcano's Allocate), else the
  // node is left as it was (FilterNode works on a copy).
  VgpuFit Fit(const PodSpec& pod, const std::string& policy, bool commit);
  // A pod's cards as its volcano.sh/vgpu-ids-new names them (AddResource): counted
  // once per pod and card.
  void AddRunning(TaskIndex t, const PodSpec& pod, const std::vector<std::vector<VgpuGrant>>& grants);
  // Volcano's SubResource: what the pod's own annotation names, where it is held.
  void SubRunning(TaskIndex t, const std::vector<std::vector<VgpuGrant>>& grants);
  // A new placement's ledger (addToPodMap): every card whose UUID the grant contains.
  void Record(TaskIndex t, const PodSpec& pod, const std::vector<std::vector<VgpuGrant>>& grants);
  const std::vector<VgpuCardUse>& cards() const { return cards_; }

 private:
  VgpuCardUse* CardFor(const std::string& grant_uuid);
  std::vector<size_t> Order(const std::string& policy) const;  // the cards in the policy's order
  std::string name_;
  std::vector<VgpuCardUse> cards_;  // by id
};

// "namespace/podgroup" of a pod's group annotation, empty without one.
std::string VgpuGroupKey(const PodSpec& pod);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_VGPU_CARDS_H_
