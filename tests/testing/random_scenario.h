// Seeded random clusters for property tests and the session fuzzer: small, varied
// (taints, selectors, gangs, elastic gangs, running pods, priorities, queues with
// weights, capability, guarantee and hierarchy; racks and a spine of HyperNodes with
// jobs' network topology and sub-groups), always valid input.
#ifndef VCSCHED_TESTS_TESTING_RANDOM_SCENARIO_H_
#define VCSCHED_TESTS_TESTING_RANDOM_SCENARIO_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vcsched/config.h"
#include "vcsched/decisions.h"
#include "vcsched/objects.h"
#include "vcsched/snapshot.h"

namespace vcsched::testing {

// A source of choices: a seeded generator, or fuzzer bytes (zeros once exhausted).
class Choices {
 public:
  explicit Choices(uint64_t seed) : state_(seed), data_(nullptr), size_(0) {}
  Choices(const uint8_t* data, size_t size) : state_(0), data_(data), size_(size) {}
  // Uniform in [0, n).
  uint32_t Below(uint32_t n);
  bool Chance(uint32_t percent) { return Below(100) < percent; }

 private:
  uint64_t state_;
  const uint8_t* data_;
  size_t size_;
};

struct RandomScenario {
  std::vector<NodeSpec> nodes;
  std::vector<QueueSpec> queues;
  std::vector<PodGroupSpec> pod_groups;
  std::vector<PodSpec> pods;
  std::vector<PriorityClassSpec> priority_classes;
  std::vector<HyperNodeSpec> hyper_nodes;
  SchedulerConfig config;

  // Adds everything to a builder, in the given order or shuffled by `shuffle_seed`.
  Snapshot Build(uint64_t shuffle_seed = 0, const SnapshotOptions& options = {}) const;
};

RandomScenario MakeRandomScenario(Choices& c);

// Adds resources no node offers and no queue names (several names, so that folding
// them adds amounts up) to some pods and some PodGroups' minResources.
void AddUnofferedResources(RandomScenario& sc, Choices& c);

// The decisions' lines without their texts: binds, evictions, pipelined tasks and phase
// changes (texts name the folded resource where the other run names each).
std::string DecisionLines(const Decisions& d);

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_TESTING_RANDOM_SCENARIO_H_
