// vcsched explain / queues / scores: why work waits (docs/EXPLAIN.md).
#include <algorithm>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"
#include "vcsched/eta.h"
#include "vcsched/explain.h"

namespace vcsched::cli {
namespace {

// Loads the input and runs `body` with it; errors go to stderr with exit code 1.
template <typename Body>
int WithInput(const ExplainCommandOptions& options, Body body) {
  std::vector<std::string> config_warnings;
  const LoadOptions load;
  absl::StatusOr<SessionInput> in = LoadSessionInput(options.files, options.config, options.scheduler_args, load, &config_warnings);
  if (!in.ok()) {
    std::cerr << "vcsched: " << in.status().message() << "\n";
    return 1;
  }
  for (const std::string& w : config_warnings) std::cerr << "vcsched: warning: " << w << "\n";
  RunOptions run;
  run.now_seconds = options.now;
  const absl::Status st = body(*in, run);
  if (!st.ok()) {
    std::cerr << "vcsched: " << st.message() << "\n";
    return 1;
  }
  return 0;
}

// Whether some pod of the state says how long it runs (docs/ETA.md "Runtimes"): then
// explain adds each waiting job's start-time estimate.
bool RuntimesKnown(const Snapshot& snapshot) {
  constexpr absl::string_view kKey = "vcsched.io/expected-runtime";
  for (const TaskInfo& t : snapshot.tasks()) {
    if (t.pod->annotations.count(kKey) || t.pod->active_deadline_seconds) return true;
  }
  for (const JobInfo& j : snapshot.jobs()) {
    if (j.pod_group.annotations.count(kKey)) return true;
  }
  return false;
}

// Estimates for the explained jobs, from the same files read as objects.
absl::Status AddEtaLines(const ExplainCommandOptions& options, const SessionInput& in, Explanation& explanation) {
  EtaOptions eta;
  if (options.now != 0) eta.now_seconds = options.now;
  if (!options.default_runtime.empty()) {
    absl::StatusOr<int64_t> d = ParseGoDurationMillis(options.default_runtime);
    if (!d.ok() || *d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--default-runtime: expected a duration such as 1h or 90m, got \"", options.default_runtime, "\""));
    }
    eta.default_runtime_ms = *d;
  } else if (!RuntimesKnown(in.scenario.snapshot)) {
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<ScenarioSource>> sources = ReadSources(options.files);
  if (!sources.ok()) return sources.status();
  absl::StatusOr<ScenarioObjects> state = LoadObjects(*sources);
  if (!state.ok()) return state.status();
  absl::StatusOr<EtaResult> r = EstimateStarts(*state, in.config, eta);
  if (!r.ok()) return r.status();
  AddEstimates(*r, explanation);
  return absl::OkStatus();
}

}  // namespace

int Explain(const ExplainCommandOptions& options) {
  return WithInput(options, [&](const SessionInput& in, const RunOptions& run) -> absl::Status {
    ExplainOptions opts;
    opts.run = run;
    opts.job = options.job;
    opts.max_reruns = options.max_reruns;
    absl::StatusOr<ExplainResult> r = vcsched::Explain(in.scenario.snapshot, in.config, opts);
    if (!r.ok()) return r.status();
    VCSCHED_RETURN_IF_ERROR(AddEtaLines(options, in, r->explanation));
    if (!options.job.empty()) {
      // One job asked for: that job alone in text; its queue beside it in JSON.
      std::vector<QueueView>& queues = r->explanation.queues;
      const std::string queue = r->explanation.jobs.empty() ? "" : r->explanation.jobs.front().queue;
      queues.erase(std::remove_if(queues.begin(), queues.end(),
                                  [&](const QueueView& q) { return options.output != "json" || q.name != queue; }),
                   queues.end());
    }
    std::cout << (options.output == "json" ? ExplanationToJson(r->explanation) : ExplanationToText(r->explanation));
    return absl::OkStatus();
  });
}

int Queues(const ExplainCommandOptions& options) {
  return WithInput(options, [&](const SessionInput& in, const RunOptions& run) -> absl::Status {
    absl::StatusOr<std::vector<QueueView>> q = DescribeQueues(in.scenario.snapshot, in.config, run);
    if (!q.ok()) return q.status();
    std::cout << (options.output == "json" ? QueuesToJson(*q) : QueuesToText(*q));
    return absl::OkStatus();
  });
}

int Scores(const ExplainCommandOptions& options) {
  return WithInput(options, [&](const SessionInput& in, const RunOptions& run) -> absl::Status {
    absl::StatusOr<std::vector<NodeScore>> s = ScoreTask(in.scenario.snapshot, in.config, options.task, run);
    if (!s.ok()) return s.status();
    std::cout << (options.output == "json" ? ScoresToJson(options.task, *s) : ScoresToText(options.task, *s));
    return absl::OkStatus();
  });
}

}  // namespace vcsched::cli
