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
  absl::StatusOr<Scenario> sc = LoadScenarioFiles(files, load);
  if (!sc.ok()) {
    std::cerr << "vcsched: " << sc.status().message() << "\n";
    return 1;
  }
  SchedulerConfig config = sc->config.value_or(DefaultSchedulerConfig());
  std::vector<std::string> config_warnings;
  if (!config_path.empty()) {
    absl::StatusOr<std::string> text = ReadFile(config_path);
    if (!text.ok()) {
      std::cerr << "vcsched: " << text.status().message() << "\n";
      return 1;
    }
    absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({config_path, *text}, &config_warnings);
    if (!c.ok()) {
      std::cerr << "vcsched: " << c.status().message() << "\n";
      return 1;
    }
    config = *std::move(c);
  }
  RunOptions opts;
  opts.now_seconds = now;
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, config, opts);
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
