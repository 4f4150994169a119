#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/io/format.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched::cli {

int Schedule(const ScheduleOptions& options) {
  const std::vector<std::string>& files = options.files;
  const std::string& config_path = options.config;
  const std::string& output = options.output;
  const int64_t now = options.now;
  LoadOptions load;
  load.hyper_node_labels = options.hyper_node_labels;
  std::vector<std::string> config_warnings;
  absl::StatusOr<SessionInput> in = LoadSessionInput(files, config_path, options.scheduler_args, load, &config_warnings);
  if (!in.ok()) {
    std::cerr << "vcsched: " << in.status().message() << "\n";
    return 1;
  }
  RunOptions opts;
  opts.now_seconds = now;
  absl::StatusOr<Decisions> d = RunSession(in->scenario.snapshot, in->config, opts);
  if (!d.ok()) {
    std::cerr << "vcsched: " << d.status().message() << "\n";
    return 1;
  }
  d->warnings.insert(d->warnings.end(), config_warnings.begin(), config_warnings.end());
  if (output == "json") std::cout << DecisionsToJson(*d);
  else if (output == "yaml") std::cout << DecisionsToManifests(*d);
  else if (output == "kubectl") std::cout << DecisionsToKubectlScript(*d, {now});
  else std::cout << DecisionsToText(*d);
  return 0;
}

}  // namespace vcsched::cli
