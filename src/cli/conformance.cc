#include <iostream>

#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched::cli {
namespace {

// Runs one case; returns the failure text, empty on success.
std::string RunCase(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return std::string(text.status().message());
  absl::StatusOr<Scenario> sc = LoadScenario({{path, *text}});
  if (!sc.ok()) return absl::StrCat("load error: ", sc.status().message());
  if (!sc->expectation) return "no Expectation document";
  const SchedulerConfig config = sc->config.value_or(DefaultSchedulerConfig());
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, config);
  if (!d.ok()) return absl::StrCat("session error (not implemented or invalid): ", d.status().message());
  return absl::StrJoin(CompareWithExpectation(*d, *sc->expectation, &sc->snapshot), "; ");
}

}  // namespace

int Conformance(const std::vector<std::string>& paths) {
  absl::StatusOr<std::vector<std::string>> files = CollectYamlFiles(paths);
  if (!files.ok()) {
    std::cerr << "vcsched: " << files.status().message() << "\n";
    return 1;
  }
  int passed = 0, failed = 0;
  for (const std::string& f : *files) {
    const std::string failure = RunCase(f);
    if (failure.empty()) {
      ++passed;
      std::cout << "PASS " << f << "\n";
    } else {
      ++failed;
      std::cout << "FAIL " << f << ": " << absl::StrReplaceAll(failure, {{"\n", " | "}}) << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}

}  // namespace vcsched::cli
