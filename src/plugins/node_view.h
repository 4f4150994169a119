// The Kubernetes-style node view that the predicates and nodeorder plugins share
// (Session::Shared<NodeView>): the pods on each node and their summed requests. It
// starts from the session's placement when first asked for; only the predicates
// plugin's event handlers add this session's placements, so (as in Volcano) nodeorder
// sees them only when predicates is enabled.
#ifndef VCSCHED_SRC_PLUGINS_NODE_VIEW_H_
#define VCSCHED_SRC_PLUGINS_NODE_VIEW_H_

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

#include "vcsched/session.h"

namespace vcsched::internal {

class NodeView {
 public:
  // Places every task that holds a node in the session now. While no task has moved
  // since the session opened (most sessions of a simulation place nothing), that is
  // the snapshot's placement, and it is worked out on first use instead of here: first
  // the per-node totals that plain pods need (from the session's status and node
  // columns), and the per-node pod lists only when something asks for them (pod
  // affinity, spread), laid out then as they would have been from the start.
  explicit NodeView(const Session& ssn);
  void Add(TaskIndex t, NodeIndex n);
  void Remove(TaskIndex t);

  absl::Span<const TaskIndex> pods(NodeIndex n) const { return Lists().pods_[static_cast<size_t>(n)]; }
  // pods(n).size(), without the lists.
  int32_t pod_count(NodeIndex n) const { return Totals().count_[static_cast<size_t>(n)]; }
  NodeIndex node_of(TaskIndex t) const { return Totals().node_of_[static_cast<size_t>(t)]; }
  int64_t nonzero_cpu(NodeIndex n) const { return Totals().nonzero_cpu_[static_cast<size_t>(n)]; }
  int64_t nonzero_memory(NodeIndex n) const { return Totals().nonzero_mem_[static_cast<size_t>(n)]; }
  // Actual requested amount of dimension `d` on node `n`.
  int64_t requested(NodeIndex n, int d) const {
    return Totals().requested_[static_cast<size_t>(n) * static_cast<size_t>(dims_) + static_cast<size_t>(d)];
  }
  // Whether a placed pod carries required or preferred pod (anti-)affinity terms.
  bool has_pods_with_affinity() const { return Totals().with_affinity_count_ > 0; }

  // Every Add/Remove is logged; seq() is the log's length. Kubernetes filters compute
  // their pod-affinity state once per task (PreFilter), so the filters read the view as
  // it was at that point: AsOf(seq) undoes the changes logged since. (Nothing is logged
  // before the view is placed, so asking places nothing.)
  int64_t seq() const { return static_cast<int64_t>(log_.size()); }
  struct Placement {
    TaskIndex task;
    NodeIndex node;
  };
  // The pods placed at log position `seq` (all of them, on every node), in no
  // particular order. seq < 0 means now.
  std::vector<Placement> AsOf(int64_t seq) const;
  // The changes logged from position `seq` on (0 <= seq <= seq()), oldest first.
  struct Change {
    TaskIndex task;
    NodeIndex node;
    bool added;
  };
  absl::Span<const Change> ChangesSince(int64_t seq) const {
    return absl::MakeConstSpan(log_).subspan(static_cast<size_t>(seq));
  }

  // Pods that may carry the label key=value: every pod placed at some time in this
  // session with that label (test node_of() >= 0 for "placed now"). Built on first use,
  // then kept up to date, so finding the pods a selector names costs those pods, not
  // every pod of the cluster. Null when no pod ever had that label.
  const std::vector<TaskIndex>* PodsWithLabel(absl::string_view key, absl::string_view value);
  // Every pod placed at some time in this session (test node_of()).
  const std::vector<TaskIndex>& PodsEverPlaced() const { return Lists().ever_placed_; }
  // Whether a term of a placed pod (required or preferred, affinity or anti-affinity)
  // selects `t`. When none does and `t` has no terms of its own, the affinity filter
  // and score treat `t` as if no pod had terms. Found through an index of the terms by
  // the label their selector requires, so it costs `t`'s labels, not the placed pods.
  bool AnyPlacedTermSelects(TaskIndex t);
  // A term of a placed pod, with the rule it belongs to.
  enum class TermKind : uint8_t { kRequiredAffinity, kRequiredAntiAffinity, kPreferredAffinity, kPreferredAntiAffinity };
  struct PlacedTerm {
    TaskIndex owner;
    const PodAffinityTerm* term;
    TermKind kind;
    int32_t weight;  // preferred terms only
  };
  // Calls f(term) for each term of a placed pod that selects `t` (not `t`'s own), until
  // f returns true; returns whether one did.
  template <typename F>
  bool ForEachPlacedTermSelecting(TaskIndex t, F&& f);

  // The topology domains of a node label key: each node's domain id (-1 when the node
  // lacks the key) and each domain's value. Node labels do not change in a session, so
  // it is built on first use of the key and kept: spreading then costs an array read per
  // node instead of a label lookup and a string comparison.
  struct Domains {
    std::vector<int32_t> of_node;
    std::vector<const std::string*> value;  // by domain id; points into the snapshot
    // The nodes of each domain, ascending: those of domain d at [start[d], start[d + 1]).
    std::vector<NodeIndex> nodes;
    std::vector<int32_t> start;
    absl::Span<const NodeIndex> NodesOf(int32_t d) const {
      const auto b = static_cast<size_t>(start[static_cast<size_t>(d)]);
      return absl::MakeConstSpan(nodes).subspan(b, static_cast<size_t>(start[static_cast<size_t>(d) + 1]) - b);
    }
  };
  const Domains& DomainsOf(const std::string& key) const;

 private:
  // The totals (node_of_, count_, the sums, with_affinity_count_), placed first when
  // they were left for first use.
  const NodeView& Totals() const {
    if (!totals_built_) const_cast<NodeView*>(this)->PlaceTotals();
    return *this;
  }
  // The lists too (pods_, slot_, ever_, with_affinity_).
  const NodeView& Lists() const {
    if (!lists_built_) const_cast<NodeView*>(this)->PlaceLists();
    return *this;
  }
  // Places every task that holds a node, totals and lists: at the session's opening
  // (from the snapshot's records) or now.
  void Place(bool as_opened);
  // The totals at the opening, read from the session's columns while no task has moved;
  // else Place(true).
  void PlaceTotals();
  // The lists as they stood at the opening, then the logged changes replayed on them.
  void PlaceLists();
  void SizeTotals(size_t nodes, size_t tasks);
  void SizeLists(size_t nodes, size_t tasks);
  // The lists with each task where `where` has it (kNone: nowhere), in task order.
  void PlaceListsAt(const std::vector<NodeIndex>& where);
  // The totals' and the lists' parts of Add and Remove.
  void CountIn(TaskIndex t, NodeIndex n);
  void CountOut(TaskIndex t, NodeIndex n);
  void ListAdd(TaskIndex t, NodeIndex n);
  void ListRemove(TaskIndex t, NodeIndex n);
  const Session* ssn_;
  int dims_;
  bool totals_built_ = false;
  bool lists_built_ = false;
  // Each node's list is carved from one arena (declared first: it outlives them): a
  // session that places pods would otherwise allocate and free one list per node.
  std::pmr::monotonic_buffer_resource arena_;
  std::vector<std::pmr::vector<TaskIndex>> pods_;
  std::vector<NodeIndex> node_of_;
  std::vector<int32_t> count_;
  std::vector<int32_t> slot_;
  std::vector<int64_t> nonzero_cpu_, nonzero_mem_, requested_;
  int64_t with_affinity_count_ = 0;
  std::vector<TaskIndex> with_affinity_;  // ascending
  std::vector<Change> log_;
  void IndexLabels(TaskIndex t);
  bool label_index_built_ = false;
  absl::flat_hash_map<std::string, std::vector<TaskIndex>> by_label_;  // "key\0value"
  std::vector<uint8_t> ever_;                                         // by task: in ever_placed_
  std::vector<TaskIndex> ever_placed_;
  void IndexTerms(TaskIndex t);
  void BuildTermIndex();
  // `via_label`: pt was found under a label of `pod` that its selector requires.
  bool Selects(const PlacedTerm& pt, TaskIndex t, const PodSpec& pod, bool via_label) const;
  const PodSpec& PodOf(TaskIndex t) const;
  bool term_index_built_ = false;
  std::vector<uint8_t> terms_indexed_;                                        // by task
  absl::flat_hash_map<std::string, std::vector<PlacedTerm>> terms_by_label_;  // "key\0value"
  std::vector<PlacedTerm> terms_any_label_;  // selectors that require no one label
  mutable absl::flat_hash_map<std::string, std::unique_ptr<Domains>> domains_;  // by label key
  TaskIndex selects_task_ = kNone;  // AnyPlacedTermSelects' last answer
  int64_t selects_seq_ = -1;
  bool selects_ = false;
};

template <typename F>
bool NodeView::ForEachPlacedTermSelecting(TaskIndex t, F&& f) {
  if (!has_pods_with_affinity()) return false;
  Lists();
  BuildTermIndex();
  const PodSpec& pod = PodOf(t);
  for (const PlacedTerm& pt : terms_any_label_) {
    if (Selects(pt, t, pod, false) && f(pt)) return true;
  }
  std::string key;
  for (const auto& [k, v] : pod.labels) {
    key.assign(k);
    key.push_back('\0');
    key.append(v);
    auto it = terms_by_label_.find(key);
    if (it == terms_by_label_.end()) continue;
    for (const PlacedTerm& pt : it->second) {
      if (Selects(pt, t, pod, true) && f(pt)) return true;
    }
  }
  return false;
}

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_NODE_VIEW_H_
