#include "src/snapshot/object_lint.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace vcsched::internal {
namespace {

std::string Key(const PodSpec& p) { return absl::StrCat(p.namespace_, "/", p.name); }

// Pods whose host ports count on their node: placed and not finished.
bool HoldsNode(const PodSpec& p) { return !p.node_name.empty() && p.phase != "Succeeded" && p.phase != "Failed"; }

void LintPriorityClasses(const std::vector<const PodSpec*>& pods, const std::vector<PodGroupSpec>& pod_groups,
                         const std::vector<PriorityClassSpec>& priority_classes, std::vector<std::string>& warnings) {
  std::set<std::string> known;
  std::vector<std::string> defaults;
  for (const PriorityClassSpec& pc : priority_classes) {
    known.insert(pc.name);
    if (pc.global_default) defaults.push_back(pc.name);
  }
  std::sort(defaults.begin(), defaults.end());
  if (defaults.size() > 1) {
    warnings.push_back(absl::StrCat("PriorityClasses \"", absl::StrJoin(defaults, "\", \""),
                                    "\": globalDefault: more than one is the default; \"", defaults.front(),
                                    "\" (first by name) is used"));
  }
  std::map<std::string, int> unknown_by_pods;  // class -> pods naming it, reported once per class
  std::map<std::string, std::string> first_pod;  // by key, whatever order the pods came in
  for (const PodSpec* pod : pods) {
    const PodSpec& p = *pod;
    if (p.priority_class_name.empty() || known.count(p.priority_class_name) || p.priority) continue;
    std::string key = Key(p);
    std::string& first = first_pod[p.priority_class_name];
    if (unknown_by_pods[p.priority_class_name]++ == 0 || key < first) first = std::move(key);
  }
  for (const auto& [name, count] : unknown_by_pods) {
    warnings.push_back(absl::StrCat("Pod \"", first_pod[name], "\"", count > 1 ? absl::StrCat(" and ", count - 1, " more") : "",
                                    ": spec.priorityClassName: PriorityClass \"", name,
                                    "\" is not in the input; priority ", defaults.empty() ? "0" : "of the global default",
                                    " is used"));
  }
  for (const PodGroupSpec& g : pod_groups) {
    LintPodGroupAlone(g, known.count(g.priority_class_name) > 0, !defaults.empty(), warnings);
  }
}

void LintHostPorts(const std::vector<const PodSpec*>& all_pods, std::vector<std::string>& warnings) {
  // The pods that hold ports, in key order: which one is named first does not depend on
  // the order the pods came in.
  std::vector<const PodSpec*> pods;
  for (const PodSpec* pod : all_pods) {
    if (HoldsNode(*pod) && HasHostPorts(*pod)) pods.push_back(pod);
  }
  std::sort(pods.begin(), pods.end(), [](const PodSpec* a, const PodSpec* b) {
    return std::tie(a->namespace_, a->name) < std::tie(b->namespace_, b->name);
  });
  // (node, protocol, port) -> the first pod holding it, with its address.
  std::map<std::tuple<std::string, std::string, int32_t>, std::vector<std::pair<std::string, const PodSpec*>>> held;
  for (const PodSpec* pod : pods) {
    const PodSpec& p = *pod;
    if (!HoldsNode(p)) continue;
    for (const Container& c : p.containers) {
      for (const HostPort& hp : c.host_ports) {
        auto& holders = held[{p.node_name, hp.protocol, hp.port}];
        for (const auto& [ip, other] : holders) {
          const bool overlap = ip.empty() || hp.host_ip.empty() || ip == "0.0.0.0" || hp.host_ip == "0.0.0.0" || ip == hp.host_ip;
          if (!overlap || other == &p) continue;
          warnings.push_back(absl::StrCat("Pod \"", Key(p), "\": spec.containers[].ports: host port ", hp.protocol, "/",
                                          hp.port, " on node \"", p.node_name, "\" is already held by pod \"",
                                          Key(*other), "\""));
          break;
        }
        holders.emplace_back(hp.host_ip, &p);
      }
    }
  }
}

}  // namespace

void LintObjects(const std::vector<const PodSpec*>& pods, const std::vector<PodGroupSpec>& pod_groups,
                 const std::vector<PriorityClassSpec>& priority_classes, std::vector<std::string>& warnings) {
  LintPriorityClasses(pods, pod_groups, priority_classes, warnings);
  for (const PodSpec* pod : pods) LintPodAlone(*pod, warnings);
  LintHostPorts(pods, warnings);
}

void LintPodAlone(const PodSpec& p, std::vector<std::string>& warnings) {
  if (p.containers.empty()) {
    warnings.push_back(absl::StrCat("Pod \"", Key(p), "\": spec.containers: none; the pod requests nothing"));
  }
}

void LintPodGroupAlone(const PodGroupSpec& g, bool class_known, bool has_default, std::vector<std::string>& warnings) {
  if (g.priority_class_name.empty() || class_known) return;
  warnings.push_back(absl::StrCat("PodGroup \"", g.namespace_, "/", g.name, "\": spec.priorityClassName: PriorityClass \"",
                                  g.priority_class_name, "\" is not in the input; priority ",
                                  has_default ? "of the global default" : "0", " is used"));
}

bool HasHostPorts(const PodSpec& p) {
  for (const Container& c : p.containers) {
    if (!c.host_ports.empty()) return true;
  }
  return false;
}

}  // namespace vcsched::internal
