// Kubernetes manifests as Value trees, for the lifecycle tools (validate, expand, job):
// read every object of YAML/JSON text (lists flattened) and print objects as YAML.
#ifndef VCSCHED_IO_MANIFESTS_H_
#define VCSCHED_IO_MANIFESTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vcsched/io/scenario.h"
#include "vcsched/value.h"

namespace vcsched {

struct Manifest {
  std::string where;  // "file.yaml: document 2"
  std::string api_version;
  std::string kind;
  Value object;
};

// Every object of every source, `kind: List` items flattened. Fails (naming the source,
// line and column) on text that is not YAML, or on a document that is not an object.
absl::StatusOr<std::vector<Manifest>> LoadManifests(const std::vector<ScenarioSource>& sources);

// The objects of one kind, in order.
std::vector<const Value*> ObjectsOfKind(const std::vector<Manifest>& manifests, const std::string& kind);
// A Volcano Job (batch.volcano.sh), not a Kubernetes batch/v1 Job.
bool IsVolcanoJob(const Manifest& manifest);

// Objects as a YAML stream ("---" between documents).
std::string ToYaml(const std::vector<const Value*>& objects);

}  // namespace vcsched

#endif  // VCSCHED_IO_MANIFESTS_H_
