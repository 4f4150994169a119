#include "tests/testing/random_scenario.h"

#include <algorithm>
#include <random>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"

namespace vcsched::testing {

uint32_t Choices::Below(uint32_t n) {
  if (n <= 1) return 0;
  uint64_t x;
  if (data_ != nullptr) {
    x = 0;
    for (int i = 0; i < 4; ++i) {
      x = (x << 8) | (size_ > 0 ? *data_ : 0);
      if (size_ > 0) {
        ++data_;
        --size_;
      }
    }
  } else {
    // splitmix64
    state_ += 0x9E3779B97F4A7C15ull;
    x = state_;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
  }
  return static_cast<uint32_t>(x % n);
}

namespace {

SchedulerConfig RandomConfig(Choices& c) {
  auto plugin = [](const char* name) { return PluginOption{name, {}, {}}; };
  SchedulerConfig cfg;
  switch (c.Below(6)) {
    case 0:
      cfg = DefaultSchedulerConfig();
      break;
    case 1:  // the seeds' multi-team configuration
      cfg.actions = {"enqueue", "allocate", "backfill", "reclaim", "preempt"};
      cfg.tiers = {{{plugin("priority"), plugin("gang"), plugin("conformance")}},
                   {{plugin("overcommit"), plugin("drf"), plugin("predicates"), plugin("proportion"),
                     plugin("nodeorder"), plugin("binpack")}}};
      cfg.tiers[0].plugins[1].switches[static_cast<size_t>(Switch::kPreemptable)] = false;
      break;
    case 2:  // capacity, flat or hierarchical
      cfg.actions = {"enqueue", "allocate", "backfill", "reclaim"};
      cfg.tiers = {{{plugin("priority"), plugin("gang"), plugin("conformance")}},
                   {{plugin("drf"), plugin("predicates"), plugin("capacity"), plugin("nodeorder")}}};
      if (c.Chance(50)) cfg.tiers[1].plugins[2].switches[static_cast<size_t>(Switch::kHierarchy)] = true;
      break;
    case 3:  // gang-aware eviction
      cfg.actions = {"enqueue", "allocate", c.Chance(50) ? "gangpreempt" : "gangreclaim", "backfill"};
      cfg.tiers = {{{plugin("priority"), plugin("gang"), plugin("conformance")}},
                   {{plugin("drf"), plugin("predicates"), plugin("proportion"), plugin("nodeorder")}}};
      break;
    case 4:  // hierarchical drf
      cfg.actions = {"enqueue", "allocate", "reclaim", "backfill"};
      cfg.tiers = {{{plugin("priority"), plugin("gang")}}, {{plugin("drf"), plugin("predicates"), plugin("nodeorder")}}};
      cfg.tiers[1].plugins[0].switches[static_cast<size_t>(Switch::kHierarchy)] = true;
      break;
    default: {  // topology-aware preemption, binpack, resource-strategy-fit
      cfg.actions = {"allocate", "preempt", "backfill"};
      cfg.tiers = {{{plugin("priority"), plugin("gang"), plugin("conformance")}},
                   {{plugin("drf"), plugin("predicates"), plugin("proportion"), plugin("binpack"),
                     plugin("resource-strategy-fit")}}};
      ActionConfiguration pre;
      pre.name = "preempt";
      pre.arguments.Set("enableTopologyAwarePreemption", Value::Plain(c.Chance(50) ? "true" : "false"));
      cfg.configurations.push_back(pre);
      break;
    }
  }
  cfg.ApplyDefaults();
  return cfg;
}

// Inter-pod (anti-)affinity and spread terms, shared by a job's pods as a workload's
// template would: on hostname or zone, selecting the job's own pods or another job's.
struct PlacementTerms {
  std::vector<PodAffinityTerm> required_affinity, required_anti_affinity;
  std::vector<WeightedPodAffinityTerm> preferred_affinity, preferred_anti_affinity;
  std::vector<TopologySpreadConstraint> spread;
};

PlacementTerms RandomPlacementTerms(Choices& c, const std::string& job, uint32_t n_jobs) {
  PlacementTerms t;
  if (!c.Chance(40)) return t;
  const auto key = [&] { return c.Chance(50) ? std::string("kubernetes.io/hostname") : std::string("zone"); };
  const auto term = [&] {
    PodAffinityTerm pt;
    pt.has_label_selector = true;
    pt.label_selector.match_labels["app"] = c.Chance(70) ? job : absl::StrCat("job", c.Below(n_jobs));
    pt.topology_key = key();
    return pt;
  };
  const uint32_t kinds = 1 + c.Below(2);
  for (uint32_t k = 0; k < kinds; ++k) {
    switch (c.Below(5)) {
      case 0: t.required_affinity.push_back(term()); break;
      case 1: t.required_anti_affinity.push_back(term()); break;
      case 2: t.preferred_affinity.push_back({static_cast<int32_t>(1 + c.Below(100)), term()}); break;
      case 3: t.preferred_anti_affinity.push_back({static_cast<int32_t>(1 + c.Below(100)), term()}); break;
      default: {
        TopologySpreadConstraint sc;
        sc.max_skew = static_cast<int32_t>(1 + c.Below(2));
        sc.topology_key = key();
        sc.do_not_schedule = c.Chance(60);
        sc.has_label_selector = true;
        sc.label_selector.match_labels["app"] = job;
        t.spread.push_back(sc);
        break;
      }
    }
  }
  return t;
}

// Racks of two nodes (tier 1) under a spine (tier 2), some jobs with a hard or soft
// limit or sub-groups, and the network-topology-aware plugin in the configuration.
void AddRandomTopology(Choices& c, RandomScenario& s) {
  if (!c.Chance(35)) return;
  const auto member = [](HyperNodeMember::Type type, const std::string& name) {
    HyperNodeMember m;
    m.type = type;
    m.name = name;
    return m;
  };
  HyperNodeSpec spine;
  spine.name = "spine";
  spine.tier = 2;
  for (size_t i = 0; i < s.nodes.size(); i += 2) {
    HyperNodeSpec rack;
    rack.name = absl::StrCat("rack", i / 2);
    rack.tier = 1;
    for (size_t k = i; k < std::min(i + 2, s.nodes.size()); ++k) {
      rack.members.push_back(member(HyperNodeMember::Type::kNode, s.nodes[k].name));
    }
    spine.members.push_back(member(HyperNodeMember::Type::kHyperNode, rack.name));
    s.hyper_nodes.push_back(std::move(rack));
  }
  s.hyper_nodes.push_back(std::move(spine));
  for (PodGroupSpec& g : s.pod_groups) {
    switch (c.Below(5)) {
      case 0:
      case 1: {
        NetworkTopologySpec t;
        t.mode = c.Chance(80) ? NetworkTopologySpec::Mode::kHard : NetworkTopologySpec::Mode::kSoft;
        t.highest_tier_allowed = static_cast<int32_t>(1 + c.Below(2));
        g.network_topology = t;
        break;
      }
      case 2: {  // sub-groups by the pods' "part" label
        SubGroupPolicySpec p;
        p.name = "part";
        p.match_label_keys = {"part"};
        p.sub_group_size = static_cast<int32_t>(1 + c.Below(2));
        p.min_sub_groups = static_cast<int32_t>(c.Below(2));
        if (c.Chance(50)) {
          NetworkTopologySpec t;
          t.highest_tier_allowed = 1;
          p.network_topology = t;
        }
        g.sub_group_policy.push_back(std::move(p));
        break;
      }
      default: break;
    }
  }
  for (PodSpec& p : s.pods) p.labels["part"] = c.Chance(50) ? "a" : "b";
  PluginOption nta{"network-topology-aware", {}, {}};
  s.config.tiers.back().plugins.push_back(nta);
  s.config.ApplyDefaults();
}

}  // namespace

RandomScenario MakeRandomScenario(Choices& c) {
  RandomScenario s;
  s.priority_classes = {{"low", 10, false, ""}, {"high", 100, false, ""}};
  const bool gpus = c.Chance(30);
  const uint32_t n_nodes = 1 + c.Below(6);
  std::vector<Resource> free;
  const ResourceSpace space(gpus ? std::vector<std::string>{"nvidia.com/gpu"} : std::vector<std::string>{});
  for (uint32_t i = 0; i < n_nodes; ++i) {
    std::string alloc = absl::StrCat("cpu=", 1 + c.Below(16), ",memory=", 1 + c.Below(32), "Gi,pods=", 2 + c.Below(18));
    if (gpus) absl::StrAppend(&alloc, ",nvidia.com/gpu=", c.Below(5));
    NodeSpec n = MakeNode(absl::StrCat("node-", i), alloc);
    n.labels["zone"] = c.Chance(50) ? "a" : "b";
    n.labels["kubernetes.io/hostname"] = n.name;
    if (c.Chance(20)) n.taints.push_back({"dedicated", "batch", c.Chance(70) ? "NoSchedule" : "PreferNoSchedule"});
    n.unschedulable = c.Chance(5);
    Resource r(space.size());
    for (const auto& [name, v] : n.allocatable) r[space.Find(name)] = v;
    free.push_back(r);
    s.nodes.push_back(std::move(n));
  }
  const uint32_t n_queues = 1 + c.Below(3);
  for (uint32_t i = 0; i < n_queues; ++i) {
    QueueSpec q = MakeQueue(absl::StrCat("q", i), static_cast<int32_t>(1 + c.Below(5)));
    const uint32_t cap = 1 + c.Below(24);
    if (c.Chance(30)) q.capability = Res(absl::StrCat("cpu=", cap));
    // Admission rejects a guarantee above the capability, so none is generated.
    if (c.Chance(20)) q.guarantee = Res(absl::StrCat("cpu=", std::min<uint32_t>(c.Below(4), cap)));
    if (c.Chance(30)) q.deserved = Res(absl::StrCat("cpu=", 1 + c.Below(12)));
    q.reclaimable = !c.Chance(20);
    if (c.Chance(10)) q.state = "Closed";
    if (i > 0 && c.Chance(25)) {
      q.parent = "q0";  // a two-level tree; q0 then has children
      q.annotations["volcano.sh/hierarchy"] = absl::StrCat("root/q0/q", i);
    }
    s.queues.push_back(std::move(q));
  }
  const uint32_t n_jobs = 1 + c.Below(6);
  for (uint32_t j = 0; j < n_jobs; ++j) {
    const uint32_t replicas = 1 + c.Below(5);
    const std::string name = absl::StrCat("job", j);
    const std::string phases[] = {"Inqueue", "Pending", "Running"};
    PodGroupSpec g = MakePodGroup("ns/" + name, static_cast<int32_t>(c.Below(replicas + 1)),
                                  absl::StrCat("q", c.Below(n_queues)), phases[c.Below(3)]);
    g.creation_time = 1000 + c.Below(100);
    if (c.Chance(40)) g.priority_class_name = c.Chance(50) ? "low" : "high";
    const uint32_t cpu = c.Below(5);
    const uint32_t mem = c.Below(5);
    const bool gpu = gpus && c.Chance(30);
    if (c.Chance(40)) {
      g.min_resources = Res(absl::StrCat("cpu=", cpu * std::max<uint32_t>(g.min_member, 1), ",memory=",
                                         mem * std::max<uint32_t>(g.min_member, 1), "Gi"));
    }
    s.pod_groups.push_back(g);
    const PlacementTerms terms = RandomPlacementTerms(c, name, n_jobs);
    for (uint32_t r = 0; r < replicas; ++r) {
      std::string req = absl::StrCat("cpu=", cpu, ",memory=", mem, "Gi");
      if (gpu) absl::StrAppend(&req, ",nvidia.com/gpu=1");
      if (cpu == 0 && mem == 0 && !gpu) req = "";
      PodSpec p = MakePod(absl::StrCat("ns/", name, "-w-", r), name, req);
      p.creation_time = g.creation_time;
      if (c.Chance(20)) p.tolerations.push_back({"dedicated", "Exists", "", ""});
      if (c.Chance(15)) p.node_selector["zone"] = c.Chance(50) ? "a" : "b";
      if (c.Chance(10)) p.labels["volcano.sh/preemptable"] = "false";
      p.labels["app"] = name;
      p.affinity.required_pod_affinity = terms.required_affinity;
      p.affinity.required_pod_anti_affinity = terms.required_anti_affinity;
      p.affinity.preferred_pod_affinity = terms.preferred_affinity;
      p.affinity.preferred_pod_anti_affinity = terms.preferred_anti_affinity;
      p.topology_spread_constraints = terms.spread;
      if (c.Chance(30)) p.priority = static_cast<int32_t>(c.Below(3) * 10);
      if (c.Chance(35)) {
        // Running where it fits, so the cluster starts consistent.
        Resource need(space.size());
        for (const auto& [rn, v] : p.containers[0].requests) need[space.Find(rn)] = v;
        need[kPods] = 1;
        const uint32_t n = c.Below(n_nodes);
        if (LessEqual(need.span(), free[n].span())) {
          free[n] -= need;
          p.node_name = s.nodes[n].name;
          p.phase = "Running";
        }
      } else if (c.Chance(4)) {
        // Running on a node the snapshot lacks (deleted from the cluster), or with no node.
        p.node_name = c.Chance(50) ? "gone-node" : "";
        p.phase = "Running";
      }
      s.pods.push_back(std::move(p));
    }
  }
  s.config = RandomConfig(c);
  // Drawn last, so the draws above give the scenarios they gave before.
  AddRandomTopology(c, s);
  return s;
}

Snapshot RandomScenario::Build(uint64_t shuffle_seed, const SnapshotOptions& options) const {
  struct Add {
    int kind;
    size_t index;
  };
  std::vector<Add> order;
  for (size_t i = 0; i < nodes.size(); ++i) order.push_back({0, i});
  for (size_t i = 0; i < queues.size(); ++i) order.push_back({1, i});
  for (size_t i = 0; i < pod_groups.size(); ++i) order.push_back({2, i});
  for (size_t i = 0; i < pods.size(); ++i) order.push_back({3, i});
  for (size_t i = 0; i < priority_classes.size(); ++i) order.push_back({4, i});
  for (size_t i = 0; i < hyper_nodes.size(); ++i) order.push_back({5, i});
  if (shuffle_seed != 0) {
    std::mt19937_64 rng(shuffle_seed);
    std::shuffle(order.begin(), order.end(), rng);
  }
  SnapshotBuilder b(options);
  for (const Add& a : order) {
    switch (a.kind) {
      case 0: b.AddNode(nodes[a.index]); break;
      case 1: b.AddQueue(queues[a.index]); break;
      case 2: b.AddPodGroup(pod_groups[a.index]); break;
      case 3: b.AddPod(pods[a.index]); break;
      case 4: b.AddPriorityClass(priority_classes[a.index]); break;
      default: b.AddHyperNode(hyper_nodes[a.index]); break;
    }
  }
  absl::StatusOr<Snapshot> s = std::move(b).Build();
  if (!s.ok()) std::abort();  // generated input is valid by construction
  return *std::move(s);
}

void AddUnofferedResources(RandomScenario& sc, Choices& c) {
  const auto add = [&](ResourceList& list) {
    const int names = 1 + static_cast<int>(c.Below(3));
    for (int i = 0; i < names; ++i) list[absl::StrCat("example.com/u", c.Below(5))] = 1000 * (1 + c.Below(3));
  };
  for (PodSpec& p : sc.pods) {
    if (!p.containers.empty() && c.Chance(20)) add(p.containers.front().requests);
  }
  for (PodGroupSpec& g : sc.pod_groups) {
    if (c.Chance(20)) {
      if (!g.min_resources) g.min_resources.emplace();
      add(*g.min_resources);
    }
  }
}

std::string DecisionLines(const Decisions& d) {
  std::istringstream in(d.ToString());
  std::string out, line;
  while (std::getline(in, line)) {
    if (absl::StartsWith(line, "bind ") || absl::StartsWith(line, "evict ") || absl::StartsWith(line, "pipeline") ||
        absl::StartsWith(line, "podgroup ")) {
      absl::StrAppend(&out, line, "\n");
    }
  }
  return out;
}

}  // namespace vcsched::testing
