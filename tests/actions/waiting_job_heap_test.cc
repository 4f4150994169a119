// Allocate's job heap must pop in the session's JobOrderLess order, whether it reads
// keys once per stay or compares through the callbacks, with jobs coming back changed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/actions/waiting_job_heap.h"
#include "tests/testing/builders.h"

namespace vcsched::internal {
namespace {

using testing::MakePodGroup;

Snapshot ManyJobs(int n, std::mt19937& rng) {
  SnapshotBuilder b;
  std::uniform_int_distribution<int> created(0, 20);  // many ties: the index decides
  for (int j = 0; j < n; ++j) {
    PodGroupSpec g = MakePodGroup(absl::StrCat("ns/j", 1000 + j), 1);
    g.creation_time = created(rng);
    b.AddPodGroup(g);
  }
  return *std::move(b).Build();
}

// Pops every job, pushing every third back with new keys (as allocate changes a popped
// job); returns the pop order, checked at each step against the smallest waiting job.
std::vector<JobIndex> PopAll(Session& ssn, std::vector<std::array<double, 3>>& keys, std::mt19937& rng) {
  std::uniform_int_distribution<int> small(0, 3);
  WaitingJobHeap heap(ssn);
  std::set<JobIndex> waiting;
  for (JobIndex j = 0; j < static_cast<JobIndex>(keys.size()); ++j) {
    heap.Push(j);
    waiting.insert(j);
  }
  std::vector<JobIndex> order;
  int returns = 0;
  while (!heap.empty()) {
    const JobIndex j = heap.Pop();
    JobIndex best = *waiting.begin();
    for (JobIndex w : waiting) {
      if (ssn.JobOrderLess(w, best)) best = w;
    }
    REQUIRE(j == best);
    waiting.erase(j);
    order.push_back(j);
    if (order.size() % 3 == 0 && returns < 200) {
      for (double& k : keys[static_cast<size_t>(j)]) k = small(rng);
      heap.Push(j);
      waiting.insert(j);
      ++returns;
    }
  }
  CHECK(returns > 150);
  CHECK(order.size() == keys.size() + static_cast<size_t>(returns));
  return order;
}

TEST_CASE("WaitingJobHeap: keyed and callback orders pop the same jobs in JobOrderLess order",
          "[actions][allocate]") {
  std::mt19937 rng(7);
  const Snapshot snap = ManyJobs(400, rng);
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  std::uniform_int_distribution<int> small(0, 3);
  std::vector<std::array<double, 3>> initial(400);
  for (auto& k : initial) k = {double(small(rng)), double(small(rng)), double(small(rng))};

  std::vector<std::array<double, 3>> keys = initial;
  Session keyed(snap, cfg, 0, "s");
  for (size_t i = 0; i < 3; ++i) {
    keyed.AddJobOrderKeyFn([&keys, i](JobIndex j) { return keys[static_cast<size_t>(j)][i]; });
  }
  std::mt19937 rng_a(11);
  const std::vector<JobIndex> a = PopAll(keyed, keys, rng_a);

  // The same opinions as plain comparisons (a host plugin's kind): the heap falls back.
  keys = initial;
  Session compared(snap, cfg, 0, "s");
  for (size_t i = 0; i < 3; ++i) {
    compared.AddJobOrderFn([&keys, i](JobIndex l, JobIndex r) {
      const double x = keys[static_cast<size_t>(l)][i], y = keys[static_cast<size_t>(r)][i];
      return x < y ? -1 : (x > y ? 1 : 0);
    });
  }
  std::mt19937 rng_b(11);
  const std::vector<JobIndex> b = PopAll(compared, keys, rng_b);
  CHECK(a == b);
}

TEST_CASE("WaitingJobHeap: jobs pushed already in order, or nearly, pop in JobOrderLess order",
          "[actions][allocate]") {
  // Equal keys and creation times rising with the index: the pushes come in order (the
  // run is only reversed); one job out of place makes it a sort again.
  for (const int out_of_place : {-1, 0, 157, 399}) {
    SnapshotBuilder b;
    for (int j = 0; j < 400; ++j) {
      PodGroupSpec g = MakePodGroup(absl::StrCat("ns/j", 1000 + j), 1);
      g.creation_time = j == out_of_place ? 500 : j / 3;  // ties: the index decides
      b.AddPodGroup(g);
    }
    const Snapshot snap = *std::move(b).Build();
    const SchedulerConfig cfg = DefaultSchedulerConfig();
    Session ssn(snap, cfg, 0, "s");
    std::vector<std::array<double, 3>> keys(400, {1, 2, 3});
    for (size_t i = 0; i < 3; ++i) {
      ssn.AddJobOrderKeyFn([&keys, i](JobIndex j) { return keys[static_cast<size_t>(j)][i]; });
    }
    std::mt19937 rng(5);
    const std::vector<JobIndex> order = PopAll(ssn, keys, rng);
    CHECK(order.front() == (out_of_place == 0 ? 1 : 0));
  }
}

TEST_CASE("WaitingJobHeap: a NaN key moves the waiting jobs to the callback heap", "[actions][allocate]") {
  std::mt19937 rng(3);
  const Snapshot snap = ManyJobs(300, rng);
  const SchedulerConfig cfg = DefaultSchedulerConfig();
  Session ssn(snap, cfg, 0, "s");
  // Every seventh job has no comparable key; sorting such keys would be undefined.
  ssn.AddJobOrderKeyFn([](JobIndex j) { return j % 7 == 3 ? std::nan("") : double(j % 5); });
  WaitingJobHeap heap(ssn);
  for (JobIndex j = 0; j < 300; ++j) heap.Push(j);
  std::set<JobIndex> popped;
  while (!heap.empty()) CHECK(popped.insert(heap.Pop()).second);
  CHECK(popped.size() == 300);
  // Without a NaN among them the jobs stay keyed, in JobOrderLess's order.
  WaitingJobHeap clean(ssn);
  std::vector<JobIndex> want = {0, 1, 2, 5, 6, 7, 8};
  for (JobIndex j : want) clean.Push(j);
  std::vector<JobIndex> order;
  while (!clean.empty()) order.push_back(clean.Pop());
  std::sort(want.begin(), want.end(), [&](JobIndex l, JobIndex r) { return ssn.JobOrderLess(l, r); });
  CHECK(order == want);
}

}  // namespace
}  // namespace vcsched::internal
