// tdm: Volcano's Test_TDM (predicate and scores), Test_parseRevocableZone (as which
// clocks a window admits) and Test_TDM_victimsFn (pkg/scheduler/plugins/tdm/tdm_test.go,
// HEAD ed72c7c81) converted, on the session's clock where the Go tests read the wall
// clock (they assume it is not within 0:00-0:01); then what the tests do not pin down.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/explain.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr int64_t kMidnight = 1780012800;  // 2026-05-29T00:00:00Z
constexpr int64_t kNoon = kMidnight + 12 * 3600;

std::string Config(const std::string& args, const std::string& switches) {
  return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"shuffle\"\ntiers:\n- plugins:\n"
                      "  - name: tdm\n", switches, "    arguments: {", args, "}\n");
}

std::string Node(const std::string& name, const std::string& zone) {
  return absl::StrCat("---\napiVersion: v1\nkind: Node\nmetadata: {name: ", name,
                      zone.empty() ? "" : absl::StrCat(", labels: {volcano.sh/revocable-zone: ", zone, "}"),
                      "}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"10\"}}\n");
}

std::string Pod(const std::string& ns, const std::string& name, const std::string& node, const std::string& group,
                const std::string& annotations) {
  return absl::StrCat("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ", name, ", namespace: ", ns,
                      ", annotations: {scheduling.k8s.io/group-name: ", group, annotations, "}}\n",
                      "spec: {schedulerName: volcano", node.empty() ? "" : absl::StrCat(", nodeName: ", node),
                      ", containers: [{name: c, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]}\nstatus: {phase: ",
                      node.empty() ? "Pending" : "Running", "}\n");
}

std::string Group(const std::string& ns, const std::string& name, const std::string& annotations = "") {
  return absl::StrCat("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
                      ", namespace: ", ns, annotations.empty() ? "" : absl::StrCat(", annotations: {", annotations, "}"),
                      "}\nspec: {queue: ", ns, ", minMember: 0}\n---\napiVersion: scheduling.volcano.sh/v1beta1\n",
                      "kind: Queue\nmetadata: {name: ", ns, "}\nspec: {weight: 1}\n");
}

using Opened = testing::OpenedSession;

std::unique_ptr<Opened> Open(const std::string& yaml, int64_t now) { return testing::OpenInline(yaml, now); }

// Node name -> score, for the nodes the predicate passes for `task`.
std::map<std::string, double> Feasible(const Opened& o, const std::string& task) {
  const TaskIndex t = *o.sc.snapshot.FindTask(task);
  std::vector<NodeIndex> nodes;
  for (const NodeInfo& n : o.sc.snapshot.nodes()) {
    if (o.ssn->Predicate(t, n.index).ok()) nodes.push_back(n.index);
  }
  std::vector<double> scores(nodes.size());
  o.ssn->ScoreNodes(t, nodes, absl::MakeSpan(scores));
  std::map<std::string, double> out;
  for (size_t i = 0; i < nodes.size(); ++i) out[o.sc.snapshot.nodes()[static_cast<size_t>(nodes[i])].spec.name] = scores[i];
  return out;
}

constexpr const char* kSwitches = "    enableNodeOrder: true\n    enablePredicate: true\n";

std::string TdmCluster(const std::string& pod_annotations) {
  return Config("tdm.revocable-zone.rz1: \"0:00-0:00\", tdm.revocable-zone.rz2: \"0:00-0:01\"", kSwitches) +
         Node("n1", "rz1") + Node("n2", "rz1") + Node("n3", "") + Node("n4", "") + Node("n5", "rz2") +
         Group("c1", "pg1") + Pod("c1", "p1", "", "pg1", pod_annotations);
}

TEST_CASE("tdm (Volcano's Test_TDM): revocable nodes of open zones for revocable tasks only", "[plugins][tdm]") {
  using Scores = std::map<std::string, double>;
  // "preemptable task rz available" and "preemptable task and multiple rz": rz2 is closed.
  CHECK(Feasible(*Open(TdmCluster(", volcano.sh/revocable-zone: \"*\""), kNoon), "c1/p1") ==
        Scores{{"n1", 100}, {"n2", 100}, {"n3", 0}, {"n4", 0}});
  // "not preemptable task".
  CHECK(Feasible(*Open(TdmCluster(""), kNoon), "c1/p1") == Scores{{"n3", 0}, {"n4", 0}});
  // In rz2's minute it is open too.
  CHECK(Feasible(*Open(TdmCluster(", volcano.sh/revocable-zone: \"*\""), kMidnight + 30), "c1/p1").count("n5") == 1);
  // A pod's preemptable annotation makes it revocable; a zone other than "*" does not.
  CHECK(Feasible(*Open(TdmCluster(", volcano.sh/preemptable: \"true\""), kNoon), "c1/p1").count("n1") == 1);
  CHECK(Feasible(*Open(TdmCluster(", volcano.sh/revocable-zone: rz1"), kNoon), "c1/p1") == Scores{{"n3", 0}, {"n4", 0}});
}

TEST_CASE("tdm (Volcano's Test_parseRevocableZone): which clocks a window admits", "[plugins][tdm]") {
  const auto open_at = [](const std::string& window, int64_t now) {
    const std::string yaml = Config(absl::StrCat("tdm.revocable-zone.rz: \"", window, "\""), kSwitches) +
                             Node("n1", "rz") + Group("c1", "pg1") +
                             Pod("c1", "p1", "", "pg1", ", volcano.sh/revocable-zone: \"*\"");
    return Feasible(*Open(yaml, now), "c1/p1").count("n1") == 1;
  };
  const int64_t h = 3600;
  CHECK_FALSE(open_at("00:00_01:00", kMidnight + h / 2));  // not two times
  CHECK(open_at("00:00-01:00", kMidnight + h / 2));
  CHECK(open_at("00:00-01:00", kMidnight + h));  // the end is inclusive
  CHECK_FALSE(open_at("00:00-01:00", kMidnight + h + 1));
  CHECK(open_at("0:00-23:59", kNoon));
  CHECK_FALSE(open_at("0:00", kNoon));
  // An end before the start is tomorrow's: open from 1:00 today, closed in today's early
  // hours (Volcano's window never reaches back to yesterday's start).
  CHECK(open_at("1:00-0:00", kNoon));
  CHECK_FALSE(open_at("1:00-0:00", kMidnight + h / 2));
  CHECK_FALSE(open_at("1:0-0:0", kNoon));  // minutes have two digits
  CHECK(open_at("   1:00-0:00    ", kNoon));  // spaces around the whole are trimmed
  CHECK_FALSE(open_at("1:00 - 0:00", kNoon));  // not around each time
  CHECK(open_at("23:59-23:59", kMidnight + 23 * h + 59 * 60 + 30));  // a whole day from 23:59
  CHECK_FALSE(open_at("23:59-23:59", kNoon));
  CHECK_FALSE(open_at("63:59-23:59", kNoon));
}

// Test_TDM_victimsFn's pods: five on n1 in pg1 (c1), p4 and p5 not preemptable; five on
// n2 in pg2 (c2); both nodes in rz1, closed at noon ("0:00-0:01").
size_t VictimCount(const std::string& groups, const std::string& nodes, const std::string& window = "0:00-0:01") {
  std::string yaml = Config(absl::StrCat("tdm.revocable-zone.rz1: \"", window, "\", tdm.evict.period: 1s"),
                            "    enabledVictim: true\n") + nodes + groups;
  if (nodes.find("n1") != std::string::npos) {
    for (int i = 1; i <= 5; ++i) {
      yaml += Pod("c1", absl::StrCat("p", i), "n1", "pg1",
                  absl::StrCat(", volcano.sh/preemptable: \"", i <= 3 ? "true" : "false", "\""));
    }
  }
  if (nodes.find("n2") != std::string::npos) {
    for (int i = 6; i <= 10; ++i) yaml += Pod("c2", absl::StrCat("p", i), "n2", "pg2", ", volcano.sh/preemptable: \"true\"");
  }
  auto o = Open(yaml, kNoon);
  return o->ssn->VictimTasks({}).size();
}

TEST_CASE("tdm (Volcano's Test_TDM_victimsFn): a closed zone's lent pods, within each job's budget",
          "[plugins][tdm]") {
  const std::string n1 = Node("n1", "rz1"), n2 = Node("n2", "rz1");
  CHECK(VictimCount(Group("c1", "pg1", "volcano.sh/jdb-max-unavailable: 30%"), n1) == 2);
  CHECK(VictimCount(Group("c1", "pg1", "volcano.sh/jdb-max-unavailable: 30%"), n1, "0:00-0:00") == 0);  // open
  CHECK(VictimCount(Group("c1", "pg1", "volcano.sh/jdb-max-unavailable: 99%"), n1) == 3);
  CHECK(VictimCount(Group("c2", "pg2", "volcano.sh/jdb-max-unavailable: 50%"), n2) == 3);
  CHECK(VictimCount(Group("c2", "pg2", "volcano.sh/jdb-max-unavailable: 50%") +
                        Group("c1", "pg1", "volcano.sh/jdb-max-unavailable: 90%"),
                    n1 + n2) == 6);
  CHECK(VictimCount(Group("c2", "pg2", "volcano.sh/jdb-min-available: \"2\"") +
                        Group("c1", "pg1", "volcano.sh/jdb-max-unavailable: \"3\""),
                    n1 + n2) == 6);
  // Without a budget, one pod per job.
  CHECK(VictimCount(Group("c1", "pg1") + Group("c2", "pg2"), n1 + n2) == 2);
}

TEST_CASE("tdm: shuffle takes back the pods lent to a closed zone, on the session clock",
          "[plugins][tdm]") {
  const std::string yaml = Config("tdm.revocable-zone.rz1: \"0:00-0:01\"", "") + Node("n1", "rz1") +
                           Group("c1", "pg1", "volcano.sh/jdb-max-unavailable: \"2\"") +
                           Pod("c1", "a", "n1", "pg1", ", volcano.sh/preemptable: \"true\"") +
                           Pod("c1", "b", "n1", "pg1", ", volcano.sh/preemptable: \"true\"") +
                           Pod("c1", "c", "n1", "pg1", ", volcano.sh/preemptable: \"true\"");
  const Scenario sc = testing::LoadInline(yaml);
  RunOptions at_noon;
  at_noon.now_seconds = kNoon;
  absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, at_noon);
  REQUIRE(d.ok());
  CHECK(d->evictions.size() == 2);
  RunOptions in_window;
  in_window.now_seconds = kMidnight + 10;
  d = RunSession(sc.snapshot, *sc.config, in_window);
  REQUIRE(d.ok());
  CHECK(d->evictions.empty());
}

TEST_CASE("tdm: with the scheduler's memory, shuffle looks for victims once per evict period", "[plugins][tdm]") {
  const std::string yaml = Config("tdm.revocable-zone.rz1: \"0:00-0:01\", tdm.evict.period: 2m", "") +
                           Node("n1", "rz1") + Group("c1", "pg1") +
                           Pod("c1", "a", "n1", "pg1", ", volcano.sh/preemptable: \"true\"");
  const Scenario sc = testing::LoadInline(yaml);
  SchedulerMemory memory;
  const auto evictions_at = [&](int64_t now) {
    RunOptions opts;
    opts.now_seconds = now;
    opts.memory = &memory;
    absl::StatusOr<Decisions> d = RunSession(sc.snapshot, *sc.config, opts);
    REQUIRE(d.ok());
    return d->evictions.size();
  };
  CHECK(evictions_at(kNoon) == 1);        // the first look
  CHECK(evictions_at(kNoon + 119) == 0);  // within the period
  CHECK(evictions_at(kNoon + 120) == 1);  // a period after the last look
  CHECK(memory.last_run_ms.at("tdm.evict") == (kNoon + 120) * 1000);
}

}  // namespace
}  // namespace vcsched

namespace vcsched {
namespace {

// Explain's hints for tdm's refusals: a job of revocable pods that only revocable nodes can
// take, at 12:00 with the zone's window 22:00-06:00; and the same job not revocable.
TEST_CASE("tdm: explain hints at the window's opening and at marking the pods preemptable", "[plugins][tdm][explain]") {
  const auto cluster = [](const std::string& pod_annotations) {
    return absl::StrCat("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\ntiers:\n",
                        "- plugins:\n  - name: predicates\n  - name: tdm\n    arguments: {tdm.revocable-zone.rz1: "
                        "\"22:00-06:00\"}\n") +
           Node("n1", "rz1") + Group("c1", "pg1") + Pod("c1", "p1", "", "pg1", pod_annotations);
  };
  ExplainOptions opts;
  opts.run.now_seconds = kNoon;
  SECTION("a closed window: the job runs at its opening, ten hours on") {
    const Scenario sc = testing::LoadInline(cluster(", volcano.sh/preemptable: \"true\""));
    absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, *sc.config, opts);
    REQUIRE(r.ok());
    REQUIRE(r->explanation.jobs.size() == 1);
    const JobExplanation& j = r->explanation.jobs[0];
    REQUIRE_FALSE(j.hints.empty());
    CHECK(j.hints[0].kind == "wait-for-window");
    CHECK(j.hints[0].target == "rz1");
    CHECK(j.hints[0].amount == 10 * 3600);
    CHECK(j.hints[0].change ==
          "revocable zone \"rz1\" opens its window (22:00-06:00 UTC) at 2026-05-29T22:00:00Z, in 10h: the job runs then");
  }
  SECTION("a pod that may not use revocable nodes: marked preemptable, it runs when the window opens") {
    opts.run.now_seconds = kNoon + 11 * 3600;  // 23:00: the window is open
    const Scenario sc = testing::LoadInline(cluster(""));
    absl::StatusOr<ExplainResult> r = Explain(sc.snapshot, *sc.config, opts);
    REQUIRE(r.ok());
    const JobExplanation& j = r->explanation.jobs[0];
    bool marked = false;
    for (const Hint& h : j.hints) marked = marked || h.kind == "mark-preemptable";
    CHECK(marked);
  }
}

}  // namespace
}  // namespace vcsched
