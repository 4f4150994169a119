// vcsched: what-if scheduling sessions, conformance runs, benchmarks and the Job
// lifecycle from YAML. The command line follows the conventions of kubectl and other
// pflag tools (CLI11): --flag=value, --flag value, -ovalue, -o value, -o=value, per-command
// --help, and `-` or /dev/stdin for standard input.
#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/version.h"

namespace vcsched::cli {
namespace {

// pflag reads `-o=json` as the value "json"; CLI11 would keep the "=". Splitting such a
// short flag in two gives the pflag meaning.
std::vector<std::string> SplitShortEquals(int argc, char** argv) {
  std::vector<std::string> out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() > 3 && a[0] == '-' && a[1] != '-' && a[2] == '=') {
      out.push_back(a.substr(0, 2));
      out.push_back(a.substr(3));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

// Directories become the scenario files under them (files are judged when read).
bool ExpandInputs(std::vector<std::string>* files, const char* command) {
  absl::StatusOr<std::vector<std::string>> expanded = ExpandScenarioPaths(*files);
  if (!expanded.ok()) {
    std::cerr << "vcsched " << command << ": " << expanded.status().message() << "\n";
    return false;
  }
  *files = *std::move(expanded);
  return true;
}

// CLI11 converts an integer past its type's range without a word (99999999999999999999
// as --now, -1 as an unsigned seed), so integer options are checked as text first.
CLI::Validator IntegerFrom(int64_t min, int64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        int64_t v = 0;
        if (absl::SimpleAtoi(text, &v) && v >= min && v <= max) return "";
        return absl::StrCat("expected an integer from ", min, " to ", max, ", got \"", text, "\"");
      },
      absl::StrCat("INT in [", min, ", ", max, "]"));
}
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

constexpr const char* kJobSteps[] = {"podgroup", "pod", "all-pods", "evict", "restart-container",
                                     "event", "command", "wait"};

// vc-scheduler's sharding flags, beside --config: each adds itself to `args` as
// vc-scheduler's command line would hold it.
void AddShardingFlags(CLI::App* cmd, std::vector<std::string>& args) {
  cmd->add_option_function<std::string>(
         "--scheduler-sharding-mode",
         [&args](const std::string& v) { args.push_back("--scheduler-sharding-mode=" + v); },
         "none, hard (schedule only on the nodes of this scheduler's NodeShard) or soft (prefer them)")
      ->check(CLI::IsMember({"none", "hard", "soft"}));
  cmd->add_option_function<std::string>(
      "--scheduler-sharding-name", [&args](const std::string& v) { args.push_back("--scheduler-sharding-name=" + v); },
      "The NodeShard of this scheduler (default: volcano)");
}

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{"vcsched: Volcano's scheduling decisions, deterministic and fast.", "vcsched"};
  app.set_version_flag("--version", VCSCHED_VERSION_STRING);
  app.require_subcommand(1);
  app.fallthrough(false);
  int exit_code = 0;

  // schedule
  ScheduleOptions schedule;
  CLI::App* sc = app.add_subcommand("schedule", "Run one scheduling session on a scenario and print the decisions");
  sc->add_option("files", schedule.files, "Scenario files or directories (- or /dev/stdin: standard input)")
      ->required();
  sc->add_option("--config", schedule.config,
                 "A volcano-scheduler.conf (default: the scenario's SchedulerConfiguration, else Volcano's default)");
  sc->add_option("-o,--output", schedule.output,
                 "text, yaml (Binding objects), json, or kubectl (a shell script applying the decisions)")
      ->check(CLI::IsMember({"text", "yaml", "json", "kubectl"}));
  sc->add_option("--now", schedule.now, "The session's clock, in seconds since the epoch")
      ->check(IntegerFrom(kInt64Min, kInt64Max));
  sc->add_option("--hypernode-labels", schedule.hyper_node_labels,
                 "Node label keys, widest network domain first: add the HyperNodes Volcano's label discoverer makes")
      ->delimiter(',');
  AddShardingFlags(sc, schedule.scheduler_args);
  sc->callback([&] { exit_code = ExpandInputs(&schedule.files, "schedule") ? Schedule(schedule) : 1; });

  // explain, queues, scores
  ExplainCommandOptions explain, queues_opts, scores_opts;
  auto add_session_flags = [](CLI::App* cmd, ExplainCommandOptions& o) {
    cmd->add_option("files", o.files, "Scenario files or directories (- or /dev/stdin: standard input)")->required();
    cmd->add_option("--config", o.config,
                    "A volcano-scheduler.conf (default: the scenario's SchedulerConfiguration, else Volcano's default)");
    cmd->add_option("--now", o.now, "The session's clock, in seconds since the epoch")
      ->check(IntegerFrom(kInt64Min, kInt64Max));
    cmd->add_option("-o,--output", o.output, "text or json")->check(CLI::IsMember({"text", "json"}));
    AddShardingFlags(cmd, o.scheduler_args);
  };
  CLI::App* xp = app.add_subcommand("explain", "Why each job waits after one session, and what would make it run");
  add_session_flags(xp, explain);
  xp->add_option("--job", explain.job, "Only this job: a PodGroup's or a Volcano Job's NAMESPACE/NAME");
  xp->add_option("--default-runtime", explain.default_runtime,
                 "Add start-time estimates (vcsched eta), with this runtime for pods that give none, e.g. 1h");
  xp->add_option("--max-reruns", explain.max_reruns, "Sessions re-run in all to find hints, for the waiting jobs in order (0: no hints)")
      ->check(IntegerFrom(0, 1024));
  xp->callback([&] { exit_code = ExpandInputs(&explain.files, "explain") ? Explain(explain) : 1; });
  CLI::App* qu = app.add_subcommand("queues", "Each queue after one session: deserved, allocated, capability, share");
  add_session_flags(qu, queues_opts);
  qu->callback([&] { exit_code = ExpandInputs(&queues_opts.files, "queues") ? Queues(queues_opts) : 1; });
  CLI::App* scs = app.add_subcommand("scores", "Each feasible node's score for a pod, by plugin");
  add_session_flags(scs, scores_opts);
  scs->add_option("--task", scores_opts.task, "The pod, NAMESPACE/NAME")->required();
  scs->callback([&] { exit_code = ExpandInputs(&scores_opts.files, "scores") ? Scores(scores_opts) : 1; });

  // replay
  ReplayOptions replay;
  CLI::App* rp = app.add_subcommand(
      "replay", "Feed watch events to a cluster state; run a session at each SCHEDULE event and at the end, applying its decisions");
  rp->add_option("state", replay.state, "The cluster at the start: a scenario file (objects, optional configuration)")
      ->required();
  rp->add_option("events", replay.events,
                 "Watch events: JSON values {\"type\": ADDED|MODIFIED|DELETED|BOOKMARK|ERROR|SCHEDULE, \"object\": ...}")
      ->required();
  rp->add_option("--config", replay.config,
                 "A volcano-scheduler.conf (default: the state's SchedulerConfiguration, else Volcano's default)");
  rp->add_option("-o,--output", replay.output, "text, or json (a list of cycles)")
      ->check(CLI::IsMember({"text", "json"}));
  rp->add_option("--now", replay.now, "The sessions' clock, in seconds since the epoch")
      ->check(IntegerFrom(kInt64Min, kInt64Max));
  AddShardingFlags(rp, replay.scheduler_args);
  rp->callback([&] { exit_code = Replay(replay); });

  // eta
  EtaCommandOptions eta;
  CLI::App* et = app.add_subcommand("eta", "When each pending job will start: the state's runtimes run forward in virtual time");
  et->add_option("files", eta.files, "The state: scenario files or directories (- or /dev/stdin: standard input)")->required();
  et->add_option("--config", eta.config,
                 "A volcano-scheduler.conf (default: the state's SchedulerConfiguration, else Volcano's default)");
  et->add_option("--now", eta.now, "The state's clock: seconds since the epoch or RFC 3339 (default: its newest timestamp)");
  et->add_option("--default-runtime", eta.default_runtime,
                 "The runtime of pods without vcsched.io/expected-runtime or activeDeadlineSeconds, e.g. 1h");
  et->add_option("--horizon", eta.horizon, "How far ahead to look, e.g. 48h (default: 7 days)");
  et->add_option("-o,--output", eta.output, "text or json")->check(CLI::IsMember({"text", "json"}));
  et->add_option("--workload", eta.workloads, "Jobs arriving after now (kind: Workload, docs/SIMULATE.md)");
  et->add_option("--samples", eta.samples, "Futures to draw runtimes for; reports p10/p50/p90 (default: 1)")
      ->check(IntegerFrom(1, 100000));
  et->add_option("--seed", eta.seed, "The seed of the samples' draws")->check(IntegerFrom(0, kInt64Max));
  AddShardingFlags(et, eta.scheduler_args);
  et->callback([&] { exit_code = ExpandInputs(&eta.files, "eta") ? Eta(eta) : 1; });

  // simulate
  SimulateOptions simulate;
  CLI::App* sim = app.add_subcommand("simulate", "Run a cluster and a workload over virtual time; write tables, plots and a report");
  sim->add_option("cluster", simulate.cluster, "The cluster: a scenario file (nodes, queues, priority classes, ...)")->required();
  sim->add_option("workloads", simulate.workloads, "Workload files (kind: Workload, docs/SIMULATE.md)")->required();
  sim->add_option("--config", simulate.config,
                  "A volcano-scheduler.conf (default: the cluster file's SchedulerConfiguration, else Volcano's default)");
  sim->add_option("--until", simulate.until, "Stop after this much simulated time, e.g. 24h (default: when no work remains)");
  sim->add_option("--seed", simulate.seed, "Overrides the workload's seed")->check(IntegerFrom(0, kInt64Max));
  sim->add_option("--max-events", simulate.max_events,
                  "Without --until, stop with an error after this many events (default 10000000; 0: no bound)")
      ->check(IntegerFrom(0, kInt64Max));
  sim->add_option("--out", simulate.out,
                  "Write jobs.csv, timeline.csv, queues.csv, summary.json, the SVG plots and report.html here "
                  "(default: print summary.json)");
  sim->add_flag("--cluster-runtimes", simulate.cluster_runtimes,
                "The cluster file's pods end on their runtimes (vcsched.io/expected-runtime, activeDeadlineSeconds; docs/ETA.md)");
  sim->add_option("--default-runtime", simulate.default_runtime,
                  "With --cluster-runtimes: the runtime of the cluster file's pods that give none, e.g. 1h");
  AddShardingFlags(sim, simulate.scheduler_args);
  sim->callback([&] { exit_code = Simulate(simulate); });

  // conformance
  std::vector<std::string> conformance_paths;
  CLI::App* cf = app.add_subcommand("conformance", "Run every scenario under the paths and compare with its Expectation");
  cf->add_option("paths", conformance_paths, "Scenario files or directories")->required();
  cf->callback([&] { exit_code = Conformance(conformance_paths); });

  // bench
  BenchOptions bench;
  CLI::App* bn = app.add_subcommand("bench", "Load a scenario once, run the session N times, print timings as JSON");
  bn->add_option("file", bench.file, "The scenario file")->required();
  bn->add_option("--repeat", bench.repeat, "Sessions to run")->check(IntegerFrom(1, kInt32Max));
  bn->add_flag("--reference", bench.reference,
               "Also time the path that evaluates every node for every task (and check it decides alike)");
  bn->add_option("--churn", bench.churn,
                 "Also time N pod changes and a snapshot on a Cluster, the last snapshot let go of (churn_ms) and "
                 "still held (churn_held_ms), against a build from scratch (build_ms)")
      ->check(IntegerFrom(1, kInt32Max));
  bn->add_option("--threads", bench.threads,
                 "Threads that parse the YAML documents while loading (default: every processor, up to 8)")
      ->check(IntegerFrom(1, 256));
  bn->callback([&] { exit_code = Bench(bench); });

  // validate
  ValidateOptions validate;
  CLI::App* va = app.add_subcommand(
      "validate", "Volcano's admission for every Job, PodGroup, Queue, CronJob, JobFlow, JobTemplate and Pod");
  va->add_option("files", validate.files, "Manifest files or directories")->required();
  va->add_flag("--strict", validate.strict, "Kubernetes pod-template problems are errors, as in Volcano's webhook");
  va->add_option("--cluster", validate.cluster_files, "The cluster's queues (the job's queue rules are checked)");
  va->add_option("--old", validate.old_files, "Earlier versions: a Job found there is judged as an update");
  va->callback([&] {
    exit_code = ExpandInputs(&validate.files, "validate") && ExpandInputs(&validate.cluster_files, "validate") &&
                        ExpandInputs(&validate.old_files, "validate")
                    ? Validate(validate)
                    : 1;
  });

  // hypernodes
  HyperNodesOptions hypernodes;
  CLI::App* hn = app.add_subcommand("hypernodes", "The HyperNode objects Volcano's label discoverer makes from node labels");
  hn->add_option("files", hypernodes.files, "Files or directories with the Nodes")->required();
  hn->add_option("--labels", hypernodes.labels,
                 "Node label keys, widest domain first (default: topology.kubernetes.io/region,topology.kubernetes.io/zone)")
      ->delimiter(',');
  hn->callback([&] { exit_code = ExpandInputs(&hypernodes.files, "hypernodes") ? HyperNodes(hypernodes) : 1; });

  // expand
  ExpandCommandOptions expand;
  CLI::App* ex = app.add_subcommand("expand", "Every object Volcano's controller creates for each Job, as YAML");
  ex->add_option("files", expand.files, "Manifest files or directories")->required();
  ex->add_option("--ssh-key-dir", expand.ssh_key_dir, "id_rsa and id_rsa.pub for the ssh plugin's Secret");
  ex->callback([&] { exit_code = ExpandInputs(&expand.files, "expand") ? Expand(expand) : 1; });

  // job: the steps keep their command-line order.
  JobOptions job;
  CLI::App* jb = app.add_subcommand("job", "Step a Volcano Job through its lifecycle");
  jb->add_option("file", job.file, "The Job manifest")->required();
  jb->add_option("--now", job.now, "The clock at the start, in seconds since the epoch")
      ->check(IntegerFrom(kInt64Min, kInt64Max));
  jb->add_flag("--sync", "The controller syncs the job")->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  const std::map<std::string, std::string> step_help = {
      {"podgroup", "PHASE: the scheduler moved the PodGroup (Inqueue, Running, Unknown)"},
      {"pod", "NAME=PHASE[:EXITCODE]: a pod changed phase"},
      {"all-pods", "PHASE: every current pod to PHASE"},
      {"evict", "POD: the pod was deleted from outside (PodEvicted)"},
      {"restart-container", "POD: a container of the pod restarted"},
      {"event", "EVENT[:TASK[:POD[:EXITCODE]]]: an event as is"},
      {"command", "ACTION: a bus Command (AbortJob, ResumeJob, ...)"},
      {"wait", "SECONDS: time passes; delayed (timeout) actions run"}};
  for (const char* step : kJobSteps) {
    jb->add_option(absl::StrCat("--", step), step_help.at(step))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->type_size(1)
        ->allow_extra_args(false);
  }
  jb->callback([&] {
    std::map<const CLI::Option*, size_t> used;
    for (const CLI::Option* o : jb->parse_order()) {
      if (o->get_lnames().empty()) continue;  // the file
      const std::string& name = o->get_lnames().front();  // "--pod" -> "pod"
      if (name == "sync") {
        job.steps.emplace_back("sync", "");
      } else if (name != "now" && name != "file" && name != "help") {
        job.steps.emplace_back(name, o->results().at(used[o]++));
      }
    }
    exit_code = Job(job);
  });

  app.add_subcommand("help", "Print this help, or a command's: vcsched help COMMAND")->allow_extras();

  std::vector<std::string> args = SplitShortEquals(argc, argv);
  if (args.empty() || args[0] == "help") {
    const CLI::App* about = nullptr;
    for (const CLI::App* c : app.get_subcommands({})) {
      if (args.size() > 1 && c->get_name() == args[1]) about = c;
    }
    std::cout << (about != nullptr ? about->help("vcsched") : app.help());
    return args.empty() ? kExitUsage : 0;
  }
  if (args[0].empty() || args[0][0] != '-') {
    bool known = false;
    for (const CLI::App* c : app.get_subcommands({})) known = known || c->get_name() == args[0];
    if (!known) {
      std::cerr << "vcsched: unknown command \"" << args[0] << "\" (see vcsched --help)\n";
      return kExitUsage;
    }
  }
  try {
    std::reverse(args.begin(), args.end());  // CLI11 takes a vector back to front
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message and a pointer to --help
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace vcsched::cli

int main(int argc, char** argv) {
  try {
    return vcsched::cli::RunCli(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "vcsched: internal error: " << e.what() << "\n";
    return 3;
  }
}
