// vcsched replay: a cluster state, then watch events; a session at each SCHEDULE event
// and at the end, its decisions applied to the state.
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/model/output_text.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"
#include "vcsched/io/format.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler_memory.h"
#include "vcsched/io/watch.h"
#include "vcsched/scheduler.h"

namespace vcsched::cli {
namespace {

std::string JsonList(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  quoted.reserve(items.size());
  for (const std::string& i : items) quoted.push_back(JsonQuote(i));
  return absl::StrCat("[", absl::StrJoin(quoted, ", "), "]");
}

struct Cycle {
  int number = 0;
  int after_event = 0;  // the number of events applied before it
  std::vector<std::string> errors, notes;  // of the events since the last cycle
};

}  // namespace

int Replay(const ReplayOptions& options) {
  const auto fail = [](const absl::Status& s) {
    std::cerr << "vcsched: " << s.message() << "\n";
    return 1;
  };
  absl::StatusOr<std::string> state_text = ReadFile(options.state);
  if (!state_text.ok()) return fail(state_text.status());
  absl::StatusOr<ScenarioObjects> objects = LoadObjects({{options.state, *state_text}});
  if (!objects.ok()) return fail(objects.status());
  Cluster cluster;
  if (absl::Status s = PutObjects(*objects, cluster); !s.ok()) return fail(s);
  absl::StatusOr<SchedulerConfig> resolved = ResolveConfig(objects->config, options.config, options.scheduler_args, nullptr);
  if (!resolved.ok()) return fail(resolved.status());
  SchedulerConfig config = *std::move(resolved);
  absl::StatusOr<std::string> events_text = ReadFile(options.events);
  if (!events_text.ok()) return fail(events_text.status());
  absl::StatusOr<std::vector<WatchEvent>> events = ReadWatchEvents({options.events, *events_text});
  if (!events.ok()) return fail(events.status());

  const bool json = options.output == "json";
  bool any_error = false;
  Cycle cycle;
  std::vector<std::string> json_cycles;
  // `at`: the SCHEDULE event (its clock and expectation), or nullptr for the final cycle.
  SchedulerMemory memory;  // one scheduler runs every cycle
  const auto run_cycle = [&](int applied, const WatchEvent* at) -> bool {
    ++cycle.number;
    cycle.after_event = applied;
    absl::StatusOr<Snapshot> snap = cluster.Snapshot();
    if (!snap.ok()) {
      fail(snap.status());
      return false;
    }
    RunOptions run;
    run.now_seconds = at != nullptr && at->now ? *at->now : options.now;
    run.memory = &memory;
    absl::StatusOr<Decisions> d = RunSession(*snap, config, run);
    if (!d.ok()) {
      fail(d.status());
      return false;
    }
    const ApplyReport report = cluster.Apply(*d, run.now_seconds);
    std::vector<std::string> unmet;
    if (at != nullptr && at->expect) unmet = CompareWithExpectation(*d, *at->expect, &*snap);
    if (!unmet.empty()) any_error = true;
    if (json) {
      json_cycles.push_back(absl::StrCat("{\"cycle\": ", cycle.number, ", \"afterEvent\": ", cycle.after_event,
                                         ", \"errors\": ", JsonList(cycle.errors), ", \"notes\": ", JsonList(cycle.notes),
                                         ", \"conflicts\": ", JsonList(report.conflicts),
                                         ", \"unmetExpectations\": ", JsonList(unmet),
                                         ", \"decisions\": ", DecisionsToJson(*d), "}"));
    } else {
      std::cout << "# cycle " << cycle.number << " (after " << cycle.after_event << " events)\n";
      for (const std::string& e : cycle.errors) std::cout << "error: " << e << "\n";
      for (const std::string& n : cycle.notes) std::cout << "note: " << n << "\n";
      std::cout << DecisionsToText(*d);
      for (const std::string& c : report.conflicts) std::cout << "conflict: " << c << "\n";
      for (const std::string& u : unmet) std::cout << "expectation not met: " << u << "\n";
    }
    cycle.errors.clear();
    cycle.notes.clear();
    return true;
  };
  int applied = 0;
  bool changed_since_cycle = true;  // a final cycle runs unless the last event was SCHEDULE
  for (const WatchEvent& e : *events) {
    ++applied;
    if (e.type == WatchEvent::Type::kSchedule) {
      if (!run_cycle(applied, &e)) return 1;
      changed_since_cycle = false;
      continue;
    }
    changed_since_cycle = true;
    if (absl::Status s = ApplyWatchEvent(cluster, e, &cycle.notes); !s.ok()) {
      cycle.errors.push_back(std::string(s.message()));
      any_error = true;
    }
  }
  if (changed_since_cycle && !run_cycle(applied, nullptr)) return 1;
  if (json) std::cout << "[\n" << absl::StrJoin(json_cycles, ",\n") << "\n]\n";
  return any_error ? 1 : 0;
}

}  // namespace vcsched::cli
