// Decisions rendered for other programs: JSON, and Kubernetes manifests that
// `kubectl create -f` accepts (v1 Binding, policy/v1 Eviction).
#ifndef VCSCHED_IO_FORMAT_H_
#define VCSCHED_IO_FORMAT_H_

#include <string>

#include "vcsched/decisions.h"

namespace vcsched {

// The whole Decisions as one JSON object (keys in a fixed order, stable for diffs).
std::string DecisionsToJson(const Decisions& decisions);

// One v1 Binding per bind and one policy/v1 Eviction per eviction, as a multi-document
// YAML stream.
std::string DecisionsToManifests(const Decisions& decisions);

// Text for people: one line per decision and a summary line.
std::string DecisionsToText(const Decisions& decisions);

}  // namespace vcsched

#endif  // VCSCHED_IO_FORMAT_H_
