// vcsched explain / queues / scores: why work waits (docs/EXPLAIN.md).
#include <algorithm>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
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

}  // namespace

int Explain(const ExplainCommandOptions& options) {
  return WithInput(options, [&](const SessionInput& in, const RunOptions& run) -> absl::Status {
    ExplainOptions opts;
    opts.run = run;
    opts.job = options.job;
    opts.max_reruns = options.max_reruns;
    absl::StatusOr<ExplainResult> r = vcsched::Explain(in.scenario.snapshot, in.config, opts);
    if (!r.ok()) return r.status();
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
