#include "src/simulate/cluster_runtimes.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "vcsched/arguments.h"

namespace vcsched {

absl::StatusOr<DurationDistribution> ParseExpectedRuntime(absl::string_view text) {
  absl::StatusOr<RuntimeRange> r = ParseRuntimeRange(text);
  if (!r.ok()) return r.status();
  DurationDistribution d;
  d.a_ms = r->low_ms;
  if (r->spread) {
    d.kind = DurationDistribution::Kind::kUniform;
    d.b_ms = r->high_ms;
  }
  return d;
}

namespace simulate_internal {
namespace {

const std::string* Annotation(const Labels& annotations, absl::string_view key) {
  auto it = annotations.find(std::string(key));
  return it == annotations.end() ? nullptr : &it->second;
}

absl::StatusOr<std::optional<PodRuntime>> FromText(const std::string* text, std::string source) {
  if (text == nullptr) return std::optional<PodRuntime>();
  absl::StatusOr<DurationDistribution> d = ParseExpectedRuntime(*text);
  if (!d.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": metadata.annotations.", kExpectedRuntimeAnnotation, ": ", d.status().message()));
  }
  return std::optional<PodRuntime>(PodRuntime{*d, std::move(source)});
}

}  // namespace

absl::StatusOr<std::optional<PodRuntime>> RuntimeOfPod(const Cluster& cluster, const PodSpec& pod,
                                                       const std::optional<int64_t>& default_ms) {
  const std::string pod_key = absl::StrCat(pod.namespace_, "/", pod.name);
  absl::StatusOr<std::optional<PodRuntime>> r =
      FromText(Annotation(pod.annotations, kExpectedRuntimeAnnotation), absl::StrCat("pod ", pod_key));
  if (!r.ok() || r->has_value()) return r;
  if (const std::string* group = Annotation(pod.annotations, "scheduling.k8s.io/group-name")) {
    const std::string key = absl::StrCat(pod.namespace_, "/", *group);
    if (auto g = cluster.pod_groups().find(key); g != cluster.pod_groups().end()) {
      r = FromText(Annotation(g->second.annotations, kExpectedRuntimeAnnotation), absl::StrCat("podgroup ", key));
      if (!r.ok() || r->has_value()) return r;
    }
  }
  if (const std::string* job = Annotation(pod.annotations, "volcano.sh/job-name")) {
    const std::string key = absl::StrCat(pod.namespace_, "/", *job);
    if (auto j = cluster.volcano_jobs().find(key); j != cluster.volcano_jobs().end()) {
      const Value* annotations = j->second.Find("metadata") ? j->second.Find("metadata")->Find("annotations") : nullptr;
      const Value* text = annotations && annotations->is_map() ? annotations->Find(kExpectedRuntimeAnnotation) : nullptr;
      if (text != nullptr && text->is_scalar()) {
        const std::string copy = text->text();
        return FromText(&copy, absl::StrCat("job ", key));
      }
    }
  }
  if (pod.active_deadline_seconds && *pod.active_deadline_seconds >= 0) {
    DurationDistribution d;
    d.a_ms = *pod.active_deadline_seconds > INT64_MAX / 1000 ? INT64_MAX : *pod.active_deadline_seconds * 1000;
    return std::optional<PodRuntime>(PodRuntime{d, absl::StrCat("pod ", pod_key, " activeDeadlineSeconds")});
  }
  if (default_ms) {
    DurationDistribution d;
    d.a_ms = std::max<int64_t>(0, *default_ms);
    return std::optional<PodRuntime>(PodRuntime{d, "default"});
  }
  return std::optional<PodRuntime>();
}

}  // namespace simulate_internal
}  // namespace vcsched
