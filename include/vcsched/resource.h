// Resource vectors over named dimensions, with Volcano's comparison rules written once.
//
// A ResourceSpace names the dimensions of one snapshot: index 0 is "cpu" (milli-cores),
// 1 is "memory" (bytes), 2 is "pods" (a count), then every scalar resource seen in the
// snapshot ("nvidia.com/gpu", "hugepages-2Mi", ...) in name order, in milli-units as
// Volcano stores them. A Resource is a dense vector over one space; a dimension the
// Kubernetes object did not name is 0.
//
// Volcano's tolerance epsilon is 0.1 of a stored unit; every stored value here is an
// integer, so "a <= b within epsilon" is exactly "a <= b".
#ifndef VCSCHED_RESOURCE_H_
#define VCSCHED_RESOURCE_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

namespace vcsched {

// Dimension indices fixed in every space.
inline constexpr int kCpu = 0;
inline constexpr int kMemory = 1;
inline constexpr int kPods = 2;
inline constexpr int kFixedDims = 3;

// A value standing for "no limit" (an unset capability dimension).
inline constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max() / 4;

// Resource sums saturate instead of wrapping: two legal 7Ei requests add up to "more
// than anything", never to a negative amount that fits every node.
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}
inline int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) {
    return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}

// How a Kubernetes resource name is stored.
enum class ResourceKind {
  kCpuMillis,
  kMemoryBytes,
  kPodCount,
  kScalar,   // extended/hugepages/attachable-volumes/ephemeral-storage: milli-units
  kIgnored,  // not a resource Volcano tracks (quota names, "requests.cpu", ...)
};

// Classifies a resource name as Volcano's resource conversion does.
ResourceKind ClassifyResourceName(absl::string_view name);

// A stored amount of resource `name` as Kubernetes quantity text: "1500m", "4Gi", "3".
std::string FormatAmount(absl::string_view name, int64_t stored);

// The one dimension that resource names no node offers and no queue names stand for
// when a snapshot folds them (SnapshotOptions::fold_unoffered_resources): a pod
// requesting one fits nowhere, whichever it is.
inline constexpr absl::string_view kUnofferedResource = "vcsched.io/unoffered";

// The dimensions of one snapshot. Immutable once built.
class ResourceSpace {
 public:
  // A space with only cpu, memory and pods.
  ResourceSpace();
  // cpu, memory, pods, then `scalars` (sorted, duplicates removed).
  explicit ResourceSpace(std::vector<std::string> scalars);
  // The same, and every name of `folded` (none of them in `scalars`) stands for one more
  // dimension, kUnofferedResource, in its name order: amounts of folded names add up.
  ResourceSpace(std::vector<std::string> scalars, std::vector<std::string> folded);

  int size() const { return static_cast<int>(names_.size()); }
  const std::string& name(int dim) const { return names_[dim]; }
  // Index of `name` (the folded dimension's for a folded name), or -1.
  int Find(absl::string_view name) const;
  // True for cpu and memory and scalars; pods is a scalar in Volcano HEAD.
  bool IsScalar(int dim) const { return dim >= kPods; }
  // The folded dimension, or -1; how many names it stands for.
  int folded_dim() const { return folded_dim_; }
  size_t folded_count() const { return folded_ == nullptr ? 0 : folded_->size(); }

 private:
  using Index = absl::flat_hash_map<std::string, int>;
  void MakeIndex();

  std::vector<std::string> names_;
  // By name, for spaces too large to search in order; shared by copies (immutable).
  std::shared_ptr<const Index> index_;
  std::shared_ptr<const absl::flat_hash_set<std::string>> folded_;
  int folded_dim_ = -1;
};

// A dense resource vector. Copyable value type; arithmetic is element-wise.
class Resource {
 public:
  Resource() = default;
  explicit Resource(int dims) : v_(static_cast<size_t>(dims), 0) {}
  static Resource Filled(int dims, int64_t value) {
    Resource r(dims);
    for (auto& x : r.v_) x = value;
    return r;
  }
  static Resource FromSpan(absl::Span<const int64_t> s) {
    Resource r;
    r.v_.assign(s.begin(), s.end());
    return r;
  }

  int dims() const { return static_cast<int>(v_.size()); }
  int64_t operator[](int d) const { return v_[static_cast<size_t>(d)]; }
  int64_t& operator[](int d) { return v_[static_cast<size_t>(d)]; }
  absl::Span<const int64_t> span() const { return v_; }
  absl::Span<int64_t> mutable_span() { return absl::MakeSpan(v_); }
  const int64_t* data() const { return v_.data(); }

  Resource& operator+=(absl::Span<const int64_t> o);
  Resource& operator-=(absl::Span<const int64_t> o);
  Resource& operator+=(const Resource& o) { return *this += o.span(); }
  Resource& operator-=(const Resource& o) { return *this -= o.span(); }
  friend Resource operator+(Resource a, const Resource& b) { return a += b; }
  friend Resource operator-(Resource a, const Resource& b) { return a -= b; }
  bool operator==(const Resource& o) const { return v_ == o.v_; }
  bool operator!=(const Resource& o) const { return v_ != o.v_; }

  // True when cpu, memory and every scalar except pods are zero (Volcano IsEmpty).
  bool IsEmpty() const;
  // "cpu 1000m, memory 1Gi, pods 1" with zero dimensions left out.
  std::string ToString(const ResourceSpace& space) const;

 private:
  // Inline up to cpu, memory, pods and one scalar: most snapshots need no heap per vector.
  absl::InlinedVector<int64_t, 4> v_;
};

// Volcano's comparisons. `a`, `b`, `req` have the same number of dimensions.

// a.LessEqual(b, Zero): every dimension of `a` that it names is at most `b`'s. cpu,
// memory and pods are always compared; another scalar only where `a` requests it.
bool LessEqual(absl::Span<const int64_t> a, absl::Span<const int64_t> b);
// Index of the first dimension where LessEqual fails (cpu, memory, pods, then scalars
// in name order), or -1.
int FirstExceeded(absl::Span<const int64_t> a, absl::Span<const int64_t> b);
// LessEqualWithDimension: only dimensions where req > 0 (pods excluded); strict.
bool LessEqualWithDimension(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                            absl::Span<const int64_t> req);
// The dimensions (pods excluded) where req > 0 and a > b.
std::vector<int> ExceededDimensions(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                                    absl::Span<const int64_t> req);
// Per dimension max(a - b, 0).
Resource ExceededPart(absl::Span<const int64_t> a, absl::Span<const int64_t> b);
// Per dimension max(a, b).
Resource Max(absl::Span<const int64_t> a, absl::Span<const int64_t> b);
// Per dimension min(a, b).
Resource Min(absl::Span<const int64_t> a, absl::Span<const int64_t> b);

}  // namespace vcsched

#endif  // VCSCHED_RESOURCE_H_
