// Shared GPU cards over a run (cards.csv, cards.svg): after each session, each card's
// use as the cluster's pods say it (their volcano.sh/gpu-index annotations, which binds
// write), kept as a row whenever a card's use changed.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/model/gpu_share.h"
#include "src/simulate/simulator.h"

namespace vcsched::simulate_internal {

using internal::GpuCard;
using internal::NodeGpuCards;
using internal::PodGpuIndex;
using internal::PodGpuMemory;
using internal::PodGpuNumber;

void Simulator::SampleCards() {
  // (node, card) -> (memory, used, pods), every card of every node with cards.
  std::map<std::pair<std::string, int64_t>, std::pair<int64_t, std::pair<int64_t, int32_t>>> now;
  for (const auto& [name, node] : cluster_.nodes()) {
    if (std::optional<std::vector<GpuCard>> cards = NodeGpuCards(node)) {
      for (const GpuCard& c : *cards) now[{name, c.id}] = {c.memory, {0, 0}};
    }
  }
  if (now.empty()) return;  // no shared cards (nodes are few beside pods: asked every session)
  for (const auto& [key, spec] : cluster_.pods()) {
    const PodSpec& p = *spec;
    if (p.node_name.empty() || p.deleting || p.phase == "Succeeded" || p.phase == "Failed") continue;
    const int64_t memory = PodGpuMemory(p);
    if (memory <= 0 && PodGpuNumber(p) <= 0) continue;
    for (int64_t id : PodGpuIndex(p)) {
      auto it = now.find({p.node_name, id});
      if (it == now.end()) continue;
      it->second.second.first += memory;
      it->second.second.second += 1;
    }
  }
  const double t = static_cast<double>(now_ms_) / 1000;
  for (const auto& [card, use] : now) {
    auto last = card_last_.find(card);
    if (last != card_last_.end() && last->second == use.second) continue;
    card_last_[card] = use.second;
    result_.cards.push_back({t, card.first, card.second, use.first, use.second.first, use.second.second});
  }
}

}  // namespace vcsched::simulate_internal
