// The task order: namespace, then name, in byte order, whatever the names look like.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "src/snapshot/pod_order.h"

namespace vcsched {
namespace {

PodSpec Pod(std::string ns, std::string name) {
  PodSpec p;
  p.namespace_ = std::move(ns);
  p.name = std::move(name);
  return p;
}

// Checks that `order` is `pods` in key order with the one duplicate ("a/b") reported.
void CheckOrdered(const std::deque<PodSpec>& pods, const std::vector<const PodSpec*>& order,
                  const std::vector<const PodSpec*>& duplicates) {
  REQUIRE(order.size() == pods.size());
  const auto key = [](const PodSpec* p) { return std::tie(p->namespace_, p->name); };
  for (size_t i = 1; i < order.size(); ++i) {
    INFO(order[i - 1]->namespace_ << "/" << order[i - 1]->name << " then " << order[i]->namespace_ << "/"
                                  << order[i]->name);
    CHECK(key(order[i - 1]) <= key(order[i]));
  }
  REQUIRE(duplicates.size() == 1);
  CHECK(duplicates[0]->namespace_ == "a");
  CHECK(duplicates[0]->name == "b");
}

TEST_CASE("Pod order: namespace then name in byte order, duplicates reported once", "[core][pod_order]") {
  // Names that agree on their first 16 bytes, differ in length, hold bytes above 0x7f
  // or a NUL, and namespaces that sort differently as keys ("a-b" vs "a/...").
  const std::vector<std::string> names = {"job-00000-worker-10", "job-00000-worker-2", "job-00000-worker-",
                                          "job-00000-worker", "job-00000-worke", "b", "", std::string("b\0c", 3),
                                          "\xc3\xa9t\xc3\xa9", "z", "job-00000-worker-10-x"};
  const std::vector<std::string> spaces = {"a", "a-b", "default", "\xff"};
  std::mt19937 rng(7);  // fixed seed: the same shuffles every run
  for (int round = 0; round < 20; ++round) {
    std::deque<PodSpec> pods;
    for (const std::string& ns : spaces) {
      for (const std::string& n : names) pods.push_back(Pod(ns, n));
    }
    pods.push_back(Pod("a", "b"));  // printed three times: one report
    pods.push_back(Pod("a", "b"));
    std::shuffle(pods.begin(), pods.end(), rng);
    std::vector<const PodSpec*> input;
    for (const PodSpec& p : pods) input.push_back(&p);
    std::vector<const PodSpec*> duplicates;
    std::vector<const PodSpec*> visited;
    const std::vector<const PodSpec*> order =
        internal::PodsInKeyOrder(input, &duplicates, [&](const PodSpec& p) { visited.push_back(&p); });
    REQUIRE(order.size() == pods.size());
    REQUIRE(visited.size() == pods.size());  // each pod once, in input order
    for (size_t i = 0; i < pods.size(); ++i) CHECK(visited[i] == &pods[i]);
    CheckOrdered(pods, order, duplicates);
  }
}

TEST_CASE("Pod order: input in a few sorted runs (a host's changed pods, then its others) is ordered too",
          "[core][pod_order]") {
  std::mt19937 rng(11);
  for (int runs = 1; runs <= 12; ++runs) {  // merged up to 8 runs, sorted beyond
    INFO(runs << " runs");
    std::deque<PodSpec> pods;
    for (int i = 0; i < 300; ++i) pods.push_back(Pod(i % 3 == 0 ? "a" : "b", "p-" + std::to_string(i)));
    pods.push_back(Pod("a", "b"));
    pods.push_back(Pod("a", "b"));
    std::shuffle(pods.begin(), pods.end(), rng);
    const size_t per_run = (pods.size() + static_cast<size_t>(runs) - 1) / static_cast<size_t>(runs);
    for (size_t start = 0; start < pods.size(); start += per_run) {
      const auto end = pods.begin() + static_cast<std::ptrdiff_t>(std::min(pods.size(), start + per_run));
      std::sort(pods.begin() + static_cast<std::ptrdiff_t>(start), end,
                [](const PodSpec& x, const PodSpec& y) { return std::tie(x.namespace_, x.name) < std::tie(y.namespace_, y.name); });
    }
    std::vector<const PodSpec*> input;
    for (const PodSpec& p : pods) input.push_back(&p);
    std::vector<const PodSpec*> duplicates;
    const std::vector<const PodSpec*> order = internal::PodsInKeyOrder(input, &duplicates, [](const PodSpec&) {});
    CheckOrdered(pods, order, duplicates);
  }
}

}  // namespace
}  // namespace vcsched
