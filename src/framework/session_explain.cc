// Explain's records in the session (docs/EXPLAIN.md): what the plugins and actions note
// while the session runs, kept only when the session is explaining.
#include "src/framework/session_explain.h"

#include <algorithm>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/framework/session_sharding.h"
#include "src/framework/session_state.h"
#include "src/model/host_ports.h"
#include "src/model/k8s_match.h"
#include "src/model/volume_explain.h"

namespace vcsched {
namespace {

constexpr absl::string_view kInsufficient = "Insufficient ";
constexpr absl::string_view kTaintText = "node(s) had untolerated taint(s)";
constexpr absl::string_view kSelectorText = "node(s) didn't match Pod's node affinity/selector";
constexpr absl::string_view kPortsText = "node(s) didn't have free ports for the requested pod ports";
constexpr absl::string_view kPodAffinityText = "node(s) didn't match pod affinity rules";
constexpr absl::string_view kPodAntiAffinityText = "node(s) didn't match pod anti-affinity rules";
constexpr absl::string_view kSpreadText = "node(s) didn't match pod topology spread constraints";

std::string Requirement(const LabelSelectorRequirement& r) {
  using Op = LabelSelectorRequirement::Operator;
  switch (r.op) {
    case Op::kExists: return r.key;
    case Op::kDoesNotExist: return absl::StrCat("!", r.key);
    case Op::kIn: return absl::StrCat(r.key, " in (", absl::StrJoin(r.values, ","), ")");
    case Op::kNotIn: return absl::StrCat(r.key, " notin (", absl::StrJoin(r.values, ","), ")");
    case Op::kGt: return absl::StrCat(r.key, " > ", absl::StrJoin(r.values, ","));
    case Op::kLt: return absl::StrCat(r.key, " < ", absl::StrJoin(r.values, ","));
  }
  return r.key;
}

// The pod's node selection in words: nodeSelector, and required node affinity terms
// (ORed), each term's requirements ANDed.
std::string NodeSelection(const PodSpec& pod) {
  std::vector<std::string> parts;
  if (!pod.node_selector.empty()) {
    std::vector<std::string> pairs;
    for (const auto& [k, v] : pod.node_selector) pairs.push_back(absl::StrCat(k, "=", v));
    parts.push_back(absl::StrCat("nodeSelector ", absl::StrJoin(pairs, ",")));
  }
  if (pod.affinity.has_required_node_terms) {
    std::vector<std::string> terms;
    for (const NodeSelectorTerm& t : pod.affinity.required_node_terms) {
      std::vector<std::string> reqs;
      for (const auto& r : t.match_expressions) reqs.push_back(Requirement(r));
      for (const auto& r : t.match_fields) reqs.push_back(Requirement(r));
      terms.push_back(absl::StrJoin(reqs, ", "));
    }
    parts.push_back(absl::StrCat("required node affinity ", absl::StrJoin(terms, " or ")));
  }
  return absl::StrJoin(parts, "; ");
}

std::string TopologyKeys(const std::vector<PodAffinityTerm>& terms) {
  std::vector<std::string> keys;
  for (const PodAffinityTerm& t : terms) keys.push_back(t.topology_key);
  return absl::StrJoin(keys, ",");
}

ExplainLog& Log(const Session::State& s) { return *s.explain; }

// Dimension d of node n: what it has free for a new pod (idle + releasing - pipelined),
// and its allocatable.
std::pair<int64_t, int64_t> FreeOn(const Session& ssn, NodeIndex n, int d) {
  const size_t i = static_cast<size_t>(d);
  return {std::max<int64_t>(0, ssn.node_idle(n)[i] + ssn.node_releasing(n)[i] - ssn.node_pipelined(n)[i]),
          ssn.node_allocatable(n)[i]};
}

// Per dimension, the most free and the most allocatable among the nodes whose verdict
// is "Insufficient <that resource>": the numbers describe the nodes they are printed for.
using MostFree = std::vector<std::pair<int, std::pair<int64_t, int64_t>>>;

// A reason made exact for one node: the taint it names, the selector, the numbers.
std::string ExactCause(const Session& ssn, TaskIndex t, NodeIndex n, const std::string& text, const MostFree& most_free) {
  for (const Session::FitCauseFn& fn : SessionInternals::Of(ssn).fit_causes) {
    std::string cause = fn(t, n, text);
    if (!cause.empty()) return cause;
  }
  const TaskInfo& task = ssn.task(t);
  if (text == kTaintText) {
    for (const Taint& taint : ssn.node_info(n).spec.taints) {
      if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
      if (!internal::ToleratesTaint(task.pod->tolerations, taint)) {
        return absl::StrCat("node(s) had untolerated taint {", taint.key, ": ", taint.value, "} (", taint.effect, ")");
      }
    }
    return text;
  }
  if (text == kPortsText) {  // the first wanted port held there, and by whom
    const std::vector<HostPort> wanted = internal::PodHostPorts(*task.pod);
    for (TaskIndex other : ssn.node_tasks(n)) {
      if (other == t) continue;
      const PodSpec& pod = *ssn.task(other).pod;
      for (const HostPort& used : internal::PodHostPorts(pod)) {
        for (const HostPort& want : wanted) {
          if (internal::HostPortsConflict(want, used)) {
            return absl::StrCat("Insufficient host port ", internal::HostPortText(want), " (held by ", pod.namespace_, "/", pod.name,
                                ")");
          }
        }
      }
    }
    return text;
  }
  if (!task.pod->volume_claims.empty() && absl::StrContains(text, "volume")) {
    return internal::VolumeCause(ssn.snapshot().storage(), *task.pod, ssn.node_info(n).spec, text);
  }
  if (text == internal::kNotInShardText) {
    const Session::State& s = SessionInternals::Of(ssn);
    const bool named = ssn.snapshot().policy().node_shards.count(s.shard_name) != 0;
    return absl::StrCat(text, " (hard sharding: NodeShard \"", s.shard_name, "\"",
                        named ? absl::StrCat(" leaves this scheduler ", s.shard_nodes, " of the ",
                                             ssn.snapshot().nodes().size(), " nodes")
                              : " does not exist, so no node is this scheduler's",
                        ")");
  }
  if (text == kSelectorText) {
    const std::string selection = NodeSelection(*task.pod);
    return selection.empty() ? text : absl::StrCat(text, " (", selection, ")");
  }
  if (text == kPodAffinityText && !task.pod->affinity.required_pod_affinity.empty()) {
    return absl::StrCat(text, " (required terms by topologyKey ", TopologyKeys(task.pod->affinity.required_pod_affinity), ")");
  }
  if (text == kPodAntiAffinityText && !task.pod->affinity.required_pod_anti_affinity.empty()) {
    return absl::StrCat(text, " (required terms by topologyKey ",
                        TopologyKeys(task.pod->affinity.required_pod_anti_affinity), ")");
  }
  if (text == kSpreadText) {
    std::vector<std::string> parts;
    for (const TopologySpreadConstraint& c : task.pod->topology_spread_constraints) {
      if (c.do_not_schedule) parts.push_back(absl::StrCat(c.topology_key, " maxSkew ", c.max_skew));
    }
    if (!parts.empty()) return absl::StrCat(text, " (", absl::StrJoin(parts, ", "), ")");
  }
  if (absl::StartsWith(text, kInsufficient)) {
    const absl::string_view name = absl::string_view(text).substr(kInsufficient.size());
    const int d = ssn.snapshot().space().Find(name);
    if (d < 0) return text;
    auto it = std::find_if(most_free.begin(), most_free.end(), [&](const auto& p) { return p.first == d; });
    if (it == most_free.end()) return text;
    return absl::StrCat(text, " (requests ", FormatAmount(name, ssn.task_resreq(t)[static_cast<size_t>(d)]),
                        "; on these nodes at most ", FormatAmount(name, it->second.first), " free, ",
                        FormatAmount(name, it->second.second), " allocatable)");
  }
  return text;
}

}  // namespace

void Session::ExplainJob(JobIndex j, absl::string_view code, std::string message, CheckNumbers numbers) const {
  if (s_->explain == nullptr || j < 0) return;
  ExplainLog& log = Log(*s_);
  log.jobs[static_cast<size_t>(j)].push_back({log.stage, std::string(code), std::move(message), std::move(numbers)});
}

void Session::ExplainQueue(QueueIndex q, absl::string_view code, std::string message, CheckNumbers numbers) const {
  if (s_->explain == nullptr || q < 0) return;
  ExplainLog& log = Log(*s_);
  log.queues[q] = {log.stage, std::string(code), std::move(message), std::move(numbers)};
}

void Session::ExplainNodeVerdicts(TaskIndex t, absl::Span<const std::pair<NodeIndex, FitResult>> failures) const {
  if (s_->explain == nullptr || failures.empty()) return;
  ExplainLog& log = Log(*s_);
  auto it = log.verdicts.find(t);
  if (it != log.verdicts.end() && it->second.nodes >= static_cast<int32_t>(failures.size())) return;
  NodeVerdicts v;
  v.stage = log.stage;
  v.nodes = static_cast<int32_t>(failures.size());
  MostFree most_free;
  for (const auto& [n, result] : failures) {
    for (ReasonId r : result.reasons) {
      const std::string& text = ReasonText(r);
      if (!absl::StartsWith(text, kInsufficient)) continue;
      const int d = snapshot().space().Find(absl::string_view(text).substr(kInsufficient.size()));
      if (d < 0) continue;
      const std::pair<int64_t, int64_t> here = FreeOn(*this, n, d);
      auto seen = std::find_if(most_free.begin(), most_free.end(), [&](const auto& p) { return p.first == d; });
      if (seen == most_free.end()) {
        most_free.emplace_back(d, here);
      } else {
        seen->second.first = std::max(seen->second.first, here.first);
        seen->second.second = std::max(seen->second.second, here.second);
      }
    }
  }
  for (const auto& [n, result] : failures) {
    std::vector<std::string>* mine = nullptr;
    if (log.keep_by_node) mine = &v.by_node.emplace_back(n, std::vector<std::string>()).second;
    for (ReasonId r : result.reasons) {
      std::string cause = ExactCause(*this, t, n, ReasonText(r), most_free);
      if (mine != nullptr) mine->push_back(cause);
      ++v.causes[std::move(cause)];
    }
  }
  log.verdicts[t] = std::move(v);
}

void Session::AddFitCauseFn(FitCauseFn fn) { s_->fit_causes.push_back(std::move(fn)); }

void Session::DescribeQueue(QueueView view) const {
  if (s_->explain == nullptr) return;
  std::string name = view.name;
  Log(*s_).views[std::move(name)] = std::move(view);
}

namespace internal {

void StartExplaining(Session& ssn, bool keep_by_node) {
  Session::State& s = SessionInternals::Of(ssn);
  s.explain = std::make_unique<ExplainLog>();
  s.explain->keep_by_node = keep_by_node;
  s.explain->jobs.resize(static_cast<size_t>(ssn.num_jobs()));
  s.explain->pipelined_by.resize(static_cast<size_t>(ssn.num_tasks()));
  SessionInternals::SetExplaining(ssn);
}

namespace {
// Drops what was recorded for job j since `mark` when the question let it through;
// else makes sure a record names the plugin that refused.
void Settle(const Session& ssn, JobIndex j, size_t mark, bool passed, absl::string_view code,
            const std::string& plugin, absl::string_view what) {
  std::vector<ExplainRecord>& records = Log(SessionInternals::Of(ssn)).jobs[static_cast<size_t>(j)];
  if (passed) {
    records.resize(std::min(records.size(), mark));
    return;
  }
  if (records.size() > mark) return;
  ssn.ExplainJob(j, code, absl::StrCat("plugin ", plugin.empty() ? "(host)" : plugin, " ", what), {{"plugin", plugin}});
}
}  // namespace

bool ExplainedEnqueueable(const Session& ssn, JobIndex j) {
  const Session::State& s = SessionInternals::Of(ssn);
  const size_t mark = Log(s).jobs[static_cast<size_t>(j)].size();
  size_t rejecter = 0;
  const bool result = TierVote(s.job_enqueueable, j, &rejecter);
  const std::string refuser = result ? "" : s.job_enqueueable[rejecter].plugin;
  Settle(ssn, j, mark, result, reason_code::kEnqueueRejected, refuser, "voted against admitting the PodGroup");
  return result;
}

bool ExplainedAllocatable(const Session& ssn, QueueIndex q, TaskIndex t) {
  const Session::State& s = SessionInternals::Of(ssn);
  const JobIndex j = ssn.job_of(t);
  const size_t mark = Log(s).jobs[static_cast<size_t>(j)].size();
  for (const auto& reg : s.allocatable_fns) {
    if (!reg.fn(q, t)) {
      Settle(ssn, j, mark, false, reason_code::kQueueShareExceeded, reg.plugin,
             absl::StrCat("refused task ", ssn.task(t).key, " for queue ", ssn.queue(q).spec.name));
      return false;
    }
  }
  Settle(ssn, j, mark, true, "", "", "");
  return true;
}

void NoteInvalidJob(const Session& ssn, JobIndex j, const std::string& plugin,
                    const std::pair<std::string, std::string>& reason) {
  const Session::State& s = SessionInternals::Of(ssn);
  const std::vector<ExplainRecord>& records = Log(s).jobs[static_cast<size_t>(j)];
  const std::string& stage = Log(s).stage;
  for (const ExplainRecord& r : records) {
    if (r.code == reason_code::kNotEnoughTasks && r.stage == stage) return;  // asked again
  }
  ssn.ExplainJob(j, reason_code::kNotEnoughTasks, absl::StrCat(reason.first, ": ", reason.second),
                 {{"plugin", plugin},
                  {"minMember", absl::StrCat(ssn.job_min_member(j))},
                  {"validPods", absl::StrCat(ssn.JobValidTaskNum(j))},
                  {"pods", absl::StrCat(ssn.job_tasks(j).size())}});
}

void NoteOverusedQueue(const Session& ssn, QueueIndex q, const std::string& plugin) {
  const Session::State& s = SessionInternals::Of(ssn);
  if (Log(s).queues.count(q)) return;
  ssn.ExplainQueue(q, reason_code::kQueueShareExceeded,
                   absl::StrCat("plugin ", plugin, " finds queue ", ssn.queue(q).spec.name, " overused"),
                   {{"plugin", plugin}});
}

}  // namespace internal
}  // namespace vcsched
