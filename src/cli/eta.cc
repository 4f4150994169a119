// vcsched eta: when each pending job of a state will start (docs/ETA.md).
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/arguments.h"
#include "vcsched/eta.h"
#include "vcsched/simulate.h"

namespace vcsched::cli {
namespace {

int Usage(const std::string& message) {
  std::cerr << "vcsched eta: " << message << "\n";
  return kExitUsage;
}

}  // namespace

int Eta(const EtaCommandOptions& options) {
  auto fail = [](const absl::Status& s) {
    std::cerr << "vcsched: " << s.message() << "\n";
    return 1;
  };
  EtaOptions eta;
  if (!options.now.empty()) {
    int64_t now = 0;
    if (!absl::SimpleAtoi(options.now, &now) && !ParseApiTime(options.now, &now)) {
      return Usage(absl::StrCat("--now: expected seconds since the epoch or an RFC 3339 time, got \"", options.now, "\""));
    }
    eta.now_seconds = now;
  }
  if (!options.default_runtime.empty()) {
    absl::StatusOr<int64_t> d = ParseGoDurationMillis(options.default_runtime);
    if (!d.ok() || *d < 0) {
      return Usage(absl::StrCat("--default-runtime: expected a duration such as 1h or 90m, got \"", options.default_runtime, "\""));
    }
    eta.default_runtime_ms = *d;
  }
  if (!options.horizon.empty()) {
    absl::StatusOr<int64_t> h = ParseGoDurationMillis(options.horizon);
    if (!h.ok() || *h <= 0) {
      return Usage(absl::StrCat("--horizon: expected a positive duration such as 24h, got \"", options.horizon, "\""));
    }
    eta.horizon_ms = *h;
  }
  eta.samples = options.samples;
  eta.seed = options.seed;
  eta.threads = 0;  // the command line lets the samples use the processors
  absl::StatusOr<std::vector<ScenarioSource>> sources = ReadSources(options.files);
  if (!sources.ok()) return fail(sources.status());
  absl::StatusOr<ScenarioObjects> state = LoadObjects(*sources);
  if (!state.ok()) return fail(state.status());
  std::optional<Workload> workload;
  if (!options.workloads.empty()) {
    absl::StatusOr<std::vector<ScenarioSource>> ws = ReadSources(options.workloads);
    if (!ws.ok()) return fail(ws.status());
    absl::StatusOr<Workload> w = ReadWorkload(*ws);
    if (!w.ok()) return fail(w.status());
    workload = *std::move(w);
    eta.workload = &*workload;
  }
  std::vector<std::string> warnings;
  absl::StatusOr<SchedulerConfig> config = ResolveConfig(state->config, options.config, options.scheduler_args, &warnings);
  if (!config.ok()) return fail(config.status());
  for (const std::string& w : warnings) std::cerr << "vcsched: warning: " << w << "\n";
  absl::StatusOr<EtaResult> r = EstimateStarts(*state, *config, eta);
  if (!r.ok()) return fail(r.status());
  for (const std::string& note : r->notes) std::cerr << "vcsched: note: " << note << "\n";
  std::cout << (options.output == "json" ? EtaJson(*r) : EtaText(*r));
  return 0;
}

}  // namespace vcsched::cli
