// File access for the command-line tool (the libraries do no I/O).
#ifndef VCSCHED_SRC_CLI_FILES_H_
#define VCSCHED_SRC_CLI_FILES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace vcsched::cli {

// The whole file, or "-" for standard input.
absl::StatusOr<std::string> ReadFile(const std::string& path);
// Every *.yaml / *.yml file under each path (a file is taken as it is), sorted.
absl::StatusOr<std::vector<std::string>> CollectYamlFiles(const std::vector<std::string>& paths);

}  // namespace vcsched::cli

#endif  // VCSCHED_SRC_CLI_FILES_H_
