// Kinds a cluster dump carries that the scheduler does not read (`kubectl get all -o
// yaml` prints Deployments, Services, Events, ...; integrations add their own custom
// resources: Argo Workflows, SparkApplications, RayClusters): the loader skips them with a
// warning rather than failing the dump. An unknown kind of a Kubernetes or Volcano API
// group is an error, so a misspelt kind is still caught.
#ifndef VCSCHED_SRC_IO_SKIPPED_KINDS_H_
#define VCSCHED_SRC_IO_SKIPPED_KINDS_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace vcsched::io_internal {

struct SkippedKind {
  enum class Scope { kNamespaced, kCluster, kAsWritten };  // how an object is named
  std::string why;  // "is not read by the scheduler", ...
  Scope scope;
};

// How `kind` of `api_version` is skipped, or nullopt when the loader must read it or
// reject it (a kind of a built-in group that is in no table).
std::optional<SkippedKind> FindSkippedKind(absl::string_view kind, absl::string_view api_version);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_SKIPPED_KINDS_H_
