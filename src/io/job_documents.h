// Volcano Jobs inside a scenario: each is admitted (defaults, validation) and expanded
// into the PodGroup and pods the controller would create, which the loader then reads
// like any other document.
#ifndef VCSCHED_SRC_IO_JOB_DOCUMENTS_H_
#define VCSCHED_SRC_IO_JOB_DOCUMENTS_H_

#include <vector>

#include <yaml-cpp/yaml.h>

#include "src/io/yaml_reader.h"

namespace vcsched::io_internal {

// The PodGroup and pod documents of the Job `doc`; errors go to `r` (nothing returned).
std::vector<YAML::Node> ExpandJobDocument(const YAML::Node& doc, ObjectReader& r);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_JOB_DOCUMENTS_H_
