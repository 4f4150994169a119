#include <iostream>

#include "absl/strings/numbers.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/io/format.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched::cli {

int Schedule(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string config_path, output = "text";
  int64_t now = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> const std::string* {
      if (i + 1 >= args.size()) {
        std::cerr << "vcsched schedule: " << flag << " needs a value\n";
        return nullptr;
      }
      return &args[++i];
    };
    if (a == "--config") {
      const std::string* v = value("--config");
      if (!v) return 2;
      config_path = *v;
    } else if (a == "-o" || a == "--output") {
      const std::string* v = value("-o");
      if (!v) return 2;
      output = *v;
    } else if (a == "--now") {
      const std::string* v = value("--now");
      if (!v || !absl::SimpleAtoi(*v, &now)) {
        std::cerr << "vcsched schedule: --now takes seconds since the epoch\n";
        return 2;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << "vcsched schedule: unknown flag " << a << "\n";
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::cerr << "vcsched schedule: no scenario file given\n";
    return 2;
  }
  if (output != "text" && output != "yaml" && output != "json") {
    std::cerr << "vcsched schedule: -o takes text, yaml or json\n";
    return 2;
  }
  absl::StatusOr<Scenario> sc = LoadScenarioFiles(files);
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
  else std::cout << DecisionsToText(*d);
  return 0;
}

}  // namespace vcsched::cli
