// Volcano scheduler configurations from YAML.
#ifndef VCSCHED_SRC_IO_CONFIG_READER_H_
#define VCSCHED_SRC_IO_CONFIG_READER_H_

#include "src/io/yaml_reader.h"
#include "vcsched/config.h"

namespace vcsched::io_internal {

// Reads `actions`, `tiers` and `configurations` from a mapping (the body of a
// volcano-scheduler.conf or of a SchedulerConfiguration document). Unknown keys in a
// plugin entry are errors (a misspelt switch would otherwise be silently on).
SchedulerConfig ReadSchedulerConfig(ObjectReader& r, const YAML::Node& body);

// What Volcano's loader of volcano-scheduler.conf refuses beyond the format, checked for
// configuration files (not for a scenario's SchedulerConfiguration document, which holds
// tiers as Volcano's own tests build them): a tier with drf's enableHierarchy and
// proportion. `c` was read from `body`.
void CheckAsVolcanoFile(ObjectReader& r, const YAML::Node& body, const SchedulerConfig& c);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_CONFIG_READER_H_
