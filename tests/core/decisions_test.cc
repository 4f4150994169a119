// Decisions name tasks, jobs and nodes by SharedText values: each item must stay
// readable after the snapshot, the session and every Decisions are gone, and a
// hand-built item must own what it was given.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

using testing::MakeNode;
using testing::MakePod;
using testing::MakePodGroup;

// One gang that fits and one that does not: binds, a Scheduled and an Unschedulable
// condition (a composed message) and the reasons of the pods left pending.
Decisions DecideOnATemporarySnapshot(const std::string& session_id) {
  SnapshotBuilder b;
  b.AddNode(MakeNode("node-with-a-long-name-1", "cpu=4,memory=4Gi,pods=10"));
  b.AddPodGroup(MakePodGroup("a-namespace/fits", 2));
  b.AddPodGroup(MakePodGroup("a-namespace/too-big", 2));
  for (int i = 0; i < 2; ++i) {
    b.AddPod(MakePod(absl::StrCat("a-namespace/fits-pod-", i), "fits", "cpu=1"));
    b.AddPod(MakePod(absl::StrCat("a-namespace/too-big-pod-", i), "too-big", "cpu=3"));
  }
  RunOptions opts;
  opts.session_id = session_id;
  absl::StatusOr<Decisions> d = RunSession(*std::move(b).Build(), DefaultSchedulerConfig(), opts);
  REQUIRE(d.ok());
  return *std::move(d);
}

TEST_CASE("Decisions: names and texts outlive the snapshot, the session and the original", "[core][decisions]") {
  std::optional<Decisions> d = DecideOnATemporarySnapshot("a-session-id-longer-than-fifteen");
  const std::string text = d->ToString();
  REQUIRE(d->binds.size() == 2);
  CHECK(d->binds[0].task == "a-namespace/fits-pod-0");
  CHECK(d->binds[0].node == "node-with-a-long-name-1");
  REQUIRE(d->pod_groups.size() == 2);
  CHECK(d->pod_groups[1].job == "a-namespace/too-big");
  REQUIRE(d->pod_groups[1].conditions.size() == 1);
  CHECK(d->pod_groups[1].conditions[0].transition_id == "a-session-id-longer-than-fifteen");
  CHECK(absl::StrContains(text, "tasks in gang unschedulable"));
  CHECK(d->task_reasons.size() == 2);

  const Decisions copy = *d;
  Decisions moved = *std::move(d);
  d.reset();
  // Fill the heap the snapshot and the session used with other bytes.
  std::vector<std::string> clobber(4000, std::string(40, 'x'));
  CHECK(copy.ToString() == text);
  CHECK(moved.ToString() == text);
  const Decisions copy_of_moved = moved;
  moved = Decisions();
  CHECK(copy_of_moved.ToString() == text);
}

// Only the lists, taken out of Decisions that die on return.
std::vector<Bind> BindsOf(const std::string& session_id) { return DecideOnATemporarySnapshot(session_id).binds; }
std::vector<PodGroupStatus> StatusesOf(const std::string& session_id) {
  return DecideOnATemporarySnapshot(session_id).pod_groups;
}

TEST_CASE("Decisions: an item outlives every Decisions it came from", "[core][decisions]") {
  const std::vector<Bind> binds = BindsOf("s");
  std::vector<std::string> clobber(4000, std::string(40, 'y'));
  REQUIRE(binds.size() == 2);
  CHECK(binds[1].task == "a-namespace/fits-pod-1");
  CHECK(binds[1].node == "node-with-a-long-name-1");
  const Bind one = binds[0];
  const std::vector<PodGroupStatus> statuses = StatusesOf("a-session-id-longer-than-fifteen");
  REQUIRE(statuses.size() == 2);
  REQUIRE(statuses[1].conditions.size() == 1);
  const PodGroupCondition condition = statuses[1].conditions[0];
  CHECK(absl::StrContains(condition.message, "tasks in gang unschedulable"));
  CHECK(condition.transition_id == "a-session-id-longer-than-fifteen");
  CHECK(one.task == "a-namespace/fits-pod-0");
}

TEST_CASE("Decisions: a hand-built item owns composed strings", "[core][decisions]") {
  Decisions d;
  for (int i = 0; i < 3; ++i) d.binds.push_back({absl::StrCat("ns/pod-with-a-long-name-", i), std::string("n1")});
  PodGroupCondition c;
  c.message = SharedText(absl::string_view(std::string(64, 'm')));
  d.pod_groups.push_back({"ns/g", "Pending", "Inqueue", 0, 0, 0, {c}});
  std::vector<std::string> clobber(4000, std::string(40, 'z'));
  CHECK(d.binds[2].task == "ns/pod-with-a-long-name-2");
  CHECK(d.pod_groups[0].conditions[0].message == std::string(64, 'm'));
  CHECK(absl::StrContains(d.ToString(), "bind ns/pod-with-a-long-name-0 -> n1"));
}

TEST_CASE("Decisions: Keep copies texts into storage that never moves", "[core][decisions]") {
  Decisions d;
  CHECK(d.Keep("").empty());
  std::vector<absl::string_view> kept;
  std::vector<std::string> want;
  for (int i = 0; i < 20000; ++i) {  // several blocks
    want.push_back(absl::StrCat("text number ", i));
    kept.push_back(d.Keep(want.back()));
  }
  const std::string long_text(100000, 'L');  // longer than a block
  const absl::string_view long_view = d.Keep(long_text);
  kept.push_back(d.Keep("after the long one"));
  const Decisions copy = d;
  d = Decisions();
  for (size_t i = 0; i < want.size(); ++i) REQUIRE(kept[i] == want[i]);
  CHECK(long_view == long_text);
  CHECK(kept.back() == "after the long one");
  CHECK(long_view.data() != long_text.data());  // a copy, not the caller's text
}

}  // namespace
}  // namespace vcsched
