#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "vcsched/io/scenario.h"

namespace vcsched {

namespace {

// The new binds per lowest-tier HyperNode of their node (nodes with none together), sorted.
std::vector<int64_t> BindsPerHyperNode(const Decisions& d, const Snapshot& snapshot) {
  std::map<HyperNodeIndex, int64_t> counts;
  for (const Bind& b : d.binds) {
    const std::optional<NodeIndex> n = snapshot.FindNode(b.node);
    ++counts[n ? snapshot.lowest_tier_hyper_node(*n) : kNone];
  }
  std::vector<int64_t> out;
  for (const auto& [hn, n] : counts) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::string> CompareWithExpectation(const Decisions& d, const Expectation& e, const Snapshot* snapshot) {
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
  for (const auto& entry : e.bind_annotations) {
    const std::string& pod = entry.first;  // a named variable: C++17 lambdas cannot capture a structured binding
    const Labels& want = entry.second;
    auto it = std::find_if(d.binds.begin(), d.binds.end(), [&pod](const Bind& b) { return b.task == pod; });
    if (it == d.binds.end()) {
      diffs.push_back(absl::StrCat("bindAnnotations ", pod, ": expected a bind, got none"));
      continue;
    }
    Labels have;
    for (const PodAnnotation& a : it->annotations) have[a.key] = a.value;
    if (have != want) {
      const auto text = [](const Labels& l) {
        return absl::StrCat("{", absl::StrJoin(l, ", ", absl::PairFormatter(": ")), "}");
      };
      diffs.push_back(absl::StrCat("bindAnnotations ", pod, ": expected ", text(want), ", got ", text(have)));
    }
  }
  if (e.hyper_node_bind_counts) {
    std::vector<int64_t> want = *e.hyper_node_bind_counts;
    std::sort(want.begin(), want.end());
    if (snapshot == nullptr) {
      diffs.push_back("hyperNodeBindCounts: cannot be checked without the snapshot");
    } else if (const std::vector<int64_t> got_counts = BindsPerHyperNode(d, *snapshot); got_counts != want) {
      diffs.push_back(absl::StrCat("hyperNodeBindCounts: expected [", absl::StrJoin(want, ", "), "], got [",
                                   absl::StrJoin(got_counts, ", "), "]"));
    }
  }
  return diffs;
}

}  // namespace vcsched
