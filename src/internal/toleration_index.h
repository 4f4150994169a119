// Taint toleration in time independent of the number of tolerations: a pod with
// thousands of tolerations checked against a node with thousands of taints costs the
// taints, not their product.
#ifndef VCSCHED_SRC_INTERNAL_TOLERATION_INDEX_H_
#define VCSCHED_SRC_INTERNAL_TOLERATION_INDEX_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "vcsched/objects.h"

namespace vcsched::internal {

class TolerationIndex {
 public:
  TolerationIndex() = default;
  // Indexes `tolerations` (kept by pointer: they must outlive the index).
  explicit TolerationIndex(const std::vector<Toleration>* tolerations);
  // Kubernetes' Toleration.ToleratesTaint over the list: true when any toleration
  // tolerates `taint`.
  bool Tolerates(const Taint& taint) const;

 private:
  // Effects as bits; kAnyEffect is a toleration with no effect (it matches all).
  static constexpr uint8_t kAnyEffect = 1 << 3;
  static uint8_t EffectBit(const std::string& effect);
  bool Matches(uint8_t mask, const std::string& effect) const;

  const std::vector<Toleration>* list_ = nullptr;
  bool indexed_ = false;                     // short lists are scanned instead
  uint8_t exists_any_key_ = 0;               // Exists with no key: effect bits
  absl::flat_hash_map<std::string, uint8_t> exists_by_key_;
  // Equal: by key and value; the empty key (which matches any key) by value alone.
  absl::flat_hash_map<std::pair<std::string, std::string>, uint8_t> equal_;
  absl::flat_hash_map<std::string, uint8_t> equal_any_key_;
  std::vector<const Toleration*> odd_effects_;  // effects outside the three Kubernetes has
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_INTERNAL_TOLERATION_INDEX_H_
