#include "src/internal/toleration_index.h"

#include "src/model/k8s_match.h"

namespace vcsched::internal {
namespace {
// Below this many tolerations a scan beats hashing.
constexpr size_t kIndexFrom = 16;
}  // namespace

uint8_t TolerationIndex::EffectBit(const std::string& effect) {
  if (effect.empty()) return kAnyEffect;
  if (effect == "NoSchedule") return 1;
  if (effect == "PreferNoSchedule") return 2;
  if (effect == "NoExecute") return 4;
  return 0;
}

bool TolerationIndex::Matches(uint8_t mask, const std::string& effect) const {
  return (mask & kAnyEffect) || (mask & EffectBit(effect)) != 0;
}

TolerationIndex::TolerationIndex(const std::vector<Toleration>* tolerations) : list_(tolerations) {
  if (tolerations->size() < kIndexFrom) return;
  indexed_ = true;
  for (const Toleration& t : *tolerations) {
    const uint8_t bit = EffectBit(t.effect);
    if (bit == 0) {
      odd_effects_.push_back(&t);
    } else if (t.op == "Exists") {
      if (t.key.empty()) exists_any_key_ |= bit;
      else exists_by_key_[t.key] |= bit;
    } else if (t.op.empty() || t.op == "Equal") {
      if (t.key.empty()) equal_any_key_[t.value] |= bit;
      else equal_[{t.key, t.value}] |= bit;
    }
  }
}

bool TolerationIndex::Tolerates(const Taint& taint) const {
  if (list_ == nullptr) return false;
  if (!indexed_) return ToleratesTaint(*list_, taint);
  if (Matches(exists_any_key_, taint.effect)) return true;
  if (auto it = exists_by_key_.find(taint.key); it != exists_by_key_.end() && Matches(it->second, taint.effect)) {
    return true;
  }
  if (auto it = equal_.find(std::make_pair(taint.key, taint.value)); it != equal_.end() && Matches(it->second, taint.effect)) {
    return true;
  }
  if (auto it = equal_any_key_.find(taint.value); it != equal_any_key_.end() && Matches(it->second, taint.effect)) {
    return true;
  }
  for (const Toleration* t : odd_effects_) {
    if (t->effect == taint.effect && ToleratesTaint({*t}, taint)) return true;
  }
  return false;
}

}  // namespace vcsched::internal
