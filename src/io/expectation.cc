#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "vcsched/io/scenario.h"

namespace vcsched {

std::vector<std::string> CompareWithExpectation(const Decisions& d, const Expectation& e) {
  std::vector<std::string> diffs;
  std::map<absl::string_view, absl::string_view> got;
  for (const Bind& b : d.binds) got[b.task] = b.node;
  if (e.has_binds) {
    for (const auto& [pod, nodes] : e.binds) {
      auto it = got.find(pod);
      const std::string allowed = nodes.size() == 1 ? nodes[0] : absl::StrCat("one of [", absl::StrJoin(nodes, ", "), "]");
      if (it == got.end()) {
        diffs.push_back(absl::StrCat("bind ", pod, ": expected ", allowed, ", got no bind"));
      } else if (std::find(nodes.begin(), nodes.end(), it->second) == nodes.end()) {
        diffs.push_back(absl::StrCat("bind ", pod, ": expected ", allowed, ", got ", it->second));
      }
    }
    for (const auto& [pod, node] : got) {
      if (!e.binds.count(std::string(pod))) diffs.push_back(absl::StrCat("bind ", pod, ": expected no bind, got ", node));
    }
  }
  if (e.bind_count && static_cast<int64_t>(d.binds.size()) != *e.bind_count) {
    diffs.push_back(absl::StrCat("bindCount: expected ", *e.bind_count, ", got ", d.binds.size()));
  }
  std::set<std::string> evicted;  // the expectation's type, to compare whole sets
  for (const Eviction& ev : d.evictions) evicted.emplace(ev.task);
  if (e.evictions) {
    const std::set<std::string> want(e.evictions->begin(), e.evictions->end());
    if (want != evicted) {
      diffs.push_back(absl::StrCat("evictions: expected [", absl::StrJoin(want, ", "), "], got [",
                                   absl::StrJoin(evicted, ", "), "]"));
    }
  }
  if (e.eviction_count && static_cast<int64_t>(evicted.size()) != *e.eviction_count) {
    diffs.push_back(absl::StrCat("evictionCount: expected ", *e.eviction_count, ", got ", evicted.size()));
  }
  for (const auto& entry : e.pod_group_phases) {
    const std::string& job = entry.first;
    const std::string& phase = entry.second;
    auto it = std::find_if(d.pod_groups.begin(), d.pod_groups.end(),
                           [&job](const PodGroupStatus& s) { return s.job == job; });
    if (it == d.pod_groups.end()) {
      diffs.push_back(absl::StrCat("podGroupPhases ", job, ": expected ", phase, ", got no such PodGroup in the session"));
    } else if (it->phase != phase) {
      diffs.push_back(absl::StrCat("podGroupPhases ", job, ": expected ", phase, ", got ", it->phase));
    }
  }
  return diffs;
}

}  // namespace vcsched
