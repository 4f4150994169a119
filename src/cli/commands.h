// The vcsched subcommands. main.cc parses the command line (CLI11) into these options;
// each command returns the process exit code and writes its errors to stderr.
#ifndef VCSCHED_SRC_CLI_COMMANDS_H_
#define VCSCHED_SRC_CLI_COMMANDS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vcsched::cli {

// Exit codes: 0 success, 1 the input was read and judged bad (or a check failed),
// 2 the command line itself is wrong, 3 an internal error.
inline constexpr int kExitUsage = 2;

struct ScheduleOptions {
  std::vector<std::string> files;  // scenario files (directories already expanded)
  std::string config;              // a volcano-scheduler.conf; empty: the scenario's or the default
  std::string output = "text";     // text, yaml, json or kubectl
  int64_t now = 0;
  std::vector<std::string> hyper_node_labels;  // discover HyperNodes from these node labels
  std::vector<std::string> scheduler_args;     // vc-scheduler flags given on the command line
};
int Schedule(const ScheduleOptions& options);

struct HyperNodesOptions {
  std::vector<std::string> files;
  std::vector<std::string> labels;  // widest domain first
};
// The HyperNode objects Volcano's label discoverer would create for the files' nodes.
int HyperNodes(const HyperNodesOptions& options);

int Conformance(const std::vector<std::string>& files);

struct BenchOptions {
  std::string file;
  int repeat = 5;
  bool reference = false;
  int churn = 0;  // > 0: also measure N pod changes on a Cluster against a build
  int threads = 0;  // threads that parse YAML while loading; 0: every processor (up to 8)
};
int Bench(const BenchOptions& options);

struct ValidateOptions {
  std::vector<std::string> files, cluster_files, old_files;
  bool strict = false;
};
int Validate(const ValidateOptions& options);

struct ExpandCommandOptions {
  std::vector<std::string> files;
  std::string ssh_key_dir;
};
int Expand(const ExpandCommandOptions& options);

struct JobOptions {
  std::string file;
  int64_t now = 0;
  // The steps in command-line order: (flag without dashes, value); "sync" has no value.
  std::vector<std::pair<std::string, std::string>> steps;
};
int Job(const JobOptions& options);

struct ReplayOptions {
  std::string state;   // the cluster at the start (scenario files' objects)
  std::string events;  // watch events (JSON values)
  std::string config;  // a volcano-scheduler.conf; empty: the state's or the default
  std::string output = "text";  // text or json
  int64_t now = 0;
  std::vector<std::string> scheduler_args;  // vc-scheduler flags given on the command line
};
int Replay(const ReplayOptions& options);

// explain, queues and scores (docs/EXPLAIN.md): one session with its records kept.
struct ExplainCommandOptions {
  std::vector<std::string> files;
  std::string config;
  std::string output = "text";  // text or json
  int64_t now = 0;
  std::string job;   // explain: only this job
  std::string task;  // scores: the pod to score nodes for
  int32_t max_reruns = 32;
  std::vector<std::string> scheduler_args;  // vc-scheduler flags given on the command line
  std::string default_runtime;  // explain: estimate starts with this runtime for pods that give none
};
int Explain(const ExplainCommandOptions& options);
int Queues(const ExplainCommandOptions& options);
int Scores(const ExplainCommandOptions& options);

// simulate (docs/SIMULATE.md): a cluster and a workload over virtual time.
struct SimulateOptions {
  std::string cluster;                 // scenario-format objects (nodes, queues, ...)
  std::vector<std::string> workloads;  // Workload documents
  std::string config;                  // a volcano-scheduler.conf; empty: the cluster file's or the default
  std::string until;                   // a duration; empty: until no work remains
  std::optional<uint64_t> seed;        // overrides the workload's
  int64_t max_events = 10000000;       // without --until, stop with an error past this
  std::string out;                     // the output directory; empty: summary.json to stdout
  std::vector<std::string> scheduler_args;  // vc-scheduler flags given on the command line
  bool cluster_runtimes = false;       // the cluster file's pods end on their runtimes (docs/ETA.md)
  std::string default_runtime;         // their default runtime (implies cluster_runtimes)
};
int Simulate(const SimulateOptions& options);

// eta (docs/ETA.md): when each pending job of a state starts.
struct EtaCommandOptions {
  std::vector<std::string> files;      // the state (scenario files, directories expanded)
  std::string config;                  // a volcano-scheduler.conf; empty: the state's or the default
  std::string now;                     // seconds since the epoch or RFC 3339; empty: the state's newest time
  std::string default_runtime;         // a duration; empty: pods without a runtime never end
  std::string horizon;                 // a duration; empty: 7 days
  std::string output = "text";         // text or json
  std::vector<std::string> workloads;  // arrivals after now (Workload documents)
  int32_t samples = 1;
  uint64_t seed = 0;
  std::vector<std::string> scheduler_args;
};
int Eta(const EtaCommandOptions& options);

}  // namespace vcsched::cli

#endif  // VCSCHED_SRC_CLI_COMMANDS_H_
