#include "src/model/pod_facts.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "vcsched/resource.h"

namespace vcsched::internal {

bool HasPodAffinityTerms(const PodSpec& pod) {
  const Affinity& a = pod.affinity;
  return !a.required_pod_affinity.empty() || !a.preferred_pod_affinity.empty() ||
         !a.required_pod_anti_affinity.empty() || !a.preferred_pod_anti_affinity.empty();
}

bool HasPlacementTerms(const PodSpec& pod) {
  const Affinity& a = pod.affinity;
  return a.has_required_node_terms || !a.preferred_node_terms.empty() || HasPodAffinityTerms(pod) ||
         !pod.topology_spread_constraints.empty();
}

PodQos QosClassOf(const PodSpec& pod) {
  if (!pod.qos_class.empty()) {
    if (pod.qos_class == "BestEffort") return PodQos::kBestEffort;
    if (pod.qos_class == "Burstable") return PodQos::kBurstable;
    return pod.qos_class == "Guaranteed" ? PodQos::kGuaranteed : PodQos::kOther;
  }
  // Requests and limits of cpu and memory, summed over every container (init ones too);
  // Guaranteed needs each container to limit both, and the sums to match.
  std::map<std::string, int64_t> requests, limits;
  bool every_container_limits_both = true;
  const auto fold = [&](const std::vector<Container>& containers) {
    for (const Container& c : containers) {
      bool cpu = false, memory = false;
      for (const char* name : {"cpu", "memory"}) {
        if (auto it = c.requests.find(name); it != c.requests.end() && it->second > 0) {
          requests[name] = SaturatingAdd(requests[name], it->second);
        }
        if (auto it = c.limits.find(name); it != c.limits.end() && it->second > 0) {
          limits[name] = SaturatingAdd(limits[name], it->second);
          (name[0] == 'c' ? cpu : memory) = true;
        }
      }
      if (!cpu || !memory) every_container_limits_both = false;
    }
  };
  fold(pod.containers);
  fold(pod.init_containers);
  if (requests.empty() && limits.empty()) return PodQos::kBestEffort;
  return every_container_limits_both && requests == limits ? PodQos::kGuaranteed : PodQos::kBurstable;
}

namespace {

bool NameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}
bool Alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// validation.IsValidLabelValue: empty, or at most 63 of [A-Za-z0-9-_.] with alphanumeric ends.
bool IsLabelValue(absl::string_view v) {
  if (v.empty()) return true;
  if (v.size() > 63 || !Alnum(v.front()) || !Alnum(v.back())) return false;
  return std::all_of(v.begin(), v.end(), NameChar);
}

// validation.IsQualifiedName: [prefix/]name, name a label value that is not empty, prefix
// a DNS subdomain.
bool IsQualifiedName(absl::string_view k) {
  const size_t slash = k.find('/');
  absl::string_view name = k;
  if (slash != absl::string_view::npos) {
    const absl::string_view prefix = k.substr(0, slash);
    name = k.substr(slash + 1);
    if (prefix.empty() || prefix.size() > 253) return false;
    for (char c : prefix) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
    }
    if (!Alnum(prefix.front()) || !Alnum(prefix.back())) return false;
  }
  return !name.empty() && IsLabelValue(name);
}

bool RequirementParses(const LabelSelectorRequirement& r) {
  using Op = LabelSelectorRequirement::Operator;
  if (!IsQualifiedName(r.key)) return false;
  switch (r.op) {
    case Op::kIn:
    case Op::kNotIn:
      return !r.values.empty() && std::all_of(r.values.begin(), r.values.end(),
                                              [](const std::string& v) { return IsLabelValue(v); });
    case Op::kExists:
    case Op::kDoesNotExist: return r.values.empty();
    case Op::kGt:
    case Op::kLt: {
      int64_t v = 0;
      return r.values.size() == 1 && absl::SimpleAtoi(r.values[0], &v);
    }
  }
  return false;
}

}  // namespace

bool NodeSelectorTermParses(const NodeSelectorTerm& term) {
  for (const LabelSelectorRequirement& r : term.match_expressions) {
    if (!RequirementParses(r)) return false;
  }
  for (const LabelSelectorRequirement& r : term.match_fields) {
    // Field selectors take metadata.name with In or NotIn and one value.
    using Op = LabelSelectorRequirement::Operator;
    if (r.key != "metadata.name" || (r.op != Op::kIn && r.op != Op::kNotIn) || r.values.size() != 1) return false;
  }
  return true;
}

}  // namespace vcsched::internal
