// The vcsched subcommands. Each takes the arguments after its name and returns the
// process exit code; errors go to stderr.
#ifndef VCSCHED_SRC_CLI_COMMANDS_H_
#define VCSCHED_SRC_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace vcsched::cli {

int Schedule(const std::vector<std::string>& args);
int Conformance(const std::vector<std::string>& args);
int Bench(const std::vector<std::string>& args);
int Validate(const std::vector<std::string>& args);
int Expand(const std::vector<std::string>& args);
int Job(const std::vector<std::string>& args);

}  // namespace vcsched::cli

#endif  // VCSCHED_SRC_CLI_COMMANDS_H_
