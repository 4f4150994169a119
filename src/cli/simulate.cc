// vcsched simulate: a cluster and a workload over virtual time (docs/SIMULATE.md); the
// tables, plots and report go to --out, the summary to standard output without it.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/arguments.h"
#include "vcsched/simulate.h"

namespace vcsched::cli {
namespace {

// Writes `text` to a new file beside `path` (created exclusively: nothing already in the
// folder is opened, so a symlink planted there is never followed).
absl::Status WriteNew(const std::filesystem::path& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return absl::UnavailableError(absl::StrCat("cannot write ", path.string(), ": ", std::strerror(errno)));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      close(fd);
      return absl::UnavailableError(absl::StrCat("cannot write ", path.string(), ": ", std::strerror(err)));
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) return absl::UnavailableError(absl::StrCat("cannot write ", path.string(), ": ", std::strerror(errno)));
  return absl::OkStatus();
}

// The output files, whole or not at all: each is written to a temporary file in the
// folder first; only when all are written are they renamed into place (a rename replaces
// a symlink of that name rather than writing through it). On a failure the temporary
// files go and the folder keeps what it had.
absl::Status WriteOutputs(const std::string& dir, const SimulationResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  const std::filesystem::path d(dir);
  std::vector<std::pair<const char*, std::string>> files = {
      {"jobs.csv", JobsCsv(r)},
      {"timeline.csv", TimelineCsv(r)},
      {"queues.csv", QueuesCsv(r)},
      {"summary.json", SummaryJson(r)},
      {"utilization.svg", UtilizationSvg(r)},
      {"queue_shares.svg", QueueSharesSvg(r)},
      {"wait_times.svg", WaitTimesSvg(r)},
      {"report.html", ReportHtml(r)}};
  if (!r.cards.empty()) {  // shared GPU cards in the cluster
    files.emplace_back("cards.csv", CardsCsv(r));
    files.emplace_back("cards.svg", CardsSvg(r));
  }
  for (const auto& [name, _] : files) {
    const std::filesystem::path target = d / name;
    if (std::filesystem::is_directory(std::filesystem::symlink_status(target, ec))) {
      return absl::UnavailableError(absl::StrCat("cannot write ", target.string(), ": is a directory"));
    }
  }
  std::vector<std::filesystem::path> written;
  const auto temp_of = [&](const char* name) { return d / absl::StrCat(".", name, ".vcsched-", getpid(), ".tmp"); };
  const auto discard = [&] {
    for (const std::filesystem::path& t : written) std::filesystem::remove(t, ec);
  };
  for (const auto& [name, text] : files) {
    const std::filesystem::path temp = temp_of(name);
    std::filesystem::remove(temp, ec);  // a leftover of an interrupted run of this pid
    if (absl::Status s = WriteNew(temp, text); !s.ok()) {
      discard();
      return s;
    }
    written.push_back(temp);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    const std::filesystem::path target = d / files[i].first;
    if (std::rename(written[i].c_str(), target.c_str()) != 0) {
      const int err = errno;
      discard();
      return absl::UnavailableError(absl::StrCat("cannot write ", target.string(), ": ", std::strerror(err)));
    }
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
  std::vector<std::string> warnings;
  absl::StatusOr<SchedulerConfig> resolved = ResolveConfig(cluster->config, options.config, options.scheduler_args, &warnings);
  if (!resolved.ok()) return fail(resolved.status());
  for (const std::string& w : warnings) std::cerr << "vcsched: warning: " << w << "\n";
  SchedulerConfig config = *std::move(resolved);
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
  if (options.cluster_runtimes || !options.default_runtime.empty()) {
    sim.cluster_runtimes.emplace();
    if (!options.default_runtime.empty()) {
      absl::StatusOr<int64_t> d = ParseGoDurationMillis(options.default_runtime);
      if (!d.ok() || *d < 0) {
        std::cerr << "vcsched: --default-runtime: expected a duration such as 1h or 90m, got \"" << options.default_runtime << "\"\n";
        return kExitUsage;
      }
      sim.cluster_runtimes->default_ms = *d;
    }
  }
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
  const std::filesystem::path dir(options.out);
  std::cout << "wrote " << (dir / "report.html").string() << " (and jobs.csv, timeline.csv, queues.csv, summary.json, "
            << "utilization.svg, queue_shares.svg, wait_times.svg" << (r->cards.empty() ? "" : ", cards.csv, cards.svg")
            << " beside it)\n"
            << SummaryText(*r);
  return 0;
}

}  // namespace vcsched::cli
