// Kinds a cluster dump carries that the scheduler does not read (`kubectl get all -o
// yaml` prints Deployments, Services, Events, ...): the loader skips them with a warning
// rather than failing the dump. A kind in neither this table nor the loader's own is an
// error, so a misspelt kind is still caught.
#ifndef VCSCHED_SRC_IO_SKIPPED_KINDS_H_
#define VCSCHED_SRC_IO_SKIPPED_KINDS_H_

#include <optional>

#include "absl/strings/string_view.h"

namespace vcsched::io_internal {

struct SkippedKind {
  const char* why;  // "is not read by the scheduler", ...
  bool namespaced;  // objects of the kind are named "namespace/name"
};

// How `kind` of `api_version` is skipped, or nullopt when it is not a kind this table
// knows.
std::optional<SkippedKind> FindSkippedKind(absl::string_view kind, absl::string_view api_version);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_SKIPPED_KINDS_H_
