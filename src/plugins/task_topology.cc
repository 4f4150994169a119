// task-topology: a job's PodGroup names which of its tasks (roles) should share nodes
// (volcano.sh/task-topology-affinity), which should not (…-anti-affinity) and in what
// order they go (…-task-order); the plugin groups the job's pods into buckets meant for
// one node each, orders tasks by bucket and scores nodes for a bucket
// (docs/reference/scheduler.md §10.13). Volcano walks Go maps where a bucket's pods are
// taken in turn; vcsched takes them in pod order.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"

namespace vcsched::internal {
namespace {

constexpr const char* kAffinity = "volcano.sh/task-topology-affinity";
constexpr const char* kAntiAffinity = "volcano.sh/task-topology-anti-affinity";
constexpr const char* kTaskOrder = "volcano.sh/task-topology-task-order";
constexpr const char* kTaskSpec = "volcano.sh/task-spec";

// Volcano's priorities of a task's strongest topology kind.
constexpr int kSelfAntiAffinity = 4, kInterAffinity = 3, kSelfAffinity = 2, kInterAntiAffinity = 1;

using Groups = std::vector<std::vector<std::string>>;

struct Bucket {
  int index = 0;
  std::set<TaskIndex> tasks;  // pending pods, taken in index order where Volcano walks a map
  std::map<std::string, int> task_names;  // task name -> pods of it
  double req_score = 0;
  std::vector<int64_t> request;  // the pending pods' requests
  int bound = 0;
  std::map<std::string, int> nodes;  // node name -> pods placed there
};

struct JobManager {
  std::vector<Bucket> buckets;
  std::map<TaskIndex, int> bucket_of;       // -1: out of any bucket
  std::map<TaskIndex, std::string> name_of;  // pods in buckets: their task name
  std::map<std::string, int> priority;      // task name -> its strongest topology kind
  std::map<std::string, int> order;         // task name -> rank in the task order (higher first)
  std::map<std::string, std::set<std::string>> inter_affinity, inter_anti;
  std::set<std::string> self_affinity, self_anti;
  int max_size = 0;
  std::map<std::string, std::map<std::string, int>> node_tasks;  // node -> task name -> placed pods

  void Mark(const std::string& name, int kind) { priority[name] = std::max(priority[name], kind); }

  void Apply(const Groups& affinity, const Groups& anti, const std::vector<std::string>& task_order) {
    const auto apply = [&](const Groups& groups, std::set<std::string>& self,
                           std::map<std::string, std::set<std::string>>& inter, int self_kind, int inter_kind) {
      for (const auto& group : groups) {
        if (group.size() == 1) {
          self.insert(group[0]);
          Mark(group[0], self_kind);
          continue;
        }
        for (size_t i = 0; i < group.size(); ++i) {
          for (size_t k = 0; k < i; ++k) {
            inter[group[i]].insert(group[k]);
            inter[group[k]].insert(group[i]);
          }
          Mark(group[i], inter_kind);
        }
      }
    };
    apply(affinity, self_affinity, inter_affinity, kSelfAffinity, kInterAffinity);
    apply(anti, self_anti, inter_anti, kSelfAntiAffinity, kInterAntiAffinity);
    for (size_t i = 0; i < task_order.size(); ++i) order[task_order[i]] = static_cast<int>(task_order.size() - i);
  }

  // Volcano's taskAffinityOrder: >0 when l's task goes first.
  int AffinityOrder(TaskIndex l, TaskIndex r) const {
    const std::string& ln = name_of.at(l);
    const std::string& rn = name_of.at(r);
    if (ln == rn) return 0;
    const int lo = Get(order, ln), ro = Get(order, rn);
    if (lo != ro) return lo > ro ? 1 : -1;
    const int lp = Get(priority, ln), rp = Get(priority, rn);
    if (lp != rp) return lp > rp ? 1 : -1;
    return 0;
  }

  // How much `name` wants the pods counted in `names`: affinities add (unless only the
  // anti-affinities are asked), anti-affinities subtract.
  int SetAffinity(const std::string& name, const std::map<std::string, int>& names, bool only_anti) const {
    int score = 0;
    if (name.empty()) return 0;
    for (const auto& [other, count] : names) {
      const bool same = other == name;
      if (!only_anti) {
        const bool affinity = same ? self_affinity.count(name) != 0 : Has(inter_affinity, name, other);
        if (affinity) score += count;
      }
      const bool anti = same ? self_anti.count(name) != 0 : Has(inter_anti, name, other);
      if (anti) score -= count;
    }
    return score;
  }

  const Bucket* BucketOf(TaskIndex t) const {
    auto it = bucket_of.find(t);
    return it == bucket_of.end() || it->second < 0 ? nullptr : &buckets[static_cast<size_t>(it->second)];
  }

  static int Get(const std::map<std::string, int>& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
  }
  static bool Has(const std::map<std::string, std::set<std::string>>& m, const std::string& a, const std::string& b) {
    auto it = m.find(a);
    return it != m.end() && it->second.count(b) != 0;
  }
};

std::string TaskName(const PodSpec& pod) {
  auto it = pod.annotations.find(kTaskSpec);
  return it == pod.annotations.end() ? std::string() : it->second;
}

// Volcano's affinityCheck: every non-empty name is a task of the job, once per group.
bool NamesValid(const Groups& groups, const std::set<std::string>& roles) {
  for (const auto& group : groups) {
    std::set<std::string> seen;
    for (const std::string& name : group) {
      if (name.empty()) continue;
      if (!roles.count(name) || !seen.insert(name).second) return false;
    }
  }
  return true;
}

Groups Split(const std::string& text) {
  Groups out;
  for (absl::string_view group : absl::StrSplit(text, ';')) out.push_back(absl::StrSplit(group, ','));
  return out;
}

class TaskTopologyPlugin : public Plugin {
 public:
  explicit TaskTopologyPlugin(int64_t weight) : weight_(weight) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    managers_.clear();
    for (JobIndex j = 0; j < static_cast<JobIndex>(s.num_jobs()); ++j) Init(s, j);
    ssn.AddTaskOrderFn([this, &s](TaskIndex l, TaskIndex r) { return TaskOrder(s, l, r); });
    ssn.AddNodeOrderFn([this, &s](TaskIndex t, NodeIndex n) { return NodeScore(s, t, n); });
    // Volcano listens to allocations only: a placement undone leaves the bucket as it was made.
    ssn.AddEventHandler({[this, &s](TaskIndex t) { Placed(s, t); }, nullptr});
    return absl::OkStatus();
  }

 private:
  void Init(const Session& s, JobIndex j) {
    const JobInfo& job = s.job(j);
    if (job.queue == kNone || s.job_count(j, TaskStatus::kPending) == 0) return;
    const Labels& a = job.pod_group.annotations;
    const auto aff = a.find(kAffinity), anti = a.find(kAntiAffinity), ord = a.find(kTaskOrder);
    if (aff == a.end() && anti == a.end() && ord == a.end()) return;
    std::set<std::string> roles;
    for (TaskIndex t : job.tasks) roles.insert(s.task(t).role);
    Groups affinity, anti_affinity;
    std::vector<std::string> task_order;
    if (aff != a.end() && !NamesValid(affinity = Split(aff->second), roles)) return;
    if (anti != a.end() && !NamesValid(anti_affinity = Split(anti->second), roles)) return;
    if (ord != a.end()) {
      task_order = absl::StrSplit(ord->second, ',');
      if (!NamesValid({task_order}, roles)) return;
    }
    JobManager& m = managers_[j];
    m.Apply(affinity, anti_affinity, task_order);
    // The pods of a task with a topology, those on a node first (by node name), then by
    // task order, topology kind and pod name.
    std::vector<TaskIndex> pods;
    for (TaskIndex t : job.tasks) {
      const std::string name = TaskName(*s.task(t).pod);
      if (name.empty() || !m.priority.count(name)) {
        m.bucket_of[t] = -1;
        continue;
      }
      m.name_of[t] = name;
      pods.push_back(t);
    }
    std::stable_sort(pods.begin(), pods.end(), [&](TaskIndex l, TaskIndex r) {
      const std::string& ln = s.task(l).pod->node_name;
      const std::string& rn = s.task(r).pod->node_name;
      if (!ln.empty() || !rn.empty()) {
        if (ln.empty() != rn.empty()) return !ln.empty();
        return ln < rn;
      }
      const int o = m.AffinityOrder(l, r);
      if (o != 0) return o > 0;
      return s.task(l).pod->name < s.task(r).pod->name;
    });
    std::map<std::string, int> node_bucket;
    for (TaskIndex t : pods) {
      const PodSpec& pod = *s.task(t).pod;
      const std::string& name = m.name_of[t];
      int chosen = -1;
      int best = INT32_MIN;
      if (!pod.node_name.empty()) {
        best = 0;
        auto it = node_bucket.find(pod.node_name);
        if (it != node_bucket.end()) chosen = it->second;
      } else {
        for (const Bucket& b : m.buckets) {
          const int score = m.SetAffinity(name, b.task_names, false);
          if (score > best) {
            best = score;
            chosen = b.index;
          } else if (score == best && chosen >= 0 && b.req_score < m.buckets[static_cast<size_t>(chosen)].req_score) {
            chosen = b.index;
          }
        }
      }
      if (best < 0 || chosen < 0) {
        chosen = static_cast<int>(m.buckets.size());
        m.buckets.emplace_back();
        m.buckets.back().index = chosen;
        m.buckets.back().request.assign(static_cast<size_t>(s.dims()), 0);
        if (!pod.node_name.empty()) node_bucket[pod.node_name] = chosen;
      }
      Add(s, m, chosen, name, t);
    }
  }

  static double ReqScore(const Session& s, TaskIndex t) {
    const auto req = s.task_resreq(t);
    double score = static_cast<double>(req[kCpu]) + static_cast<double>(req[kMemory]) / 1024 / 1024;
    for (int d = kPods; d < s.dims(); ++d) score += static_cast<double>(req[static_cast<size_t>(d)]);
    return score;
  }

  static void Add(const Session& s, JobManager& m, int index, const std::string& name, TaskIndex t) {
    Bucket& b = m.buckets[static_cast<size_t>(index)];
    m.bucket_of[t] = index;
    ++b.task_names[name];
    const PodSpec& pod = *s.task(t).pod;
    if (!pod.node_name.empty()) {
      ++b.nodes[pod.node_name];
      ++b.bound;
    } else {
      b.tasks.insert(t);
      b.req_score += ReqScore(s, t);
      const auto req = s.task_resreq(t);
      for (size_t d = 0; d < req.size(); ++d) b.request[d] = SaturatingAdd(b.request[d], req[d]);
    }
    m.max_size = std::max(m.max_size, static_cast<int>(b.tasks.size()) + b.bound);
  }

  // Volcano's TaskBound, on every allocation event of the job's pods.
  void Placed(const Session& s, TaskIndex t) {
    const JobIndex j = s.job_of(t);
    auto it = managers_.find(j);
    if (it == managers_.end()) return;
    JobManager& m = it->second;
    const NodeIndex n = s.task_node(t);
    const std::string node = n == kNone ? std::string() : s.node_info(n).spec.name;
    const std::string name = TaskName(*s.task(t).pod);
    if (!name.empty()) ++m.node_tasks[node][name];
    auto b = m.bucket_of.find(t);
    if (b == m.bucket_of.end() || b->second < 0) return;
    Bucket& bucket = m.buckets[static_cast<size_t>(b->second)];
    ++bucket.nodes[node];
    ++bucket.bound;
    bucket.tasks.erase(t);
    bucket.req_score -= ReqScore(s, t);
    const auto req = s.task_resreq(t);
    for (size_t d = 0; d < req.size(); ++d) bucket.request[d] = SaturatingSub(bucket.request[d], req[d]);
  }

  int TaskOrder(const Session& s, TaskIndex l, TaskIndex r) const {
    const JobManager* lm = Manager(s.job_of(l));
    const JobManager* rm = Manager(s.job_of(r));
    if (lm == nullptr || rm == nullptr) return 0;
    const Bucket* lb = lm->BucketOf(l);
    const Bucket* rb = rm->BucketOf(r);
    if ((lb != nullptr) != (rb != nullptr)) return lb != nullptr ? -1 : 1;
    if (s.job_of(l) != s.job_of(r) || lb == nullptr) return 0;
    if (lb->tasks.size() != rb->tasks.size()) return lb->tasks.size() > rb->tasks.size() ? -1 : 1;
    if (lb->index == rb->index) return -lm->AffinityOrder(l, r);
    return lb->index < rb->index ? -1 : 1;
  }

  double NodeScore(const Session& s, TaskIndex t, NodeIndex n) const {
    const auto req = s.task_resreq(t);
    const auto idle = s.node_idle(n);
    const auto releasing = s.node_releasing(n);
    std::vector<int64_t> room(req.size());
    for (size_t d = 0; d < req.size(); ++d) {
      room[d] = SaturatingAdd(idle[d], releasing[d]);
      if (room[d] < req[d]) return 0;
    }
    const JobManager* m = Manager(s.job_of(t));
    if (m == nullptr) return 0;
    const Bucket* b = m->BucketOf(t);
    int score = 0;
    if (b != nullptr) {
      const std::string& node = s.node_info(n).spec.name;
      if (auto it = b->nodes.find(node); it != b->nodes.end()) score = it->second;
      if (auto it = m->node_tasks.find(node); it != m->node_tasks.end()) {
        const int affinity = m->SetAffinity(TaskName(*s.task(t).pod), it->second, true);
        if (affinity < 0) score += affinity;
      }
      score += static_cast<int>(b->tasks.size());
      if (!LessEqual(b->request, room)) {
        std::vector<int64_t> remains = b->request;
        for (TaskIndex other : b->tasks) {
          if (other == t) continue;
          const auto r = s.task_resreq(other);
          for (size_t d = 0; d < remains.size(); ++d) remains[d] = SaturatingSub(remains[d], r[d]);
          --score;
          if (LessEqual(remains, room)) break;
        }
      }
    }
    double f = static_cast<double>(score) * static_cast<double>(weight_);
    if (m->max_size != 0) f = f * 100 / m->max_size;
    return f;
  }

  const JobManager* Manager(JobIndex j) const {
    auto it = managers_.find(j);
    return it == managers_.end() ? nullptr : &it->second;
  }

  const int64_t weight_;
  std::map<JobIndex, JobManager> managers_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewTaskTopologyPlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(const int64_t weight, args.GetInt("task-topology.weight", 1));
  return std::unique_ptr<Plugin>(new TaskTopologyPlugin(weight));
}

}  // namespace vcsched::internal
