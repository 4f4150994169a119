#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>

#include "absl/strings/str_format.h"
#include "src/cli/bench_churn.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched::cli {
namespace {

// FNV-1a over the decisions' text: a short fingerprint that tests pin so an optimisation
// that changes any decision (or its reason) is caught.
uint64_t Fingerprint(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

int Bench(const BenchOptions& options) {
  const std::string& file = options.file;
  const int repeat = options.repeat;
  const bool reference = options.reference;
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  const auto t0 = Clock::now();
  absl::StatusOr<Scenario> sc = LoadScenarioFiles({file}, {}, options.threads);
  if (!sc.ok()) {
    std::cerr << "vcsched: " << sc.status().message() << "\n";
    return 1;
  }
  const double load_ms = ms(Clock::now() - t0);
  const SchedulerConfig config = sc->config.value_or(DefaultSchedulerConfig());
  // Sessions alternate between the optimised path and, with --reference, the path that
  // evaluates every node for every task, so both see the same machine load.
  std::vector<double> times, reference_times;
  size_t binds = 0, placements = 0;
  std::string first_text;
  uint64_t digest = 0;
  for (int i = 0; i < repeat; ++i) {
    for (int pass = 0; pass < (reference ? 2 : 1); ++pass) {
      RunOptions opts;
      opts.node_choice_cache = pass == 0;
      const auto s = Clock::now();
      absl::StatusOr<Decisions> d = RunSession(sc->snapshot, config, opts);
      (pass == 0 ? times : reference_times).push_back(ms(Clock::now() - s));
      if (!d.ok()) {
        std::cerr << "vcsched: " << d.status().message() << "\n";
        return 1;
      }
      if (pass == 0) {
        binds = d->binds.size();
        placements = d->binds.size() + d->pipelined.size();
      }
      if (i == 0) {  // the first run's decisions: the digest, and the reference's check
        std::string decided = d->ToString();
        if (pass == 0) {
          digest = Fingerprint(decided);
          first_text = std::move(decided);
        } else if (decided != first_text) {
          std::cerr << "vcsched bench: the reference path decided differently\n";
          return 1;
        }
      }
    }
  }
  std::sort(times.begin(), times.end());
  std::sort(reference_times.begin(), reference_times.end());
  const double median = times[times.size() / 2];
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::string extra;
  if (options.churn > 0) {
    absl::StatusOr<std::string> churn = MeasureChurn(file, options.churn, config);
    if (!churn.ok()) {
      std::cerr << "vcsched: " << churn.status().message() << "\n";
      return 1;
    }
    extra += *churn;
  }
  if (reference) {
    const double ref = reference_times[reference_times.size() / 2];
    extra += absl::StrFormat(", \"reference_session_ms\": %.3f, \"speedup\": %.2f", ref, median > 0 ? ref / median : 0.0);
  }
  std::cout << absl::StrFormat(
      "{\"file\": \"%s\", \"load_ms\": %.3f, \"session_ms\": %.3f, \"repeat\": %d, \"binds\": %d, "
      "\"placements_per_s\": %.0f, \"session_ms_min\": %.3f, \"peak_rss_mib\": %.1f, \"decisions_digest\": \"%016x\"%s}\n",
      file, load_ms, median, repeat, binds, median > 0 ? static_cast<double>(placements) / (median / 1000) : 0.0,
      times.front(), static_cast<double>(ru.ru_maxrss) / 1024.0, digest, extra);
  return 0;
}

}  // namespace vcsched::cli
