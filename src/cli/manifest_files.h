// Reading manifest files for the lifecycle commands, and the host services the library
// leaves to its caller (time zones from the system database, ssh keys).
#ifndef VCSCHED_SRC_CLI_MANIFEST_FILES_H_
#define VCSCHED_SRC_CLI_MANIFEST_FILES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vcsched/io/manifests.h"
#include "vcsched/lifecycle/cron.h"
#include "vcsched/lifecycle/expand.h"

namespace vcsched::cli {

absl::StatusOr<std::vector<Manifest>> ReadManifests(const std::vector<std::string>& paths);
// IANA zones from the system's zoneinfo (absl::LoadTimeZone).
lifecycle::TimeZoneResolver SystemTimeZones();
// Keys from --ssh-key-dir (id_rsa, id_rsa.pub) when given; otherwise fixed placeholder
// text marked as such, so that `expand` output is reproducible.
lifecycle::SshKeySource CliSshKeys(const std::string& key_dir);

}  // namespace vcsched::cli

#endif  // VCSCHED_SRC_CLI_MANIFEST_FILES_H_
