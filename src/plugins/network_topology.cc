// network-topology-aware: HyperNode-based placement (docs/FORMAT-hypernode.md; Volcano's
// plugins/network-topology-aware). It gives allocate the candidate HyperNodes of a job
// or sub-group with a hard limit (gradients by tier), scores HyperNodes by how full the
// sub-group would leave them (binpack), and scores nodes: for pods with network topology
// by the tier of their lowest common ancestor with what the sub-group already holds, for
// other pods by the fill of the HyperNodes that hold the node, tier by tier.
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

constexpr double kMaxNodeScore = 100.0;  // Kubernetes' MaxNodeScore

struct Settings {
  int64_t weight = 1;
  std::map<std::string, int64_t> binpack;  // resource name -> weight (cpu and memory always)
  bool normal_pod_binpack = true;
  double fading = 0.8;
  int64_t evict_max_hyper_nodes = 8;  // hypernode.gradient.evict.max-hypernodes
};

class NetworkTopologyPlugin : public Plugin {
 public:
  explicit NetworkTopologyPlugin(Settings settings) : settings_(std::move(settings)) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    s_ = &ssn;
    const Snapshot& snap = ssn.snapshot();
    const absl::Span<const int32_t> tiers = snap.hyper_node_tiers();
    if (tiers.empty()) return absl::OkStatus();
    min_tier_ = tiers.front();
    max_tier_ = tiers.back();
    weights_.assign(static_cast<size_t>(ssn.dims()), -1);
    for (const auto& [name, w] : settings_.binpack) {
      const int d = snap.space().Find(name);
      if (d >= 0) weights_[static_cast<size_t>(d)] = w;
    }
    FillResourceCache();
    WeighTiers();

    ssn.AddHyperNodeGradientFn([this](JobIndex j, int32_t k, HyperNodeIndex within, SearchPurpose purpose) {
      std::vector<std::vector<HyperNodeIndex>> g = Gradient(j, k, within, purpose);
      if (purpose == SearchPurpose::kEvict && HardTier(j, k)) return WidestFirstCapped(std::move(g));
      return g;
    });
    ssn.AddHyperNodeOrderFn([this](JobIndex j, int32_t k, absl::Span<const HyperNodeIndex> hns, absl::Span<double> out) {
      ScoreHyperNodes(j, k, hns, out);
    });
    // Pods without network topology are scored by HyperNode fill only when there are
    // HyperNodes (one virtual root scores every node alike).
    const bool real_hyper_nodes = snap.hyper_nodes().size() > 1 && settings_.normal_pod_binpack;
    // A pod with network topology is scored by its sub-group's placement, which no
    // node's own state tells.
    ssn.AddPlacementNodeOrderFn([this](TaskIndex t) { return HasTopology(t); },
                                [this](TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> out) {
                                  ScoreNodesForTopology(t, s_->job_of(t), s_->task(t).sub_job, nodes, out);
                                });
    // Other pods score a node by the fill of the HyperNodes that hold it: the same for
    // every node of one set of HyperNodes, a group.
    if (real_hyper_nodes) {
      std::map<std::vector<HyperNodeIndex>, int32_t> ids;
      std::vector<int32_t> group_of(holders_.size());
      const absl::Span<const HyperNodeInfo> hns = snap.hyper_nodes();
      for (size_t n = 0; n < holders_.size(); ++n) {
        // HyperNodes of universal tiers add nothing (WeighTiers).
        std::vector<HyperNodeIndex> counted;
        for (HyperNodeIndex h : holders_[n]) {
          if (!universal_tiers_.count(hns[static_cast<size_t>(h)].tier)) counted.push_back(h);
        }
        auto [it, inserted] = ids.try_emplace(counted, static_cast<int32_t>(ids.size()));
        if (inserted) group_holders_.push_back(std::move(counted));
        group_of[n] = it->second;
      }
      groups_of_hyper_node_.assign(hns.size(), {});
      for (size_t g = 0; g < group_holders_.size(); ++g) {
        for (HyperNodeIndex h : group_holders_[g]) groups_of_hyper_node_[static_cast<size_t>(h)].push_back(static_cast<int32_t>(g));
      }
      ssn.AddGroupNodeOrderFn(std::move(group_of), static_cast<int32_t>(group_holders_.size()),
                              [this](TaskIndex t, absl::Span<const int32_t> groups, absl::Span<double> out) {
                                if (!HasTopology(t)) ScoreGroupsByFill(t, groups, out);
                              });
    }
    EventHandler handler;
    handler.on_allocate = [this](TaskIndex t) {
      placed_on_[t] = s_->task_node(t);
      AddUsed(t, s_->task_node(t), +1);
      Recount(t);
    };
    // An undone placement has left its node by now: the node it was placed on.
    handler.on_deallocate = [this](TaskIndex t) {
      NodeIndex n = s_->task_node(t);
      if (auto it = placed_on_.find(t); it != placed_on_.end()) {
        if (n == kNone) n = it->second;
        placed_on_.erase(it);
      }
      AddUsed(t, n, -1);
      Recount(t);
    };
    ssn.AddEventHandler(std::move(handler));
    return absl::OkStatus();
  }

 private:
  // Per HyperNode: allocatable and used (kept current), idle and future idle (as the
  // session opened: Volcano's cache is not updated for them).
  struct Fill {
    std::vector<int64_t> allocatable, used, idle, future_idle;
  };

  void FillResourceCache() {
    const Session& s = *s_;
    const absl::Span<const HyperNodeInfo> hns = s.snapshot().hyper_nodes();
    const size_t dims = static_cast<size_t>(s.dims());
    fill_.assign(hns.size(), Fill{});
    holders_.assign(static_cast<size_t>(s.num_nodes()), {});
    for (const HyperNodeInfo& h : hns) {
      Fill& f = fill_[static_cast<size_t>(h.index)];
      f.allocatable.assign(dims, 0);
      f.used.assign(dims, 0);
      f.idle.assign(dims, 0);
      f.future_idle.assign(dims, 0);
      for (NodeIndex n : h.nodes) {
        holders_[static_cast<size_t>(n)].push_back(h.index);
        const Resource future = s.node_future_idle(n);
        for (size_t d = 0; d < dims; ++d) {
          // Saturating, as every resource sum is: legal large nodes must not wrap it.
          f.allocatable[d] = SaturatingAdd(f.allocatable[d], s.node_allocatable(n)[d]);
          f.used[d] = SaturatingAdd(f.used[d], s.node_used(n)[d]);
          f.idle[d] = SaturatingAdd(f.idle[d], s.node_idle(n)[d]);
          f.future_idle[d] = SaturatingAdd(f.future_idle[d], future[static_cast<int>(d)]);
        }
      }
    }
  }

  void AddUsed(TaskIndex t, NodeIndex n, int sign) {
    if (n == kNone) return;
    const absl::Span<const int64_t> req = s_->task_resreq(t);
    for (HyperNodeIndex h : holders_[static_cast<size_t>(n)]) {
      std::vector<int64_t>& used = fill_[static_cast<size_t>(h)].used;
      for (size_t d = 0; d < used.size(); ++d) {
        used[d] = sign > 0 ? SaturatingAdd(used[d], req[d]) : SaturatingSub(used[d], req[d]);
      }
      changed_hyper_nodes_.push_back(h);
    }
  }

  // Volcano's Resource.LessEqual with zero for missing scalars.
  static bool LessEqual(const std::vector<int64_t>& req, const std::vector<int64_t>& have) {
    for (size_t d = 0; d < req.size(); ++d) {
      if (d >= static_cast<size_t>(kFixedDims) && req[d] <= 0) continue;
      if (req[d] > have[d]) return false;
    }
    return true;
  }

  // The hard limit of the job (k == kNone) or sub-group, when it has one.
  std::optional<int32_t> HardTier(JobIndex j, int32_t k) const {
    const JobInfo& job = s_->job(j);
    const std::optional<NetworkTopologySpec>& t =
        k == kNone ? job.network_topology : job.sub_jobs[static_cast<size_t>(k)].network_topology;
    if (!t || t->mode != NetworkTopologySpec::Mode::kHard) return std::nullopt;
    return t->highest_tier_allowed;
  }

  // Eviction domains: the gradients from the widest tier down, at most
  // evict_max_hyper_nodes HyperNodes in all; a tier cut short keeps its last ones.
  std::vector<std::vector<HyperNodeIndex>> WidestFirstCapped(std::vector<std::vector<HyperNodeIndex>> g) const {
    std::vector<std::vector<HyperNodeIndex>> out;
    int64_t left = settings_.evict_max_hyper_nodes;
    for (auto it = g.rbegin(); it != g.rend() && left > 0; ++it) {
      const int64_t size = static_cast<int64_t>(it->size());
      if (size <= left) {
        left -= size;
        out.push_back(std::move(*it));
      } else {
        out.emplace_back(it->end() - left, it->end());
        left = 0;
      }
    }
    return out;
  }

  std::vector<std::vector<HyperNodeIndex>> Gradient(JobIndex j, int32_t k, HyperNodeIndex within,
                                                    SearchPurpose purpose) const {
    const std::optional<int32_t> tier = HardTier(j, k);
    if (!tier) return Only(within);
    const Session& s = *s_;
    std::vector<int64_t> job_minimum;
    const std::vector<int64_t>* min_resource = &job_minimum;
    HyperNodeIndex allocated;
    if (k == kNone) {
      allocated = s.job_allocated_hyper_node(j);
      job_minimum.assign(static_cast<size_t>(s.dims()), 0);
      if (s.job_has_min_resources(j)) {
        const absl::Span<const int64_t> m = s.job_min_resources(j);
        job_minimum.assign(m.begin(), m.end());
      }
    } else {
      allocated = s.sub_job_allocated_hyper_node(j, k);
      min_resource = &PendingRequests(j, k);
    }
    const HyperNodeIndex root = SearchRoot(within, *tier, allocated);
    if (root == kNone) return {};
    const absl::Span<const HyperNodeInfo> hns = s.snapshot().hyper_nodes();
    if (hns[static_cast<size_t>(root)].children.empty()) {  // a leaf: itself or nothing
      if (Eligible(hns[static_cast<size_t>(root)], *tier, allocated, *min_resource, purpose)) return Only(root);
      return {};
    }
    std::vector<std::vector<HyperNodeIndex>> out;
    for (const std::vector<HyperNodeIndex>& level : SubtreeByTier(root)) {
      if (hns[static_cast<size_t>(level.front())].tier > *tier) break;  // above the limit
      std::vector<HyperNodeIndex> kept;
      for (HyperNodeIndex h : level) {
        if (Eligible(hns[static_cast<size_t>(h)], *tier, allocated, *min_resource, purpose)) kept.push_back(h);
      }
      if (!kept.empty()) out.push_back(std::move(kept));
    }
    return out;
  }

  // A gradient of one HyperNode, made with one allocation per level (a braced list
  // would copy it).
  static std::vector<std::vector<HyperNodeIndex>> Only(HyperNodeIndex h) {
    std::vector<std::vector<HyperNodeIndex>> out(1);
    out[0].push_back(h);
    return out;
  }

  // The HyperNodes under `root` and itself, by tier ascending, each tier by index. Kept
  // per root while the kept lists stay within a few times the number of HyperNodes (a
  // deep chain has as many roots as members).
  const std::vector<std::vector<HyperNodeIndex>>& SubtreeByTier(HyperNodeIndex root) const {
    if (auto it = subtrees_.find(root); it != subtrees_.end()) return it->second;
    const absl::Span<const HyperNodeInfo> hns = s_->snapshot().hyper_nodes();
    std::map<int32_t, std::vector<HyperNodeIndex>> by_tier;
    std::vector<HyperNodeIndex> queue = {root};
    for (size_t i = 0; i < queue.size(); ++i) {
      const HyperNodeInfo& h = hns[static_cast<size_t>(queue[i])];
      by_tier[h.tier].push_back(h.index);
      for (HyperNodeIndex c : h.children) queue.push_back(c);
    }
    std::vector<std::vector<HyperNodeIndex>> levels;
    for (auto& [t, list] : by_tier) {
      std::sort(list.begin(), list.end());
      levels.push_back(std::move(list));
    }
    if (subtree_entries_ + queue.size() > 4 * hns.size() + 64) {
      subtree_scratch_ = std::move(levels);
      return subtree_scratch_;
    }
    subtree_entries_ += queue.size();
    return subtrees_[root] = std::move(levels);
  }

  // The requests of sub-group k's pending tasks, summed. Kept while no node's accounting
  // changed: a pending task leaves that state only by being placed on a node.
  const std::vector<int64_t>& PendingRequests(JobIndex j, int32_t k) const {
    const Session& s = *s_;
    PendingSum& memo = pending_sums_[{j, k}];
    const size_t stamp = s.node_change_log().size();
    if (memo.valid && memo.stamp == stamp) return memo.sum;
    memo.sum.assign(static_cast<size_t>(s.dims()), 0);
    for (TaskIndex t : s.job(j).sub_jobs[static_cast<size_t>(k)].tasks) {
      if (s.task_status(t) != TaskStatus::kPending) continue;
      const absl::Span<const int64_t> r = s.task_resreq(t);
      for (size_t d = 0; d < memo.sum.size(); ++d) memo.sum[d] += r[d];
    }
    memo.valid = true;
    memo.stamp = stamp;
    return memo.sum;
  }

  // Allocation needs the minimum in idle or future idle; eviction only in allocatable
  // (victims may free the rest).
  bool Eligible(const HyperNodeInfo& h, int32_t tier, HyperNodeIndex allocated,
                const std::vector<int64_t>& min_resource, SearchPurpose purpose) const {
    if (h.tier > tier) return false;
    if (allocated != kNone) return true;  // partly placed: no resource pre-filter
    const Fill& f = fill_[static_cast<size_t>(h.index)];
    if (purpose == SearchPurpose::kEvict) return LessEqual(min_resource, f.allocatable);
    return LessEqual(min_resource, f.idle) || LessEqual(min_resource, f.future_idle);
  }

  // Where the search starts: `within`, narrowed to the widest ancestor of `allocated`
  // the limit allows; kNone when the two do not overlap.
  HyperNodeIndex SearchRoot(HyperNodeIndex within, int32_t tier, HyperNodeIndex allocated) const {
    if (allocated == kNone) return within;
    const Snapshot& snap = s_->snapshot();
    const absl::Span<const HyperNodeInfo> hns = snap.hyper_nodes();
    HyperNodeIndex highest = kNone;
    for (HyperNodeIndex a = allocated; a != kNone; a = hns[static_cast<size_t>(a)].parent) {
      if (hns[static_cast<size_t>(a)].tier > tier) break;
      highest = a;
    }
    if (highest == kNone) return kNone;
    const HyperNodeIndex lca = snap.HyperNodeLca(within, highest);
    if (lca == highest) return within;
    if (lca == within) return highest;
    return kNone;
  }

  // Binpack over the resources with a weight: how full the request leaves the
  // HyperNode, 0 when it would overflow. `request` is per dimension.
  double FillScore(HyperNodeIndex h, absl::Span<const int64_t> request) const {
    const Fill& f = fill_[static_cast<size_t>(h)];
    double total = 0;
    int64_t total_weight = 0;
    for (size_t d = 0; d < request.size(); ++d) {
      if (weights_[d] < 0) continue;  // not a binpack resource
      if (request[d] <= 0) continue;  // Volcano lists only requested resources
      const double alloc = static_cast<double>(f.allocatable[d]);
      const double used = static_cast<double>(f.used[d]);
      const double req = static_cast<double>(request[d]);
      if (used + req > alloc) return 0.0;
      total += static_cast<double>(weights_[d]) * (used + req) / alloc;
      total_weight = SaturatingAdd(total_weight, weights_[d]);  // weights come from the configuration
    }
    return total_weight > 0 ? total / static_cast<double>(total_weight) : 0.0;
  }

  // Per HyperNode, how many of sub-group k's tasks are on nodes it holds (the share
  // Volcano's scoreWithTaskNum breaks ties with), kept from the first use on.
  const absl::flat_hash_map<HyperNodeIndex, int64_t>& PlacedOn(JobIndex j, int32_t k) {
    auto [it, fresh] = placed_on_hyper_nodes_.try_emplace({j, k});
    if (fresh) {
      for (TaskIndex t : s_->job(j).sub_jobs[static_cast<size_t>(k)].tasks) {
        counted_node_[t] = kNone;
        Recount(t);
      }
    }
    return it->second;
  }
  // Moves a counted task to the node it is on now (placements, undos; an evicted task
  // keeps its node until it is gone, and is counted there).
  void Recount(TaskIndex t) {
    const auto it = counted_node_.find(t);
    if (it == counted_node_.end()) return;
    const NodeIndex now = s_->task_node(t);
    if (now == it->second) return;
    auto& on = placed_on_hyper_nodes_[{s_->job_of(t), s_->task(t).sub_job}];
    if (it->second != kNone) {
      for (HyperNodeIndex h : holders_[static_cast<size_t>(it->second)]) --on[h];
    }
    if (now != kNone) {
      for (HyperNodeIndex h : holders_[static_cast<size_t>(now)]) ++on[h];
    }
    it->second = now;
  }

  // What all of a sub-group's tasks request together (Volcano sums every task of the
  // sub-group, placed or not): fixed for the session.
  const std::vector<int64_t>& SubJobRequest(JobIndex j, int32_t k) {
    auto [it, fresh] = sub_job_requests_.try_emplace({j, k});
    if (fresh) {
      it->second.assign(static_cast<size_t>(s_->dims()), 0);
      for (TaskIndex t : s_->job(j).sub_jobs[static_cast<size_t>(k)].tasks) {
        const absl::Span<const int64_t> r = s_->task_resreq(t);
        for (size_t d = 0; d < it->second.size(); ++d) it->second[d] += r[d];
      }
    }
    return it->second;
  }

  void ScoreHyperNodes(JobIndex j, int32_t k, absl::Span<const HyperNodeIndex> hns, absl::Span<double> out) {
    const std::vector<int64_t>& request = SubJobRequest(j, k);
    std::vector<double>& scores = hyper_node_scores_;
    scores.resize(hns.size());
    double best = -1;
    for (size_t i = 0; i < hns.size(); ++i) {
      scores[i] = FillScore(hns[i], request);
      best = std::max(best, scores[i]);
    }
    // Ties at the best score go to the HyperNode holding more of the sub-group's tasks.
    const std::vector<TaskIndex>& tasks = s_->job(j).sub_jobs[static_cast<size_t>(k)].tasks;
    if (!tasks.empty() && std::count(scores.begin(), scores.end(), best) > 1) {
      const absl::flat_hash_map<HyperNodeIndex, int64_t>& placed = PlacedOn(j, k);
      const double total = static_cast<double>(tasks.size());
      for (size_t i = 0; i < hns.size(); ++i) {
        if (scores[i] != best || hns[i] == kNone) continue;
        const auto it = placed.find(hns[i]);
        scores[i] += static_cast<double>(it == placed.end() ? 0 : it->second) / total;
      }
    }
    for (size_t i = 0; i < hns.size(); ++i) out[i] += Scale(scores[i]);
  }

  // (maxTier - tier) / (maxTier - minTier), 1 when there is one tier.
  double TierScore(int32_t tier) const {
    if (min_tier_ == max_tier_) return 1.0;
    if (tier < min_tier_ || tier > max_tier_) return 0.0;
    return static_cast<double>(max_tier_ - tier) / static_cast<double>(max_tier_ - min_tier_);
  }

  // Every node of one lowest-tier HyperNode scores alike, so each HyperNode is scored
  // once per call; ties at the best score are broken by the sub-group's share of tasks
  // in the node's HyperNode.
  void ScoreNodesForTopology(TaskIndex t, JobIndex j, int32_t k, absl::Span<const NodeIndex> nodes,
                             absl::Span<double> out) {
    const HyperNodeIndex allocated = s_->task_job_allocated_hyper_node(t);
    if (allocated == kNone) return;
    const Snapshot& snap = s_->snapshot();
    if (rack_.size() != fill_.size()) rack_.assign(fill_.size(), RackScore{});
    ++rack_stamp_;
    std::vector<HyperNodeIndex>& racks = node_racks_;
    racks.resize(nodes.size());
    double best = -1;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const HyperNodeIndex h = racks[i] = snap.lowest_tier_hyper_node(nodes[i]);
      if (h == kNone) {
        best = std::max(best, 0.0);
        continue;
      }
      RackScore& r = rack_[static_cast<size_t>(h)];
      if (r.stamp != rack_stamp_) {
        r.stamp = rack_stamp_;
        r.nodes = 0;
        if (h == allocated) {
          r.score = 1.0;
        } else {
          const HyperNodeIndex lca = snap.HyperNodeLca(h, allocated);
          r.score = lca == kNone ? 0.0 : TierScore(snap.hyper_nodes()[static_cast<size_t>(lca)].tier);
        }
      }
      ++r.nodes;
      best = std::max(best, r.score);
    }
    // Ties at the best score go to the HyperNode with more of the sub-group's tasks.
    int64_t at_best = 0;
    for (HyperNodeIndex h : racks) {
      const double score = h == kNone ? 0.0 : rack_[static_cast<size_t>(h)].score;
      if (score == best) at_best += h == kNone ? 1 : std::exchange(rack_[static_cast<size_t>(h)].nodes, 0);
    }
    const std::vector<TaskIndex>& tasks = s_->job(j).sub_jobs[static_cast<size_t>(k)].tasks;
    const bool shares = at_best > 1 && !tasks.empty();
    const absl::flat_hash_map<HyperNodeIndex, int64_t>* placed = shares ? &PlacedOn(j, k) : nullptr;
    const double total = static_cast<double>(tasks.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      const HyperNodeIndex h = racks[i];
      if (h == kNone) continue;  // scores 0
      RackScore& r = rack_[static_cast<size_t>(h)];
      if (r.stamp != rack_stamp_ + 1) {  // each HyperNode's addend once
        r.stamp = rack_stamp_ + 1;
        double score = r.score;
        if (shares && score == best) {
          const auto it = placed->find(h);
          score += static_cast<double>(it == placed->end() ? 0 : it->second) / total;
        }
        r.add = Scale(score);
      }
      out[i] += r.add;
    }
    ++rack_stamp_;
  }

  // Pods without network topology: the fill of the HyperNode holding the node at each
  // tier, weighted fading^(tier-1); a tier where no HyperNode holds it counts as full.
  bool HasTopology(TaskIndex t) const {
    const JobIndex j = s_->job_of(t);
    if (j == kNone) return false;
    const int32_t k = s_->task(t).sub_job;
    return k != kNone && s_->job(j).sub_jobs[static_cast<size_t>(k)].network_topology.has_value();
  }

  // The weight fading^(tier-1) of every tier from the lowest to the highest, and their
  // sum; tiers that no HyperNode uses count as full. When there are many tiers (they
  // are arbitrary integers) only the used ones are listed and the sum is in closed form.
  void WeighTiers() {
    const double f = settings_.fading;
    universal_tiers_.clear();
    universal_weight_ = 0;
    std::map<int32_t, std::vector<HyperNodeIndex>> by_tier;
    for (const HyperNodeInfo& h : s_->snapshot().hyper_nodes()) by_tier[h.tier].push_back(h.index);
    for (const auto& [tier, list] : by_tier) {
      const size_t held = s_->snapshot().hyper_nodes()[static_cast<size_t>(list.front())].nodes.size();
      if (list.size() == 1 && held == static_cast<size_t>(s_->num_nodes())) {
        universal_tiers_.insert(tier);
        universal_weight_ += std::pow(f, static_cast<double>(tier) - 1);
      }
    }
    const auto weight = [f](int32_t tier) { return std::pow(f, static_cast<double>(tier) - 1); };
    tier_weights_.clear();
    const int64_t span = int64_t{max_tier_} - min_tier_ + 1;
    every_tier_ = span <= 64;
    total_tier_weight_ = 0;
    if (every_tier_) {
      for (int32_t tier = min_tier_; tier <= max_tier_; ++tier) {
        if (!universal_tiers_.count(tier)) tier_weights_.push_back({tier, weight(tier)});
        total_tier_weight_ += weight(tier);
      }
      return;
    }
    for (int32_t tier : s_->snapshot().hyper_node_tiers()) {
      if (!universal_tiers_.count(tier)) tier_weights_.push_back({tier, weight(tier)});
    }
    if (f == 1.0) {
      total_tier_weight_ = static_cast<double>(span);
    } else if (f == 0.0) {
      total_tier_weight_ = min_tier_ <= 1 && 1 <= max_tier_ ? 1.0 : 0.0;  // 0^0 = 1
    } else {
      total_tier_weight_ = weight(min_tier_) * (1 - std::pow(f, static_cast<double>(span))) / (1 - f);
    }
  }

  // A group's score for a task shape, kept while the fill of its HyperNodes stays.
  // A shape's group scores, each kept until a HyperNode of its group changes fill.
  struct GroupScores {
    std::vector<double> score;
    std::vector<uint8_t> valid;  // 0 while listed as stale
    std::vector<double> fill;        // per HyperNode: its fill score, while fill_valid
    std::vector<uint8_t> fill_valid;
    size_t log_pos = 0;  // how much of changed_hyper_nodes_ has been seen
  };

  void ScoreGroupsByFill(TaskIndex t, absl::Span<const int32_t> groups, absl::Span<double> out) {
    if (!(total_tier_weight_ > 0)) return;
    const absl::Span<const int64_t> r = s_->task_resreq(t);
    GroupScores& known = group_scores_[s_->task_shape(t)];
    if (known.score.size() != group_holders_.size()) {  // a new shape: every group scored
      known.fill.assign(fill_.size(), 0.0);
      known.fill_valid.assign(fill_.size(), 0);
      known.score.resize(group_holders_.size());
      known.valid.assign(group_holders_.size(), 1);
      for (size_t g = 0; g < known.score.size(); ++g) known.score[g] = GroupFillScore(g, r, known);
      known.log_pos = changed_hyper_nodes_.size();
    }
    // Only groups whose HyperNodes changed fill since the last call are scored again.
    thread_local std::vector<int32_t> stale;
    stale.clear();
    for (; known.log_pos < changed_hyper_nodes_.size(); ++known.log_pos) {
      known.fill_valid[static_cast<size_t>(changed_hyper_nodes_[known.log_pos])] = 0;
      for (int32_t g : groups_of_hyper_node_[static_cast<size_t>(changed_hyper_nodes_[known.log_pos])]) {
        if (known.valid[static_cast<size_t>(g)]) stale.push_back(g);
        known.valid[static_cast<size_t>(g)] = 0;
      }
    }
    for (int32_t g : stale) {
      known.score[static_cast<size_t>(g)] = GroupFillScore(static_cast<size_t>(g), r, known);
      known.valid[static_cast<size_t>(g)] = 1;
    }
    if (groups.size() == known.score.size()) {  // every group, in order (GroupNodeOrderFn)
      const double* score = known.score.data();
      double* to = out.data();
      for (size_t i = 0; i < groups.size(); ++i) to[i] += score[i];
      return;
    }
    for (size_t i = 0; i < groups.size(); ++i) out[i] += known.score[static_cast<size_t>(groups[i])];
  }

  double GroupFillScore(size_t g, absl::Span<const int64_t> request, GroupScores& known) const {
    const absl::Span<const HyperNodeInfo> hns = s_->snapshot().hyper_nodes();
    const std::vector<HyperNodeIndex>& holders = group_holders_[g];
    // The fill score of the first HyperNode of `tier` among the holders, 1 when none is;
    // kept per HyperNode while its fill does not change.
    const auto tier_fill = [&](int32_t tier) {
      for (HyperNodeIndex h : holders) {
        if (hns[static_cast<size_t>(h)].tier != tier) continue;
        const size_t i = static_cast<size_t>(h);
        if (!known.fill_valid[i]) {
          known.fill[i] = FillScore(h, request);
          known.fill_valid[i] = 1;
        }
        return known.fill[i];
      }
      return 1.0;
    };
    // A tier whose one HyperNode holds every node adds the same to every node: left out,
    // it changes no choice, and a placement then changes only the groups near it.
    double total = every_tier_ ? 0.0 : total_tier_weight_ - universal_weight_;
    for (const auto& [tier, w] : tier_weights_) {
      const double fill = tier_fill(tier);
      total += every_tier_ ? w * fill : w * (fill - 1.0);
    }
    return Scale(total / total_tier_weight_);
  }

  double Scale(double score) const { return kMaxNodeScore * static_cast<double>(settings_.weight) * score; }

  Settings settings_;
  const Session* s_ = nullptr;
  int32_t min_tier_ = 0, max_tier_ = 0;
  std::vector<int64_t> weights_;              // per dimension; -1: not a binpack resource
  std::vector<Fill> fill_;
  // ScoreNodesForTopology's scratch: per HyperNode, its score and placed tasks in the
  // call stamped `stamp`.
  struct RackScore {
    uint64_t stamp = 0;  // rack_stamp_ while scored, rack_stamp_ + 1 once `add` is set
    double score = 0;
    int64_t nodes = 0;  // of the call's nodes in it
    double add = 0;     // what each of its nodes gets
  };
  std::vector<RackScore> rack_;
  uint64_t rack_stamp_ = 0;
  std::vector<HyperNodeIndex> node_racks_;
  std::vector<double> hyper_node_scores_;  // ScoreHyperNodes' scratch
  absl::flat_hash_map<std::pair<JobIndex, int32_t>, absl::flat_hash_map<HyperNodeIndex, int64_t>> placed_on_hyper_nodes_;
  absl::flat_hash_map<TaskIndex, NodeIndex> counted_node_;  // tasks of those sub-groups: where counted                    // per HyperNode
  std::vector<std::vector<HyperNodeIndex>> holders_;  // per node: the HyperNodes holding it, ascending
  std::vector<std::vector<HyperNodeIndex>> group_holders_;  // per node group: the HyperNodes holding it
  std::vector<std::pair<int32_t, double>> tier_weights_;  // (tier, fading^(tier-1))
  double total_tier_weight_ = 0;
  bool every_tier_ = true;  // tier_weights_ lists every tier from the lowest to the highest
  std::set<int32_t> universal_tiers_;  // tiers whose only HyperNode holds every node
  double universal_weight_ = 0;
  std::map<int32_t, GroupScores> group_scores_;  // by task shape
  std::vector<std::vector<int32_t>> groups_of_hyper_node_;  // per HyperNode: the groups it holds
  std::vector<HyperNodeIndex> changed_hyper_nodes_;  // each change of a HyperNode's fill, in order
  std::map<std::pair<JobIndex, int32_t>, std::vector<int64_t>> sub_job_requests_;
  absl::flat_hash_map<TaskIndex, NodeIndex> placed_on_;  // tasks placed in this session
  struct PendingSum {
    bool valid = false;
    size_t stamp = 0;  // the node change log's length when summed
    std::vector<int64_t> sum;
  };
  mutable absl::flat_hash_map<std::pair<JobIndex, int32_t>, PendingSum> pending_sums_;
  // SubtreeByTier's lists, by root, and how many HyperNodes they hold in all.
  mutable absl::flat_hash_map<HyperNodeIndex, std::vector<std::vector<HyperNodeIndex>>> subtrees_;
  mutable size_t subtree_entries_ = 0;
  mutable std::vector<std::vector<HyperNodeIndex>> subtree_scratch_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewNetworkTopologyPlugin(const Arguments& args) {
  Settings s;
  const auto at_least_zero = [](int64_t v) { return v < 0 ? int64_t{1} : v; };
  VCSCHED_ASSIGN_OR_RETURN(const int64_t weight, args.GetInt("weight", 1));
  s.weight = at_least_zero(weight);
  VCSCHED_ASSIGN_OR_RETURN(const int64_t cpu, args.GetInt("hypernode.binpack.cpu", 1));
  VCSCHED_ASSIGN_OR_RETURN(const int64_t memory, args.GetInt("hypernode.binpack.memory", 1));
  s.binpack["cpu"] = at_least_zero(cpu);
  s.binpack["memory"] = at_least_zero(memory);
  VCSCHED_ASSIGN_OR_RETURN(const std::string extra, args.GetString("hypernode.binpack.resources", ""));
  for (absl::string_view name : absl::StrSplit(extra, ',', absl::SkipWhitespace())) {
    const std::string n(absl::StripAsciiWhitespace(name));
    if (n.empty()) continue;
    VCSCHED_ASSIGN_OR_RETURN(const int64_t w, args.GetInt(absl::StrCat("hypernode.binpack.resources.", n), 1));
    s.binpack[n] = at_least_zero(w);
  }
  VCSCHED_ASSIGN_OR_RETURN(s.normal_pod_binpack, args.GetBool("hypernode.binpack.normal-pod.enable", true));
  VCSCHED_ASSIGN_OR_RETURN(s.fading, args.GetFloat("hypernode.binpack.normal-pod.fading", 0.8));
  if (s.fading < 0) s.fading = 0.8;
  VCSCHED_ASSIGN_OR_RETURN(s.evict_max_hyper_nodes, args.GetInt("hypernode.gradient.evict.max-hypernodes", 8));
  if (s.evict_max_hyper_nodes <= 0) s.evict_max_hyper_nodes = 8;  // Volcano's fallback
  return std::unique_ptr<Plugin>(new NetworkTopologyPlugin(std::move(s)));
}

}  // namespace vcsched::internal
