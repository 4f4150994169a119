#include "src/plugins/pod_affinity_state.h"

#include <algorithm>

#include "src/model/k8s_match.h"

namespace vcsched::internal {
namespace {

bool MatchesAllTerms(const std::vector<PodAffinityTerm>& terms, const PodSpec& owner, const PodSpec& pod) {
  for (const PodAffinityTerm& term : terms) {
    if (!PodMatchesTerm(term, owner, pod)) return false;
  }
  return !terms.empty();
}

}  // namespace

PodAffinityState::PodAffinityState(const Snapshot& snap, TaskIndex t, const NodeView& view)
    : snap_(&snap), view_(&view), pod_(snap.tasks()[static_cast<size_t>(t)].pod.get()) {
  // The affinity terms' keys get their counts up front, so that each node's check finds
  // them by position.
  for (const PodAffinityTerm& term : pod_->affinity.required_pod_affinity) {
    const KeyCounts* slot = Slot(affinity_, term.topology_key);  // may move the others
    affinity_slot_.push_back(static_cast<int>(slot - affinity_.data()));
  }
}

PodAffinityState::KeyCounts* PodAffinityState::Slot(std::vector<KeyCounts>& counts, const std::string& key) {
  for (KeyCounts& c : counts) {
    if (*c.key == key) return &c;
  }
  const NodeView::Domains& domains = view_->DomainsOf(key);
  KeyCounts& c = counts.emplace_back();
  c.key = &key;
  c.domains = &domains;
  if (domains.value.size() <= kDenseDomains) c.count.assign(domains.value.size(), 0);
  return &counts.back();
}

bool PodAffinityState::Count(std::vector<KeyCounts>& counts, const std::string& key, NodeIndex n) {
  KeyCounts& c = *Slot(counts, key);
  const int32_t d = c.domains->of_node[static_cast<size_t>(n)];
  if (d < 0) return false;
  int64_t& slot = c.count.empty() ? c.sparse[d] : c.count[static_cast<size_t>(d)];
  if (slot++ == 0) c.counted.push_back(d);
  return true;
}

bool PodAffinityState::AppendFailableNodes(std::vector<NodeIndex>& out) const {
  if (!affinity_slot_.empty()) return false;
  for (const std::vector<KeyCounts>* list : {&existing_anti_, &anti_}) {
    for (const KeyCounts& c : *list) {
      for (int32_t d : c.counted) {
        const absl::Span<const NodeIndex> nodes = c.domains->NodesOf(d);
        out.insert(out.end(), nodes.begin(), nodes.end());
      }
    }
  }
  return true;
}

void PodAffinityState::AddExisting(TaskIndex other, NodeIndex n) {
  const PodSpec& op = *snap_->tasks()[static_cast<size_t>(other)].pod;
  for (const PodAffinityTerm& term : op.affinity.required_pod_anti_affinity) {
    if (PodMatchesTerm(term, op, *pod_)) Count(existing_anti_, term.topology_key, n);
  }
}

void PodAffinityState::AddIncoming(TaskIndex other, NodeIndex n) {
  const PodSpec& op = *snap_->tasks()[static_cast<size_t>(other)].pod;
  const Affinity& a = pod_->affinity;
  // Kubernetes counts a pod for the affinity terms only if it matches all of them.
  if (MatchesAllTerms(a.required_pod_affinity, *pod_, op)) {
    for (const PodAffinityTerm& term : a.required_pod_affinity) {
      if (Count(affinity_, term.topology_key, n)) ++affinity_total_;
    }
  }
  for (const PodAffinityTerm& term : a.required_pod_anti_affinity) {
    if (PodMatchesTerm(term, *pod_, op)) Count(anti_, term.topology_key, n);
  }
}

PodAffinityState PodAffinityState::FromPlacements(const Snapshot& snap, TaskIndex t, const NodeView& view,
                                                  const std::vector<NodeView::Placement>& placed) {
  PodAffinityState st(snap, t, view);
  const bool own_terms = !st.pod_->affinity.required_pod_affinity.empty() ||
                         !st.pod_->affinity.required_pod_anti_affinity.empty();
  for (const NodeView::Placement& p : placed) {
    if (p.task == t) continue;
    st.AddExisting(p.task, p.node);
    if (own_terms) st.AddIncoming(p.task, p.node);
  }
  return st;
}

PodAffinityState PodAffinityState::FromView(const Snapshot& snap, TaskIndex t, NodeView& view) {
  PodAffinityState st(snap, t, view);
  const auto node_of = [&](TaskIndex o) -> NodeIndex { return o == t ? kNone : view.node_of(o); };
  // Placed pods' required anti-affinity terms that select us, found through the index.
  view.ForEachPlacedTermSelecting(t, [&](const NodeView::PlacedTerm& pt) {
    if (pt.kind != NodeView::TermKind::kRequiredAntiAffinity) return false;
    st.Count(st.existing_anti_, pt.term->topology_key, node_of(pt.owner));
    return false;
  });
  const Affinity& a = st.pod_->affinity;
  if (a.required_pod_affinity.empty() && a.required_pod_anti_affinity.empty()) return st;
  // The pods any of our terms can select: a pod counted for affinity matches the first
  // term; one counted for anti-affinity matches some anti term. A term whose selector
  // names no required label sends us over every pod.
  std::vector<TaskIndex> candidates;
  bool everyone = false;
  std::string key, value;
  const auto gather = [&](const PodAffinityTerm& term) {
    if (!term.has_label_selector) return;  // selects nothing
    if (!SelectorRequiredLabel(term.label_selector, &key, &value)) {
      everyone = true;
      return;
    }
    if (const std::vector<TaskIndex>* pods = view.PodsWithLabel(key, value)) {
      candidates.insert(candidates.end(), pods->begin(), pods->end());
    }
  };
  if (!a.required_pod_affinity.empty()) gather(a.required_pod_affinity.front());
  for (const PodAffinityTerm& term : a.required_pod_anti_affinity) gather(term);
  if (everyone) {
    candidates = view.PodsEverPlaced();
  } else {
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  }
  for (TaskIndex o : candidates) {
    const NodeIndex n = node_of(o);
    if (n != kNone) st.AddIncoming(o, n);
  }
  return st;
}

bool PodAffinityState::AffinityOk(NodeIndex n) const {
  bool pods_exist = true;
  for (int slot : affinity_slot_) {
    const KeyCounts& c = affinity_[static_cast<size_t>(slot)];
    const int32_t d = c.domains->of_node[static_cast<size_t>(n)];
    if (d < 0) return false;  // every topology key must be on the node
    if (c.CountOf(d) <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  // The first pod of a group that selects itself may go anywhere its keys exist.
  return affinity_total_ == 0 && MatchesAllTerms(pod_->affinity.required_pod_affinity, *pod_, *pod_);
}

}  // namespace vcsched::internal
