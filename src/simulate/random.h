// The simulator's random draws: splitmix64 streams and samplers written here, never
// std::*_distribution (whose results differ between standard libraries), so that the
// same seed gives the same workload everywhere.
#ifndef VCSCHED_SRC_SIMULATE_RANDOM_H_
#define VCSCHED_SRC_SIMULATE_RANDOM_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "vcsched/simulate.h"

namespace vcsched::simulate_internal {

// A stream of 64-bit draws (splitmix64).
class RandomStream {
 public:
  explicit RandomStream(uint64_t seed) : state_(seed) {}
  // A stream of its own for `name` under `seed`: draws of one template never shift
  // those of another.
  static RandomStream For(uint64_t seed, absl::string_view name);
  uint64_t Next();
  // Uniform in [0, 1), 53 bits.
  double Uniform();

 private:
  uint64_t state_;
};

// One draw of `d`, in milliseconds (≥ 0, at most 100 years).
int64_t Draw(const DurationDistribution& d, RandomStream& rng);
// An exponential gap with the given mean, in milliseconds.
int64_t ExponentialMillis(double mean_ms, RandomStream& rng);

}  // namespace vcsched::simulate_internal

#endif  // VCSCHED_SRC_SIMULATE_RANDOM_H_
