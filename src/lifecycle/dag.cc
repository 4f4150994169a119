#include "src/lifecycle/dag.h"

#include <algorithm>
#include <map>

namespace vcsched::lifecycle::internal {

DagProblem CheckDag(const std::vector<std::pair<std::string, std::vector<std::string>>>& graph) {
  DagProblem out;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < graph.size(); ++i) index.emplace(graph[i].first, i);
  for (const auto& [v, deps] : graph) {
    for (const std::string& d : deps) {
      if (!index.count(d)) {
        out.undefined = d;
        return out;
      }
    }
  }
  // Iterative depth-first search with colours; the grey path is the current stack.
  enum Colour { kWhite, kGrey, kBlack };
  std::vector<Colour> colour(graph.size(), kWhite);
  for (size_t start = 0; start < graph.size(); ++start) {
    if (colour[start] != kWhite) continue;
    std::vector<std::pair<size_t, size_t>> stack = {{start, 0}};
    colour[start] = kGrey;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == graph[v].second.size()) {
        colour[v] = kBlack;
        stack.pop_back();
        continue;
      }
      const size_t w = index[graph[v].second[next++]];
      if (colour[w] == kGrey) {
        auto from = std::find_if(stack.begin(), stack.end(), [&](const auto& e) { return e.first == w; });
        for (auto it = from; it != stack.end(); ++it) out.cycle.push_back(graph[it->first].first);
        out.cycle.push_back(graph[w].first);
        return out;
      }
      if (colour[w] == kWhite) {
        colour[w] = kGrey;
        stack.emplace_back(w, 0);
      }
    }
  }
  return out;
}

}  // namespace vcsched::lifecycle::internal
