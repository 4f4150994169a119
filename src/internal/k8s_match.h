// Kubernetes matching rules: label selectors, node selectors, taints and tolerations,
// pod affinity terms. Pure functions over objects.h values.
#ifndef VCSCHED_SRC_INTERNAL_K8S_MATCH_H_
#define VCSCHED_SRC_INTERNAL_K8S_MATCH_H_

#include <string>

#include "vcsched/objects.h"

namespace vcsched::internal {

bool MatchRequirement(const LabelSelectorRequirement& req, const Labels& labels);
// metav1.LabelSelector semantics: every matchLabels pair and every expression holds.
bool MatchLabelSelector(const LabelSelector& sel, const Labels& labels);
// One node selector term (matchFields understands metadata.name).
bool MatchNodeSelectorTerm(const NodeSelectorTerm& term, const NodeSpec& node);
// Whether Kubernetes' node selector parser accepts every requirement of `term`.
bool NodeSelectorTermParses(const NodeSelectorTerm& term);
// nodeSelector and required node affinity (terms ORed; an empty term list matches none).
bool MatchNodeSelectorAndAffinity(const PodSpec& pod, const NodeSpec& node);
bool ToleratesTaint(const std::vector<Toleration>& tolerations, const Taint& taint);
// Inter-pod (anti-)affinity terms, required or preferred.
bool HasPodAffinityTerms(const PodSpec& pod);
// Node affinity, pod (anti-)affinity or topology spread terms: where such a pod may go
// depends on more than its requests, node selector and tolerations.
bool HasPlacementTerms(const PodSpec& pod);
// A label pair (key, value) that every pod `sel` selects must carry, if the selector
// names one (a matchLabels entry or an In with one value): a key into a label index.
bool SelectorRequiredLabel(const LabelSelector& sel, std::string* key, std::string* value);
// Does `pod` (the other pod) match `term` of `owner`?
bool PodMatchesTerm(const PodAffinityTerm& term, const PodSpec& owner, const PodSpec& pod);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_INTERNAL_K8S_MATCH_H_
