// A host-defined plugin: the host registers "rack-aware" in a Registry and names it in
// the configuration's tiers like a built-in. It adds a predicate (never a node labelled
// maintenance=true), a node score (prefer the rack named by the pod's annotation) and a
// job order (jobs in namespace "prod" first).
//
//   example_host_plugin examples/quickstart.yaml
#include <fstream>
#include <iostream>
#include <sstream>

#include "vcsched/io/scenario.h"
#include "vcsched/vcsched.h"

namespace {

using namespace vcsched;

class RackAware : public Plugin {
 public:
  absl::Status OnSessionOpen(Session& ssn) override {
    const Snapshot& snap = ssn.snapshot();
    const ReasonId maintenance = ssn.InternReason("node(s) were in maintenance");
    ssn.AddPredicateFn([&snap, maintenance](TaskIndex, NodeIndex n) {
      const Labels& labels = snap.nodes()[n].spec.labels;
      auto it = labels.find("maintenance");
      if (it != labels.end() && it->second == "true") {
        return FitResult::Fail(FitCode::kUnschedulableAndUnresolvable, maintenance);
      }
      return FitResult::Success();
    });
    ssn.AddNodeOrderFn([&snap](TaskIndex t, NodeIndex n) {
      const Labels& want = snap.tasks()[t].pod->annotations;
      const Labels& have = snap.nodes()[n].spec.labels;
      auto w = want.find("example.com/rack");
      auto h = have.find("example.com/rack");
      return w != want.end() && h != have.end() && w->second == h->second ? 1000.0 : 0.0;
    });
    ssn.AddJobOrderFn([&snap](JobIndex l, JobIndex r) {
      const bool lp = snap.jobs()[l].pod_group.namespace_ == "prod";
      const bool rp = snap.jobs()[r].pod_group.namespace_ == "prod";
      return lp == rp ? 0 : (lp ? -1 : 1);
    });
    return absl::OkStatus();
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: example_host_plugin SCENARIO.yaml\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<Scenario> sc = LoadScenario({{argv[1], text.str()}});
  if (!sc.ok()) {
    std::cerr << sc.status().message() << "\n";
    return 1;
  }
  Registry registry = Registry::BuiltIn();
  if (absl::Status s = registry.RegisterPlugin("rack-aware", [](const Arguments&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
        return std::make_unique<RackAware>();
      }); !s.ok()) {
    std::cerr << s.message() << "\n";
    return 1;
  }
  SchedulerConfig config = sc->config.value_or(DefaultSchedulerConfig());
  config.tiers.back().plugins.push_back({"rack-aware", {}, {}});
  config.ApplyDefaults();
  RunOptions options;
  options.registry = &registry;
  absl::StatusOr<Decisions> d = RunSession(sc->snapshot, config, options);
  if (!d.ok()) {
    std::cerr << d.status().message() << "\n";
    return 1;
  }
  std::cout << d->ToString();
  return 0;
}
