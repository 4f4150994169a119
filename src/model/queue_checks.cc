#include "src/model/queue_checks.h"

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "vcsched/quantity.h"
#include "vcsched/resource.h"

namespace vcsched {
void CheckQueueHierarchy(const std::vector<QueueSpec>& queues, std::vector<std::string>& errors) {
  CheckQueueHierarchy(queues, [&](size_t q, const std::string& problem) {
    errors.push_back(absl::StrCat("Queue \"", queues[q].name, "\": ", problem));
  });
}

void CheckQueueHierarchy(const std::vector<QueueSpec>& queues,
                         const std::function<void(size_t queue, const std::string& problem)>& report) {
  // Index of each queue's parent (-1: root, or a parent that does not exist, which the
  // builder reports as a warning).
  absl::flat_hash_map<absl::string_view, int32_t> by_name;
  for (size_t i = 0; i < queues.size(); ++i) by_name.emplace(queues[i].name, static_cast<int32_t>(i));
  std::vector<int32_t> parent(queues.size(), -1);
  for (size_t i = 0; i < queues.size(); ++i) {
    const std::string& p = queues[i].parent;
    if (p.empty() || p == "root" || queues[i].name == "root") continue;
    if (auto it = by_name.find(p); it != by_name.end()) parent[i] = it->second;
  }
  // Depth of every queue by one walk per chain: each queue is resolved once.
  // depth: -1 unknown, -2 on the chain being walked now.
  std::vector<int64_t> depth(queues.size(), -1);
  std::vector<int32_t> chain;
  for (size_t start = 0; start < queues.size(); ++start) {
    if (depth[start] != -1) continue;
    chain.clear();
    int32_t cur = static_cast<int32_t>(start);
    while (cur >= 0 && depth[static_cast<size_t>(cur)] == -1) {
      depth[static_cast<size_t>(cur)] = -2;
      chain.push_back(cur);
      cur = parent[static_cast<size_t>(cur)];
    }
    int64_t base = 0;  // depth of `cur` (root: 0)
    if (cur >= 0 && depth[static_cast<size_t>(cur)] == -2) {
      // A cycle: from `cur` around to itself. Name it from its smallest member so that
      // the message does not depend on where the walk began.
      size_t at = 0;
      while (chain[at] != cur) ++at;
      std::vector<int32_t> cycle(chain.begin() + static_cast<ptrdiff_t>(at), chain.end());
      size_t first = 0;
      for (size_t i = 1; i < cycle.size(); ++i) {
        if (queues[static_cast<size_t>(cycle[i])].name < queues[static_cast<size_t>(cycle[first])].name) first = i;
      }
      std::vector<absl::string_view> names;
      for (size_t i = 0; i <= cycle.size(); ++i) {
        names.push_back(queues[static_cast<size_t>(cycle[(first + i) % cycle.size()])].name);
      }
      report(static_cast<size_t>(cycle[first]),
             absl::StrCat("spec.parent: the queues' parents form a cycle (", absl::StrJoin(names, " -> "), ")"));
      for (int32_t q : cycle) depth[static_cast<size_t>(q)] = 0;  // reported; not walked again
      chain.resize(at);
      base = 0;
    } else if (cur >= 0) {
      base = depth[static_cast<size_t>(cur)];
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      depth[static_cast<size_t>(*it)] = ++base;
      if (base == kMaxQueueHierarchyDepth + 1) {
        report(static_cast<size_t>(*it),
               absl::StrCat("spec.parent: the queue is more than ", kMaxQueueHierarchyDepth, " levels below root"));
      }
    }
  }
  for (size_t i = 0; i < queues.size(); ++i) {
    if (std::string problem = HierarchyAnnotationProblem(queues[i]); !problem.empty()) report(i, problem);
  }
}

std::string HierarchyAnnotationProblem(const QueueSpec& queue) {
  auto it = queue.annotations.find("volcano.sh/hierarchy");
  if (it == queue.annotations.end()) return "";
  int64_t levels = 1;
  for (char c : it->second) levels += c == '/';
  if (levels <= kMaxQueueHierarchyDepth + 1) return "";
  return absl::StrCat("metadata.annotations.volcano.sh/hierarchy: ", levels, " levels, more than the limit of ",
                      kMaxQueueHierarchyDepth + 1);
}

void LintQueues(const std::vector<QueueSpec>& queues, std::vector<std::string>& warnings) {
  for (const QueueSpec& q : queues) {
    if (q.capability.empty()) continue;
    for (const auto& [name, g] : q.guarantee) {
      auto cap = q.capability.find(name);
      if (cap == q.capability.end() || g <= cap->second) continue;
      warnings.push_back(absl::StrCat("Queue \"", q.name, "\": spec.guarantee.resource.", name, ": the guarantee (",
                                      FormatAmount(name, g), ") is above the capability (",
                                      FormatAmount(name, cap->second), ")"));
    }
  }
}

}  // namespace vcsched
