#include "src/plugins/hdrf.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace vcsched::internal {

std::vector<std::string> HdrfTree::PathOf(QueueIndex q) const {
  const Session& s = *ssn_;
  const QueueInfo& info = s.queue(q);
  auto it = info.spec.annotations.find("volcano.sh/hierarchy");
  // Volcano HEAD (api/queue_info.go, drf.go buildHierarchy) reads the annotation alone:
  // without it a queue's jobs hang straight under the root (spec.parent plays no part),
  // so every such queue compares equal and HDRF names no victims between them.
  if (it == info.spec.annotations.end() || it->second.empty()) return {"root"};
  return absl::StrSplit(it->second, '/');
}

HdrfTree::HdrfTree(const Session& ssn, const std::vector<Resource>& allocated) : ssn_(&ssn) {
  const Session& s = ssn;
  total_.assign(static_cast<size_t>(s.dims()), 0);
  for (int d = 0; d < s.dims(); ++d) total_[static_cast<size_t>(d)] = static_cast<double>(s.total_resource()[d]);
  nodes_.push_back(Node{"root", 1, -1, {}, kNone, {}, 0, false});
  queue_paths_.resize(s.snapshot().queues().size());
  for (const QueueInfo& q : s.snapshot().queues()) queue_paths_[static_cast<size_t>(q.index)] = PathOf(q.index);
  for (const JobInfo& job : s.snapshot().jobs()) {
    if (job.queue == kNone) continue;
    const QueueInfo& q = s.queue(job.queue);
    const std::vector<std::string>& path = queue_paths_[static_cast<size_t>(job.queue)];
    std::vector<std::string> weights;
    auto w = q.spec.annotations.find("volcano.sh/hierarchy-weights");
    if (w != q.spec.annotations.end()) {
      weights = absl::StrSplit(w->second, '/');
    } else {
      for (const std::string& name : path) {
        auto found = s.snapshot().FindQueue(name);
        weights.push_back(std::to_string(found ? s.queue(*found).spec.weight : 1));
      }
    }
    int cur = 0;
    for (size_t i = 1; i < path.size(); ++i) {
      auto it = nodes_[static_cast<size_t>(cur)].children.find(path[i]);
      if (it != nodes_[static_cast<size_t>(cur)].children.end()) {
        cur = it->second;
        continue;
      }
      double weight = 1;
      if (i < weights.size() && !absl::SimpleAtod(weights[i], &weight)) weight = 1;
      if (weight < 1) weight = 1;
      const int idx = static_cast<int>(nodes_.size());
      nodes_.push_back(Node{path[i], weight, cur, {}, kNone, {}, 0, false});
      nodes_[static_cast<size_t>(cur)].children[path[i]] = idx;
      cur = idx;
    }
    const int leaf = static_cast<int>(nodes_.size());
    nodes_.push_back(Node{job.key, 1, cur, {}, job.index, {}, 0, false});
    nodes_[static_cast<size_t>(cur)].children[job.key] = leaf;
  }
  Update(allocated);
}

double HdrfTree::Share(const std::vector<double>& a) const {
  double share = 0;
  for (size_t d = 0; d < total_.size(); ++d) {
    if (total_[d] <= 0) continue;
    share = std::max(share, a[d] / total_[d]);
  }
  return share;
}

void HdrfTree::Update(const std::vector<Resource>& allocated) {
  // Resources the cluster still has room in.
  std::vector<double> used(total_.size(), 0);
  for (const Resource& r : allocated) {
    for (size_t d = 0; d < total_.size(); ++d) used[d] += static_cast<double>(r[static_cast<int>(d)]);
  }
  std::vector<bool> demanding(total_.size(), false);
  for (size_t d = 0; d < total_.size(); ++d) demanding[d] = total_[d] > 0 && used[d] < total_[d];
  UpdateNode(0, allocated, demanding);
}

void HdrfTree::UpdateNode(int n, const std::vector<Resource>& allocated, const std::vector<bool>& demanding) {
  Node& node = nodes_[static_cast<size_t>(n)];
  const Session& s = *ssn_;
  const size_t dims = total_.size();
  if (node.job != kNone) {
    const Resource& a = allocated[static_cast<size_t>(node.job)];
    node.allocated.assign(dims, 0);
    for (size_t d = 0; d < dims; ++d) node.allocated[d] = static_cast<double>(a[static_cast<int>(d)]);
    node.share = Share(node.allocated);
    // Saturated: holds all it asks for in some resource, or asks for one that is full.
    Resource request(s.dims());
    for (TaskIndex t : s.job(node.job).tasks) request += s.task_resreq(t);
    node.saturated = false;
    for (size_t d = 0; d < dims; ++d) {
      const double alloc = node.allocated[d], req = static_cast<double>(request[static_cast<int>(d)]);
      if (alloc == 0) continue;
      if ((req != 0 && alloc >= req) || (!demanding[d] && req != 0)) node.saturated = true;
    }
    return;
  }
  double mdr = 1;
  for (const auto& [name, c] : node.children) {
    UpdateNode(c, allocated, demanding);
    const Node& child = nodes_[static_cast<size_t>(c)];
    if (child.share != 0 && !child.saturated) mdr = std::min(mdr, Share(child.allocated));
  }
  Node& self = nodes_[static_cast<size_t>(n)];
  self.allocated.assign(dims, 0);
  bool saturated = true;
  for (const auto& [name, c] : self.children) {
    const Node& child = nodes_[static_cast<size_t>(c)];
    if (!child.saturated) saturated = false;
    if (child.share == 0) continue;
    const double scale = child.saturated ? 1 : mdr / child.share;
    for (size_t d = 0; d < dims; ++d) self.allocated[d] += child.allocated[d] * scale;
  }
  self.share = Share(self.allocated);
  self.saturated = saturated;
}

double HdrfTree::CompareQueues(QueueIndex l, QueueIndex r) const {
  const std::vector<std::string>& lp = queue_paths_[static_cast<size_t>(l)];
  const std::vector<std::string>& rp = queue_paths_[static_cast<size_t>(r)];
  int ln = 0, rn = 0;
  const size_t depth = std::min(lp.size(), rp.size());
  for (size_t i = 0; i < depth; ++i) {
    const Node& a = nodes_[static_cast<size_t>(ln)];
    const Node& b = nodes_[static_cast<size_t>(rn)];
    if (!a.saturated && b.saturated) return -1;
    if (a.saturated && !b.saturated) return 1;
    const double x = a.share / a.weight, y = b.share / b.weight;
    if (x != y) return x - y;
    if (i + 1 < depth) {
      auto ai = a.children.find(lp[i + 1]);
      auto bi = b.children.find(rp[i + 1]);
      if (ai == a.children.end() || bi == b.children.end()) return 0;  // a queue without jobs
      ln = ai->second;
      rn = bi->second;
    }
  }
  return 0;
}

}  // namespace vcsched::internal
