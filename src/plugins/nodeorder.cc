// nodeorder: Kubernetes score plugins, each 0-100 times its weight, summed
// (docs/reference/scheduler.md §10.9). Scores read the shared node view, with Kubernetes' integer
// arithmetic and normalisations.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "src/model/k8s_match.h"
#include "src/internal/toleration_index.h"
#include "src/util/status_macros.h"
#include "src/plugins/plugins.h"
#include "src/plugins/pod_affinity_weights.h"
#include "src/plugins/topology.h"

namespace vcsched::internal {
namespace {

constexpr int64_t kMaxNodeScore = 100;

struct Weights {
  int64_t least_requested = 1;
  int64_t most_requested = 0;
  int64_t balanced = 1;
  int64_t node_affinity = 2;
  int64_t pod_affinity = 2;
  int64_t taint_toleration = 3;
  int64_t image_locality = 1;
  int64_t topology_spread = 2;
};

// Products of Kubernetes' int64 score formulas, taken wide so huge nodes cannot wrap them.
__extension__ using Wide = __int128;

// A plugin weight times a score, in double: exact for every real weight, and no wrap for
// an absurd one.
double Weighted(int64_t weight, int64_t score) { return static_cast<double>(weight) * static_cast<double>(score); }

// a * b / c (c > 0) as Kubernetes' int64 formulas mean it: in 64 bits when the product
// fits, as it nearly always does (a 128-bit division is several times dearer), else wide.
int64_t MulDiv(int64_t a, int64_t b, int64_t c) {
  int64_t product = 0;
  if (!__builtin_mul_overflow(a, b, &product)) return product / c;
  return static_cast<int64_t>(static_cast<Wide>(a) * b / c);
}

// ImageLocality (Kubernetes v1.36.1): a pod's image named without a tag means ":latest".
std::string NormalizedImageName(const std::string& name) {
  const size_t colon = name.rfind(':'), slash = name.rfind('/');
  const bool tagged = colon != std::string::npos && (slash == std::string::npos || colon > slash);
  return tagged ? name : name + ":latest";
}

// The image score's bounds: 23 MiB, and 1000 MiB per container.
constexpr int64_t kMiB = 1024 * 1024;
constexpr int64_t kImageMinThreshold = 23 * kMiB;
constexpr int64_t kImageMaxContainerThreshold = 1000 * kMiB;

int64_t LeastRequested(int64_t requested, int64_t capacity) {
  if (capacity <= 0 || requested > capacity) return 0;
  return MulDiv(capacity - requested, kMaxNodeScore, capacity);
}

int64_t MostRequested(int64_t requested, int64_t capacity) {
  if (capacity <= 0) return 0;
  requested = std::min(requested, capacity);
  return MulDiv(requested, kMaxNodeScore, capacity);
}

class NodeOrderPlugin : public Plugin {
 public:
  explicit NodeOrderPlugin(Weights w) : w_(w) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    ssn_ = &ssn;
    view_ = &ssn.Shared<NodeView>();
    weights_.emplace(ssn, *view_);
    gpu_dim_ = ssn.snapshot().space().Find("nvidia.com/gpu");
    if (w_.image_locality != 0) IndexImages();
    for (const NodeInfo& node : ssn.snapshot().nodes()) {
      for (const Taint& taint : node.spec.taints) any_prefer_no_schedule_ |= taint.effect == "PreferNoSchedule";
    }
    // Scores that depend on more than the task's shape and the node: taint counts are
    // normalised over the candidates.
    if (w_.taint_toleration != 0 && any_prefer_no_schedule_) {
      ssn.AddNodeChoiceVetoFn([](TaskIndex) { return true; });
    }
    ssn.AddBatchNodeOrderFn([this](TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
      Score(t, nodes, scores);
    });
    // Pod affinity and spread read where other pods are: asked per task, after the rest.
    ssn.AddPlacementNodeOrderFn(
        [this](TaskIndex t) { return PlacementScored(t); },
        [this](TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
          ScorePlacement(t, nodes, scores);
        },
        [this](TaskIndex t, PlacementBound& bound) { return BoundPlacement(t, bound.nodes); });
    return absl::OkStatus();
  }

 private:
  void Score(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
    const Session& s = *ssn_;
    const TaskInfo& task = s.task(t);
    if (w_.least_requested != 0 || w_.most_requested != 0) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        const NodeIndex n = nodes[i];
        const int64_t cpu_cap = s.node_allocatable(n)[kCpu], mem_cap = s.node_allocatable(n)[kMemory];
        const int64_t cpu_req = SaturatingAdd(view_->nonzero_cpu(n), s.task_nonzero_cpu(t));
        const int64_t mem_req = SaturatingAdd(view_->nonzero_memory(n), s.task_nonzero_memory(t));
        if (w_.least_requested != 0) {
          scores[i] += Weighted(w_.least_requested, Combine(LeastRequested(cpu_req, cpu_cap), cpu_cap,
                                                            LeastRequested(mem_req, mem_cap), mem_cap));
        }
        if (w_.most_requested != 0) {
          scores[i] += Weighted(w_.most_requested, Combine(MostRequested(cpu_req, cpu_cap), cpu_cap,
                                                           MostRequested(mem_req, mem_cap), mem_cap));
        }
      }
    }
    if (w_.balanced != 0) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        scores[i] += Weighted(w_.balanced, Balanced(t, nodes[i]));
      }
    }
    if (w_.image_locality != 0 && !images_.empty()) ImageLocality(*task.pod, nodes, scores);
    const bool placement_terms = s.task_flags(t) & kTaskPlacementTerms;
    if (w_.node_affinity != 0 && placement_terms && !task.pod->affinity.preferred_node_terms.empty()) {
      std::vector<int64_t> raw(nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i) {
        int64_t sum = 0;
        for (const PreferredSchedulingTerm& term : task.pod->affinity.preferred_node_terms) {
          if (term.weight != 0 && MatchNodeSelectorTerm(term.preference, s.node_info(nodes[i]).spec)) {
            sum += term.weight;
          }
        }
        raw[i] = sum;
      }
      NormalizeAndAdd(raw, false, w_.node_affinity, scores);
    }
    if (w_.taint_toleration != 0 && !any_prefer_no_schedule_) {
      // No node has a PreferNoSchedule taint: every count is 0, which normalises to
      // the full score (the common case; no per-call buffers).
      for (size_t i = 0; i < nodes.size(); ++i) scores[i] += Weighted(w_.taint_toleration, kMaxNodeScore);
    } else if (w_.taint_toleration != 0) {
      std::vector<Toleration> relevant;
      for (const Toleration& tol : task.pod->tolerations) {
        if (tol.effect.empty() || tol.effect == "PreferNoSchedule") relevant.push_back(tol);
      }
      const TolerationIndex tolerations(&relevant);
      std::vector<int64_t> raw(nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i) {
        int64_t count = 0;
        for (const Taint& taint : s.node_info(nodes[i]).spec.taints) {
          if (taint.effect != "PreferNoSchedule") continue;
          if (!tolerations.Tolerates(taint)) ++count;
        }
        raw[i] = count;
      }
      NormalizeAndAdd(raw, true, w_.taint_toleration, scores);
    }
  }

  // Each node's images as Volcano's cache summarises them when the node is added (nodes
  // in name order, as a starting scheduler lists them): an image's size is the one the
  // first node reported, and its node count is the nodes added so far that hold it. The
  // cache does not update a node's summary until that node changes again, so the count
  // differs between nodes of one session; vcsched follows a freshly started scheduler.
  void IndexImages() {
    struct Seen {
      int64_t size = 0;
      int32_t nodes = 0;
    };
    absl::flat_hash_map<std::string, Seen> seen;
    const absl::Span<const NodeInfo> nodes = ssn_->snapshot().nodes();
    for (size_t i = 0; i < nodes.size(); ++i) {
      for (const NodeImage& image : nodes[i].spec.images) {
        for (const std::string& name : image.names) {
          auto [it, added] = seen.try_emplace(name, Seen{image.size_bytes, 0});
          if (images_.empty()) images_.resize(nodes.size());
          auto [mine, first_here] = images_[i].try_emplace(name, ImageState{});
          if (!first_here) continue;  // one node lists a name once
          ++it->second.nodes;
          mine->second = ImageState{it->second.size, it->second.nodes};
        }
      }
    }
  }

  // Kubernetes' ImageLocality score: the pod's images the node holds, each its size times
  // the fraction of nodes holding it, scaled between the thresholds to 0-100.
  void ImageLocality(const PodSpec& pod, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const {
    std::vector<std::string> wanted;
    for (const Container& c : pod.init_containers) wanted.push_back(NormalizedImageName(c.image));
    for (const Container& c : pod.containers) wanted.push_back(NormalizedImageName(c.image));
    for (const std::string& image : pod.image_volumes) wanted.push_back(NormalizedImageName(image));
    const auto containers = static_cast<int64_t>(pod.init_containers.size() + pod.containers.size());
    const double total_nodes = static_cast<double>(ssn_->num_nodes());
    const int64_t max_threshold = kImageMaxContainerThreshold * containers;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const absl::flat_hash_map<std::string, ImageState>& held = images_[static_cast<size_t>(nodes[i])];
      int64_t sum = 0;
      for (const std::string& name : wanted) {
        auto it = held.find(name);
        if (it == held.end()) continue;
        const double spread = static_cast<double>(it->second.nodes) / total_nodes;
        sum = SaturatingAdd(sum, static_cast<int64_t>(static_cast<double>(it->second.size) * spread));
      }
      if (sum < kImageMinThreshold) sum = kImageMinThreshold;
      else if (sum > max_threshold) sum = max_threshold;
      scores[i] += Weighted(w_.image_locality, MulDiv(sum - kImageMinThreshold, kMaxNodeScore,
                                                      max_threshold - kImageMinThreshold));
    }
  }

  // Whether ScorePlacement may add anything but zeros for `t`: its own preferred pod
  // terms or ScheduleAnyway spread constraints, or a placed pod's term selecting it.
  bool PlacementScored(TaskIndex t) const {
    const Session& s = *ssn_;
    const bool placement_terms = s.task_flags(t) & kTaskPlacementTerms;
    const PodSpec& pod = *s.task(t).pod;
    if (w_.topology_spread != 0 && placement_terms && HasSpreadConstraint(pod, /*do_not_schedule=*/false)) return true;
    if (w_.pod_affinity == 0) return false;
    if (placement_terms && (!pod.affinity.preferred_pod_affinity.empty() || !pod.affinity.preferred_pod_anti_affinity.empty())) {
      return true;
    }
    return view_->has_pods_with_affinity() && view_->AnyPlacedTermSelects(t);
  }

  void ScorePlacement(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
    const bool placement_terms = ssn_->task_flags(t) & kTaskPlacementTerms;
    if (w_.pod_affinity != 0 && (placement_terms || view_->has_pods_with_affinity())) {
      PodAffinityScore(t, nodes, scores);
    }
    if (w_.topology_spread != 0 && placement_terms) TopologySpreadScore(t, nodes, scores);
  }

  // NodeResourcesFit's weighted average over cpu and memory (weight 1 each); a resource
  // the node has none of is left out.
  static int64_t Combine(int64_t cpu_score, int64_t cpu_cap, int64_t mem_score, int64_t mem_cap) {
    int64_t sum = 0, weights = 0;
    if (cpu_cap > 0) { sum += cpu_score; ++weights; }
    if (mem_cap > 0) { sum += mem_score; ++weights; }
    return weights == 0 ? 0 : sum / weights;
  }

  // NodeResourcesBalancedAllocation as Kubernetes v1.36.1 scores it
  // (noderesources/balanced_allocation.go, balancedResourceScorer): not the balance the
  // node has with the pod, but how much the pod improves it. Both balances are
  // `int((1 - std) * 100)` over the same resources; the score is
  // `50 + (50 + with - without) / 2`, in [50, 100] (75 when the pod changes nothing).
  int64_t Balanced(TaskIndex t, NodeIndex n) const {
    const Session& s = *ssn_;
    const absl::Span<const int64_t> req = s.task_resreq(t);
    // cpu, memory and at most one gpu: no allocation per node
    std::array<double, 3> with_pod{}, without_pod{};
    size_t count = 0;
    bool requests_any = false;
    auto add = [&](int d) {
      const size_t i = static_cast<size_t>(d);
      const int64_t cap = s.node_allocatable(n)[i];
      if (req[i] > 0) requests_any = true;
      if (cap <= 0) return;
      // Kubernetes sums in int64 and divides as float64.
      const int64_t allocated = view_->requested(n, d);
      const double capacity = static_cast<double>(cap);
      with_pod[count] = std::min(static_cast<double>(SaturatingAdd(allocated, req[i])) / capacity, 1.0);
      without_pod[count] = std::min(static_cast<double>(allocated) / capacity, 1.0);
      ++count;
    };
    add(kCpu);
    add(kMemory);
    if (gpu_dim_ >= 0 && req[static_cast<size_t>(gpu_dim_)] > 0) add(gpu_dim_);
    if (!requests_any) return 0;  // a best-effort pod: Kubernetes skips the plugin
    const int64_t with = BalanceScore(with_pod.data(), count);
    const int64_t without = BalanceScore(without_pod.data(), count);
    return kMaxNodeScore / 2 + (kMaxNodeScore / 2 + with - without) / 2;
  }

  // `int((1 - std) * 100)` over the fractions, std as Kubernetes computes it: |f1 - f2| / 2
  // for two, the population standard deviation for more, 0 for fewer.
  static int64_t BalanceScore(const double* fractions, size_t count) {
    double std_dev = 0;
    if (count == 2) {
      std_dev = std::fabs((fractions[0] - fractions[1]) / 2);
    } else if (count > 2) {
      double total = 0;
      for (size_t i = 0; i < count; ++i) total += fractions[i];
      const double mean = total / static_cast<double>(count);
      double sum = 0;
      for (size_t i = 0; i < count; ++i) sum += (fractions[i] - mean) * (fractions[i] - mean);
      std_dev = std::sqrt(sum / static_cast<double>(count));
    }
    return static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
  }

  // Kubernetes DefaultNormalizeScore: scale to 0-100 by the maximum; `reverse` turns
  // high counts into low scores.
  static void NormalizeAndAdd(const std::vector<int64_t>& raw, bool reverse, int64_t weight,
                              absl::Span<double> scores) {
    int64_t max = 0;
    for (int64_t v : raw) max = std::max(max, v);
    for (size_t i = 0; i < raw.size(); ++i) {
      int64_t v = raw[i];
      if (max == 0) {
        v = reverse ? kMaxNodeScore : 0;
      } else {
        v = MulDiv(kMaxNodeScore, v, max);
        if (reverse) v = kMaxNodeScore - v;
      }
      scores[i] += Weighted(weight, v);
    }
  }

  // InterPodAffinity: preferred terms of the pod against placed pods, and placed pods'
  // terms against the pod, summed per topology domain, then min-max normalised.
  void PodAffinityScore(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
    const absl::Span<const PodAffinityWeights::KeyWeights> keys = weights_->For(t);
    // No weight anywhere: every node's sum is 0, which normalises to 0 (nothing to add).
    const auto zero = [](const PodAffinityWeights::KeyWeights& k) {
      return std::all_of(k.touched.begin(), k.touched.end(),
                         [&](int32_t d) { return k.weight[static_cast<size_t>(d)] == 0; });
    };
    if (std::all_of(keys.begin(), keys.end(), zero) || nodes.empty()) return;  // preemption may score no node
    std::vector<int64_t>& raw = raw_;
    raw.assign(nodes.size(), 0);
    for (const PodAffinityWeights::KeyWeights& k : keys) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        const int32_t domain = k.domains->of_node[static_cast<size_t>(nodes[i])];
        if (domain >= 0) raw[i] = SaturatingAdd(raw[i], k.weight[static_cast<size_t>(domain)]);
      }
    }
    int64_t max = INT64_MIN, min = INT64_MAX;
    for (int64_t v : raw) {
      max = std::max(max, v);
      min = std::min(min, v);
    }
    const int64_t diff = SaturatingSub(max, min);  // sums saturate, so may their spread
    if (diff <= 0) return;  // every node normalises to 0
    for (size_t i = 0; i < raw.size(); ++i) {
      const int64_t v = static_cast<int64_t>(static_cast<double>(kMaxNodeScore) *
                                             (static_cast<double>(SaturatingSub(raw[i], min)) / static_cast<double>(diff)));
      scores[i] += Weighted(w_.pod_affinity, v);
    }
  }

  // Where PodAffinityScore may score differently (PlacementBoundFn): the nodes of the
  // domains with a weight; every other node's sum is 0. ScheduleAnyway spread
  // constraints weigh the nodes scored, so they are not bounded.
  bool BoundPlacement(TaskIndex t, std::vector<NodeIndex>& nodes) {
    const Session& s = *ssn_;
    if (w_.topology_spread != 0 && (s.task_flags(t) & kTaskPlacementTerms) &&
        HasSpreadConstraint(*s.task(t).pod, /*do_not_schedule=*/false)) {
      return false;
    }
    if (w_.pod_affinity == 0) return true;
    for (const PodAffinityWeights::KeyWeights& k : weights_->For(t)) {
      for (int32_t d : k.touched) {
        if (k.weight[static_cast<size_t>(d)] == 0) continue;
        const absl::Span<const NodeIndex> in = k.domains->NodesOf(d);
        nodes.insert(nodes.end(), in.begin(), in.end());
      }
    }
    return true;
  }

  // PodTopologySpread with ScheduleAnyway constraints (Kubernetes scoring).
  void TopologySpreadScore(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
    const Session& s = *ssn_;
    const PodSpec& pod = *s.task(t).pod;
    std::vector<const TopologySpreadConstraint*> soft;
    for (const auto& c : pod.topology_spread_constraints) {
      if (!c.do_not_schedule) soft.push_back(&c);
    }
    if (soft.empty()) return;
    // Kubernetes' PreScore: a feasible node without every constraint's key is ignored;
    // each constraint's weight is log(domains + 2) over the feasible nodes kept (per node
    // for the hostname key); counts come from every node that counts for spreading.
    std::vector<double> raw(nodes.size(), 0);
    std::vector<bool> ignored(nodes.size(), false);
    NodeView& view = *view_;
    size_t kept = 0;
    for (const TopologySpreadConstraint* c : soft) {
      const NodeView::Domains& d = view.DomainsOf(c->topology_key);
      for (size_t i = 0; i < nodes.size(); ++i) {
        ignored[i] = ignored[i] || d.of_node[static_cast<size_t>(nodes[i])] < 0;
      }
    }
    for (size_t i = 0; i < nodes.size(); ++i) kept += ignored[i] ? 0 : 1;
    for (const TopologySpreadConstraint* c : soft) {
      const bool per_node = c->topology_key == "kubernetes.io/hostname";
      const NodeView::Domains& d = view.DomainsOf(c->topology_key);
      DomainCounts counts;
      if (!per_node) counts = CountPodsPerDomainNow(*ssn_, t, *c, view);
      // The constraint's weight counts the domains of the candidate nodes kept.
      std::vector<uint8_t> seen(d.value.size(), 0);
      size_t domains = 0;
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (ignored[i]) continue;
        uint8_t& was = seen[static_cast<size_t>(d.of_node[static_cast<size_t>(nodes[i])])];
        domains += was ? 0 : 1;
        was = 1;
      }
      const double weight = std::log(static_cast<double>(per_node ? kept : domains) + 2);
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (ignored[i]) continue;
        int64_t count = 0;
        if (per_node) {
          for (TaskIndex other : view_->pods(nodes[i])) {
            if (other != t && CountsForSpread(*s.task(other).pod, pod, *c)) ++count;
          }
        } else {
          count = counts.OfNode(nodes[i]);
        }
        raw[i] += static_cast<double>(count) * weight + static_cast<double>(c->max_skew - 1);
      }
    }
    std::vector<int64_t> rounded(nodes.size());
    int64_t max = INT64_MIN, min = INT64_MAX;
    for (size_t i = 0; i < nodes.size(); ++i) {
      rounded[i] = static_cast<int64_t>(std::round(raw[i]));
      if (ignored[i]) continue;
      max = std::max(max, rounded[i]);
      min = std::min(min, rounded[i]);
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
      int64_t v = 0;
      if (!ignored[i]) {
        v = max <= 0 ? kMaxNodeScore
                     : static_cast<int64_t>(static_cast<Wide>(kMaxNodeScore) *
                                            (static_cast<Wide>(max) + min - rounded[i]) / max);
      }
      scores[i] += Weighted(w_.topology_spread, v);
    }
  }

  Weights w_;
  std::optional<PodAffinityWeights> weights_;  // PodAffinityScore's, kept across tasks
  struct ImageState {
    int64_t size = 0;
    int32_t nodes = 0;  // the nodes holding it, as this node's summary counts them
  };
  std::vector<absl::flat_hash_map<std::string, ImageState>> images_;  // by node; empty: no node lists images
  std::vector<int64_t> raw_;      // PodAffinityScore's scratch
  Session* ssn_ = nullptr;
  NodeView* view_ = nullptr;
  bool any_prefer_no_schedule_ = false;
  int gpu_dim_ = -1;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewNodeOrderPlugin(const Arguments& args) {
  Weights w;
  VCSCHED_ASSIGN_OR_RETURN(w.least_requested, args.GetInt("leastrequested.weight", 1));
  VCSCHED_ASSIGN_OR_RETURN(w.most_requested, args.GetInt("mostrequested.weight", 0));
  VCSCHED_ASSIGN_OR_RETURN(w.balanced, args.GetInt("balancedresource.weight", 1));
  VCSCHED_ASSIGN_OR_RETURN(w.node_affinity, args.GetInt("nodeaffinity.weight", 2));
  VCSCHED_ASSIGN_OR_RETURN(w.pod_affinity, args.GetInt("podaffinity.weight", 2));
  VCSCHED_ASSIGN_OR_RETURN(w.taint_toleration, args.GetInt("tainttoleration.weight", 3));
  VCSCHED_ASSIGN_OR_RETURN(w.image_locality, args.GetInt("imagelocality.weight", 1));
  VCSCHED_ASSIGN_OR_RETURN(w.topology_spread, args.GetInt("podtopologyspread.weight", 2));
  return std::unique_ptr<Plugin>(new NodeOrderPlugin(w));
}

}  // namespace vcsched::internal
