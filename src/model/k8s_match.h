// Kubernetes matching rules: label selectors, node selectors, taints and tolerations,
// pod affinity terms. Pure functions over objects.h values, shared by built-ins.
#ifndef VCSCHED_SRC_MODEL_K8S_MATCH_H_
#define VCSCHED_SRC_MODEL_K8S_MATCH_H_

#include <string>

#include "vcsched/objects.h"

namespace vcsched::internal {

// One node selector term (matchFields understands metadata.name).
bool MatchNodeSelectorTerm(const NodeSelectorTerm& term, const NodeSpec& node);
// nodeSelector and required node affinity (terms ORed; an empty term list matches none).
bool MatchNodeSelectorAndAffinity(const PodSpec& pod, const NodeSpec& node);
bool ToleratesTaint(const std::vector<Toleration>& tolerations, const Taint& taint);
// A label pair (key, value) that every pod `sel` selects must carry, if the selector
// names one (a matchLabels entry or an In with one value): a key into a label index.
bool SelectorRequiredLabel(const LabelSelector& sel, std::string* key, std::string* value);
// Does `pod` (the other pod) match `term` of `owner`?
bool PodMatchesTerm(const PodAffinityTerm& term, const PodSpec& owner, const PodSpec& pod);
// PodMatchesTerm for a pod known to carry the label SelectorRequiredLabel gives for the
// term's selector (found through a label index): when that label is all the selector
// asks, only the namespaces are checked.
bool PodWithRequiredLabelMatchesTerm(const PodAffinityTerm& term, const PodSpec& owner, const PodSpec& pod);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_K8S_MATCH_H_
