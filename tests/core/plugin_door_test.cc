// What a host plugin can do through the public Session: the same things the built-ins
// do (write PodGroup conditions, share per-session data, declare node-local answers).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/registry.h"

namespace vcsched {
namespace {

// A plugin built from a lambda run at session open and another at close.
class LambdaPlugin : public Plugin {
 public:
  LambdaPlugin(std::function<void(Session&)> open, std::function<void(Session&)> close)
      : open_(std::move(open)), close_(std::move(close)) {}
  absl::Status OnSessionOpen(Session& ssn) override {
    if (open_) open_(ssn);
    return absl::OkStatus();
  }
  void OnSessionClose(Session& ssn) override {
    if (close_) close_(ssn);
  }

 private:
  std::function<void(Session&)> open_, close_;
};

void Register(Registry& reg, const std::string& name, std::function<void(Session&)> open,
              std::function<void(Session&)> close = nullptr, PluginTraits traits = {}) {
  REQUIRE(reg.RegisterPlugin(
                 name,
                 [open, close](const Arguments&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
                   return std::make_unique<LambdaPlugin>(open, close);
                 },
                 traits)
              .ok());
}

// Three nodes and one job of three identical pods.
Snapshot ThreePods() {
  SnapshotBuilder b;
  for (const char* n : {"n1", "n2", "n3"}) b.AddNode(testing::MakeNode(n, "cpu=4,memory=4Gi,pods=10"));
  b.AddPodGroup(testing::MakePodGroup("ns/g", 3));
  for (const char* p : {"ns/p0", "ns/p1", "ns/p2"}) b.AddPod(testing::MakePod(p, "g", "cpu=1"));
  return *std::move(b).Build();
}

SchedulerConfig WithHostPlugins(const std::vector<std::string>& names) {
  SchedulerConfig cfg = DefaultSchedulerConfig();
  for (const std::string& n : names) cfg.tiers[1].plugins.push_back({n, {}, {}});
  cfg.ApplyDefaults();
  return cfg;
}

const PodGroupStatus& StatusOf(const Decisions& d, absl::string_view job) {
  for (const PodGroupStatus& s : d.pod_groups) {
    if (s.job == job) return s;
  }
  FAIL("no status for " << job);
  static const PodGroupStatus kNone;
  return kNone;
}

TEST_CASE("A host plugin writes PodGroup conditions as gang does", "[core][door]") {
  Registry reg = Registry::BuiltIn();
  Register(reg, "host-condition", nullptr, [](Session& ssn) {
    const JobIndex j = *ssn.snapshot().FindJob("ns/g");
    // Replaces gang's condition of the same type; a composed message is copied.
    std::string message = absl::StrCat("held by the host for ", ssn.job_tasks(j).size(), " pods");
    ssn.SetJobCondition(j, "Scheduled", "HostHold", message);
    message.assign("overwritten");
    ssn.SetJobCondition(j, "HostReview", "Pending", "");
  });
  RunOptions opts;
  opts.registry = &reg;
  opts.session_id = "s-42";
  const absl::StatusOr<Decisions> d = RunSession(ThreePods(), WithHostPlugins({"host-condition"}), opts);
  REQUIRE(d.ok());
  const PodGroupStatus& st = StatusOf(*d, "ns/g");
  REQUIRE(st.conditions.size() == 2);
  CHECK(st.conditions[0].type == "Scheduled");
  CHECK(st.conditions[0].reason == "HostHold");
  CHECK(st.conditions[0].message == "held by the host for 3 pods");
  CHECK(st.conditions[0].transition_id == "s-42");
  CHECK(st.conditions[1].type == "HostReview");
  CHECK(st.conditions[1].status == "True");
}

struct Counter {
  explicit Counter(const Session& ssn) : nodes(ssn.num_nodes()) { ++made; }
  int32_t nodes;
  int uses = 0;
  static int made;
};
int Counter::made = 0;

TEST_CASE("Plugins share per-session data through Session::Shared", "[core][door]") {
  Registry reg = Registry::BuiltIn();
  int seen_uses = -1, seen_nodes = -1;
  Register(reg, "first", [](Session& ssn) { ++ssn.Shared<Counter>().uses; });
  Register(reg, "second", [&](Session& ssn) {
    Counter& c = ssn.Shared<Counter>();
    ++c.uses;
    seen_uses = c.uses;
    seen_nodes = c.nodes;
  });
  RunOptions opts;
  opts.registry = &reg;
  Counter::made = 0;
  REQUIRE(RunSession(ThreePods(), WithHostPlugins({"first", "second"}), opts).ok());
  CHECK(Counter::made == 1);
  CHECK(seen_uses == 2);
  CHECK(seen_nodes == 3);
  // A new session makes its own.
  REQUIRE(RunSession(ThreePods(), WithHostPlugins({"first", "second"}), opts).ok());
  CHECK(Counter::made == 2);
  CHECK(seen_uses == 2);
}

TEST_CASE("Node-choice reuse follows the plugins' declared traits and vetoes", "[core][door]") {
  Registry reg = Registry::BuiltIn();
  bool reusable = false;
  const auto probe = [&](Session& ssn) { reusable = ssn.NodeChoiceReusable(0); };
  Register(reg, "probe", nullptr, probe);
  // Scores each pod's own node highest: the answer depends on the task, not its shape.
  const auto own_node = [](Session& ssn) {
    ssn.AddNodeOrderFn([&ssn](TaskIndex t, NodeIndex n) {
      return ssn.task(t).pod->name.back() - '0' == n ? 1e6 : 0.0;
    });
  };
  Register(reg, "own-node", own_node);
  Register(reg, "local-scorer", [](Session& ssn) { ssn.AddNodeOrderFn([](TaskIndex, NodeIndex) { return 1.0; }); },
           nullptr, PluginTraits{true});
  Register(
      reg, "local-scorer-veto",
      [](Session& ssn) {
        ssn.AddNodeOrderFn([](TaskIndex, NodeIndex) { return 1.0; });
        ssn.AddNodeChoiceVetoFn([](TaskIndex t) { return t == 0; });
      },
      nullptr, PluginTraits{true});
  RunOptions opts;
  opts.registry = &reg;
  const Snapshot snap = ThreePods();

  SECTION("built-ins only") {
    REQUIRE(RunSession(snap, WithHostPlugins({"probe"}), opts).ok());
    CHECK(reusable);
    opts.node_choice_cache = false;
    REQUIRE(RunSession(snap, WithHostPlugins({"probe"}), opts).ok());
    CHECK_FALSE(reusable);
  }
  SECTION("a scorer without the trait turns reuse off, and its answers decide") {
    const absl::StatusOr<Decisions> d = RunSession(snap, WithHostPlugins({"own-node", "probe"}), opts);
    REQUIRE(d.ok());
    CHECK_FALSE(reusable);
    CHECK(testing::BindStrings(*d) == std::vector<std::string>{"ns/p0->n1", "ns/p1->n2", "ns/p2->n3"});
  }
  SECTION("a scorer with the trait keeps reuse on") {
    REQUIRE(RunSession(snap, WithHostPlugins({"local-scorer", "probe"}), opts).ok());
    CHECK(reusable);
  }
  SECTION("its veto turns reuse off for the tasks it names") {
    REQUIRE(RunSession(snap, WithHostPlugins({"local-scorer-veto", "probe"}), opts).ok());
    CHECK_FALSE(reusable);
  }
}

TEST_CASE("A placement scorer is added after the node-local scores, for the tasks it names", "[core][door]") {
  Registry reg = Registry::BuiltIn();
  // p1 (task 1) is scored by placement: +100 on n3, after a node-local +1 on every node.
  Register(
      reg, "placement",
      [](Session& ssn) {
        ssn.AddNodeOrderFn([](TaskIndex, NodeIndex) { return 1.0; });
        ssn.AddPlacementNodeOrderFn([](TaskIndex t) { return t == 1; },
                                    [](TaskIndex, absl::Span<const NodeIndex> nodes, absl::Span<double> out) {
                                      for (size_t i = 0; i < nodes.size(); ++i) out[i] += nodes[i] == 2 ? 100.0 : 0.0;
                                    });
      },
      nullptr, PluginTraits{true});
  std::vector<bool> reusable, local;
  std::vector<double> whole, node_local, placement;
  Register(reg, "probe", [&](Session& ssn) {
    const NodeIndex all[] = {0, 1, 2};
    for (TaskIndex t = 0; t < 2; ++t) {
      reusable.push_back(ssn.NodeChoiceReusable(t));
      local.push_back(ssn.NodeLocalScoresReusable(t));
    }
    whole.assign(3, 0.0);
    node_local.assign(3, 0.0);
    placement.assign(3, 0.0);
    ssn.ScoreNodes(1, all, absl::MakeSpan(whole));
    ssn.ScoreNodesNodeLocal(1, all, absl::MakeSpan(node_local));
    ssn.AddPlacementScores(1, all, absl::MakeSpan(placement));
  });
  RunOptions opts;
  opts.registry = &reg;
  const absl::StatusOr<Decisions> d = RunSession(ThreePods(), WithHostPlugins({"placement", "probe"}), opts);
  REQUIRE(d.ok());
  CHECK(reusable == std::vector<bool>{true, false});  // p1's whole choice is not reused
  CHECK(local == std::vector<bool>{true, true});      // its node-local part may be
  CHECK(placement == std::vector<double>{0.0, 0.0, 100.0});
  for (size_t i = 0; i < 3; ++i) CHECK(whole[i] - node_local[i] == placement[i]);
  // p1 goes where its placement score points; the others are unaffected by it.
  const std::vector<std::string> binds = testing::BindStrings(*d);
  CHECK(std::find(binds.begin(), binds.end(), "ns/p1->n3") != binds.end());
}

TEST_CASE("A session builds each plugin once, and a wrongly typed argument takes its default", "[core][door]") {
  Registry reg = Registry::BuiltIn();
  int builds = 0;
  int64_t weight_seen = -1;
  REQUIRE(reg.RegisterPlugin("counted", [&](const Arguments& args) -> absl::StatusOr<std::unique_ptr<Plugin>> {
                ++builds;
                absl::StatusOr<int64_t> w = args.GetInt("weight", 7);
                if (!w.ok()) return w.status();
                weight_seen = *w;
                return std::make_unique<LambdaPlugin>(nullptr, nullptr);
              }).ok());
  SchedulerConfig cfg = WithHostPlugins({"counted"});
  Value heavy = Value::Plain("heavy");
  cfg.tiers[1].plugins.back().arguments.Set("weight", heavy);
  RunOptions opts;
  opts.registry = &reg;
  const absl::StatusOr<Decisions> d = RunSession(ThreePods(), cfg, opts);
  REQUIRE(d.ok());
  CHECK(builds == 1);
  CHECK(weight_seen == 7);
  int warned = 0;
  for (const std::string& w : d->warnings) warned += absl::StrContains(w, "argument \"weight\": expected an integer");
  CHECK(warned == 1);
  // Outside a registry the same getter is an error naming the key.
  CHECK(WrongTypeArgument(cfg.tiers[1].plugins.back().arguments.GetInt("weight", 7).status()) == "weight");
}

TEST_CASE("Unpipeline refuses a task that is not pipelined", "[core][door]") {
  Registry reg = Registry::BuiltIn();
  absl::Status st;
  Register(reg, "unpipeline", nullptr, [&](Session& ssn) { st = ssn.Unpipeline(0); });
  RunOptions opts;
  opts.registry = &reg;
  REQUIRE(RunSession(ThreePods(), WithHostPlugins({"unpipeline"}), opts).ok());
  CHECK(st.code() == absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace vcsched
