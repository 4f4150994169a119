// The order a snapshot gives its tasks: by namespace, then name.
#ifndef VCSCHED_SRC_SNAPSHOT_POD_ORDER_H_
#define VCSCHED_SRC_SNAPSHOT_POD_ORDER_H_

#include <functional>
#include <vector>

#include "vcsched/objects.h"

namespace vcsched::internal {

// `pods` in (namespace, name) order, sorted through copies of their keys packed in one
// buffer: comparing text scattered over 100k specs costs more than copying it once.
// `duplicates` receives one pod of each (namespace, name) printed more than once, and
// `visit` sees each pod in input order while its spec is at hand (one pass over them).
std::vector<const PodSpec*> PodsInKeyOrder(const std::vector<const PodSpec*>& pods,
                                           std::vector<const PodSpec*>* duplicates,
                                           const std::function<void(const PodSpec&)>& visit);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_SNAPSHOT_POD_ORDER_H_
