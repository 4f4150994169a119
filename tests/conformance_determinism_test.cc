// Every conformance case gives byte-identical decisions when run twice and when its
// documents are shuffled (canonical order makes document order irrelevant).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

std::vector<std::string> CaseFiles() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(VCSCHED_CONFORMANCE_DIR)) {
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The decisions' text, or the error: either must be reproducible.
std::string Outcome(const std::string& text, bool cache = true) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"case.yaml", text}});
  if (!sc.ok()) return "load error: " + std::string(sc.status().message());
  RunOptions opts;
  opts.node_choice_cache = cache;
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, sc->config.value_or(DefaultSchedulerConfig()), opts);
  if (!d.ok()) return "session error: " + std::string(d.status().message());
  return d->ToString();
}

std::string Shuffled(const std::string& text, uint32_t seed) {
  std::vector<std::string> docs = absl::StrSplit(text, "\n---\n");
  std::mt19937 rng(seed);
  std::shuffle(docs.begin(), docs.end(), rng);
  return absl::StrJoin(docs, "\n---\n");
}

TEST_CASE("Conformance: every case is deterministic, twice and shuffled", "[conformance][determinism]") {
  const std::vector<std::string> files = CaseFiles();
  REQUIRE(files.size() >= 91);
  for (const std::string& f : files) {
    std::ifstream in(f);
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string text = buf.str();
    const std::string first = Outcome(text);
    CAPTURE(f);
    CHECK(first.rfind("load error", 0) != 0);
    CHECK(Outcome(text) == first);
    CHECK(Outcome(text, false) == first);
    for (uint32_t seed : {1u, 2u, 3u}) CHECK(Outcome(Shuffled(text, seed)) == first);
  }
}

}  // namespace
}  // namespace vcsched
