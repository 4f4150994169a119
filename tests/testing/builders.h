// Small builders for tests: objects from compact strings.
//
//   NodeSpec n = MakeNode("n1", "cpu=4,memory=8Gi,pods=110");
//   PodSpec p = MakePod("ns/p1", "pg1", "cpu=1,memory=1Gi");
#ifndef VCSCHED_TESTS_TESTING_BUILDERS_H_
#define VCSCHED_TESTS_TESTING_BUILDERS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "vcsched/io/scenario.h"
#include "vcsched/objects.h"
#include "vcsched/resource.h"
#include "vcsched/scheduler.h"

namespace vcsched::testing {

// "cpu=1,memory=1Gi" -> ResourceList; aborts the test binary on a bad literal (tests
// write these by hand).
inline ResourceList Res(const std::string& spec) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (absl::string_view kv : absl::StrSplit(spec, ',', absl::SkipEmpty())) {
    std::vector<std::string> p = absl::StrSplit(kv, '=');
    pairs.emplace_back(p.at(0), p.at(1));
  }
  absl::StatusOr<ResourceList> r = ParseResourceList(pairs);
  if (!r.ok()) std::abort();
  return *r;
}

inline NodeSpec MakeNode(std::string name, const std::string& alloc) {
  NodeSpec n;
  n.name = std::move(name);
  n.allocatable = Res(alloc);
  return n;
}

// `key` is "namespace/name".
inline PodSpec MakePod(const std::string& key, const std::string& group, const std::string& req,
                       std::string node = "", std::string phase = "") {
  std::vector<std::string> parts = absl::StrSplit(key, '/');
  PodSpec p;
  p.namespace_ = parts.at(0);
  p.name = parts.at(1);
  if (!group.empty()) p.annotations["scheduling.k8s.io/group-name"] = group;
  Container c;
  c.requests = Res(req);
  p.containers.push_back(c);
  p.node_name = std::move(node);
  p.phase = phase.empty() ? (p.node_name.empty() ? "Pending" : "Running") : phase;
  return p;
}

inline PodGroupSpec MakePodGroup(const std::string& key, int32_t min_member, std::string queue = "default",
                                 std::string phase = "Inqueue") {
  std::vector<std::string> parts = absl::StrSplit(key, '/');
  PodGroupSpec g;
  g.namespace_ = parts.at(0);
  g.name = parts.at(1);
  g.min_member = min_member;
  g.queue = std::move(queue);
  g.phase = std::move(phase);
  return g;
}

inline QueueSpec MakeQueue(std::string name, int32_t weight = 1) {
  QueueSpec q;
  q.name = std::move(name);
  q.weight = weight;
  return q;
}

// Loads a scenario from inline YAML; aborts on a load error (the test's own input).
inline Scenario LoadInline(const std::string& yaml) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"inline.yaml", yaml}});
  if (!sc.ok()) {
    fprintf(stderr, "%s\n", std::string(sc.status().message()).c_str());
    std::abort();
  }
  return *std::move(sc);
}

// Binds as "pod->node" strings, sorted.
inline std::vector<std::string> BindStrings(const Decisions& d) {
  std::vector<std::string> out;
  for (const Bind& b : d.binds) out.push_back(absl::StrCat(b.task, "->", b.node));
  return out;
}

}  // namespace vcsched::testing

#include "src/framework/session_state.h"
#include "vcsched/registry.h"
#include "vcsched/session.h"

namespace vcsched::testing {

// Opens every plugin of `config` on `ssn` the way RunSession does, and keeps them alive
// in `plugins`.
inline void OpenPluginsForTesting(Session& ssn, const SchedulerConfig& config,
                                  std::vector<std::unique_ptr<Plugin>>& plugins) {
  static const Registry reg = Registry::BuiltIn();
  for (size_t ti = 0; ti < config.tiers.size(); ++ti) {
    for (const PluginOption& opt : config.tiers[ti].plugins) {
      auto p = (*reg.FindPlugin(opt.name))(opt.arguments);
      if (!p.ok()) std::abort();
      SessionInternals::Of(ssn).current_plugin = &opt;
      SessionInternals::Of(ssn).current_tier = static_cast<int>(ti);
      if (!(*p)->OnSessionOpen(ssn).ok()) std::abort();
      plugins.push_back(*std::move(p));
    }
  }
  SessionInternals::Of(ssn).current_plugin = nullptr;
}

// A scenario with a session open on it at `now` and its plugins opened: for tests that
// ask a plugin's predicates and scores directly.
struct OpenedSession {
  Scenario sc;
  std::unique_ptr<Session> ssn;
  std::vector<std::unique_ptr<Plugin>> plugins;
};

inline std::unique_ptr<OpenedSession> OpenInline(const std::string& yaml, int64_t now = 0) {
  auto o = std::make_unique<OpenedSession>();
  o->sc = LoadInline(yaml);
  o->ssn = std::make_unique<Session>(o->sc.snapshot, *o->sc.config, now, "s");
  OpenPluginsForTesting(*o->ssn, *o->sc.config, o->plugins);
  return o;
}

}  // namespace vcsched::testing

#endif  // VCSCHED_TESTS_TESTING_BUILDERS_H_
