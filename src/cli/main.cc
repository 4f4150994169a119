// vcsched: what-if scheduling sessions, conformance runs and benchmarks from YAML.
//
//   vcsched schedule FILE... [--config CONF] [-o text|yaml|json] [--now SECONDS]
//   vcsched conformance PATH...
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/cli/commands.h"

namespace {

constexpr const char* kUsage = R"(usage:
  vcsched schedule FILE... [--config CONF] [-o text|yaml|json] [--now SECONDS]
      Run one scheduling session on the scenario in FILE(s) and print the decisions.
      The configuration is CONF (a volcano-scheduler.conf), else the scenario's
      SchedulerConfiguration document, else Volcano's default.
  vcsched conformance PATH...
      Run every scenario file under PATH(s) and compare with its Expectation.
  vcsched bench FILE [--repeat N] [--reference]
      Load once, run the session N times, print timings as JSON. --reference also times
      the path that evaluates every node for every task (and checks it decides alike).
  vcsched help
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "schedule") return vcsched::cli::Schedule(args);
    if (cmd == "conformance") return vcsched::cli::Conformance(args);
    if (cmd == "bench") return vcsched::cli::Bench(args);
  } catch (const std::exception& e) {
    std::cerr << "vcsched: internal error: " << e.what() << "\n";
    return 3;
  }
  std::cerr << "vcsched: unknown command \"" << cmd << "\"\n" << kUsage;
  return 2;
}
