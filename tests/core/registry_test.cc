#include <catch2/catch.hpp>

#include "tests/testing/builders.h"
#include "vcsched/registry.h"

namespace vcsched {
namespace {

// A host plugin that keeps tasks off one node and prefers another.
class AvoidAndPrefer : public Plugin {
 public:
  AvoidAndPrefer(std::string avoid, std::string prefer) : avoid_(std::move(avoid)), prefer_(std::move(prefer)) {}
  absl::Status OnSessionOpen(Session& ssn) override {
    const Snapshot& snap = ssn.snapshot();
    const ReasonId why = ssn.InternReason("node(s) avoided by the host");
    ssn.AddPredicateFn([this, &snap, why](TaskIndex, NodeIndex n) {
      return snap.nodes()[n].spec.name == avoid_ ? FitResult::Fail(FitCode::kUnschedulable, why) : FitResult::Success();
    });
    ssn.AddNodeOrderFn([this, &snap](TaskIndex, NodeIndex n) { return snap.nodes()[n].spec.name == prefer_ ? 1e6 : 0.0; });
    return absl::OkStatus();
  }

 private:
  std::string avoid_, prefer_;
};

Snapshot ThreeNodes() {
  SnapshotBuilder b;
  for (const char* n : {"n1", "n2", "n3"}) b.AddNode(testing::MakeNode(n, "cpu=4,memory=4Gi,pods=10"));
  b.AddPodGroup(testing::MakePodGroup("ns/g", 1));
  b.AddPod(testing::MakePod("ns/p", "g", "cpu=1"));
  return *std::move(b).Build();
}

TEST_CASE("Registry: duplicate registrations are refused", "[core][registry]") {
  Registry r = Registry::BuiltIn();
  const absl::Status s = r.RegisterPlugin("gang", [](const Arguments&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
    return std::unique_ptr<Plugin>();
  });
  CHECK(s.code() == absl::StatusCode::kAlreadyExists);
  CHECK(r.FindPlugin("gang") != nullptr);
  CHECK(r.FindAction("allocate") != nullptr);
}

TEST_CASE("Registry: a host plugin's predicate and score change the decision", "[core][registry]") {
  const Snapshot snap = ThreeNodes();
  SchedulerConfig cfg = DefaultSchedulerConfig();
  absl::StatusOr<Decisions> plain = RunSession(snap, cfg);
  REQUIRE(plain.ok());
  CHECK(testing::BindStrings(*plain) == std::vector<std::string>{"ns/p->n1"});

  Registry reg = Registry::BuiltIn();
  REQUIRE(reg.RegisterPlugin("avoid-n1-prefer-n3", [](const Arguments&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
                return std::make_unique<AvoidAndPrefer>("n1", "n3");
              }).ok());
  cfg.tiers[1].plugins.push_back({"avoid-n1-prefer-n3", {}, {}});
  cfg.ApplyDefaults();
  SECTION("without the host registry the name is unknown") {
    absl::StatusOr<Decisions> d = RunSession(snap, cfg);
    REQUIRE_FALSE(d.ok());
    CHECK_THAT(std::string(d.status().message()), Catch::Contains("unknown plugin \"avoid-n1-prefer-n3\""));
  }
  SECTION("with it the host's score decides") {
    RunOptions opts;
    opts.registry = &reg;
    absl::StatusOr<Decisions> d = RunSession(snap, cfg, opts);
    REQUIRE(d.ok());
    CHECK(testing::BindStrings(*d) == std::vector<std::string>{"ns/p->n3"});
  }
}

TEST_CASE("Registry: Volcano's plugins that vcsched lacks are skipped with a warning", "[core][registry]") {
  const Snapshot snap = ThreeNodes();
  SchedulerConfig cfg = DefaultSchedulerConfig();
  cfg.tiers[1].plugins.push_back({"extender", {}, {}});
  cfg.tiers[1].plugins.push_back({"deviceshare", {}, {}});  // modelled: no warning
  const Registry built_in = Registry::BuiltIn();
  CHECK(built_in.ValidateConfig(cfg).ok());
  CHECK(built_in.Skips("extender"));
  CHECK_FALSE(built_in.Skips("deviceshare"));
  CHECK_FALSE(built_in.Skips("gang"));
  CHECK_FALSE(built_in.Skips("gangg"));  // not Volcano's either: an error, below
  absl::StatusOr<Decisions> d = RunSession(snap, cfg);
  REQUIRE(d.ok());
  CHECK(testing::BindStrings(*d) == std::vector<std::string>{"ns/p->n1"});
  REQUIRE(d->warnings.size() == 1);
  CHECK_THAT(d->warnings[0], Catch::StartsWith("tiers[1].plugins[5]: plugin \"extender\" is not modelled by vcsched"));

  SECTION("a host that registers the name gets its plugin, not the skip") {
    Registry reg = Registry::BuiltIn();
    REQUIRE(reg.RegisterPlugin("extender", [](const Arguments&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
                  return std::make_unique<AvoidAndPrefer>("n1", "n3");
                }).ok());
    CHECK_FALSE(reg.Skips("extender"));
    RunOptions opts;
    opts.registry = &reg;
    absl::StatusOr<Decisions> host = RunSession(snap, cfg, opts);
    REQUIRE(host.ok());
    CHECK(testing::BindStrings(*host) == std::vector<std::string>{"ns/p->n3"});
    CHECK(host->warnings.empty());
  }
  SECTION("a name Volcano does not have is still an error") {
    cfg.tiers[1].plugins.push_back({"gangg", {}, {}});
    absl::StatusOr<Decisions> bad = RunSession(snap, cfg);
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(std::string(bad.status().message()), Catch::Contains("unknown plugin \"gangg\""));
  }
}

}  // namespace
}  // namespace vcsched
