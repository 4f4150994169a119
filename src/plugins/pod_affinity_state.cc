#include "src/plugins/pod_affinity_state.h"

#include <algorithm>

#include "src/internal/k8s_match.h"

namespace vcsched::internal {
namespace {

bool MatchesAllTerms(const std::vector<PodAffinityTerm>& terms, const PodSpec& owner, const PodSpec& pod) {
  for (const PodAffinityTerm& term : terms) {
    if (!PodMatchesTerm(term, owner, pod)) return false;
  }
  return !terms.empty();
}

}  // namespace

PodAffinityState::PodAffinityState(const Snapshot& snap, TaskIndex t)
    : snap_(&snap), task_(t), pod_(snap.tasks()[static_cast<size_t>(t)].pod.get()) {}

void PodAffinityState::CountExistingAnti(const PodAffinityTerm& term, const NodeSpec& node) {
  auto v = node.labels.find(term.topology_key);
  if (v != node.labels.end()) ++existing_anti_[{term.topology_key, v->second}];
}

void PodAffinityState::AddExisting(TaskIndex other, const NodeSpec& node) {
  const PodSpec& op = *snap_->tasks()[static_cast<size_t>(other)].pod;
  for (const PodAffinityTerm& term : op.affinity.required_pod_anti_affinity) {
    if (PodMatchesTerm(term, op, *pod_)) CountExistingAnti(term, node);
  }
}

void PodAffinityState::AddIncoming(TaskIndex other, const NodeSpec& node) {
  const PodSpec& op = *snap_->tasks()[static_cast<size_t>(other)].pod;
  const Affinity& a = pod_->affinity;
  // Kubernetes counts a pod for the affinity terms only if it matches all of them.
  if (MatchesAllTerms(a.required_pod_affinity, *pod_, op)) {
    for (const PodAffinityTerm& term : a.required_pod_affinity) {
      auto v = node.labels.find(term.topology_key);
      if (v != node.labels.end()) ++affinity_[{term.topology_key, v->second}];
    }
  }
  for (const PodAffinityTerm& term : a.required_pod_anti_affinity) {
    auto v = node.labels.find(term.topology_key);
    if (v != node.labels.end() && PodMatchesTerm(term, *pod_, op)) ++anti_[{term.topology_key, v->second}];
  }
}

PodAffinityState PodAffinityState::FromPlacements(const Snapshot& snap, TaskIndex t,
                                                  const std::vector<NodeView::Placement>& placed) {
  PodAffinityState st(snap, t);
  const bool own_terms = !st.pod_->affinity.required_pod_affinity.empty() ||
                         !st.pod_->affinity.required_pod_anti_affinity.empty();
  for (const NodeView::Placement& p : placed) {
    if (p.task == t) continue;
    const NodeSpec& node = snap.nodes()[static_cast<size_t>(p.node)].spec;
    st.AddExisting(p.task, node);
    if (own_terms) st.AddIncoming(p.task, node);
  }
  return st;
}

PodAffinityState PodAffinityState::FromView(const Snapshot& snap, TaskIndex t, NodeView& view) {
  PodAffinityState st(snap, t);
  const auto node_of = [&](TaskIndex o) -> const NodeSpec* {
    const NodeIndex n = view.node_of(o);
    return n == kNone || o == t ? nullptr : &snap.nodes()[static_cast<size_t>(n)].spec;
  };
  // Placed pods' required anti-affinity terms that select us, found through the index.
  view.ForEachPlacedTermSelecting(t, [&](const NodeView::PlacedTerm& pt) {
    if (pt.kind != NodeView::TermKind::kRequiredAntiAffinity) return false;
    st.CountExistingAnti(*pt.term, *node_of(pt.owner));
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
    if (const NodeSpec* node = node_of(o)) st.AddIncoming(o, *node);
  }
  return st;
}

bool PodAffinityState::ExistingAntiAffinityOk(const NodeSpec& node) const {
  if (existing_anti_.empty()) return true;
  for (const auto& [k, v] : node.labels) {
    auto it = existing_anti_.find(Pair(k, v));
    if (it != existing_anti_.end() && it->second > 0) return false;
  }
  return true;
}

bool PodAffinityState::AntiAffinityOk(const NodeSpec& node) const {
  if (anti_.empty()) return true;
  for (const PodAffinityTerm& term : pod_->affinity.required_pod_anti_affinity) {
    auto v = node.labels.find(term.topology_key);
    if (v == node.labels.end()) continue;
    auto it = anti_.find(Pair(term.topology_key, v->second));
    if (it != anti_.end() && it->second > 0) return false;
  }
  return true;
}

bool PodAffinityState::AffinityOk(const NodeSpec& node) const {
  const std::vector<PodAffinityTerm>& terms = pod_->affinity.required_pod_affinity;
  bool pods_exist = true;
  for (const PodAffinityTerm& term : terms) {
    auto v = node.labels.find(term.topology_key);
    if (v == node.labels.end()) return false;  // every topology key must be on the node
    auto it = affinity_.find(Pair(term.topology_key, v->second));
    if (it == affinity_.end() || it->second <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  // The first pod of a group that selects itself may go anywhere its keys exist.
  return affinity_.empty() && MatchesAllTerms(terms, *pod_, *pod_);
}

}  // namespace vcsched::internal
