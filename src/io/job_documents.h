// Volcano Jobs inside a scenario: each is admitted (defaults, validation) and expanded
// into the PodGroup and pods the controller would create, which the loader then reads
// like any other document.
#ifndef VCSCHED_SRC_IO_JOB_DOCUMENTS_H_
#define VCSCHED_SRC_IO_JOB_DOCUMENTS_H_

#include <functional>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "src/io/yaml_reader.h"
#include "vcsched/value.h"

namespace vcsched::io_internal {

// The PodGroup and pod documents of the Job `doc`, handed to `read` one at a time as
// they are made (a job of many replicas is never held whole); errors go to `r`. An
// admitted Job's manifest, as given, goes to `manifest` when it is not null.
void ExpandJobDocument(const YAML::Node& doc, ObjectReader& r, const std::function<void(const YAML::Node&)>& read,
                       Value* manifest = nullptr);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_JOB_DOCUMENTS_H_
