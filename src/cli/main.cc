// vcsched: what-if scheduling sessions, conformance runs and benchmarks from YAML.
//
//   vcsched schedule FILE... [--config CONF] [-o text|yaml|json] [--now SECONDS]
//   vcsched conformance PATH...
//   vcsched validate | expand | job   (Volcano Job lifecycle)
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
  vcsched validate FILE... [--strict] [--cluster QUEUES.yaml]... [--old OLD.yaml]...
      Volcano's admission for every Job, PodGroup, Queue, CronJob, JobFlow, JobTemplate
      and Pod: every error with its field; exit 1 when any object is rejected. --cluster
      gives the cluster's queues (job queue rules are then checked); --strict makes
      Kubernetes pod-template problems errors, as Volcano's webhook does; a Job also in an
      --old file is judged as an update of it.
  vcsched expand FILE... [--ssh-key-dir DIR]
      Every object Volcano's controller creates for each Job, as Kubernetes YAML.
  vcsched job FILE [--now SECONDS] STEP...
      Step a Job through its lifecycle; STEP is --sync, --podgroup PHASE,
      --pod NAME=PHASE[:EXITCODE], --all-pods PHASE, --evict POD, --restart-container POD,
      --event EVENT[:TASK[:POD[:EXITCODE]]], --command ACTION or --wait SECONDS.
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
    if (cmd == "validate") return vcsched::cli::Validate(args);
    if (cmd == "expand") return vcsched::cli::Expand(args);
    if (cmd == "job") return vcsched::cli::Job(args);
  } catch (const std::exception& e) {
    std::cerr << "vcsched: internal error: " << e.what() << "\n";
    return 3;
  }
  std::cerr << "vcsched: unknown command \"" << cmd << "\"\n" << kUsage;
  return 2;
}
