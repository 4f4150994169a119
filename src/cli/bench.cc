#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched::cli {

int Bench(const std::vector<std::string>& args) {
  std::string file;
  int repeat = 5;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--repeat" && i + 1 < args.size()) {
      if (!absl::SimpleAtoi(args[++i], &repeat) || repeat < 1) {
        std::cerr << "vcsched bench: --repeat takes a positive integer\n";
        return 2;
      }
    } else if (file.empty() && args[i][0] != '-') {
      file = args[i];
    } else {
      std::cerr << "vcsched bench: unexpected argument " << args[i] << "\n";
      return 2;
    }
  }
  if (file.empty()) {
    std::cerr << "vcsched bench: no scenario file given\n";
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  const auto t0 = Clock::now();
  absl::StatusOr<std::string> text = ReadFile(file);
  if (!text.ok()) {
    std::cerr << "vcsched: " << text.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<Scenario> sc = LoadScenario({{file, *std::move(text)}});
  if (!sc.ok()) {
    std::cerr << "vcsched: " << sc.status().message() << "\n";
    return 1;
  }
  const double load_ms = ms(Clock::now() - t0);
  const SchedulerConfig config = sc->config.value_or(DefaultSchedulerConfig());
  std::vector<double> times;
  size_t binds = 0, placements = 0;
  for (int i = 0; i < repeat; ++i) {
    const auto s = Clock::now();
    absl::StatusOr<Decisions> d = RunSession(sc->snapshot, config);
    times.push_back(ms(Clock::now() - s));
    if (!d.ok()) {
      std::cerr << "vcsched: " << d.status().message() << "\n";
      return 1;
    }
    binds = d->binds.size();
    placements = d->binds.size() + d->pipelined.size();
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::cout << absl::StrFormat(
      "{\"file\": \"%s\", \"load_ms\": %.3f, \"session_ms\": %.3f, \"repeat\": %d, \"binds\": %d, "
      "\"placements_per_s\": %.0f, \"peak_rss_mib\": %.1f}\n",
      file, load_ms, median, repeat, binds, median > 0 ? static_cast<double>(placements) / (median / 1000) : 0.0,
      static_cast<double>(ru.ru_maxrss) / 1024.0);
  return 0;
}

}  // namespace vcsched::cli
