#include "src/snapshot/hyper_node_tree.h"

#include <algorithm>
#include <map>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "re2/re2.h"

namespace vcsched::internal {
namespace {

std::string Quoted(absl::string_view name) { return absl::StrCat("\"", name, "\""); }

// The nodes one Node member selects, ascending.
std::vector<NodeIndex> SelectedNodes(const HyperNodeMember& m, const Snapshot::Impl& impl) {
  std::vector<NodeIndex> out;
  switch (m.match) {
    case HyperNodeMember::Match::kExact:
      if (auto it = impl.node_by_name.find(m.name); it != impl.node_by_name.end()) out.push_back(it->second);
      break;
    case HyperNodeMember::Match::kRegex: {
      RE2::Options options;
      options.set_log_errors(false);
      const RE2 re(m.name, options);
      if (!re.ok()) break;  // refused by ObjectProblems
      for (const NodeInfo& n : impl.nodes) {
        if (RE2::PartialMatch(n.spec.name, re)) out.push_back(n.index);
      }
      break;
    }
    case HyperNodeMember::Match::kLabel:
      // Volcano's label members select nothing with an empty selector.
      if (m.labels.match_labels.empty() && m.labels.match_expressions.empty()) break;
      for (const NodeInfo& n : impl.nodes) {
        if (MatchesLabelSelector(m.labels, n.spec.labels)) out.push_back(n.index);
      }
      break;
  }
  return out;
}

// Node lists of all HyperNodes together: real trees hold each node a few times (once
// per tier); a chain thousands deep over thousands of nodes would hold millions.
constexpr uint64_t kMaxHyperNodeMemberships = uint64_t{1} << 25;

// Parents from the HyperNode members: a child claimed twice keeps its first claimant;
// a cycle is cut above its first member. Either leaves the tree not ready.
void LinkParents(const std::vector<HyperNodeSpec>& specs, Snapshot::Impl& impl) {
  const int32_t n = static_cast<int32_t>(specs.size());
  std::vector<std::vector<HyperNodeIndex>> claims(static_cast<size_t>(n));
  for (int32_t h = 0; h < n; ++h) {
    const HyperNodeSpec& spec = specs[static_cast<size_t>(h)];
    for (size_t i = 0; i < spec.members.size(); ++i) {
      const HyperNodeMember& m = spec.members[i];
      if (m.type != HyperNodeMember::Type::kHyperNode) continue;
      const std::string where = absl::StrCat("HyperNode ", Quoted(spec.name), ": spec.members[", i, "]");
      if (m.match != HyperNodeMember::Match::kExact) {
        impl.warnings.push_back(absl::StrCat(where, ": a HyperNode member is chosen only by exactMatch; ignored"));
        continue;
      }
      auto it = impl.hyper_node_by_name.find(m.name);
      if (it == impl.hyper_node_by_name.end()) {
        impl.warnings.push_back(absl::StrCat(where, ": HyperNode ", Quoted(m.name), " does not exist; it adds nothing"));
        continue;
      }
      std::vector<HyperNodeIndex>& c = claims[static_cast<size_t>(it->second)];
      if (std::find(c.begin(), c.end(), h) == c.end()) c.push_back(h);
    }
  }
  for (int32_t h = 0; h < n; ++h) {
    const std::vector<HyperNodeIndex>& c = claims[static_cast<size_t>(h)];
    if (c.empty()) continue;
    impl.hyper_nodes[static_cast<size_t>(h)].parent = c.front();
    if (c.size() > 1) {
      std::vector<std::string> names;
      for (HyperNodeIndex p : c) names.push_back(Quoted(specs[static_cast<size_t>(p)].name));
      impl.warnings.push_back(absl::StrCat("HyperNode ", Quoted(specs[static_cast<size_t>(h)].name),
                                           " has two or more parents (", absl::StrJoin(names, ", "),
                                           "): jobs with network topology are not scheduled"));
      impl.hyper_nodes_ready = false;
    }
  }
  // Cycles: walk up from each HyperNode, colouring the walk.
  std::vector<int32_t> walk(static_cast<size_t>(n), -1);
  for (int32_t start = 0; start < n; ++start) {
    HyperNodeIndex h = start;
    while (h != kNone && walk[static_cast<size_t>(h)] == -1) {
      walk[static_cast<size_t>(h)] = start;
      h = impl.hyper_nodes[static_cast<size_t>(h)].parent;
    }
    if (h == kNone || walk[static_cast<size_t>(h)] != start) continue;
    std::vector<HyperNodeIndex> cycle;
    HyperNodeIndex c = h;
    do {
      cycle.push_back(c);
      c = impl.hyper_nodes[static_cast<size_t>(c)].parent;
    } while (c != h);
    std::sort(cycle.begin(), cycle.end());
    std::vector<std::string> names;
    for (HyperNodeIndex m : cycle) names.push_back(Quoted(specs[static_cast<size_t>(m)].name));
    impl.warnings.push_back(absl::StrCat("HyperNodes ", absl::StrJoin(names, ", "),
                                         " form a cycle: jobs with network topology are not scheduled"));
    impl.hyper_nodes_ready = false;
    impl.hyper_nodes[static_cast<size_t>(cycle.front())].parent = kNone;
  }
}

// Each HyperNode's nodes: its Node members' and, recursively, its children's. Fails
// when the lists together would pass kMaxHyperNodeMemberships.
absl::Status CollectNodes(const std::vector<HyperNodeSpec>& specs, Snapshot::Impl& impl) {
  const size_t n = specs.size();
  for (size_t h = 0; h < n; ++h) {
    if (specs[h].members.empty()) {
      impl.warnings.push_back(absl::StrCat("HyperNode ", Quoted(specs[h].name), ": spec.members: is empty"));
    }
    std::vector<NodeIndex>& own = impl.hyper_nodes[h].nodes;
    for (size_t i = 0; i < specs[h].members.size(); ++i) {
      const HyperNodeMember& m = specs[h].members[i];
      if (m.type != HyperNodeMember::Type::kNode) continue;
      const std::vector<NodeIndex> selected = SelectedNodes(m, impl);
      if (selected.empty()) {
        impl.warnings.push_back(absl::StrCat("HyperNode ", Quoted(specs[h].name), ": spec.members[", i,
                                             "] selects no node of the input"));
      }
      own.insert(own.end(), selected.begin(), selected.end());
    }
  }
  // Children before parents: deepest first; each list sorted once all its parts are in.
  std::vector<HyperNodeIndex> order(n);
  for (size_t h = 0; h < n; ++h) order[h] = static_cast<HyperNodeIndex>(h);
  std::stable_sort(order.begin(), order.end(), [&](HyperNodeIndex a, HyperNodeIndex b) {
    return impl.hyper_node_depth[static_cast<size_t>(a)] > impl.hyper_node_depth[static_cast<size_t>(b)];
  });
  uint64_t memberships = 0;
  for (HyperNodeIndex h : order) {
    HyperNodeInfo& info = impl.hyper_nodes[static_cast<size_t>(h)];
    for (HyperNodeIndex c : info.children) {
      const std::vector<NodeIndex>& child = impl.hyper_nodes[static_cast<size_t>(c)].nodes;
      info.nodes.insert(info.nodes.end(), child.begin(), child.end());
    }
    std::sort(info.nodes.begin(), info.nodes.end());
    info.nodes.erase(std::unique(info.nodes.begin(), info.nodes.end()), info.nodes.end());
    memberships += info.nodes.size();
    if (memberships > kMaxHyperNodeMemberships) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the HyperNode tree is too deep for its nodes: its HyperNodes would hold over ", kMaxHyperNodeMemberships,
          " node memberships together (HyperNode ", Quoted(info.name), " at depth ",
          impl.hyper_node_depth[static_cast<size_t>(h)], ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status BuildHyperNodeTree(std::vector<HyperNodeSpec>& specs, Snapshot::Impl& impl) {
  std::sort(specs.begin(), specs.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  const int32_t n = static_cast<int32_t>(specs.size());
  impl.hyper_nodes.assign(static_cast<size_t>(n) + 1, HyperNodeInfo{});
  int32_t top_tier = 1;
  std::map<std::string, int32_t> tier_of_name;
  for (int32_t h = 0; h < n; ++h) {
    const HyperNodeSpec& spec = specs[static_cast<size_t>(h)];
    HyperNodeInfo& info = impl.hyper_nodes[static_cast<size_t>(h)];
    info.index = h;
    info.name = spec.name;
    info.tier = spec.tier;
    info.tier_name = spec.tier_name;
    impl.hyper_node_by_name.emplace_hint(impl.hyper_node_by_name.end(), spec.name, h);
    if (spec.tier >= top_tier) top_tier = spec.tier + 1;
  }
  const HyperNodeIndex root = n;
  HyperNodeInfo& top = impl.hyper_nodes[static_cast<size_t>(root)];
  top.index = root;
  top.name = std::string(kClusterTopHyperNode);
  top.tier = top_tier;

  LinkParents(specs, impl);
  for (int32_t h = 0; h < n; ++h) {
    HyperNodeInfo& info = impl.hyper_nodes[static_cast<size_t>(h)];
    if (info.parent == kNone) info.parent = root;
    impl.hyper_nodes[static_cast<size_t>(info.parent)].children.push_back(h);
  }
  // Depths from the root down (parents are acyclic now).
  impl.hyper_node_depth.assign(static_cast<size_t>(n) + 1, -1);
  impl.hyper_node_depth[static_cast<size_t>(root)] = 0;
  std::vector<HyperNodeIndex> frontier = {root};
  while (!frontier.empty()) {
    std::vector<HyperNodeIndex> next;
    for (HyperNodeIndex h : frontier) {
      for (HyperNodeIndex c : impl.hyper_nodes[static_cast<size_t>(h)].children) {
        impl.hyper_node_depth[static_cast<size_t>(c)] = impl.hyper_node_depth[static_cast<size_t>(h)] + 1;
        next.push_back(c);
      }
    }
    frontier = std::move(next);
  }
  if (absl::Status s = CollectNodes(specs, impl); !s.ok()) return s;
  top.nodes.clear();  // every node, member of a HyperNode or not
  for (const NodeInfo& node : impl.nodes) top.nodes.push_back(node.index);

  std::vector<int32_t>& tiers = impl.hyper_node_tiers;
  for (const HyperNodeInfo& info : impl.hyper_nodes) tiers.push_back(info.tier);
  std::sort(tiers.begin(), tiers.end());
  tiers.erase(std::unique(tiers.begin(), tiers.end()), tiers.end());
  for (const HyperNodeSpec& spec : specs) {
    if (spec.tier_name.empty()) continue;
    auto [it, inserted] = tier_of_name.emplace(spec.tier_name, spec.tier);
    if (!inserted && it->second != spec.tier) {
      impl.warnings.push_back(absl::StrCat("HyperNode ", Quoted(spec.name), ": spec.tierName ", Quoted(spec.tier_name),
                                           " names tier ", it->second, " elsewhere; tier ", spec.tier, " is used"));
      it->second = spec.tier;
    }
  }
  impl.node_lowest_hyper_node.assign(impl.nodes.size(), kNone);
  for (const HyperNodeInfo& info : impl.hyper_nodes) {
    if (info.tier != tiers.front()) continue;
    for (NodeIndex node : info.nodes) {
      HyperNodeIndex& slot = impl.node_lowest_hyper_node[static_cast<size_t>(node)];
      if (slot == kNone) slot = info.index;
    }
  }
  for (int32_t h = 0; h < n; ++h) impl.hyper_nodes[static_cast<size_t>(h)].spec = std::move(specs[static_cast<size_t>(h)]);
  top.spec.name = top.name;
  top.spec.tier = top.tier;
  specs.clear();
  impl.hyper_node_tier_by_name = std::move(tier_of_name);
  return absl::OkStatus();
}

namespace {

// Volcano's SubJobID for a long value list: fnv-32a of it, its decimal digits spelled
// with Kubernetes' safe alphabet.
std::string ShortId(const std::string& id) {
  uint32_t h = 2166136261u;
  for (unsigned char c : id) {
    h ^= c;
    h *= 16777619u;
  }
  static constexpr absl::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string digits = absl::StrCat(h);
  for (char& c : digits) c = kAlphabet[static_cast<unsigned char>(c) % kAlphabet.size()];
  return digits;
}

// The values of a pod's labels that put it in `policy`, or empty when it does not match.
std::vector<std::string> MatchValues(const SubGroupPolicySpec& policy, const PodSpec& pod) {
  if (policy.label_selector && !MatchesLabelSelector(*policy.label_selector, pod.labels)) return {};
  std::vector<std::string> values;
  for (const std::string& key : policy.match_label_keys) {
    auto it = pod.labels.find(key);
    if (it == pod.labels.end() || it->second.empty()) return {};
    values.push_back(it->second);
  }
  return values;
}

// Rule 8: tier names become tiers; soft becomes hard at `soft_limit`.
void Resolve(std::optional<NetworkTopologySpec>& t, const Snapshot::Impl& impl, int32_t soft_limit) {
  if (!t) return;
  if (!t->highest_tier_allowed && !t->highest_tier_name.empty()) {
    if (auto it = impl.hyper_node_tier_by_name.find(t->highest_tier_name); it != impl.hyper_node_tier_by_name.end()) {
      t->highest_tier_allowed = it->second;
      t->highest_tier_name.clear();
    }
  }
  if (t->mode == NetworkTopologySpec::Mode::kSoft) {
    t->mode = NetworkTopologySpec::Mode::kHard;
    t->highest_tier_allowed = soft_limit;
    t->highest_tier_name.clear();
  }
}

}  // namespace

void BuildSubJobs(Snapshot::Impl& impl) {
  for (JobInfo& job : impl.jobs) BuildSubJobsOf(impl, job);
}

void BuildSubJobsOf(Snapshot::Impl& impl, JobInfo& job) {
  const int32_t top_tier = impl.hyper_nodes.back().tier;
  job.sub_jobs.clear();
  const PodGroupSpec& pg = job.pod_group;
  std::map<std::string, SubJobInfo> by_id;
  if (pg.sub_group_policy.empty() && !job.tasks.empty()) {  // the usual case: one default sub-group
    SubJobInfo& sub = by_id[job.key];
    sub.id = job.key;
    sub.min_available = pg.min_member;
    sub.network_topology = pg.network_topology;
    sub.tasks = job.tasks;
  }
  for (TaskIndex t : job.tasks) {
    if (pg.sub_group_policy.empty()) break;  // all in the default sub-group, above
    const PodSpec& pod = *impl.tasks[static_cast<size_t>(t)].pod;
    SubJobInfo* sub = nullptr;
    for (size_t p = 0; p < pg.sub_group_policy.size() && sub == nullptr; ++p) {
      const SubGroupPolicySpec& policy = pg.sub_group_policy[p];
      const std::vector<std::string> values = MatchValues(policy, pod);
      if (values.empty()) continue;
      std::string joined = absl::StrJoin(values, "-");
      if (joined.size() > 128) joined = ShortId(joined);
      std::string id = absl::StrCat(job.key, "/", policy.name, "-", joined);
      auto [it, inserted] = by_id.try_emplace(id);
      sub = &it->second;
      if (inserted) {
        sub->policy = static_cast<int32_t>(p);
        sub->id = std::move(id);
        sub->min_available = policy.sub_group_size.value_or(1);
        int32_t index = 0;
        if (absl::SimpleAtoi(values.front(), &index)) sub->match_index = index;
        sub->network_topology = policy.network_topology;
      }
    }
    if (sub == nullptr) {
      auto [it, inserted] = by_id.try_emplace(job.key);
      sub = &it->second;
      if (inserted) {
        sub->id = job.key;
        sub->min_available = pg.sub_group_policy.empty() ? pg.min_member : 1;
        sub->network_topology = pg.network_topology;
      }
    }
    sub->tasks.push_back(t);
  }
  job.network_topology = pg.network_topology;
  Resolve(job.network_topology, impl, top_tier);
  const int32_t sub_limit =
      job.network_topology && job.network_topology->highest_tier_allowed ? *job.network_topology->highest_tier_allowed : top_tier;
  for (auto& [id, sub] : by_id) {
    Resolve(sub.network_topology, impl, sub_limit);
    job.sub_jobs.push_back(std::move(sub));
  }
  std::stable_sort(job.sub_jobs.begin(), job.sub_jobs.end(),
                   [](const SubJobInfo& a, const SubJobInfo& b) { return a.match_index < b.match_index; });
  for (size_t k = 0; k < job.sub_jobs.size(); ++k) {
    for (TaskIndex t : job.sub_jobs[k].tasks) impl.tasks[static_cast<size_t>(t)].sub_job = static_cast<int32_t>(k);
  }
}

}  // namespace vcsched::internal
