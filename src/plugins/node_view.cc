#include "src/plugins/node_view.h"

#include <algorithm>

#include "src/model/k8s_match.h"

namespace vcsched::internal {

NodeView::NodeView(const Session& ssn) : ssn_(&ssn), dims_(ssn.dims()) {
  // A task moved since the session opened: the view starts from where tasks are now.
  if (!ssn.node_change_log().empty()) Place(false);
}

void NodeView::Place(bool as_opened) {
  totals_built_ = lists_built_ = true;
  const Session& ssn = *ssn_;
  const size_t n = static_cast<size_t>(ssn.num_nodes());
  const size_t tasks = static_cast<size_t>(ssn.num_tasks());
  SizeTotals(n, tasks);
  SizeLists(n, tasks);
  // As opened, the session placed each task where the snapshot has it (Session's
  // constructor); the view's changes since are the event handlers' Add and Remove.
  const auto node_of = [&](TaskIndex t) {
    if (!as_opened) return ssn.task_node(t);
    const TaskInfo& info = ssn.task(t);
    return info.status == TaskStatus::kPending ? kNone : info.node;
  };
  const auto holds_node = [&](TaskIndex t) {
    const TaskStatus s = as_opened ? ssn.task(t).status : ssn.task_status(t);
    return node_of(t) != kNone && s != TaskStatus::kPending && s != TaskStatus::kSucceeded && s != TaskStatus::kFailed;
  };
  std::vector<NodeIndex> where(tasks, kNone);
  for (TaskIndex t = 0; t < static_cast<TaskIndex>(tasks); ++t) {
    if (holds_node(t)) where[static_cast<size_t>(t)] = node_of(t);
  }
  PlaceListsAt(where);
  for (TaskIndex t = 0; t < static_cast<TaskIndex>(tasks); ++t) {
    if (where[static_cast<size_t>(t)] != kNone) CountIn(t, where[static_cast<size_t>(t)]);
  }
}

void NodeView::PlaceTotals() {
  const Session& ssn = *ssn_;
  // A task moved since the opening: the snapshot's records are the opening's.
  if (!ssn.node_change_log().empty()) {
    Place(true);
    return;
  }
  // Nothing moved: the session's columns are the opening's placement. (A task without
  // a node that changed status is not logged, but it holds no node either way.)
  totals_built_ = true;
  const size_t tasks = static_cast<size_t>(ssn.num_tasks());
  SizeTotals(static_cast<size_t>(ssn.num_nodes()), tasks);
  for (TaskIndex t = 0; t < static_cast<TaskIndex>(tasks); ++t) {
    const NodeIndex n = ssn.task_node(t);
    if (n == kNone) continue;
    const TaskStatus s = ssn.task_status(t);
    if (s == TaskStatus::kPending || s == TaskStatus::kSucceeded || s == TaskStatus::kFailed) continue;
    CountIn(t, n);
  }
}

void NodeView::PlaceLists() {
  Totals();
  if (lists_built_) return;  // Place(true) made both
  lists_built_ = true;
  // Where each task stood at the opening: the log undone from where tasks are now.
  std::vector<NodeIndex> where(node_of_);
  for (auto c = log_.rbegin(); c != log_.rend(); ++c) where[static_cast<size_t>(c->task)] = c->added ? kNone : c->node;
  SizeLists(static_cast<size_t>(ssn_->num_nodes()), where.size());
  PlaceListsAt(where);
  for (const Change& c : log_) {
    if (c.added) ListAdd(c.task, c.node);
    else ListRemove(c.task, c.node);
  }
}

void NodeView::SizeTotals(size_t nodes, size_t tasks) {
  count_.assign(nodes, 0);
  nonzero_cpu_.assign(nodes, 0);
  nonzero_mem_.assign(nodes, 0);
  requested_.assign(nodes * static_cast<size_t>(dims_), 0);
  node_of_.assign(tasks, kNone);
  with_affinity_count_ = 0;
}

void NodeView::SizeLists(size_t nodes, size_t tasks) {
  pods_.clear();
  pods_.reserve(nodes);
  for (size_t i = 0; i < nodes; ++i) pods_.emplace_back(&arena_);
  slot_.assign(tasks, -1);
  ever_.assign(tasks, 0);
  terms_indexed_.assign(tasks, 0);
  with_affinity_.clear();
  ever_placed_.clear();
}

void NodeView::PlaceListsAt(const std::vector<NodeIndex>& where) {
  // Each node's list and the placed list sized once, not grown pod by pod.
  std::vector<int32_t> per_node(pods_.size(), 0);
  size_t placed = 0;
  for (const NodeIndex n : where) {
    if (n == kNone) continue;
    ++per_node[static_cast<size_t>(n)];
    ++placed;
  }
  for (size_t i = 0; i < pods_.size(); ++i) pods_[i].reserve(static_cast<size_t>(per_node[i]));
  ever_placed_.reserve(placed);
  for (size_t t = 0; t < where.size(); ++t) {
    if (where[t] != kNone) ListAdd(static_cast<TaskIndex>(t), where[t]);
  }
}

std::vector<NodeView::Placement> NodeView::AsOf(int64_t seq) const {
  Totals();
  std::vector<NodeIndex> where(node_of_);
  if (seq >= 0) {
    for (int64_t i = static_cast<int64_t>(log_.size()) - 1; i >= seq; --i) {
      const Change& c = log_[static_cast<size_t>(i)];
      where[static_cast<size_t>(c.task)] = c.added ? kNone : c.node;
    }
  }
  std::vector<Placement> out;
  for (size_t t = 0; t < where.size(); ++t) {
    if (where[t] != kNone) out.push_back({static_cast<TaskIndex>(t), where[t]});
  }
  return out;
}

void NodeView::Add(TaskIndex t, NodeIndex n) {
  Totals();
  if (node_of_[static_cast<size_t>(t)] != kNone) Remove(t);
  log_.push_back({t, n, true});
  CountIn(t, n);
  if (lists_built_) ListAdd(t, n);
}

void NodeView::Remove(TaskIndex t) {
  Totals();
  const NodeIndex n = node_of_[static_cast<size_t>(t)];
  if (n == kNone) return;
  log_.push_back({t, n, false});
  CountOut(t, n);
  if (lists_built_) ListRemove(t, n);
}

void NodeView::CountIn(TaskIndex t, NodeIndex n) {
  const size_t ni = static_cast<size_t>(n);
  node_of_[static_cast<size_t>(t)] = n;
  ++count_[ni];
  nonzero_cpu_[ni] = SaturatingAdd(nonzero_cpu_[ni], ssn_->task_nonzero_cpu(t));
  nonzero_mem_[ni] = SaturatingAdd(nonzero_mem_[ni], ssn_->task_nonzero_memory(t));
  const int64_t* req = ssn_->task_resreq(t).data();
  int64_t* row = requested_.data() + ni * static_cast<size_t>(dims_);
  for (int d = 0; d < dims_; ++d) row[d] = SaturatingAdd(row[d], req[d]);
  if (ssn_->task_flags(t) & kTaskPodAffinityTerms) ++with_affinity_count_;
}

void NodeView::CountOut(TaskIndex t, NodeIndex n) {
  const size_t ni = static_cast<size_t>(n);
  node_of_[static_cast<size_t>(t)] = kNone;
  --count_[ni];
  nonzero_cpu_[ni] = SaturatingSub(nonzero_cpu_[ni], ssn_->task_nonzero_cpu(t));
  nonzero_mem_[ni] = SaturatingSub(nonzero_mem_[ni], ssn_->task_nonzero_memory(t));
  const int64_t* req = ssn_->task_resreq(t).data();
  int64_t* row = requested_.data() + ni * static_cast<size_t>(dims_);
  for (int d = 0; d < dims_; ++d) row[d] = SaturatingSub(row[d], req[d]);
  if (ssn_->task_flags(t) & kTaskPodAffinityTerms) --with_affinity_count_;
}

void NodeView::ListAdd(TaskIndex t, NodeIndex n) {
  const size_t ti = static_cast<size_t>(t);
  auto& list = pods_[static_cast<size_t>(n)];
  slot_[ti] = static_cast<int32_t>(list.size());
  list.push_back(t);
  if (ssn_->task_flags(t) & kTaskPodAffinityTerms) {
    with_affinity_.insert(std::lower_bound(with_affinity_.begin(), with_affinity_.end(), t), t);
    if (term_index_built_) IndexTerms(t);
  }
  if (!ever_[ti]) {
    ever_[ti] = 1;
    ever_placed_.push_back(t);
    if (label_index_built_) IndexLabels(t);
  }
}

void NodeView::ListRemove(TaskIndex t, NodeIndex n) {
  const size_t ti = static_cast<size_t>(t);
  auto& list = pods_[static_cast<size_t>(n)];
  const int32_t slot = slot_[ti];
  const TaskIndex moved = list.back();
  list[static_cast<size_t>(slot)] = moved;
  slot_[static_cast<size_t>(moved)] = slot;
  list.pop_back();
  slot_[ti] = -1;
  auto it = std::lower_bound(with_affinity_.begin(), with_affinity_.end(), t);
  if (it != with_affinity_.end() && *it == t) with_affinity_.erase(it);
}

void NodeView::IndexLabels(TaskIndex t) {
  std::string key;
  for (const auto& [k, v] : ssn_->task(t).pod->labels) {
    key.assign(k);
    key.push_back('\0');
    key.append(v);
    by_label_[key].push_back(t);
  }
}

const PodSpec& NodeView::PodOf(TaskIndex t) const { return *ssn_->task(t).pod; }

bool NodeView::Selects(const PlacedTerm& pt, TaskIndex t, const PodSpec& pod, bool via_label) const {
  if (pt.owner == t || node_of_[static_cast<size_t>(pt.owner)] == kNone) return false;
  return via_label ? internal::PodWithRequiredLabelMatchesTerm(*pt.term, PodOf(pt.owner), pod)
                   : internal::PodMatchesTerm(*pt.term, PodOf(pt.owner), pod);
}

void NodeView::IndexTerms(TaskIndex t) {
  if (terms_indexed_[static_cast<size_t>(t)]) return;
  terms_indexed_[static_cast<size_t>(t)] = 1;
  const Affinity& a = PodOf(t).affinity;
  std::string key, value;
  const auto add = [&](const PodAffinityTerm& term, TermKind kind, int32_t weight) {
    if (!term.has_label_selector) return;  // selects no pod
    const PlacedTerm pt{t, &term, kind, weight};
    if (!internal::SelectorRequiredLabel(term.label_selector, &key, &value)) {
      terms_any_label_.push_back(pt);
      return;
    }
    key.push_back('\0');
    key.append(value);
    terms_by_label_[key].push_back(pt);
  };
  for (const PodAffinityTerm& term : a.required_pod_affinity) add(term, TermKind::kRequiredAffinity, 0);
  for (const PodAffinityTerm& term : a.required_pod_anti_affinity) add(term, TermKind::kRequiredAntiAffinity, 0);
  for (const WeightedPodAffinityTerm& wt : a.preferred_pod_affinity) {
    add(wt.term, TermKind::kPreferredAffinity, wt.weight);
  }
  for (const WeightedPodAffinityTerm& wt : a.preferred_pod_anti_affinity) {
    add(wt.term, TermKind::kPreferredAntiAffinity, wt.weight);
  }
}

void NodeView::BuildTermIndex() {
  if (term_index_built_) return;
  term_index_built_ = true;
  for (TaskIndex o : with_affinity_) IndexTerms(o);
}

bool NodeView::AnyPlacedTermSelects(TaskIndex t) {
  // Asked by predicates and nodeorder in turn for the same task and placement.
  if (t == selects_task_ && seq() == selects_seq_) return selects_;
  selects_ = ForEachPlacedTermSelecting(t, [](const PlacedTerm&) { return true; });
  selects_task_ = t;
  selects_seq_ = seq();
  return selects_;
}

const std::vector<TaskIndex>* NodeView::PodsWithLabel(absl::string_view key, absl::string_view value) {
  Lists();
  if (!label_index_built_) {
    label_index_built_ = true;
    for (TaskIndex t : ever_placed_) IndexLabels(t);
  }
  std::string k(key);
  k.push_back('\0');
  k.append(value.data(), value.size());
  auto it = by_label_.find(k);
  return it == by_label_.end() ? nullptr : &it->second;
}

const NodeView::Domains& NodeView::DomainsOf(const std::string& key) const {
  std::unique_ptr<Domains>& slot = domains_[key];
  if (slot) return *slot;
  slot = std::make_unique<Domains>();
  Domains& d = *slot;
  d.of_node.assign(ssn_->snapshot().nodes().size(), -1);
  absl::flat_hash_map<absl::string_view, int32_t> ids;
  for (const NodeInfo& node : ssn_->snapshot().nodes()) {
    auto v = node.spec.labels.find(key);
    if (v == node.spec.labels.end()) continue;
    auto [it, added] = ids.try_emplace(v->second, static_cast<int32_t>(d.value.size()));
    if (added) d.value.push_back(&v->second);
    d.of_node[static_cast<size_t>(node.index)] = it->second;
  }
  d.start.assign(d.value.size() + 1, 0);
  for (int32_t id : d.of_node) {
    if (id >= 0) ++d.start[static_cast<size_t>(id) + 1];
  }
  for (size_t i = 1; i < d.start.size(); ++i) d.start[i] += d.start[i - 1];
  d.nodes.resize(static_cast<size_t>(d.start.back()));
  std::vector<int32_t> next(d.start.begin(), d.start.end() - 1);
  for (size_t n = 0; n < d.of_node.size(); ++n) {
    const int32_t id = d.of_node[n];
    if (id >= 0) d.nodes[static_cast<size_t>(next[static_cast<size_t>(id)]++)] = static_cast<NodeIndex>(n);
  }
  return d;
}

}  // namespace vcsched::internal
