// Node events, and the accounting behind timeline.csv and summary.json: resources held
// by pods and offered by nodes, in output units, integrated over time.
#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "src/simulate/simulator.h"
#include "src/util/status_macros.h"

namespace vcsched::simulate_internal {
namespace {

using State = PodSlot::State;

void AddTo(std::vector<double>& into, const std::vector<double>& amount, double sign) {
  for (size_t i = 0; i < into.size() && i < amount.size(); ++i) into[i] += sign * amount[i];
}

bool Covers(const std::vector<double>& capacity, const std::vector<double>& held) {
  for (size_t i = 0; i < capacity.size() && i < held.size(); ++i) {
    if (held[i] > capacity[i] + 1e-9) return false;
  }
  return true;
}

}  // namespace

absl::Status Simulator::SetupResources(const ScenarioObjects& cluster) {
  std::set<std::string> scalars;
  auto collect = [&](const ResourceList& list) {
    for (const auto& [name, _] : list) {
      if (name != "cpu" && name != "memory" && name != "pods") scalars.insert(name);
    }
  };
  for (const NodeSpec& n : cluster.nodes) collect(n.allocatable);
  for (const NodeEvent& e : workload_.nodes) {
    if (e.kind != NodeEvent::Kind::kAdd) continue;
    absl::StatusOr<ScenarioObjects> o = ReadObjectValue(e.manifest, e.where);
    if (o.ok()) {
      for (const NodeSpec& n : o->nodes) collect(n.allocatable);
    }
  }
  resources_ = {"cpu", "memory"};
  scale_ = {1e-3, 1.0 / (1024.0 * 1024 * 1024)};  // millicores -> cores, bytes -> GiB
  for (const std::string& s : scalars) {
    resources_.push_back(s);
    scale_.push_back(1e-3);  // scalars are stored in milli-units
  }
  allocated_.assign(resources_.size(), 0);
  capacity_.assign(resources_.size(), 0);
  allocated_area_.assign(resources_.size(), 0);
  capacity_area_.assign(resources_.size(), 0);
  goodput_.assign(resources_.size(), 0);
  goodput_area_.assign(resources_.size(), 0);
  for (const auto& [_, n] : cluster_.nodes()) AddTo(capacity_, CapacityOf(n), 1);
  // Pods of the cluster file: those on a node hold its resources for the whole run.
  absl::StatusOr<Snapshot> snapshot = cluster_.Snapshot();
  if (!snapshot.ok()) return snapshot.status();
  for (const auto& [key, pod] : cluster_.pods()) {
    const PodSpec& p = *pod;
    if (p.phase == "Running") ++running_pods_;
    else if (p.phase == "Pending") ++pending_pods_;
    if (!p.node_name.empty() && (p.phase == "Running" || p.phase == "Pending")) HoldForeign(*snapshot, key);
  }
  return absl::OkStatus();
}

std::vector<double> Simulator::CapacityOf(const NodeSpec& node) const {
  std::vector<double> out(resources_.size(), 0);
  for (size_t i = 0; i < resources_.size(); ++i) {
    auto it = node.allocatable.find(resources_[i]);
    if (it != node.allocatable.end()) out[i] = static_cast<double>(it->second) * scale_[i];
  }
  return out;
}

std::vector<double> Simulator::RequestOf(const Snapshot& snapshot, absl::string_view pod_key) const {
  std::vector<double> out(resources_.size(), 0);
  const std::optional<TaskIndex> t = snapshot.FindTask(pod_key);
  if (!t) return out;
  const Resource& request = snapshot.tasks()[static_cast<size_t>(*t)].resreq;
  for (size_t i = 0; i < resources_.size(); ++i) {
    if (const int d = snapshot.space().Find(resources_[i]); d >= 0) out[i] = static_cast<double>(request[d]) * scale_[i];
  }
  return out;
}

void Simulator::HoldForeign(const Snapshot& snapshot, absl::string_view pod_key) {
  std::vector<double>& held = foreign_held_[pod_key];
  AddTo(allocated_, held, -1);  // bound again: counted once
  held = RequestOf(snapshot, pod_key);
  AddTo(allocated_, held, 1);
}

void Simulator::ReleaseForeign(absl::string_view pod_key) {
  auto it = foreign_held_.find(pod_key);
  if (it == foreign_held_.end()) return;
  AddTo(allocated_, it->second, -1);
  foreign_held_.erase(it);
}

void Simulator::Hold(int j, PodSlot& slot, bool hold) {
  if (slot.holds == hold) return;
  slot.holds = hold;
  const double sign = hold ? 1 : -1;
  SimJob& job = jobs_[static_cast<size_t>(j)];
  const auto q = static_cast<size_t>(job.queue_index);
  AddTo(allocated_, slot.request, sign);
  AddTo(job.held, slot.request, sign);
  AddTo(queue_held_[q], slot.request, sign);
  if (job.productive) {
    AddTo(goodput_, slot.request, sign);
    AddTo(queue_goodput_[q], slot.request, sign);
  }
}

void Simulator::SyncGoodput(int j) {
  SimJob& job = jobs_[static_cast<size_t>(j)];
  const bool productive = job.at_barrier_since >= 0;
  if (productive == job.productive) return;
  job.productive = productive;
  const double sign = productive ? 1 : -1;
  AddTo(goodput_, job.held, sign);
  AddTo(queue_goodput_[static_cast<size_t>(job.queue_index)], job.held, sign);
}

int Simulator::QueueIndex(const std::string& queue) {
  auto [it, added] = queue_index_.try_emplace(queue, static_cast<int64_t>(queue_names_.size()));
  if (added) {
    queue_names_.push_back(queue);
    for (auto* v : {&queue_held_, &queue_goodput_, &queue_held_area_, &queue_goodput_area_}) {
      v->emplace_back(resources_.size(), 0.0);
    }
  }
  return static_cast<int>(it->second);
}

void Simulator::Account(int64_t until_ms) {
  if (until_ms <= accounted_ms_) return;
  const double dt = static_cast<double>(until_ms - accounted_ms_);
  for (size_t i = 0; i < resources_.size(); ++i) {
    allocated_area_[i] += allocated_[i] * dt;
    capacity_area_[i] += capacity_[i] * dt;
    goodput_area_[i] += goodput_[i] * dt;
  }
  for (size_t q = 0; q < queue_held_.size(); ++q) {
    for (size_t i = 0; i < resources_.size(); ++i) {
      queue_held_area_[q][i] += queue_held_[q][i] * dt;
      queue_goodput_area_[q][i] += queue_goodput_[q][i] * dt;
    }
  }
  accounted_ms_ = until_ms;
}

void Simulator::AddTimelineRow() {
  const size_t n = resources_.size();
  SeriesColumns& t = timeline_;
  if (last_row_ms_ != now_ms_ || t.time_s.empty()) {  // else one row per moment: its last state
    t.time_s.push_back(0);
    t.counts.resize(t.counts.size() + 2);
    t.amounts.resize(t.amounts.size() + 3 * n);
  }
  t.time_s.back() = static_cast<double>(now_ms_) / 1000;
  t.counts[t.counts.size() - 2] = pending_pods_;
  t.counts[t.counts.size() - 1] = running_pods_;
  double* row = t.amounts.data() + (t.amounts.size() - 3 * n);
  std::copy(allocated_.begin(), allocated_.end(), row);
  std::copy(capacity_.begin(), capacity_.end(), row + n);
  std::copy(goodput_.begin(), goodput_.end(), row + 2 * n);
  last_row_ms_ = now_ms_;
}

void Simulator::MakeSeriesRows() {
  const size_t n = resources_.size();
  const auto amounts = [n](const SeriesColumns& c, size_t row, size_t half) {
    const double* at = c.amounts.data() + row * 3 * n + half * n;
    return std::vector<double>(at, at + n);
  };
  result_.timeline.reserve(timeline_.time_s.size());
  for (size_t i = 0; i < timeline_.time_s.size(); ++i) {
    TimelineRow& row = result_.timeline.emplace_back();
    row.time_s = timeline_.time_s[i];
    row.pending_pods = timeline_.counts[2 * i];
    row.running_pods = timeline_.counts[2 * i + 1];
    row.allocated = amounts(timeline_, i, 0);
    row.capacity = amounts(timeline_, i, 1);
    row.goodput = amounts(timeline_, i, 2);
  }
  timeline_ = SeriesColumns();
  result_.queues.reserve(queue_series_.time_s.size());
  for (size_t i = 0; i < queue_series_.time_s.size(); ++i) {
    QueueRow& row = result_.queues.emplace_back();
    row.time_s = queue_series_.time_s[i];
    row.queue = queue_names_[static_cast<size_t>(queue_series_.counts[i])];
    row.share = queue_series_.share[i];
    row.allocated = amounts(queue_series_, i, 0);
    row.deserved = amounts(queue_series_, i, 1);
    row.goodput = amounts(queue_series_, i, 2);
  }
  queue_series_ = SeriesColumns();
}

absl::Status Simulator::NodeEventAt(int i) {
  const NodeEvent& e = workload_.nodes[static_cast<size_t>(i)];
  if (e.kind == NodeEvent::Kind::kAdd) {
    absl::StatusOr<ScenarioObjects> o = ReadObjectValue(e.manifest, e.where + ".add");
    if (!o.ok()) return o.status();
    for (NodeSpec& n : o->nodes) {
      const std::vector<double> offered = CapacityOf(n);
      if (auto old = cluster_.nodes().find(n.name); old != cluster_.nodes().end()) {
        // A replacement that offers less than its pods hold loses them, as a removed node
        // does: what is allocated never exceeds what is offered.
        if (Covers(offered, HeldOn(n.name))) AddTo(capacity_, CapacityOf(old->second), -1);
        else VCSCHED_RETURN_IF_ERROR(RemoveNode(n.name));
      }
      AddTo(capacity_, offered, 1);
      VCSCHED_RETURN_IF_ERROR(cluster_.PutNode(std::move(n)));
    }
    return absl::OkStatus();
  }
  auto node = cluster_.nodes().find(e.node);
  if (node == cluster_.nodes().end()) {
    result_.notes.push_back(absl::StrCat(e.where, ": node ", e.node, " does not exist ", Where(), "; nothing done"));
    return absl::OkStatus();
  }
  if (e.kind == NodeEvent::Kind::kCordon || e.kind == NodeEvent::Kind::kUncordon) {
    NodeSpec n = node->second;
    n.unschedulable = e.kind == NodeEvent::Kind::kCordon;
    return cluster_.PutNode(std::move(n));
  }
  return RemoveNode(e.node);
}

std::vector<double> Simulator::HeldOn(const std::string& node) const {
  std::vector<double> held(resources_.size(), 0);
  for (const auto& [key, pod] : cluster_.pods()) {
    if (pod->node_name != node) continue;
    if (auto it = slot_of_pod_.find(key); it != slot_of_pod_.end()) {
      const PodSlot& slot = jobs_[static_cast<size_t>(it->second.first)].pods[static_cast<size_t>(it->second.second)];
      if (slot.holds) AddTo(held, slot.request, 1);
    } else if (auto f = foreign_held_.find(key); f != foreign_held_.end()) {
      AddTo(held, f->second, 1);
    }
  }
  return held;
}

// The node's pods are gone with it; their jobs hear PodEvicted.
absl::Status Simulator::RemoveNode(const std::string& name) {
  auto node = cluster_.nodes().find(name);
  if (node == cluster_.nodes().end()) return absl::OkStatus();
  std::vector<std::pair<int, int>> lost;
  std::vector<std::pair<std::string, std::string>> foreign;
  for (const auto& [key, pod] : cluster_.pods()) {
    if (pod->node_name != name) continue;
    auto it = slot_of_pod_.find(key);
    if (it != slot_of_pod_.end()) lost.push_back(it->second);
    else foreign.emplace_back(pod->namespace_, pod->name);
  }
  for (const auto& [ns, pod_name] : foreign) {
    const std::string key = absl::StrCat(ns, "/", pod_name);
    const std::string& phase = cluster_.pods().find(key)->second->phase;
    if (phase == "Running") --running_pods_;
    else if (phase == "Pending") --pending_pods_;
    ReleaseForeign(key);
    (void)cluster_.DeletePod(ns, pod_name);
  }
  AddTo(capacity_, CapacityOf(node->second), -1);
  VCSCHED_RETURN_IF_ERROR(cluster_.DeleteNode(name));
  for (const auto& [j, s] : lost) {
    PodSlot& slot = jobs_[static_cast<size_t>(j)].pods[static_cast<size_t>(s)];
    const State was = slot.state;
    if (was != State::kBound && was != State::kRunning && was != State::kReleasing && was != State::kDone) continue;
    if (was == State::kBound) --pending_pods_;
    if (was == State::kBound || was == State::kRunning) ++result_.evictions;
    Hold(j, slot, false);
    if (was == State::kRunning) PodStopped(j, s, true);
    (void)cluster_.DeletePod(slot.spec.namespace_, slot.name);
    const bool tell = was == State::kBound || was == State::kRunning || (was == State::kReleasing && slot.evicted);
    slot.state = State::kAbsent;
    slot.evicted = false;
    ++slot.incarnation;
    SimJob& job = jobs_[static_cast<size_t>(j)];
    if (tell && !job.finished) {
      CatchUpClock(j);
      VCSCHED_RETURN_IF_ERROR(Deliver(j, job.controller->EvictPod(slot.name)));
    }
  }
  return absl::OkStatus();
}

}  // namespace vcsched::simulate_internal
