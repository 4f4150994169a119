#include <catch2/catch.hpp>

#include "vcsched/config.h"
#include "vcsched/registry.h"

namespace vcsched {
namespace {

TEST_CASE("Config: switches keep Volcano's spellings", "[core][config]") {
  CHECK(std::string(SwitchKey(Switch::kOverused)) == "enabledOverused");
  CHECK(std::string(SwitchKey(Switch::kJobOrder)) == "enableJobOrder");
  CHECK(*SwitchFromKey("enabledClusterOrder") == Switch::kClusterOrder);
  CHECK_FALSE(SwitchFromKey("enableOverused").has_value());
}

TEST_CASE("Config: unset switches default on, except hierarchy and cluster order", "[core][config]") {
  PluginOption p;
  CHECK(p.Enabled(Switch::kPreemptable));
  CHECK_FALSE(p.Enabled(Switch::kHierarchy));
  CHECK_FALSE(p.Enabled(Switch::kClusterOrder));
  p.switches[static_cast<size_t>(Switch::kPreemptable)] = false;
  CHECK_FALSE(p.Enabled(Switch::kPreemptable));
}

TEST_CASE("Config: the built-in default equals Volcano's", "[core][config]") {
  const SchedulerConfig c = DefaultSchedulerConfig();
  CHECK(c.actions == std::vector<std::string>{"enqueue", "allocate", "backfill"});
  REQUIRE(c.tiers.size() == 2);
  std::vector<std::string> t1, t2;
  for (const auto& p : c.tiers[0].plugins) t1.push_back(p.name);
  for (const auto& p : c.tiers[1].plugins) t2.push_back(p.name);
  CHECK(t1 == std::vector<std::string>{"priority", "gang", "conformance"});
  CHECK(t2 == std::vector<std::string>{"overcommit", "drf", "predicates", "proportion", "nodeorder"});
  CHECK(Registry::BuiltIn().ValidateConfig(c).ok());
}

TEST_CASE("Config: action lists are split and trimmed", "[core][config]") {
  CHECK(*ParseActionList(" enqueue,allocate , backfill") == std::vector<std::string>{"enqueue", "allocate", "backfill"});
  CHECK_FALSE(ParseActionList("enqueue,,allocate").ok());
}

TEST_CASE("Config: validation names unknown plugins, actions and bad arguments", "[core][config]") {
  const Registry reg = Registry::BuiltIn();
  SchedulerConfig c = DefaultSchedulerConfig();
  SECTION("unknown plugin") {
    c.tiers[1].plugins[2].name = "gangg";
    const absl::Status s = reg.ValidateConfig(c);
    CHECK(s.code() == absl::StatusCode::kInvalidArgument);
    CHECK_THAT(std::string(s.message()), Catch::Contains("tiers[1].plugins[2]: unknown plugin \"gangg\""));
  }
  SECTION("unknown action") {
    c.actions.push_back("allocat");
    CHECK_THAT(std::string(reg.ValidateConfig(c).message()), Catch::Contains("unknown action \"allocat\""));
  }
  SECTION("wrongly typed argument: valid, warned about, the default used") {
    c.tiers[1].plugins[4].arguments.Set("leastrequested.weight", Value::Plain("heavy"));
    CHECK(reg.ValidateConfig(c).ok());
    const std::vector<std::string> w = reg.ConfigWarnings(c);
    REQUIRE(w.size() == 1);
    CHECK_THAT(w[0], Catch::Equals("tiers[1].plugins[4] (nodeorder): argument \"leastrequested.weight\": expected an "
                                   "integer, got \"heavy\"; the default is used there, as Volcano does"));
  }
  SECTION("quoted integer: the same") {
    c.tiers[1].plugins[4].arguments.Set("leastrequested.weight", Value::String("2"));
    CHECK(reg.ValidateConfig(c).ok());
    CHECK(reg.ConfigWarnings(c).size() == 1);
  }
  SECTION("an argument error other than its type is still an error") {
    c.configurations.push_back({"allocate", {}});
    c.tiers.push_back(Tier{{PluginOption{"sla", {}, {}}}});
    c.tiers.back().plugins[0].arguments.Set("sla-waiting-time", Value::Plain("soon"));
    CHECK_FALSE(reg.ValidateConfig(c).ok());
  }
}

TEST_CASE("Config: MakePlugin drops only the wrongly typed argument", "[core][config]") {
  const Registry reg = Registry::BuiltIn();
  Arguments args;
  args.Set("binpack.weight", Value::Plain("heavy"));
  args.Set("binpack.cpu", Value::Plain("3"));
  std::vector<std::string> dropped;
  REQUIRE(reg.MakePlugin("binpack", args, &dropped).ok());
  REQUIRE(dropped.size() == 1);
  CHECK_THAT(dropped[0], Catch::Contains("binpack.weight"));
  CHECK_THAT(std::string(reg.MakePlugin("no-such-plugin", args).status().message()),
             Catch::Contains("unknown plugin \"no-such-plugin\""));
}

TEST_CASE("Config: arguments read Volcano's types", "[core][config]") {
  Arguments a;
  a.Set("f", Value::Plain("2"));
  a.Set("b", Value::Plain("T"));
  CHECK(*a.GetFloat("f", 0) == 2.0);
  CHECK(*a.GetBool("b", false));
  CHECK(*a.GetInt("missing", 7) == 7);
  CHECK(*ParseGoDurationSeconds("1h30m") == 5400);
  CHECK(*ParseGoDurationSeconds("3m") == 180);
  CHECK_FALSE(ParseGoDurationSeconds("3 minutes").ok());
}

TEST_CASE("Config: an argument written empty (a YAML null) reads as an empty plain scalar", "[core][config]") {
  Arguments a;
  a.Set("n", Value::Null());
  a.Set("m", Value::Map());
  CHECK(*a.GetString("n", "x") == "");
  const absl::StatusOr<int64_t> i = a.GetInt("n", 3);
  REQUIRE_FALSE(i.ok());
  CHECK_THAT(std::string(i.status().message()), Catch::Contains("expected an integer, got \"\""));
  CHECK_THAT(std::string(a.GetBool("m", false).status().message()), Catch::Contains("got a map"));
  std::vector<std::string> sink;
  a.set_wrong_type_sink(&sink);
  CHECK(*a.GetInt("n", 3) == 3);
  CHECK(sink.size() == 1);
}

}  // namespace
}  // namespace vcsched

namespace vcsched {
namespace {

TEST_CASE("Config: hierarchical drf beside proportion is valid but warned about", "[core][config]") {
  const Registry reg = Registry::BuiltIn();
  SchedulerConfig c = DefaultSchedulerConfig();
  CHECK(reg.ConfigWarnings(c).empty());
  c.tiers[1].plugins[1].switches[static_cast<size_t>(Switch::kHierarchy)] = true;  // drf
  CHECK(reg.ValidateConfig(c).ok());
  REQUIRE(reg.ConfigWarnings(c).size() == 1);
  CHECK_THAT(reg.ConfigWarnings(c)[0], Catch::StartsWith("tiers[1]: drf with enableHierarchy and proportion share a tier"));
  c.tiers[1].plugins.erase(c.tiers[1].plugins.begin() + 3);  // drop proportion
  CHECK(reg.ConfigWarnings(c).empty());
}

TEST_CASE("Config: schedulerArgs are read as vc-scheduler's flags", "[config]") {
  absl::StatusOr<SchedulerFlags> f = ParseSchedulerArgs(
      {"--scheduler-name=a", "--scheduler-name", "b", "--default-queue=q", "--ignored-provisioners=x.io,y.io",
       "--leader-elect", "--enable-metrics=false", "-v=4", "--percentage-nodes-to-find=100", "--priority-class=true"});
  REQUIRE(f.ok());
  CHECK(f->scheduler_names == std::vector<std::string>{"a", "b"});
  CHECK(f->default_queue == "q");
  CHECK(f->ignored_provisioners == std::vector<std::string>{"x.io", "y.io"});
  absl::StatusOr<SchedulerFlags> none = ParseSchedulerArgs({});
  REQUIRE(none.ok());
  CHECK(none->scheduler_names == std::vector<std::string>{"volcano"});
  CHECK(none->default_queue == "default");
  // Refused by name: flags that change decisions and are not followed, unknown flags, bad forms.
  for (const char* arg : {"--scheduler-sharding-mode=strict", "--node-selector=role:train", "--feature-gates=X=true",
                          "--percentage-nodes-to-find=50", "--priority-class=false", "--nope", "plain", "--default-queue",
                          "--enable-metrics=maybe"}) {
    absl::StatusOr<SchedulerFlags> bad = ParseSchedulerArgs({arg});
    INFO(arg);
    REQUIRE(!bad.ok());
    CHECK_THAT(std::string(bad.status().message()), Catch::Contains(std::string(arg)));
  }
}

}  // namespace
}  // namespace vcsched
