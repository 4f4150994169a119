#include "vcsched/resource.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "vcsched/quantity.h"

namespace vcsched {

std::string FormatAmount(absl::string_view name, int64_t stored) {
  switch (ClassifyResourceName(name)) {
    case ResourceKind::kMemoryBytes: return FormatBytes(stored);
    case ResourceKind::kPodCount: return absl::StrCat(stored);
    default: return FormatMilli(stored);
  }
}

ResourceKind ClassifyResourceName(absl::string_view name) {
  if (name == "cpu") return ResourceKind::kCpuMillis;
  if (name == "memory") return ResourceKind::kMemoryBytes;
  if (name == "pods") return ResourceKind::kPodCount;
  if (name == "ephemeral-storage") return ResourceKind::kScalar;
  if (absl::StartsWith(name, "requests.") || absl::StartsWith(name, "limits.") ||
      absl::StartsWith(name, "count/")) {
    return ResourceKind::kIgnored;
  }
  if (absl::StartsWith(name, "hugepages-") || absl::StartsWith(name, "attachable-volumes-")) {
    return ResourceKind::kScalar;
  }
  // Extended resources carry a domain ("nvidia.com/gpu"); names with a kubernetes.io/
  // domain ("kubernetes.io/x", "sub.kubernetes.io/x") are prefixed native resources.
  // Kubernetes' IsScalarResourceName counts both, and so do Volcano's Resource and the
  // fit filter: a pod requesting one fits only a node that offers it
  // (tests/k8s-tables/noderesourcesfit-filter.yaml).
  if (name.find('/') != absl::string_view::npos) return ResourceKind::kScalar;
  return ResourceKind::kIgnored;
}

ResourceSpace::ResourceSpace() : names_{"cpu", "memory", "pods"} {}

ResourceSpace::ResourceSpace(std::vector<std::string> scalars) : ResourceSpace() {
  std::sort(scalars.begin(), scalars.end());
  scalars.erase(std::unique(scalars.begin(), scalars.end()), scalars.end());
  for (auto& s : scalars) {
    if (s != "cpu" && s != "memory" && s != "pods") names_.push_back(std::move(s));
  }
  MakeIndex();
}

namespace {
std::vector<std::string> WithUnoffered(std::vector<std::string> scalars) {
  scalars.emplace_back(kUnofferedResource);
  return scalars;
}
}  // namespace

ResourceSpace::ResourceSpace(std::vector<std::string> scalars, std::vector<std::string> folded)
    : ResourceSpace(WithUnoffered(std::move(scalars))) {
  folded_dim_ = Find(kUnofferedResource);
  folded_ = std::make_shared<const absl::flat_hash_set<std::string>>(std::make_move_iterator(folded.begin()),
                                                                     std::make_move_iterator(folded.end()));
}

// A handful of names is searched faster in order than hashed.
constexpr size_t kIndexedFrom = 16;

void ResourceSpace::MakeIndex() {
  if (names_.size() < kIndexedFrom) return;
  auto index = std::make_shared<Index>();
  for (size_t i = 0; i < names_.size(); ++i) index->emplace(names_[i], static_cast<int>(i));
  index_ = std::move(index);
}

int ResourceSpace::Find(absl::string_view name) const {
  if (index_ != nullptr) {
    if (auto it = index_->find(name); it != index_->end()) return it->second;
  } else {
    for (int i = 0; i < size(); ++i) {
      if (names_[static_cast<size_t>(i)] == name) return i;
    }
  }
  if (folded_ != nullptr && folded_->contains(name)) return folded_dim_;
  return -1;
}

Resource& Resource::operator+=(absl::Span<const int64_t> o) {
  for (size_t i = 0; i < v_.size(); ++i) v_[i] = SaturatingAdd(v_[i], o[i]);
  return *this;
}

Resource& Resource::operator-=(absl::Span<const int64_t> o) {
  for (size_t i = 0; i < v_.size(); ++i) v_[i] = SaturatingSub(v_[i], o[i]);
  return *this;
}

bool Resource::IsEmpty() const {
  for (int d = 0; d < dims(); ++d) {
    if (d != kPods && v_[static_cast<size_t>(d)] > 0) return false;
  }
  return true;
}

std::string Resource::ToString(const ResourceSpace& space) const {
  std::string out;
  for (int d = 0; d < dims(); ++d) {
    const int64_t v = v_[static_cast<size_t>(d)];
    if (v == 0) continue;
    if (!out.empty()) out += ", ";
    std::string amount;
    if (v >= kUnlimited) {
      amount = "unlimited";
    } else if (d == kMemory) {
      amount = FormatBytes(v);
    } else if (d == kPods) {
      amount = absl::StrCat(v);
    } else {
      amount = FormatMilli(v);
    }
    absl::StrAppend(&out, space.name(d), " ", amount);
  }
  return out.empty() ? "empty" : out;
}

bool LessEqual(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  return FirstExceeded(a, b) < 0;
}

int FirstExceeded(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  for (size_t d = 0; d < a.size(); ++d) {
    if (d >= static_cast<size_t>(kFixedDims) && a[d] <= 0) continue;  // not requested
    if (a[d] > b[d]) return static_cast<int>(d);
  }
  return -1;
}

bool LessEqualWithDimension(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                            absl::Span<const int64_t> req) {
  for (size_t d = 0; d < a.size(); ++d) {
    if (static_cast<int>(d) == kPods || req[d] <= 0) continue;
    if (a[d] > b[d]) return false;
  }
  return true;
}

std::vector<int> ExceededDimensions(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                                    absl::Span<const int64_t> req) {
  std::vector<int> out;
  for (size_t d = 0; d < a.size(); ++d) {
    if (static_cast<int>(d) == kPods || req[d] <= 0) continue;
    if (a[d] > b[d]) out.push_back(static_cast<int>(d));
  }
  return out;
}

Resource ExceededPart(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  Resource r(static_cast<int>(a.size()));
  for (size_t d = 0; d < a.size(); ++d) r[static_cast<int>(d)] = std::max<int64_t>(a[d] - b[d], 0);
  return r;
}

Resource Max(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  Resource r(static_cast<int>(a.size()));
  for (size_t d = 0; d < a.size(); ++d) r[static_cast<int>(d)] = std::max(a[d], b[d]);
  return r;
}

Resource Min(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  Resource r(static_cast<int>(a.size()));
  for (size_t d = 0; d < a.size(); ++d) r[static_cast<int>(d)] = std::min(a[d], b[d]);
  return r;
}

}  // namespace vcsched
