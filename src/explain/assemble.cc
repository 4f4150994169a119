// The reason rule (docs/EXPLAIN.md): a job's end state first (Scheduled, waiting on
// preemption, partly placed), else the check that stopped it first in the session's own
// order: by stage (the configured actions' order), within a stage by Category, then in
// the order they were made.
#include "src/explain/assemble.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "src/framework/session_state.h"

namespace vcsched::internal {
namespace {

struct Cause {
  int stage_rank;
  int category;
  int order;
  ExplainRecord record;
};

// Within a stage: queue and admission checks, then the job's network topology, then the
// gang's count (recorded only when some of its pods found nodes, so the shortfall is the
// gang's, not one pod's), then node fit, then outcomes.
int Category(absl::string_view code) {
  if (code == reason_code::kTopologyPlacementFailed) return 1;
  if (code == reason_code::kGangShortfall) return 2;
  if (code == reason_code::kNoFeasibleNode) return 3;
  if (code == reason_code::kPreemptionPending || code == reason_code::kPartiallyPlaced) return 4;
  return 0;
}

int StageRank(const Session& ssn, const std::string& stage) {
  const std::vector<std::string>& actions = ssn.config().actions;
  auto it = std::find(actions.begin(), actions.end(), stage);
  return it == actions.end() ? static_cast<int>(actions.size()) : static_cast<int>(it - actions.begin());
}

class Assembler {
 public:
  explicit Assembler(const Session& ssn) : ssn_(ssn), s_(SessionInternals::Of(ssn)), log_(*s_.explain) {}

  Explanation Run(const std::vector<std::string>* only) {
    Explanation out;
    std::vector<JobIndex> chosen;
    if (only != nullptr) {
      for (const std::string& key : *only) {
        if (std::optional<JobIndex> j = ssn_.snapshot().FindJob(key)) chosen.push_back(*j);
      }
      std::sort(chosen.begin(), chosen.end());
      chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    }
    const JobIndex count = only != nullptr ? static_cast<JobIndex>(chosen.size()) : ssn_.num_jobs();
    for (JobIndex i = 0; i < count; ++i) {
      const JobIndex j = only != nullptr ? chosen[static_cast<size_t>(i)] : i;
      const JobInfo& job = ssn_.job(j);
      if (ssn_.queue_of(j) == kNone) {
        if (!job.pod_group.queue.empty() && !ssn_.snapshot().FindQueue(job.pod_group.queue)) {
          out.jobs.push_back(MissingQueue(job));
        }
        continue;
      }
      out.jobs.push_back(ExplainJob(j));
    }
    std::sort(out.jobs.begin(), out.jobs.end(), [](const auto& a, const auto& b) { return a.job < b.job; });
    for (const QueueInfo& q : ssn_.snapshot().queues()) out.queues.push_back(ViewOf(q));
    std::sort(out.queues.begin(), out.queues.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
  }

 private:
  JobExplanation MissingQueue(const JobInfo& job) const {
    JobExplanation e;
    e.job = job.key;
    e.queue = job.pod_group.queue;
    e.stage = "enqueue";
    e.reason = std::string(reason_code::kQueueNotFound);
    e.causes = {e.reason};
    e.message = absl::StrCat("queue ", job.pod_group.queue, " does not exist; the PodGroup is left out of the session");
    e.min_member = job.pod_group.min_member;
    e.pods = static_cast<int32_t>(job.tasks.size());
    e.check = {{"queue", job.pod_group.queue}};
    return e;
  }

  JobExplanation ExplainJob(JobIndex j) {
    const JobInfo& job = ssn_.job(j);
    JobExplanation e;
    e.job = job.key;
    e.queue = ssn_.queue(ssn_.queue_of(j)).spec.name;
    e.min_member = ssn_.job_min_member(j);
    int32_t pending = 0, undone = 0, found_this_session = 0, placed_before = 0;
    for (TaskIndex t : ssn_.job_tasks(j)) {
      ++e.pods;
      const TaskStatus st = ssn_.task_status(t);
      const bool was_pending = ssn_.task(t).status == TaskStatus::kPending;
      if (IsAllocatedStatus(st)) ++e.placed;
      if (st == TaskStatus::kPipelined) ++e.pipelined;
      if (st == TaskStatus::kPending) ++pending;
      if (st == TaskStatus::kPending && s_.last_txn_status[static_cast<size_t>(t)] == TaskStatus::kAllocated) ++undone;
      if (was_pending && (st != TaskStatus::kPending)) ++found_this_session;
      if (!was_pending && IsAllocatedStatus(ssn_.task(t).status)) ++placed_before;
    }
    e.fit = found_this_session + undone;

    std::vector<Cause> causes;
    int order = 0;
    auto add = [&](ExplainRecord r) {
      const int rank = StageRank(ssn_, r.stage);
      const int cat = Category(r.code);
      causes.push_back({rank, cat, order++, std::move(r)});
    };
    for (const ExplainRecord& r : log_.jobs[static_cast<size_t>(j)]) add(r);

    // Node verdicts: the first task (in the job's order) whose verdicts cover every node.
    const TaskIndex origin = VerdictTask(j);
    bool none_fit = false;
    if (origin != kNone) {
      const NodeVerdicts& v = log_.verdicts.at(origin);
      e.nodes_task = ssn_.task(origin).key;
      for (const auto& [cause, count] : v.causes) e.nodes.emplace_back(cause, count);
      for (const auto& [n, texts] : v.by_node) e.node_causes.emplace_back(ssn_.node_info(n).spec.name, texts);
      std::sort(e.node_causes.begin(), e.node_causes.end());
      std::sort(e.nodes.begin(), e.nodes.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
      });
      none_fit = v.nodes >= ssn_.num_nodes() && ssn_.num_nodes() > 0;
      if (none_fit || ssn_.num_nodes() == 0) {
        add({v.stage, std::string(reason_code::kNoFeasibleNode),
             absl::StrCat("no node fits pod ", ssn_.task(origin).key, ": ", v.nodes, " of ", ssn_.num_nodes(),
                          " nodes refuse it"),
             {{"pod", ssn_.task(origin).key},
              {"nodes", absl::StrCat(ssn_.num_nodes())},
              {"feasibleNodes", absl::StrCat(ssn_.num_nodes() - v.nodes)}}});
      }
    } else if (ssn_.num_nodes() == 0 && pending > 0) {
      add({"allocate", std::string(reason_code::kNoFeasibleNode), "the cluster has no nodes", {{"nodes", "0"}}});
    }
    // A queue held as a whole, for a job the action never reached.
    const bool visited = origin != kNone || e.fit > 0 ||
                         std::any_of(causes.begin(), causes.end(), [](const Cause& c) { return c.record.stage != "enqueue"; });
    if (!visited && pending > 0 && !ssn_.JobIsPending(j)) {
      auto q = log_.queues.find(ssn_.queue_of(j));
      if (q != log_.queues.end()) add(q->second);
    }
    const bool ready = ssn_.JobIsReady(j);
    if (!ready && pending > 0 && e.fit > 0) {
      add({StageOfFit(j), std::string(reason_code::kGangShortfall),
           absl::StrCat("the gang needs ", e.min_member, " pods placed together; ", e.fit + placed_before,
                        " could be placed in this session (", e.pods, " pods exist)"),
           {{"minMember", absl::StrCat(e.min_member)},
            {"pods", absl::StrCat(e.pods)},
            {"podsThatFit", absl::StrCat(e.fit + placed_before)},
            {"placed", absl::StrCat(e.placed)}}});
    }
    if (e.pipelined > 0) {
      add({PipelineStage(j), std::string(reason_code::kPreemptionPending),
           absl::StrCat(e.pipelined, " pod(s) wait on resources that evictions are freeing"),
           {{"pipelined", absl::StrCat(e.pipelined)}, {"evictions", absl::StrCat(EvictionsFor(j))}}});
    }
    if (pending > 0 && e.pipelined == 0 && ready && e.placed >= e.min_member) {
      add({"allocate", std::string(reason_code::kPartiallyPlaced),
           absl::StrCat("minMember ", e.min_member, " is met; ", pending, " pod(s) are left pending"),
           {{"minMember", absl::StrCat(e.min_member)}, {"placed", absl::StrCat(e.placed)}, {"pending", absl::StrCat(pending)}}});
    }

    std::stable_sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) {
      return std::tie(a.stage_rank, a.category, a.order) < std::tie(b.stage_rank, b.category, b.order);
    });
    for (const Cause& c : causes) {
      if (std::find(e.causes.begin(), e.causes.end(), c.record.code) == e.causes.end()) e.causes.push_back(c.record.code);
    }
    const Cause* decisive = nullptr;
    if (pending == 0 && e.pipelined == 0 && e.pods == 0 && causes.empty() && !ssn_.JobIsPending(j)) {
      // Admitted, and its controller has not made its pods yet: nothing is placed.
      e.reason = std::string(reason_code::kAwaitingPods);
      e.stage = "";
      e.message = "the PodGroup is admitted (" + std::string(ssn_.job_phase(j)) +
                  ") and has no pods yet: its controller creates them";
      e.check = {{"phase", ssn_.job_phase(j)}, {"pods", "0"}};
      return e;
    }
    if (pending == 0 && e.pipelined == 0 && e.pods > 0) {
      e.reason = std::string(reason_code::kScheduled);
      e.message = "every pod of the job holds a node";
      e.check = {{"placed", absl::StrCat(e.placed)}, {"pods", absl::StrCat(e.pods)}};
      return e;
    }
    for (const Cause& c : causes) {
      const bool outcome = c.category == 4;
      if (e.pipelined > 0 ? c.record.code == reason_code::kPreemptionPending
                          : (ready && e.placed >= e.min_member ? c.record.code == reason_code::kPartiallyPlaced : !outcome)) {
        decisive = &c;
        break;
      }
    }
    if (decisive == nullptr && !causes.empty()) decisive = &causes.front();
    if (decisive == nullptr) {
      e.reason = std::string(reason_code::kNotTried);
      e.stage = "";
      e.message = ssn_.JobIsPending(j) ? "the PodGroup was not admitted and no configured action considered it"
                                       : "no configured action tried the job's pending pods";
      e.check = {{"phase", ssn_.job_phase(j)}, {"pending", absl::StrCat(pending)}};
      return e;
    }
    e.reason = decisive->record.code;
    e.stage = decisive->record.stage;
    e.message = decisive->record.message;
    e.check = decisive->record.numbers;
    return e;
  }

  // The first task of the job with verdicts, preferring one that no node takes.
  TaskIndex VerdictTask(JobIndex j) const {
    TaskIndex first = kNone;
    for (TaskIndex t : ssn_.job(j).tasks) {
      auto it = log_.verdicts.find(t);
      if (it == log_.verdicts.end()) continue;
      if (it->second.nodes >= ssn_.num_nodes()) return t;
      if (first == kNone) first = t;
    }
    return first;
  }

  std::string StageOfFit(JobIndex j) const {
    for (TaskIndex t : ssn_.job_tasks(j)) {
      auto it = log_.verdicts.find(t);
      if (it != log_.verdicts.end()) return it->second.stage;
    }
    return "allocate";
  }

  std::string PipelineStage(JobIndex j) const {
    for (TaskIndex t : ssn_.job_tasks(j)) {
      const std::string& by = log_.pipelined_by[static_cast<size_t>(t)];
      if (!by.empty()) return by;
    }
    return "allocate";
  }

  int32_t EvictionsFor(JobIndex j) const {
    int32_t n = 0;
    for (const Eviction& ev : s_.decisions.evictions) {
      for (TaskIndex t : ssn_.job_tasks(j)) {
        if (ev.preemptor == ssn_.task(t).key) {
          ++n;
          break;
        }
      }
    }
    return n;
  }

  QueueView ViewOf(const QueueInfo& q) const {
    auto it = log_.views.find(q.spec.name);
    if (it != log_.views.end()) return it->second;
    QueueView v;  // no fair-share plugin computed it: the spec's own amounts
    v.name = q.spec.name;
    v.state = q.spec.state;
    v.weight = q.spec.weight;
    v.parent = q.spec.parent;
    for (const auto& [k, val] : q.spec.capability) v.capability.emplace_back(k, FormatAmount(k, val));
    for (const auto& [k, val] : q.spec.guarantee) v.guarantee.emplace_back(k, FormatAmount(k, val));
    for (const auto& [k, val] : q.spec.deserved) v.deserved.emplace_back(k, FormatAmount(k, val));
    return v;
  }

  const Session& ssn_;
  const Session::State& s_;
  const ExplainLog& log_;
};

}  // namespace

Explanation AssembleExplanation(const Session& ssn, const std::vector<std::string>* jobs) {
  return Assembler(ssn).Run(jobs);
}

}  // namespace vcsched::internal
