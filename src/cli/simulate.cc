// vcsched simulate: a cluster and a workload over virtual time (docs/SIMULATE.md); the
// tables, plots and report go to --out, the summary to standard output without it.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "absl/strings/str_format.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/arguments.h"
#include "vcsched/simulate.h"

namespace vcsched::cli {
namespace {

absl::Status WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

absl::Status WriteOutputs(const std::string& dir, const SimulationResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  const std::filesystem::path d(dir);
  for (const auto& [name, text] : std::vector<std::pair<const char*, std::string>>{
           {"jobs.csv", JobsCsv(r)},
           {"timeline.csv", TimelineCsv(r)},
           {"queues.csv", QueuesCsv(r)},
           {"summary.json", SummaryJson(r)},
           {"utilization.svg", UtilizationSvg(r)},
           {"queue_shares.svg", QueueSharesSvg(r)},
           {"wait_times.svg", WaitTimesSvg(r)},
           {"report.html", ReportHtml(r)}}) {
    if (absl::Status s = WriteText(d / name, text); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A one-line bar on a terminal: simulated time against the end (or just the time).
void ShowProgress(int64_t now_ms, int64_t until_ms) {
  if (until_ms > 0) {
    const int width = 40;
    const int filled = static_cast<int>(static_cast<double>(now_ms) / static_cast<double>(until_ms) * width);
    std::fprintf(stderr, "\r[%-*s] %.0fs / %.0fs", width, std::string(static_cast<size_t>(std::clamp(filled, 0, width)), '#').c_str(),
                 static_cast<double>(now_ms) / 1000, static_cast<double>(until_ms) / 1000);
  } else {
    std::fprintf(stderr, "\rsimulated %.0fs", static_cast<double>(now_ms) / 1000);
  }
  std::fflush(stderr);
}

}  // namespace

int Simulate(const SimulateOptions& options) {
  auto fail = [](const absl::Status& s) {
    std::cerr << "vcsched: " << s.message() << "\n";
    return 1;
  };
  absl::StatusOr<std::string> cluster_text = ReadFile(options.cluster);
  if (!cluster_text.ok()) return fail(cluster_text.status());
  absl::StatusOr<ScenarioObjects> cluster = LoadObjects({{options.cluster, *cluster_text}});
  if (!cluster.ok()) return fail(cluster.status());
  std::vector<ScenarioSource> workload_sources;
  for (const std::string& path : options.workloads) {
    absl::StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) return fail(text.status());
    workload_sources.push_back({path, *text});
  }
  absl::StatusOr<Workload> workload = ReadWorkload(workload_sources);
  if (!workload.ok()) return fail(workload.status());
  SchedulerConfig config = cluster->config.value_or(DefaultSchedulerConfig());
  if (!options.config.empty()) {
    absl::StatusOr<std::string> text = ReadFile(options.config);
    if (!text.ok()) return fail(text.status());
    std::vector<std::string> warnings;
    absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({options.config, *text}, &warnings);
    if (!c.ok()) return fail(c.status());
    for (const std::string& w : warnings) std::cerr << "vcsched: warning: " << w << "\n";
    config = *std::move(c);
  }
  SimulationOptions sim;
  if (!options.until.empty()) {
    absl::StatusOr<int64_t> until = ParseGoDurationMillis(options.until);
    if (!until.ok() || *until < 0) {
      std::cerr << "vcsched: --until: expected a duration such as 24h or 90m, got \"" << options.until << "\"\n";
      return kExitUsage;
    }
    sim.until_ms = *until;
  }
  if (options.seed) sim.seed = *options.seed;
  sim.max_events = options.max_events;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  if (terminal) sim.progress = ShowProgress;
  absl::StatusOr<SimulationResult> r = vcsched::Simulate(*cluster, *workload, config, sim);
  if (terminal) std::fprintf(stderr, "\n");
  if (!r.ok()) return fail(r.status());
  for (const std::string& note : r->notes) std::cerr << "vcsched: note: " << note << "\n";
  if (options.out.empty()) {
    std::cout << SummaryJson(*r);
    return 0;
  }
  if (absl::Status s = WriteOutputs(options.out, *r); !s.ok()) return fail(s);
  return 0;
}

}  // namespace vcsched::cli
