// capacity: queues get configured deserved shares and hard capabilities, flat or as a
// hierarchy through spec.parent (docs/reference/scheduler.md §10.8). Unlike proportion, capability (not
// deserved) bounds allocation; deserved orders queues and decides reclaim.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "src/internal/victims.h"
#include "src/util/status_macros.h"
#include "src/plugins/plugins.h"
#include "src/plugins/queue_amounts.h"
#include "src/plugins/queue_explain.h"

namespace vcsched::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct CapacityQueue {
  QueueIndex index = kNone;
  std::vector<QueueIndex> ancestors;  // root first
  std::vector<QueueIndex> children;
  Amount capability;
  Amount guarantee;
  Amount deserved;
  std::vector<bool> deserved_named;  // which dimensions deserved names (scalars need it)
  Amount real_capability;
  Amount allocated, request, inqueue, elastic;
  double share = 0;
};

bool Positive(double v) { return v >= kEpsilon; }

class CapacityPlugin : public Plugin {
 public:
  explicit CapacityPlugin(int64_t ancestor_reclaim_level) : level_(ancestor_reclaim_level) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    const Session& s = ssn;
    s_ = &s;
    ssn_ = &ssn;
    dims_ = static_cast<size_t>(s.dims());
    hierarchy_ = ssn.current_plugin().Enabled(Switch::kHierarchy);
    ready_ = hierarchy_ ? BuildHierarchy() : BuildFlat();
    Lint(ssn);
    if (ready_ || !hierarchy_) {
      ssn.AddQueueOrderFn([this](QueueIndex l, QueueIndex r) { return QueueOrder(l, r); });
    }
    if (hierarchy_ && ready_) {
      ssn.AddVictimQueueOrderFn([this](QueueIndex l, QueueIndex r, QueueIndex p) {
        const size_t ll = CommonLevel(l, p), rl = CommonLevel(r, p);
        if (ll == rl) return 0;
        return ll > rl ? -1 : 1;
      });
    }
    ssn.AddReclaimableFn([this](TaskIndex reclaimer, absl::Span<const TaskIndex> cands) {
      return Reclaimable(reclaimer, cands);
    });
    ssn.AddPreemptiveFn([this](QueueIndex q, absl::Span<const TaskIndex> tasks) { return Preemptive(q, tasks); });
    ssn.AddUnifiedEvictableFn([this](EvictionKind kind, JobIndex, absl::Span<const TaskIndex> cands) {
      return UnifiedEvictable(kind, cands);
    });
    ssn.AddAllocatableFn([this](QueueIndex q, TaskIndex t) { return Allocatable(q, t); });
    ssn.AddSimulateAllocatableFn([this](QueueIndex q, TaskIndex t, absl::Span<const TaskIndex> removed) {
      if (!ready_ || Find(q) == nullptr || (hierarchy_ && !IsLeaf(q))) return false;
      for (QueueIndex c : Chain(q)) {
        Amount allocated = Find(c)->allocated;
        for (TaskIndex v : removed) {
          const JobIndex vj = s_->job_of(v);
          if (vj == kNone) continue;
          const std::vector<QueueIndex> vchain = Chain(s_->queue_of(vj));
          if (std::find(vchain.begin(), vchain.end(), c) != vchain.end()) Sub(allocated, s_->task_resreq(v));
        }
        if (!FitsWithDimension(allocated, s_->task_resreq(t), Find(c)->real_capability)) return false;
      }
      return true;
    });
    ssn.AddJobEnqueueableFn([this](JobIndex j) { return Enqueueable(j); });
    ssn.AddJobEnqueuedFn([this](JobIndex j) {
      const JobInfo& job = s_->job(j);
      CapacityQueue* a = Find(job.queue);
      if (a == nullptr || !job.has_min_resources) return;
      Add(a->inqueue, job.min_resources.span());
      if (hierarchy_) {
        for (QueueIndex anc : a->ancestors) Add(Find(anc)->inqueue, job.min_resources.span());
      }
    });
    ssn.AddEventHandler({[this](TaskIndex t) { Update(t, true); }, [this](TaskIndex t) { Update(t, false); }});
    return absl::OkStatus();
  }

 private:
  // Queue fields this configuration ignores or needs (docs/EXPLAIN.md, lint).
  void Lint(Session& ssn) const {
    std::set<QueueIndex> with_jobs;
    for (const JobInfo& job : s_->snapshot().jobs()) {
      if (job.queue != kNone) with_jobs.insert(job.queue);
    }
    for (const QueueInfo& q : s_->snapshot().queues()) {
      if (!hierarchy_ && !q.spec.parent.empty() && q.spec.parent != "root") {
        ssn.AddWarning(absl::StrCat("Queue \"", q.spec.name, "\": spec.parent: \"", q.spec.parent,
                                    "\" is ignored: capacity reads parents only with enableHierarchy"));
      }
      if (with_jobs.count(q.index) && q.spec.deserved.empty()) {
        ssn.AddWarning(absl::StrCat("Queue \"", q.spec.name,
                                    "\": spec.deserved: not set; capacity gives the queue no deserved share, so "
                                    "all it holds above its guarantee can be reclaimed"));
      }
    }
  }

  CapacityQueue* Find(QueueIndex q) {
    auto it = queues_.find(q);
    return it == queues_.end() ? nullptr : &it->second;
  }
  const CapacityQueue* Find(QueueIndex q) const {
    auto it = queues_.find(q);
    return it == queues_.end() ? nullptr : &it->second;
  }
  bool IsLeaf(QueueIndex q) const {
    const CapacityQueue* a = Find(q);
    return a == nullptr || a->children.empty();
  }
  bool Open(QueueIndex q) const { return s_->queue(q).spec.state == "Open"; }

  CapacityQueue NewQueue(const QueueInfo& info) const {
    CapacityQueue a;
    a.index = info.index;
    a.guarantee.assign(dims_, 0);
    a.deserved.assign(dims_, 0);
    a.deserved_named.assign(dims_, false);
    a.capability.assign(dims_, kInf);
    for (size_t d = 0; d < dims_; ++d) {
      const std::string& name = s_->snapshot().space().name(static_cast<int>(d));
      a.guarantee[d] = static_cast<double>(info.guarantee[static_cast<int>(d)]);
      a.deserved[d] = static_cast<double>(info.deserved[static_cast<int>(d)]);
      a.deserved_named[d] = info.spec.deserved.count(name) > 0 || info.spec.guarantee.count(name) > 0;
      if (info.spec.capability.count(name)) a.capability[d] = static_cast<double>(info.capability[static_cast<int>(d)]);
    }
    a.allocated.assign(dims_, 0);
    a.request.assign(dims_, 0);
    a.inqueue.assign(dims_, 0);
    a.elastic.assign(dims_, 0);
    return a;
  }

  // allocated, request, inqueue and elastic of one job, added to `a`.
  void AddJob(CapacityQueue& a, const JobInfo& job) const {
    for (TaskIndex t : job.tasks) {
      const TaskStatus st = s_->task_status(t);
      if (IsAllocatedStatus(st)) {
        Add(a.allocated, s_->task_resreq(t));
        Add(a.request, s_->task_resreq(t));
      } else if (st == TaskStatus::kPending) {
        Add(a.request, s_->task_resreq(t));
      }
    }
    const auto alloc = ssn_->job_allocated(job.index);
    const absl::string_view phase = ssn_->job_phase(job.index);  // compared by length first
    if (job.has_min_resources) {
      int32_t allocated_tasks = 0;
      for (TaskIndex t : job.tasks) allocated_tasks += IsAllocatedStatus(s_->task_status(t));
      if (phase == "Inqueue" || (phase == "Running" && allocated_tasks >= s_->job_min_member(job.index))) {
        for (size_t d = 0; d < dims_; ++d) {
          a.inqueue[d] += static_cast<double>(std::max<int64_t>(job.min_resources[static_cast<int>(d)] - alloc[d], 0));
        }
      }
    }
    for (size_t d = 0; d < dims_; ++d) {
      a.elastic[d] += static_cast<double>(std::max<int64_t>(alloc[d] - job.min_resources[static_cast<int>(d)], 0));
    }
  }

  bool BuildFlat() {
    Amount total_guarantee(dims_, 0);
    for (const QueueInfo& q : s_->snapshot().queues()) {
      for (size_t d = 0; d < dims_; ++d) total_guarantee[d] += static_cast<double>(q.guarantee[static_cast<int>(d)]);
    }
    for (const JobInfo& job : s_->snapshot().jobs()) {
      if (job.queue == kNone) continue;
      auto [it, inserted] = queues_.try_emplace(job.queue);
      CapacityQueue& a = it->second;
      if (inserted) {
        const QueueInfo& info = s_->queue(job.queue);
        a = NewQueue(info);
        const bool has_cap = !info.spec.capability.empty();
        if (has_cap) {
          if (!(a.capability[kCpu] > 0)) a.capability[kCpu] = kInf;
          if (!(a.capability[kMemory] > 0)) a.capability[kMemory] = kInf;
        }
        a.real_capability.assign(dims_, 0);
        for (size_t d = 0; d < dims_; ++d) {
          a.real_capability[d] = std::max(static_cast<double>(s_->total_resource()[static_cast<int>(d)]) - total_guarantee[d], 0.0) +
                                 a.guarantee[d];
          if (has_cap) a.real_capability[d] = std::min(a.real_capability[d], a.capability[d]);
        }
      }
      AddJob(a, job);
    }
    for (auto& [q, a] : queues_) {
      for (size_t d = 0; d < dims_; ++d) {
        a.deserved[d] = std::max(std::min(a.deserved[d], a.real_capability[d]), a.guarantee[d]);
      }
      a.share = Share(a);
    }
    return true;
  }

  bool BuildHierarchy() {
    const auto root = s_->snapshot().FindQueue("root");
    if (!root) return false;
    for (const QueueInfo& q : s_->snapshot().queues()) queues_.emplace(q.index, NewQueue(q));
    // Ancestors root-first; a cycle or a missing parent makes the hierarchy unusable.
    for (const QueueInfo& q : s_->snapshot().queues()) {
      if (q.index == *root) continue;
      std::vector<QueueIndex> chain;
      std::set<QueueIndex> seen{q.index};
      QueueIndex cur = q.parent;
      while (true) {
        if (cur == kNone || !seen.insert(cur).second) return false;
        chain.push_back(cur);
        if (cur == *root) break;
        cur = s_->queue(cur).parent;
      }
      std::reverse(chain.begin(), chain.end());
      CapacityQueue& a = queues_.at(q.index);
      a.ancestors = std::move(chain);
      queues_.at(q.parent).children.push_back(q.index);
    }
    for (const JobInfo& job : s_->snapshot().jobs()) {
      if (job.queue == kNone) continue;
      CapacityQueue& a = queues_.at(job.queue);
      if (!a.children.empty()) return false;  // jobs must sit in leaf queues
      CapacityQueue delta = NewQueue(s_->queue(job.queue));
      std::fill(delta.allocated.begin(), delta.allocated.end(), 0.0);
      AddJob(delta, job);
      for (QueueIndex target : [&] { auto v = a.ancestors; v.push_back(job.queue); return v; }()) {
        CapacityQueue& t = queues_.at(target);
        for (size_t d = 0; d < dims_; ++d) {
          t.allocated[d] += delta.allocated[d];
          t.request[d] += delta.request[d];
          t.inqueue[d] += delta.inqueue[d];
          t.elastic[d] += delta.elastic[d];
        }
      }
    }
    CapacityQueue& r = queues_.at(*root);
    if (s_->queue(*root).spec.capability.empty()) {
      std::fill(r.capability.begin(), r.capability.end(), kInf);
    } else {
      for (size_t d = 0; d < static_cast<size_t>(kFixedDims) && d < dims_; ++d) {
        if (std::isinf(r.capability[d]) && d != static_cast<size_t>(kPods)) r.capability[d] = 0;
      }
    }
    r.real_capability = r.capability;
    ResolveChildren(*root, true);
    for (auto& [q, a] : queues_) a.share = Share(a);
    return true;
  }

  // Volcano's checkHierarchicalQueue: children take deserved >= guarantee, inherit the
  // capability they leave unset, and get a real capability from the parent's.
  void ResolveChildren(QueueIndex q, bool is_root) {
    CapacityQueue& parent = queues_.at(q);
    Amount total_guarantee(dims_, 0), total_deserved(dims_, 0);
    std::vector<bool> named(dims_, false);
    for (QueueIndex c : parent.children) {
      CapacityQueue& child = queues_.at(c);
      const QueueInfo& info = s_->queue(c);
      for (size_t d = 0; d < dims_; ++d) {
        child.deserved[d] = std::max(child.deserved[d], child.guarantee[d]);
        total_deserved[d] += child.deserved[d];
        total_guarantee[d] += child.guarantee[d];
        named[d] = named[d] || child.deserved_named[d];
        const std::string& name = s_->snapshot().space().name(static_cast<int>(d));
        const bool set = info.spec.capability.count(name) > 0;
        const bool inherit = d < static_cast<size_t>(kPods) ? !(set && child.capability[d] > 0) : !set;
        if (inherit) child.capability[d] = parent.capability[d];
      }
    }
    if (is_root) {
      parent.guarantee = total_guarantee;
      parent.deserved = total_deserved;
      parent.deserved_named = named;
    }
    for (QueueIndex c : parent.children) {
      CapacityQueue& child = queues_.at(c);
      child.real_capability.assign(dims_, 0);
      for (size_t d = 0; d < dims_; ++d) {
        const double base = std::isinf(parent.real_capability[d])
                                ? kInf
                                : std::max(parent.real_capability[d] - total_guarantee[d], 0.0);
        child.real_capability[d] = std::min(base + child.guarantee[d], child.capability[d]);
      }
    }
    for (QueueIndex c : parent.children) ResolveChildren(c, false);
  }

  static bool DeservedEmpty(const CapacityQueue& a) {
    for (size_t d = 0; d < a.deserved.size(); ++d) {
      if (static_cast<int>(d) != kPods && Positive(a.deserved[d])) return false;
    }
    return true;
  }

  // No deserved: a best-effort queue, share 1.
  static double Share(const CapacityQueue& a) {
    if (DeservedEmpty(a)) return 1;
    double share = 0;
    for (size_t d = 0; d < a.deserved.size(); ++d) {
      if (!Positive(a.deserved[d])) continue;
      share = std::max(share, a.allocated[d] / a.deserved[d]);
    }
    return share;
  }

  int CompareShare(const CapacityQueue& l, const CapacityQueue& r) const {
    if (l.share == r.share) {
      const bool ld = !DeservedEmpty(l), rd = !DeservedEmpty(r);
      if (ld == rd) return 0;
      return ld ? -1 : 1;
    }
    return l.share < r.share ? -1 : 1;
  }

  // Index of the deepest common ancestor in the two ancestor lists.
  size_t CommonLevel(QueueIndex l, QueueIndex r) const {
    const CapacityQueue* a = Find(l);
    const CapacityQueue* b = Find(r);
    if (a == nullptr || b == nullptr) return 0;
    size_t level = 0;
    for (size_t i = 0; i < std::min(a->ancestors.size(), b->ancestors.size()); ++i) {
      if (a->ancestors[i] != b->ancestors[i]) break;
      level = i;
    }
    return level;
  }

  int QueueOrder(QueueIndex l, QueueIndex r) const {
    const int32_t lp = s_->queue(l).spec.priority, rp = s_->queue(r).spec.priority;
    if (lp != rp) return lp > rp ? -1 : 1;
    const CapacityQueue* la = Find(l);
    const CapacityQueue* ra = Find(r);
    if (la == nullptr || ra == nullptr) return 0;
    if (!hierarchy_) return CompareShare(*la, *ra);
    const bool ll = la->children.empty(), rl = ra->children.empty();
    if (ll != rl) return ll ? -1 : 1;
    if (!ll) return CompareShare(*la, *ra);
    const size_t level = CommonLevel(l, r);
    const QueueIndex lq = level + 1 < la->ancestors.size() ? la->ancestors[level + 1] : l;
    const QueueIndex rq = level + 1 < ra->ancestors.size() ? ra->ancestors[level + 1] : r;
    return CompareShare(*Find(lq), *Find(rq));
  }

  // The queue and, in hierarchical mode, every ancestor, leaf first.
  std::vector<QueueIndex> Chain(QueueIndex q) const {
    std::vector<QueueIndex> out{q};
    if (hierarchy_) {
      const CapacityQueue* a = Find(q);
      for (auto it = a->ancestors.rbegin(); it != a->ancestors.rend(); ++it) out.push_back(*it);
    }
    return out;
  }

  bool Allocatable(QueueIndex q, TaskIndex t) const {
    if (!Open(q) || !ready_) {
      if (s_->explaining()) ExplainRefusal(s_->job_of(t), q, !ready_);
      return false;
    }
    if (Find(q) == nullptr) return false;
    if (hierarchy_ && !IsLeaf(q)) {
      if (s_->explaining()) ExplainNotLeaf(s_->job_of(t), q);
      return false;
    }
    for (QueueIndex c : Chain(q)) {
      const CapacityQueue& a = *Find(c);
      if (!FitsWithDimension(a.allocated, s_->task_resreq(t), a.real_capability)) {
        if (s_->explaining()) {
          s_->ExplainJob(s_->job_of(t), reason_code::kQueueCapabilityExceeded,
                         absl::StrCat("queue ", s_->queue(c).spec.name, " would pass its capability with task ",
                                      s_->task(t).key, " (capacity: allocated + request > capability)"),
                         LimitNumbers(*s_, a.allocated, s_->task_resreq(t), a.real_capability, "allocated", "capability"));
        }
        return false;
      }
    }
    return true;
  }

  // A closed queue, or a hierarchy capacity cannot use.
  void ExplainRefusal(JobIndex j, QueueIndex q, bool not_ready) const {
    if (not_ready) {
      s_->ExplainJob(j, reason_code::kQueueNotFound,
                     "capacity's queue hierarchy is unusable (no root queue, a missing parent or a cycle)",
                     {{"queue", s_->queue(q).spec.name}});
      return;
    }
    ExplainQueueClosed(*s_, j, q);
  }
  void ExplainNotLeaf(JobIndex j, QueueIndex q) const {
    s_->ExplainJob(j, reason_code::kQueueNotFound,
                   absl::StrCat("queue ", s_->queue(q).spec.name, " has child queues: jobs must sit in leaf queues"),
                   {{"queue", s_->queue(q).spec.name}});
  }

  Vote Enqueueable(JobIndex j) const {
    const JobInfo& job = s_->job(j);
    if (!ready_) {
      if (s_->explaining()) ExplainRefusal(j, job.queue, true);
      return Vote::kReject;
    }
    if (Find(job.queue) == nullptr) return Vote::kPermit;
    if (hierarchy_ && !IsLeaf(job.queue)) {
      if (s_->explaining()) ExplainNotLeaf(j, job.queue);
      return Vote::kReject;
    }
    if (!Open(job.queue)) {
      if (s_->explaining()) ExplainRefusal(j, job.queue, false);
      return Vote::kReject;
    }
    if (!job.has_min_resources) return Vote::kPermit;
    for (QueueIndex c : Chain(job.queue)) {
      const CapacityQueue& a = *Find(c);
      for (size_t d = 0; d < dims_; ++d) {
        const int64_t m = job.min_resources[static_cast<int>(d)];
        if (static_cast<int>(d) == kPods || m <= 0) continue;
        const double need = static_cast<double>(m) + a.allocated[d] + a.inqueue[d] - a.elastic[d];
        if (need > a.real_capability[d]) {
          if (s_->explaining()) {
            CheckNumbers numbers = AdmissionNumbers(*s_, job, a.allocated, a.inqueue, a.elastic, a.real_capability);
            std::string message = absl::StrCat(
                EventText("queue resource quota insufficient", "insufficient", numbers, ".minResources"), " (queue ",
                s_->queue(c).spec.name, ", capacity: minResources + allocated + inqueue - elastic > capability)");
            s_->ExplainJob(j, reason_code::kQueueCapabilityExceeded, std::move(message), std::move(numbers));
          }
          return Vote::kReject;
        }
      }
    }
    return Vote::kPermit;
  }

  void OnSessionClose(Session& ssn) override {
    if (!ssn.explaining()) return;
    for (const auto& [q, a] : queues_) {
      ssn.DescribeQueue(ViewOfQueue(ssn, q, "capacity", a.deserved, a.allocated, a.real_capability, a.guarantee,
                                    a.inqueue, a.share));
    }
  }

  // futureUsed <= deserved (within epsilon) on some requested dimension.
  bool PartlyWithinDeserved(const Amount& future, const CapacityQueue& a, const Resource& req) const {
    for (size_t d = 0; d < dims_; ++d) {
      if (static_cast<int>(d) == kPods || req[static_cast<int>(d)] <= 0) continue;
      if (future[d] < kEpsilon && a.deserved[d] < kEpsilon) continue;
      if (future[d] < a.deserved[d] || std::abs(future[d] - a.deserved[d]) < kEpsilon) return true;
    }
    return false;
  }

  bool Preemptive(QueueIndex q, absl::Span<const TaskIndex> tasks) const {
    if (!ready_ || !Open(q)) return false;
    const CapacityQueue* a = Find(q);
    if (a == nullptr) return false;
    Resource total(static_cast<int>(dims_));
    for (TaskIndex t : tasks) total += s_->task_resreq(t);
    Amount future = a->allocated;
    Add(future, total.span());
    if (!FitsWithDimension(a->allocated, total.span(), a->real_capability)) return false;
    if (PartlyWithinDeserved(future, *a, total)) return true;
    if (hierarchy_ && level_ > 0) {
      for (int64_t level = 1; level <= level_; ++level) {
        const QueueIndex anc = AncestorAtDepth(*a, level);
        if (anc == kNone || s_->queue(anc).spec.name == "root") continue;
        const CapacityQueue& aa = *Find(anc);
        Amount f = aa.allocated;
        Add(f, total.span());
        if (PartlyWithinDeserved(f, aa, total)) return true;
      }
    }
    return false;
  }

  static QueueIndex AncestorAtDepth(const CapacityQueue& a, int64_t depth) {
    if (depth <= 0 || static_cast<int64_t>(a.ancestors.size()) < depth) return kNone;
    return a.ancestors[a.ancestors.size() - static_cast<size_t>(depth)];
  }

  // Names with a value in both (pods included, as Volcano's Intersection).
  bool Intersects(absl::Span<const int64_t> req, const Amount& deserved) const {
    for (size_t d = 0; d < dims_; ++d) {
      if (static_cast<double>(req[d]) >= kEpsilon && deserved[d] >= kEpsilon) return true;
    }
    return false;
  }

  // allocated > deserved on a dimension the reclaimee requests and deserved defines.
  bool ExceedsOnRelevant(const Amount& allocated, const CapacityQueue& a, absl::Span<const int64_t> req) const {
    for (size_t d = 0; d < dims_; ++d) {
      if (static_cast<int>(d) == kPods || req[d] <= 0) continue;
      if (d < static_cast<size_t>(kPods)) {
        if (a.deserved[d] < kEpsilon) continue;
      } else if (!a.deserved_named[d]) {
        continue;
      }
      if (allocated[d] > a.deserved[d]) return true;
    }
    return false;
  }

  bool SharesNonRootAncestorWithinLevel(const CapacityQueue& a, const CapacityQueue& b) const {
    std::set<QueueIndex> mine;
    for (int64_t l = 1; l <= level_; ++l) {
      const QueueIndex x = AncestorAtDepth(a, l);
      if (x != kNone && s_->queue(x).spec.name != "root") mine.insert(x);
    }
    for (int64_t l = 1; l <= level_; ++l) {
      const QueueIndex y = AncestorAtDepth(b, l);
      if (y != kNone && mine.count(y)) return true;
    }
    return false;
  }

  std::pair<std::vector<TaskIndex>, Vote> Reclaimable(TaskIndex reclaimer, absl::Span<const TaskIndex> cands) const {
    std::vector<TaskIndex> victims;
    if (!ready_) return {victims, Vote::kReject};
    const JobIndex rj = s_->job_of(reclaimer);
    if (rj == kNone || Find(s_->queue_of(rj)) == nullptr) return {victims, Vote::kReject};
    const CapacityQueue& reclaimer_q = *Find(s_->queue_of(rj));
    std::map<QueueIndex, Amount> allocations;
    auto allocation = [&](QueueIndex q) -> Amount& {
      auto it = allocations.find(q);
      if (it == allocations.end()) it = allocations.emplace(q, Find(q)->allocated).first;
      return it->second;
    };
    const auto rreq = s_->task_resreq(reclaimer);
    for (TaskIndex v : InVictimOrder(*ssn_, reclaimer, std::vector<TaskIndex>(cands.begin(), cands.end()))) {
      const JobIndex vj = s_->job_of(v);
      if (vj == kNone) continue;
      const CapacityQueue* a = Find(s_->queue_of(vj));
      if (a == nullptr) continue;
      const auto vreq = s_->task_resreq(v);
      bool intersect = false;  // any shared dimension besides pods
      for (size_t d = 0; d < dims_; ++d) {
        if (static_cast<int>(d) != kPods && vreq[d] > 0 && rreq[d] > 0) intersect = true;
      }
      if (!intersect) continue;
      Amount& allocated = allocation(a->index);
      // Removing the victim must keep its queue at or above guarantee.
      bool keeps_guarantee = true;
      for (size_t d = 0; d < dims_; ++d) {
        if (d >= static_cast<size_t>(kFixedDims) && a->guarantee[d] <= 0) continue;
        const double after = allocated[d] - static_cast<double>(vreq[d]);
        if (!(a->guarantee[d] < after || std::abs(a->guarantee[d] - after) < kEpsilon)) keeps_guarantee = false;
      }
      if (!keeps_guarantee) continue;
      bool eligible = false;
      if (!Intersects(vreq, a->deserved)) {
        if (hierarchy_ && level_ > 0 && SharesNonRootAncestorWithinLevel(reclaimer_q, *a) &&
            !Intersects(rreq, reclaimer_q.deserved)) {
          continue;
        }
        eligible = true;
      } else {
        eligible = ExceedsOnRelevant(allocated, *a, vreq);
      }
      if (!eligible) continue;
      std::vector<QueueIndex> checked;
      bool ancestors_ok = true;
      if (hierarchy_ && level_ > 0) {
        for (int64_t level = 1; level <= level_; ++level) {
          const QueueIndex anc = AncestorAtDepth(*a, level);
          if (anc == kNone || s_->queue(anc).spec.name == "root") continue;
          if (AncestorAtDepth(reclaimer_q, level) == anc) continue;
          const CapacityQueue& aa = *Find(anc);
          Amount& anc_alloc = allocation(anc);
          checked.push_back(anc);
          if (!Intersects(vreq, aa.deserved)) continue;
          if (!ExceedsOnRelevant(anc_alloc, aa, vreq)) {
            ancestors_ok = false;
            break;
          }
        }
      }
      if (!ancestors_ok) continue;
      Sub(allocated, vreq);
      for (QueueIndex anc : checked) Sub(allocation(anc), vreq);
      victims.push_back(v);
    }
    return {victims, Vote::kPermit};
  }

  // gangpreempt: every candidate; gangreclaim: guarantee and deserved checks per victim
  // queue, without the dimension-intersection skip of task-level reclaim.
  std::pair<std::vector<TaskIndex>, Vote> UnifiedEvictable(EvictionKind kind, absl::Span<const TaskIndex> cands) const {
    if (kind == EvictionKind::kGangPreempt) return {std::vector<TaskIndex>(cands.begin(), cands.end()), Vote::kPermit};
    std::vector<TaskIndex> victims;
    if (!ready_) return {victims, Vote::kReject};
    std::map<QueueIndex, Amount> allocations;
    for (TaskIndex v : cands) {
      const JobIndex vj = s_->job_of(v);
      if (vj == kNone) continue;
      const CapacityQueue* a = Find(s_->queue_of(vj));
      if (a == nullptr) continue;
      auto it = allocations.find(a->index);
      if (it == allocations.end()) it = allocations.emplace(a->index, a->allocated).first;
      Amount& allocated = it->second;
      const auto vreq = s_->task_resreq(v);
      bool keeps_guarantee = true;
      for (size_t d = 0; d < dims_; ++d) {
        if (d >= static_cast<size_t>(kFixedDims) && a->guarantee[d] <= 0) continue;
        const double after = allocated[d] - static_cast<double>(vreq[d]);
        if (!(a->guarantee[d] < after || std::abs(a->guarantee[d] - after) < kEpsilon)) keeps_guarantee = false;
      }
      if (!keeps_guarantee) continue;
      if (!Intersects(vreq, a->deserved) || ExceedsOnRelevant(allocated, *a, vreq)) {
        Sub(allocated, vreq);
        victims.push_back(v);
      }
    }
    return {victims, Vote::kPermit};
  }

  void Update(TaskIndex t, bool add) {
    const JobIndex j = s_->job_of(t);
    if (j == kNone) return;
    CapacityQueue* a = Find(s_->queue_of(j));
    if (a == nullptr) return;
    auto apply = [&](Amount& x) { add ? Add(x, s_->task_resreq(t)) : Sub(x, s_->task_resreq(t)); };
    apply(a->allocated);
    a->share = Share(*a);
    if (hierarchy_) {
      for (QueueIndex anc : a->ancestors) apply(Find(anc)->allocated);
    }
  }

  int64_t level_;
  const Session* s_ = nullptr;
  Session* ssn_ = nullptr;
  size_t dims_ = 0;
  bool hierarchy_ = false;
  bool ready_ = true;
  std::map<QueueIndex, CapacityQueue> queues_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewCapacityPlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(int64_t level, args.GetInt("ancestorReclaimLevel", 0));
  if (level < 0) level = 0;  // Volcano falls back to 0
  for (const char* key : {"capacity.DynamicResourceAllocationEnable", "capacity.DRAConsumableCapacityEnable"}) {
    VCSCHED_RETURN_IF_ERROR(args.GetBool(key, false).status());
  }
  return std::unique_ptr<Plugin>(new CapacityPlugin(level));
}

}  // namespace vcsched::internal
