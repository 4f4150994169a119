#include "src/simulate/random.h"

#include <algorithm>
#include <cmath>

namespace vcsched::simulate_internal {
namespace {

constexpr double kMaxMillis = 100.0 * 366 * 24 * 3600 * 1000;

int64_t ClampMillis(double ms) {
  if (!(ms > 0)) return 0;  // also NaN
  return static_cast<int64_t>(std::llround(std::min(ms, kMaxMillis)));
}

}  // namespace

RandomStream RandomStream::For(uint64_t seed, absl::string_view name) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a of the name, mixed with the seed
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  RandomStream s(seed ^ h);
  s.Next();
  return s;
}

uint64_t RandomStream::Next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double RandomStream::Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

int64_t ExponentialMillis(double mean_ms, RandomStream& rng) {
  return ClampMillis(-mean_ms * std::log1p(-rng.Uniform()));
}

int64_t Draw(const DurationDistribution& d, RandomStream& rng) {
  using K = DurationDistribution::Kind;
  switch (d.kind) {
    case K::kFixed:
      return d.a_ms;
    case K::kUniform:
      return ClampMillis(static_cast<double>(d.a_ms) + rng.Uniform() * static_cast<double>(d.b_ms - d.a_ms));
    case K::kExponential:
      return ExponentialMillis(static_cast<double>(d.a_ms), rng);
    case K::kLognormal: {
      // Box–Muller: one standard normal from two uniforms (the first kept off zero).
      const double u1 = 1.0 - rng.Uniform();
      const double u2 = rng.Uniform();
      const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
      return ClampMillis(static_cast<double>(d.a_ms) * std::exp(d.sigma * z));
    }
  }
  return 0;
}

}  // namespace vcsched::simulate_internal
