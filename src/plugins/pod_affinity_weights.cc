#include "src/plugins/pod_affinity_weights.h"

#include <algorithm>

#include "src/model/k8s_match.h"

namespace vcsched::internal {
namespace {

bool SameSelector(const LabelSelector& a, const LabelSelector& b) {
  if (a.match_labels != b.match_labels || a.match_expressions.size() != b.match_expressions.size()) return false;
  for (size_t i = 0; i < a.match_expressions.size(); ++i) {
    const LabelSelectorRequirement &x = a.match_expressions[i], &y = b.match_expressions[i];
    if (x.key != y.key || x.op != y.op || x.values != y.values) return false;
  }
  return true;
}

bool SameTerm(const PodAffinityTerm& a, const PodAffinityTerm& b) {
  return a.has_label_selector == b.has_label_selector && a.topology_key == b.topology_key &&
         a.namespaces == b.namespaces && a.namespace_selector.has_value() == b.namespace_selector.has_value() &&
         (!a.namespace_selector || SameSelector(*a.namespace_selector, *b.namespace_selector)) &&
         SameSelector(a.label_selector, b.label_selector);
}

bool SameTerms(const std::vector<WeightedPodAffinityTerm>& a, const std::vector<WeightedPodAffinityTerm>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].weight != b[i].weight || !SameTerm(a[i].term, b[i].term)) return false;
  }
  return true;
}

// Pods whose weights agree whenever the same pods are placed: a placed pod adds the
// same to both (the same namespace and its labels, labels and preferred pod terms).
bool SameWeightInputs(const PodSpec& a, const PodSpec& b) {
  if (&a == &b) return true;
  return a.namespace_ == b.namespace_ && a.namespace_labels == b.namespace_labels && a.labels == b.labels &&
         SameTerms(a.affinity.preferred_pod_affinity, b.affinity.preferred_pod_affinity) &&
         SameTerms(a.affinity.preferred_pod_anti_affinity, b.affinity.preferred_pod_anti_affinity);
}

}  // namespace

absl::Span<const PodAffinityWeights::KeyWeights> PodAffinityWeights::For(TaskIndex t) {
  const PodSpec& pod = *ssn_->task(t).pod;
  const int64_t now = view_->seq();
  if (pod_ != nullptr && (task_ != t || seq_ != now) && now - seq_ <= kMaxReplay && SameWeightInputs(*pod_, pod)) {
    // The kept sums are over the pods placed at seq_ but task_; the log brings them to
    // the pods placed now but task_, then task_ and t trade places.
    for (const NodeView::Change& c : view_->ChangesSince(seq_)) {
      if (c.task != task_) Contribute(t, c.task, c.node, c.added ? 1 : -1);
    }
    if (task_ != t) {
      if (view_->node_of(task_) != kNone) Contribute(t, task_, view_->node_of(task_), 1);
      if (view_->node_of(t) != kNone) Contribute(t, t, view_->node_of(t), -1);
    }
  } else if (pod_ == nullptr || task_ != t || seq_ != now) {
    Clear();
    CollectAll(t);
  }
  pod_ = &pod;
  task_ = t;
  seq_ = now;
  return absl::MakeConstSpan(keys_.data(), used_);
}

void PodAffinityWeights::Clear() {
  for (size_t k = 0; k < used_; ++k) {
    for (int32_t d : keys_[k].touched) keys_[k].weight[static_cast<size_t>(d)] = 0;
    keys_[k].touched.clear();
  }
  used_ = 0;
}

void PodAffinityWeights::Add(const PodAffinityTerm& term, NodeIndex where, int64_t w) {
  auto end = keys_.begin() + static_cast<ptrdiff_t>(used_);
  auto it = std::find_if(keys_.begin(), end, [&](const KeyWeights& k) { return *k.key == term.topology_key; });
  if (it == end) {
    if (used_ == keys_.size()) keys_.emplace_back();
    it = keys_.begin() + static_cast<ptrdiff_t>(used_++);
    it->key = &term.topology_key;
    it->domains = &view_->DomainsOf(term.topology_key);
    it->weight.resize(it->domains->value.size(), 0);  // zero past the last Clear
  }
  const int32_t domain = it->domains->of_node[static_cast<size_t>(where)];
  if (domain < 0) return;
  int64_t& slot = it->weight[static_cast<size_t>(domain)];
  if (slot == 0 && w != 0) it->touched.push_back(domain);
  slot += w;
}

void PodAffinityWeights::Contribute(TaskIndex t, TaskIndex other, NodeIndex where, int64_t sign) {
  const PodSpec& pod = *ssn_->task(t).pod;
  const PodSpec& op = *ssn_->task(other).pod;
  for (const auto& wt : pod.affinity.preferred_pod_affinity) {
    if (PodMatchesTerm(wt.term, pod, op)) Add(wt.term, where, sign * wt.weight);
  }
  for (const auto& wt : pod.affinity.preferred_pod_anti_affinity) {
    if (PodMatchesTerm(wt.term, pod, op)) Add(wt.term, where, -sign * wt.weight);
  }
  for (const auto& wt : op.affinity.preferred_pod_affinity) {
    if (PodMatchesTerm(wt.term, op, pod)) Add(wt.term, where, sign * wt.weight);
  }
  for (const auto& wt : op.affinity.preferred_pod_anti_affinity) {
    if (PodMatchesTerm(wt.term, op, pod)) Add(wt.term, where, -sign * wt.weight);
  }
}

void PodAffinityWeights::CollectAll(TaskIndex t) {
  const Session& s = *ssn_;
  const PodSpec& pod = *s.task(t).pod;
  const Affinity& a = pod.affinity;
  const bool own_terms = !a.preferred_pod_affinity.empty() || !a.preferred_pod_anti_affinity.empty();
  if (!own_terms && !view_->has_pods_with_affinity()) return;
  NodeView& view = *view_;
  if (own_terms) {
    // The placed pods a term can select: through the label index when its selector
    // requires a label, else all of them.
    std::string key, value;
    const auto own = [&](const PodAffinityTerm& term, int64_t w) {
      if (!term.has_label_selector) return;
      const bool indexed = SelectorRequiredLabel(term.label_selector, &key, &value);
      const std::vector<TaskIndex>* candidates = indexed ? view.PodsWithLabel(key, value) : &view.PodsEverPlaced();
      if (candidates == nullptr) return;  // no pod has had the label
      for (TaskIndex other : *candidates) {
        const NodeIndex where = view.node_of(other);
        if (other == t || where == kNone) continue;
        const PodSpec& op = *s.task(other).pod;
        if (indexed ? PodWithRequiredLabelMatchesTerm(term, pod, op) : PodMatchesTerm(term, pod, op)) {
          Add(term, where, w);
        }
      }
    };
    for (const auto& wt : a.preferred_pod_affinity) own(wt.term, wt.weight);
    for (const auto& wt : a.preferred_pod_anti_affinity) own(wt.term, -int64_t{wt.weight});
  }
  // Placed pods' terms that select this pod, through the view's term index.
  view.ForEachPlacedTermSelecting(t, [&](const NodeView::PlacedTerm& pt) {
    const NodeIndex where = view.node_of(pt.owner);
    switch (pt.kind) {
      // Volcano builds InterPodAffinity with empty arguments and Kubernetes' constructor
      // does not default them, so hardPodAffinityWeight is 0: required terms add nothing.
      case NodeView::TermKind::kRequiredAffinity: break;
      case NodeView::TermKind::kPreferredAffinity: Add(*pt.term, where, pt.weight); break;
      case NodeView::TermKind::kPreferredAntiAffinity: Add(*pt.term, where, -int64_t{pt.weight}); break;
      case NodeView::TermKind::kRequiredAntiAffinity: break;  // a filter, not a score
    }
    return false;
  });
}

}  // namespace vcsched::internal
