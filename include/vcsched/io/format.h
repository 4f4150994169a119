// Decisions rendered for other programs: JSON, Kubernetes manifests that
// `kubectl create -f` accepts (v1 Binding), and a kubectl script that applies them all.
#ifndef VCSCHED_IO_FORMAT_H_
#define VCSCHED_IO_FORMAT_H_

#include <cstdint>
#include <string>

#include "vcsched/decisions.h"

namespace vcsched {

// The whole Decisions as one JSON object (keys in a fixed order, stable for diffs).
std::string DecisionsToJson(const Decisions& decisions);

// One v1 Binding per bind, as a multi-document YAML stream `kubectl create -f -` applies.
// Evictions are not objects one can create (only the pods/NAME/eviction subresource takes
// them): each is a comment line here; DecisionsToKubectlScript applies them.
std::string DecisionsToManifests(const Decisions& decisions);

struct KubectlScriptOptions {
  // The session's clock (seconds since the epoch): the conditions' lastTransitionTime.
  // 0 leaves lastTransitionTime out (the field is optional).
  int64_t now_seconds = 0;
};

// A POSIX shell script applying the decisions with kubectl, in this order:
//   the Bindings:     kubectl create -f - (a here-document of every Binding)
//   each eviction:    kubectl create --raw /api/v1/namespaces/NS/pods/NAME/eviction -f -
//   each PodGroup:    kubectl patch podgroup NAME -n NS --subresource=status --type=merge -p JSON
// The script does not stop at a failed command (a pod bound meanwhile by someone else
// must not keep the rest from being applied); it exits 1 if any command failed.
std::string DecisionsToKubectlScript(const Decisions& decisions, const KubectlScriptOptions& options = {});

// Text for people: one line per decision and a summary line.
std::string DecisionsToText(const Decisions& decisions);

}  // namespace vcsched

#endif  // VCSCHED_IO_FORMAT_H_
