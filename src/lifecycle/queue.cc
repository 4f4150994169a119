#include "vcsched/lifecycle/queue.h"

#include <algorithm>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/match.h"
#include "src/lifecycle/field_reader.h"
#include "vcsched/lifecycle/names.h"
#include "vcsched/quantity.h"

namespace vcsched::lifecycle {

using internal::FieldReader;
using internal::Join;

namespace {

constexpr char kHierarchy[] = "volcano.sh/hierarchy";
constexpr char kHierarchyWeights[] = "volcano.sh/hierarchy-weights";

std::string ParentOf(const VolcanoQueue& q) {
  if (q.metadata.name == "root") return "";
  return q.parent.empty() ? "root" : q.parent;
}

// Milli-units of every resource of a list; unparsable entries are skipped (reported by
// the quantity check).
std::map<std::string, int64_t> Amounts(const std::map<std::string, std::string>& list) {
  std::map<std::string, int64_t> out;
  for (const auto& [name, text] : list) {
    if (absl::StatusOr<int64_t> v = ParseMilliValue(text); v.ok()) out[name] = *v;
  }
  return out;
}

std::string Show(const std::map<std::string, int64_t>& amounts) {
  std::vector<std::string> parts;
  for (const auto& [name, v] : amounts) parts.push_back(absl::StrCat(name, ": ", FormatMilli(v)));
  return absl::StrCat("<", absl::StrJoin(parts, ", "), ">");
}

// "Partly less": some resource named in `limit` is below `want`.
bool Exceeds(const std::map<std::string, int64_t>& want, const std::map<std::string, int64_t>& limit) {
  for (const auto& [name, v] : want) {
    auto it = limit.find(name);
    if (it != limit.end() && v > it->second) return true;
  }
  return false;
}

void CheckQuantities(const std::map<std::string, std::string>& list, const std::string& path, Findings& f) {
  for (const auto& [name, text] : list) {
    absl::StatusOr<int64_t> v = ParseMilliValue(text);
    if (!v.ok()) f.Error(Join(path, name), absl::StrCat("invalid quantity \"", text, "\""));
    else if (*v < 0) f.Error(Join(path, name), absl::StrCat("must be a non-negative quantity, got \"", text, "\""));
  }
}

int Depth(const VolcanoQueue& q, const std::vector<VolcanoQueue>& all) {
  int depth = 0;
  std::string at = ParentOf(q);
  std::set<std::string> seen;
  while (!at.empty() && seen.insert(at).second) {
    ++depth;
    const VolcanoQueue* p = FindQueue(all, at);
    at = p == nullptr ? "" : ParentOf(*p);
  }
  return depth;
}


void ValidateHierarchyAnnotations(const VolcanoQueue& q, const std::vector<VolcanoQueue>& others, Findings& f) {
  auto get = [&](const char* key) {
    auto it = q.metadata.annotations.find(key);
    return it == q.metadata.annotations.end() ? std::string() : it->second;
  };
  const std::string path = get(kHierarchy), weights = get(kHierarchyWeights);
  if (path.empty() && weights.empty()) return;
  const std::string at = "metadata.annotations";
  const std::vector<std::string> parts = absl::StrSplit(path, '/'), ws = absl::StrSplit(weights, '/');
  if (parts.size() != ws.size()) {
    f.Error(at, absl::StrCat(kHierarchy, " must have the same length with ", kHierarchyWeights));
  }
  for (const std::string& w : ws) {
    double d = 0;
    if (!absl::SimpleAtod(w, &d)) f.Error(at, absl::StrCat(w, " in the ", weights, " is invalid number"));
    else if (d <= 0) f.Error(at, absl::StrCat(w, " in the ", weights, " must be larger than 0"));
  }
  for (const VolcanoQueue& other : others) {
    auto it = other.metadata.annotations.find(kHierarchy);
    if (other.metadata.name == q.metadata.name || it == other.metadata.annotations.end() || it->second.empty()) continue;
    if (absl::StartsWith(it->second, path)) {
      f.Error(at, absl::StrCat(path, " is not allowed to be in the sub path of ", it->second, " of queue ",
                               other.metadata.name));
    }
  }
}

void ValidateParent(const VolcanoQueue& q, const std::vector<VolcanoQueue>& others, int max_depth, Findings& f) {
  if (q.parent.empty() || q.parent == "root") return;
  if (q.parent == q.metadata.name) {
    f.Error("spec.parent", absl::StrCat("queue ", q.metadata.name, " cannot use itself as parent"));
    return;
  }
  const VolcanoQueue* parent = FindQueue(others, q.parent);
  if (parent == nullptr) {
    f.Error("spec.parent", absl::StrCat("parent queue ", q.parent, " does not exist"));
    return;
  }
  // A chain of parents that comes back to this queue is a cycle; one that loops above
  // it is reported when the queues of that loop are validated.
  std::vector<std::string> chain = {q.metadata.name};
  std::set<std::string> seen = {q.metadata.name};
  for (std::string at = q.parent; !at.empty() && at != "root";) {
    chain.push_back(at);
    if (at == q.metadata.name) {
      f.Error("spec.parent", absl::StrCat("queue ", q.metadata.name, " is its own ancestor: the parents form a cycle (",
                                          absl::StrJoin(chain, " -> "), ")"));
      return;
    }
    if (!seen.insert(at).second) break;
    const VolcanoQueue* p = FindQueue(others, at);
    if (p == nullptr) break;
    at = ParentOf(*p);
  }
  std::vector<VolcanoQueue> all = others;
  if (FindQueue(all, q.metadata.name) == nullptr) all.push_back(q);
  if (const int depth = Depth(q, all); depth > max_depth) {
    f.Error("spec.parent", absl::StrCat("queue ", q.metadata.name, " would be at depth ", depth,
                                        ", over the maximum queue depth ", max_depth));
  }
  if (ChildQueues(parent->metadata.name, others).empty() && parent->allocated_pods > 0) {
    f.Error("spec.parent", absl::StrCat("parent queue ", q.parent, " has allocated pods and no child queues; ",
                                        "it cannot become a parent"));
  }
}

void ValidateResourceTree(const VolcanoQueue& q, const std::vector<VolcanoQueue>& others, Findings& f) {
  if (q.metadata.name == "root") return;
  std::vector<VolcanoQueue> all;
  for (const VolcanoQueue& o : others) {
    if (o.metadata.name != q.metadata.name) all.push_back(o);
  }
  all.push_back(q);
  // Capability must not exceed the nearest ancestor's that sets it.
  const auto cap = Amounts(q.capability);
  std::set<std::string> seen = {q.metadata.name};  // a parent cycle must not loop forever
  for (std::string at = ParentOf(q); !at.empty() && seen.insert(at).second;) {
    const VolcanoQueue* a = FindQueue(all, at);
    if (a == nullptr) break;
    const auto acap = Amounts(a->capability);
    for (const auto& [name, v] : cap) {
      auto it = acap.find(name);
      if (it != acap.end() && v > it->second) {
        f.Error(Join("spec.capability", name),
                absl::StrCat("queue capability (", FormatMilli(v), ") exceeds ancestor ", at, "'s capability (",
                             FormatMilli(it->second), ")"));
      }
    }
    if (!acap.empty()) break;
    at = ParentOf(*a);
  }
  // Sums of children against their parent, for the parent of this queue and for itself.
  auto check_children = [&](const VolcanoQueue& parent, const char* what,
                            std::map<std::string, std::string> VolcanoQueue::*field) {
    std::map<std::string, int64_t> sum;
    for (const VolcanoQueue* c : ChildQueues(parent.metadata.name, all)) {
      for (const auto& [name, v] : Amounts(c->*field)) sum[name] += v;
    }
    const auto limit = Amounts(parent.*field);
    if (!limit.empty() && Exceeds(sum, limit)) {
      f.Error(absl::StrCat("spec.", what), absl::StrCat("queue ", parent.metadata.name, ": sum of children's ", what,
                                                       " (", Show(sum), ") exceeds parent's ", what, " limit (",
                                                       Show(limit), ")"));
    }
  };
  const VolcanoQueue* parent = FindQueue(all, ParentOf(q));
  for (const VolcanoQueue* p : std::vector<const VolcanoQueue*>{parent, &all.back()}) {
    if (p == nullptr || p->metadata.name == "root") continue;
    check_children(*p, "guarantee", &VolcanoQueue::guarantee);
    check_children(*p, "deserved", &VolcanoQueue::deserved);
  }
}

}  // namespace

const VolcanoQueue* FindQueue(const std::vector<VolcanoQueue>& queues, const std::string& name) {
  for (const VolcanoQueue& q : queues) {
    if (q.metadata.name == name) return &q;
  }
  return nullptr;
}

std::vector<const VolcanoQueue*> ChildQueues(const std::string& name, const std::vector<VolcanoQueue>& all) {
  std::vector<const VolcanoQueue*> out;
  for (const VolcanoQueue& q : all) {
    if (q.metadata.name != name && ParentOf(q) == name) out.push_back(&q);
  }
  return out;
}

VolcanoQueue ReadQueue(const Value& doc, Findings* findings) {
  FieldReader r(findings);
  VolcanoQueue q;
  q.metadata = ReadObjectMeta(doc, findings);
  if (const Value* spec = r.Map(doc, "spec", "")) {
    q.weight = r.Int32(*spec, "weight", "spec").value_or(0);
    q.reclaimable = r.Bool(*spec, "reclaimable", "spec");
    q.parent = r.String(*spec, "parent", "spec").value_or("");
    q.capability = r.StringMap(*spec, "capability", "spec");
    q.deserved = r.StringMap(*spec, "deserved", "spec");
    if (const Value* g = r.Map(*spec, "guarantee", "spec")) q.guarantee = r.StringMap(*g, "resource", "spec.guarantee");
  }
  if (const Value* status = r.Map(doc, "status", "")) {
    q.state = r.String(*status, "state", "status").value_or("");
    if (const Value* alloc = r.Map(*status, "allocated", "status")) {
      if (auto pods = r.String(*alloc, "pods", "status.allocated")) {
        absl::StatusOr<int64_t> n = ParseValue(*pods);
        if (n.ok()) q.allocated_pods = *n;
      }
    }
  }
  return q;
}

void MutateQueue(VolcanoQueue& q) {
  if (!q.reclaimable.has_value()) q.reclaimable = true;
  if (q.weight == 0) q.weight = 1;
  auto& ann = q.metadata.annotations;
  auto h = ann.find(kHierarchy), w = ann.find(kHierarchyWeights);
  if (h != ann.end() && w != ann.end() && !absl::StartsWith(h->second, "root")) {
    h->second = absl::StrCat("root/", h->second);
    w->second = absl::StrCat("1/", w->second);
  }
}

Findings ValidateQueue(const VolcanoQueue& q, const std::vector<VolcanoQueue>& others, int max_depth) {
  Findings f;
  for (const std::string& p : Dns1123SubdomainProblems(q.metadata.name)) f.Error("metadata.name", p);
  if (q.weight <= 0) f.Error("spec.weight", "queue weight must be a positive integer");
  CheckQuantities(q.capability, "spec.capability", f);
  CheckQuantities(q.deserved, "spec.deserved", f);
  CheckQuantities(q.guarantee, "spec.guarantee.resource", f);
  const auto cap = Amounts(q.capability), des = Amounts(q.deserved), gua = Amounts(q.guarantee);
  // A guarantee is checked against deserved only where deserved is given at all: queues
  // with a guarantee and no deserved (the seeds' ml-team) are common and accepted.
  for (const auto& [name, g] : gua) {
    if (des.empty()) break;
    auto d = des.find(name);
    if (d == des.end()) {
      f.Error(Join("spec.deserved", name), absl::StrCat("deserved[", name, "] must be >= guarantee[", name, "]=",
                                                       FormatMilli(g)));
    } else if (d->second < g) {
      f.Error(Join("spec.deserved", name), absl::StrCat("deserved[", name, "]=", FormatMilli(d->second),
                                                       " must be >= guarantee[", name, "]=", FormatMilli(g)));
    }
  }
  for (const auto& [name, d] : des) {
    auto c = cap.find(name);
    if (c != cap.end() && d > c->second) {
      f.Error(Join("spec.deserved", name), absl::StrCat("deserved[", name, "]=", FormatMilli(d),
                                                       " must be <= capability[", name, "]=", FormatMilli(c->second)));
    }
  }
  if (!q.state.empty() && q.state != "Open" && q.state != "Closed") {
    f.Error("status.state", "queue state must be in [Open Closed]");
  }
  ValidateHierarchyAnnotations(q, others, f);
  ValidateParent(q, others, max_depth, f);
  ValidateResourceTree(q, others, f);
  return f;
}

Findings ValidateQueueDelete(const VolcanoQueue& q, const std::vector<VolcanoQueue>& others) {
  Findings f;
  if (q.metadata.name == "default" || q.metadata.name == "root") {
    f.Error("", absl::StrCat("`", q.metadata.name, "` queue can not be deleted"));
  }
  if (!ChildQueues(q.metadata.name, others).empty()) {
    f.Error("", absl::StrCat("queue ", q.metadata.name, " has child queues and can not be deleted"));
  }
  return f;
}

std::string NextQueueState(const std::string& state, const std::string& action, bool has_pod_groups) {
  const std::string closing_or_closed = has_pod_groups ? "Closing" : "Closed";
  const std::string s = state.empty() ? "Open" : state;
  if (action == "OpenQueue") return "Open";
  if (action == "CloseQueue") return s == "Closed" ? "Closed" : closing_or_closed;
  // SyncQueue
  if (s == "Closing") return closing_or_closed;
  return s;
}

absl::StatusOr<std::vector<QueueStateChange>> ApplyQueueAction(std::vector<VolcanoQueue>& queues,
                                                              const std::string& name, const std::string& action,
                                                              const std::map<std::string, int>& pod_groups) {
  constexpr char kClosedByParent[] = "volcano.sh/closed-by-parent";
  if (action != "OpenQueue" && action != "CloseQueue" && action != "SyncQueue") {
    return absl::InvalidArgumentError(absl::StrCat("unknown queue action \"", action, "\""));
  }
  auto find = [&](const std::string& n) -> VolcanoQueue* {
    for (VolcanoQueue& q : queues) {
      if (q.metadata.name == n) return &q;
    }
    return nullptr;
  };
  VolcanoQueue* target = find(name);
  if (target == nullptr) return absl::NotFoundError(absl::StrCat("queue \"", name, "\" not found"));
  auto state_of = [](const VolcanoQueue& q) { return q.state.empty() ? std::string("Open") : q.state; };
  auto busy = [&](const VolcanoQueue& q) {
    auto it = pod_groups.find(q.metadata.name);
    return it != pod_groups.end() && it->second > 0;
  };
  if (action == "OpenQueue") {
    if (const VolcanoQueue* parent = find(ParentOf(*target)); parent != nullptr && state_of(*parent) != "Open") {
      return absl::FailedPreconditionError(absl::StrCat("queue ", name, " cannot be opened while its parent ",
                                                        parent->metadata.name, " is ", state_of(*parent)));
    }
  }
  std::vector<QueueStateChange> out;
  auto set = [&](VolcanoQueue& q, const std::string& to, bool by_parent) {
    const std::string from = state_of(q);
    q.state = to;
    if (from != to) out.push_back({q.metadata.name, from, to, by_parent});
  };
  set(*target, NextQueueState(target->state, action, busy(*target)), false);
  if (action == "SyncQueue") return out;
  // Descendants, breadth first in name order.
  std::vector<std::string> frontier = {name};
  std::set<std::string> visited = {name};
  while (!frontier.empty()) {
    std::vector<std::string> next;
    for (const std::string& p : frontier) {
      for (const VolcanoQueue* c : ChildQueues(p, queues)) {
        if (visited.insert(c->metadata.name).second) next.push_back(c->metadata.name);
      }
    }
    std::sort(next.begin(), next.end());
    for (const std::string& n : next) {
      VolcanoQueue& q = *find(n);
      auto& ann = q.metadata.annotations;
      if (action == "CloseQueue" && state_of(q) == "Open") {
        ann[kClosedByParent] = "true";
        set(q, NextQueueState(q.state, "CloseQueue", busy(q)), true);
      } else if (action == "OpenQueue" && ann.count(kClosedByParent)) {
        ann.erase(kClosedByParent);
        set(q, "Open", true);
      }
    }
    frontier = std::move(next);
  }
  return out;
}

}  // namespace vcsched::lifecycle
