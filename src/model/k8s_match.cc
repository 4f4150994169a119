#include "src/model/k8s_match.h"

#include <algorithm>


namespace vcsched::internal {

bool MatchNodeSelectorTerm(const NodeSelectorTerm& term, const NodeSpec& node) {
  if (!term.parses || (term.match_expressions.empty() && term.match_fields.empty())) return false;
  for (const auto& r : term.match_expressions) {
    if (!MatchesRequirement(r, node.labels)) return false;
  }
  for (const auto& r : term.match_fields) {
    if (r.key != "metadata.name") return false;
    if (!MatchesRequirement(r, Labels{{"metadata.name", node.name}})) return false;
  }
  return true;
}

bool MatchNodeSelectorAndAffinity(const PodSpec& pod, const NodeSpec& node) {
  for (const auto& [k, v] : pod.node_selector) {
    auto it = node.labels.find(k);
    if (it == node.labels.end() || it->second != v) return false;
  }
  if (!pod.affinity.has_required_node_terms) return true;
  for (const auto& term : pod.affinity.required_node_terms) {
    if (MatchNodeSelectorTerm(term, node)) return true;
  }
  return false;
}

bool ToleratesTaint(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const Toleration& t : tolerations) {
    // Kubernetes' Toleration.ToleratesTaint: an empty effect or key matches any.
    if (!t.effect.empty() && t.effect != taint.effect) continue;
    if (!t.key.empty() && t.key != taint.key) continue;
    if (t.op == "Exists") return true;
    if ((t.op.empty() || t.op == "Equal") && t.value == taint.value) return true;
  }
  return false;
}

bool SelectorRequiredLabel(const LabelSelector& sel, std::string* key, std::string* value) {
  if (!sel.match_labels.empty()) {
    *key = sel.match_labels.begin()->first;
    *value = sel.match_labels.begin()->second;
    return true;
  }
  for (const LabelSelectorRequirement& r : sel.match_expressions) {
    if (r.op == LabelSelectorRequirement::Operator::kIn && r.values.size() == 1) {
      *key = r.key;
      *value = r.values[0];
      return true;
    }
  }
  return false;
}

namespace {

// Whether `pod` is in a namespace `term` of `owner` reaches.
bool InTermNamespaces(const PodAffinityTerm& term, const PodSpec& owner, const PodSpec& pod) {
  // Kubernetes' namespaces of a term: those listed, together with those its
  // namespaceSelector selects by their labels (an empty selector: every namespace);
  // neither given: the owner's own.
  const bool listed = std::find(term.namespaces.begin(), term.namespaces.end(), pod.namespace_) != term.namespaces.end();
  if (term.namespace_selector.has_value()) {
    static const Labels kNoLabels;
    const Labels& labels = pod.namespace_labels != nullptr ? *pod.namespace_labels : kNoLabels;
    if (!listed && !MatchesLabelSelector(*term.namespace_selector, labels)) return false;
  } else if (term.namespaces.empty()) {
    if (pod.namespace_ != owner.namespace_) return false;
  } else if (!listed) {
    return false;
  }
  return true;
}

}  // namespace

bool PodMatchesTerm(const PodAffinityTerm& term, const PodSpec& owner, const PodSpec& pod) {
  return term.has_label_selector && InTermNamespaces(term, owner, pod) &&
         MatchesLabelSelector(term.label_selector, pod.labels);
}

bool PodWithRequiredLabelMatchesTerm(const PodAffinityTerm& term, const PodSpec& owner, const PodSpec& pod) {
  const LabelSelector& sel = term.label_selector;
  const bool one_label = sel.match_labels.size() == 1 && sel.match_expressions.empty();
  return term.has_label_selector && InTermNamespaces(term, owner, pod) &&
         (one_label || MatchesLabelSelector(sel, pod.labels));
}

}  // namespace vcsched::internal
