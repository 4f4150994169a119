#include "vcsched/scheduler.h"

#include <algorithm>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "src/framework/decisions_sort.h"
#include "src/framework/run_session.h"
#include "src/util/status_macros.h"
#include "src/framework/session_explain.h"
#include "src/framework/session_sharding.h"
#include "src/framework/session_state.h"

namespace vcsched {
namespace {


// `phase` as a view that outlives the session: the phases Volcano knows are literals,
// anything else (a host plugin's) is kept by the decisions.
SharedText LastingPhase(Decisions& d, absl::string_view phase) {
  return internal::PhaseText(phase, [&](absl::string_view p) { return d.Keep(p); });
}

// PodGroup phase at close (docs/reference/scheduler.md §11.1), into the statuses the session made.
void WritePodGroupStatuses(Session& ssn) {
  Session::State& s = SessionInternals::Of(ssn);
  for (JobIndex j = 0; j < static_cast<JobIndex>(s.job_queue.size()); ++j) {
    if (s.queue_of(j) == kNone) continue;  // not in the session
    PodGroupStatus& st = s.decisions.pod_groups[static_cast<size_t>(s.job_status_slot[static_cast<size_t>(j)])];
    const bool unsched = std::any_of(st.conditions.begin(), st.conditions.end(), [&](const PodGroupCondition& c) {
      return c.type == "Unschedulable" && c.status == "True" && c.transition_id == s.transition_id;
    });
    const int32_t running = ssn.job_count(j, TaskStatus::kRunning);
    const int32_t failed = ssn.job_count(j, TaskStatus::kFailed);
    const int32_t succeeded = ssn.job_count(j, TaskStatus::kSucceeded);
    absl::string_view phase = ssn.job_phase(j);
    if (running > 0 && unsched) {
      phase = "Unknown";
    } else {
      const int32_t releasing_on_node = ssn.JobReleasingOnNodeNum(j);
      const int32_t scheduled = running + ssn.job_count(j, TaskStatus::kBound) + failed + succeeded + releasing_on_node;
      if (scheduled >= s.job_min_member[static_cast<size_t>(j)]) {
        phase = scheduled == failed + succeeded ? "Completed" : "Running";
      } else if (phase != "Inqueue") {
        phase = "Pending";
      }
    }
    st.phase = LastingPhase(s.decisions, phase);
    st.running = running;
    st.failed = failed;
    st.succeeded = succeeded;
  }
}

// Pipelined tasks and the reasons of tasks left pending.
void WriteTaskOutcomes(Session& ssn) {
  Session::State& s = SessionInternals::Of(ssn);
  s.decisions.task_reasons.reserve(s.snapshot->tasks().size());
  // Identical messages (a job's tasks share them) are built and kept once.
  std::string last_fit_key;
  SharedText last_fit_text;
  for (size_t ti = 0; ti < s.status.size(); ++ti) {
    const JobIndex job = s.task_job[ti];
    if (job == kNone || s.queue_of(job) == kNone) continue;
    const TaskStatus st = s.status[ti];
    if (st != TaskStatus::kPipelined && st != TaskStatus::kAllocated && st != TaskStatus::kPending) continue;
    const TaskInfo& t = s.task(static_cast<TaskIndex>(ti));
    if (st == TaskStatus::kPipelined) {
      s.decisions.pipelined.push_back(
          {s.Name(t.key), s.Name(s.node_info(s.node[ti]).spec.name), static_cast<bool>(s.eviction_occurred[ti])});
    } else if (st == TaskStatus::kAllocated) {
      s.decisions.task_reasons.push_back(
          {s.Name(t.key), SharedText::Literal("Schedulable"),
           s.decisions.Keep(absl::StrCat("pod can be placed on ", s.node_info(s.node[ti]).spec.name,
                                         " once the gang's minAvailable is met"))});
    } else if (st == TaskStatus::kPending) {
      if (s.last_txn_status[ti] == TaskStatus::kAllocated && s.last_txn_node[ti] != kNone) {
        s.decisions.task_reasons.push_back(
            {s.Name(t.key), SharedText::Literal("Schedulable"),
             s.decisions.Keep(absl::StrCat("pod fits ", s.node_info(s.last_txn_node[ti]).spec.name,
                                           ", but the gang's minAvailable was not met"))});
      } else {
        SharedText msg;
        const TaskFitErrors& f = s.Fit(t.index);
        if (f.messages.empty() && f.nodes > 0) {
          std::string key = std::to_string(f.nodes);
          for (const auto& [r, c] : f.reason_counts) absl::StrAppend(&key, ",", r, ":", c);
          absl::StrAppend(&key, "@", f.hyper_node);
          if (key != last_fit_key) {
            last_fit_key = std::move(key);
            last_fit_text = s.decisions.Keep(ssn.TaskFitErrorText(t.index));
          }
          msg = last_fit_text;
        } else {
          msg = s.decisions.Keep(ssn.TaskFitErrorText(t.index));
        }
        if (msg.empty() && f.refused_by_queue != kNone) {
          msg = s.decisions.Keep(absl::StrCat(
              "queue ", s.queue(f.refused_by_queue).spec.name,
              " cannot take the task now: its share or capability would be exceeded, or it is not open"));
        }
        if (msg.empty()) {
          msg = ssn.JobIsPending(t.job) ? SharedText::Literal("the PodGroup is not admitted (still Pending)")
                                        : SharedText::Literal("not tried in this session");
        }
        s.decisions.task_reasons.push_back({s.Name(t.key), SharedText::Literal("Unschedulable"), std::move(msg)});
      }
    }
  }
}

// Predicates and node scores registered so far.
size_t NodeAnswerCount(const Session::State& s) {
  return s.predicate.size() + s.node_order.size() + s.batch_node_order.size() + s.placement_node_order.size() +
         s.group_node_order.size();
}

}  // namespace

namespace internal {

absl::StatusOr<Decisions> RunSessionWith(const Registry& registry, const Snapshot& snapshot,
                                         const SchedulerConfig& config, const RunOptions& options,
                                         const SessionHooks* hooks) {
  // Validation builds every plugin once; those are the session's plugins.
  std::vector<std::string> config_warnings;
  VCSCHED_ASSIGN_OR_RETURN(std::vector<std::unique_ptr<Plugin>> plugins,
                           registry.BuildPlugins(config, &config_warnings));
  SchedulerConfig cfg = config;
  cfg.ApplyDefaults();
  const int64_t now = options.now_seconds != 0 ? options.now_seconds : DefaultSessionClock(snapshot);
  Session ssn(snapshot, cfg, now, options.session_id);
  Session::State& s = SessionInternals::Of(ssn);
  s.node_choice_cache = options.node_choice_cache;
  if (options.memory != nullptr) s.memory = *options.memory;
  if (!s.memory.started_ms) s.memory.started_ms = ssn.now_ms();
  if (hooks != nullptr) StartExplaining(ssn, hooks->node_verdicts_by_node);
  VCSCHED_RETURN_IF_ERROR(OpenSharding(ssn));

  size_t next_plugin = 0;  // plugins[] follows the tiers, skipped plugins left out
  for (size_t ti = 0; ti < cfg.tiers.size(); ++ti) {
    for (const PluginOption& opt : cfg.tiers[ti].plugins) {
      if (registry.Skips(opt.name)) continue;  // warned about in config_warnings
      Plugin* plugin = plugins[next_plugin++].get();
      const bool node_local = registry.FindPluginTraits(opt.name)->node_local_answers;
      s.current_plugin = &opt;
      s.current_tier = static_cast<int>(ti);
      const size_t node_fns = NodeAnswerCount(s);
      const absl::Status st = plugin->OnSessionOpen(ssn);
      if (NodeAnswerCount(s) != node_fns && !node_local) {
        s.node_choice_cache = false;  // node answers that may depend on more than the node
      }
      if (!st.ok()) {
        return absl::Status(st.code(), absl::StrCat("plugin ", opt.name, ": ", st.message()));
      }
    }
  }
  s.current_plugin = nullptr;
  if (hooks != nullptr && hooks->on_open) VCSCHED_RETURN_IF_ERROR(hooks->on_open(ssn));

  // A bind per pending task at most: reserved, so that committing never moves the list.
  s.decisions.binds.reserve(static_cast<size_t>(std::count(s.status.begin(), s.status.end(), TaskStatus::kPending)));
  for (const std::string& name : cfg.actions) {
    VCSCHED_ASSIGN_OR_RETURN(std::unique_ptr<Action> action, registry.MakeAction(name, cfg.ActionArguments(name)));
    if (s.explain != nullptr) s.explain->stage = name;
    const absl::Status st = action->Execute(ssn);
    if (!st.ok()) return absl::Status(st.code(), absl::StrCat("action ", name, ": ", st.message()));
  }

  for (auto& plugin : plugins) plugin->OnSessionClose(ssn);
  WritePodGroupStatuses(ssn);
  WriteTaskOutcomes(ssn);
  if (hooks != nullptr && hooks->on_close) hooks->on_close(ssn);
  Decisions out = std::move(s.decisions);
  for (const std::string& w : snapshot.warnings()) out.warnings.push_back(w);
  for (std::string& w : config_warnings) out.warnings.push_back(std::move(w));
  // Binds in task order and statuses in job order are in key order when the keys are.
  internal::SortDecisions(out, {s.binds_in_index_order && s.facts->task_keys_sorted, s.facts->job_keys_sorted});
  if (options.memory != nullptr) *options.memory = std::move(s.memory);
  return out;
}

}  // namespace internal

}  // namespace vcsched
