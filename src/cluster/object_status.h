// An object's own problems as one status, and removal by key with kNotFound: shared by
// the Cluster's puts and deletes of every kind. Internal to the cluster layer.
#ifndef VCSCHED_SRC_CLUSTER_OBJECT_STATUS_H_
#define VCSCHED_SRC_CLUSTER_OBJECT_STATUS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace vcsched::cluster_internal {

// An object's own problems (ObjectProblems: Build's rules) as one error, or OK.
template <typename Spec>
absl::Status Check(const Spec& spec) {
  const std::vector<std::string> problems = ObjectProblems(spec);
  return problems.empty() ? absl::OkStatus() : absl::InvalidArgumentError(absl::StrJoin(problems, "\n"));
}

template <typename Map>
absl::Status Erase(Map& map, absl::string_view kind, absl::string_view key) {
  auto it = map.find(key);
  if (it == map.end()) return absl::NotFoundError(absl::StrCat(kind, " \"", key, "\": not found"));
  map.erase(it);
  return absl::OkStatus();
}

}  // namespace vcsched::cluster_internal

#endif  // VCSCHED_SRC_CLUSTER_OBJECT_STATUS_H_
