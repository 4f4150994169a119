// Facts about a pod spec that the snapshot works out once (its placement terms, whether
// its node selector terms parse): Kubernetes' rules, over objects.h values.
#ifndef VCSCHED_SRC_MODEL_POD_FACTS_H_
#define VCSCHED_SRC_MODEL_POD_FACTS_H_

#include "vcsched/objects.h"

namespace vcsched::internal {

// Whether Kubernetes' node selector parser accepts every requirement of `term`.
bool NodeSelectorTermParses(const NodeSelectorTerm& term);
// Inter-pod (anti-)affinity terms, required or preferred.
bool HasPodAffinityTerms(const PodSpec& pod);
// Node affinity, pod (anti-)affinity or topology spread terms: where such a pod may go
// depends on more than its requests, node selector and tolerations.
bool HasPlacementTerms(const PodSpec& pod);

// Kubernetes' QoS class (v1qos.GetPodQOS): status.qosClass when given, else computed from
// the containers' cpu and memory requests and limits. kOther: a status.qosClass of
// another text.
enum class PodQos { kBestEffort, kBurstable, kGuaranteed, kOther };
PodQos QosClassOf(const PodSpec& pod);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_POD_FACTS_H_
