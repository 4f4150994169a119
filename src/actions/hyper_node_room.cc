#include "src/actions/hyper_node_room.h"

namespace vcsched::internal {

HyperNodeRoom::Amount HyperNodeRoom::NodeRoom(NodeIndex n, size_t d) const {
  return static_cast<Amount>(ssn_.node_idle(n)[d]) + ssn_.node_releasing(n)[d] - ssn_.node_pipelined(n)[d];
}

void HyperNodeRoom::Build() {
  const Snapshot& snap = ssn_.snapshot();
  dims_ = static_cast<size_t>(ssn_.dims());
  const size_t nodes = snap.nodes().size();
  node_room_.assign(nodes * dims_, 0);
  for (size_t n = 0; n < nodes; ++n) {
    for (size_t d = 0; d < dims_; ++d) node_room_[n * dims_ + d] = NodeRoom(static_cast<NodeIndex>(n), d);
  }
  holders_.assign(nodes, {});
  hyper_node_room_.assign(snap.hyper_nodes().size() * dims_, 0);
  for (const HyperNodeInfo& h : snap.hyper_nodes()) {
    Amount* room = &hyper_node_room_[static_cast<size_t>(h.index) * dims_];
    for (NodeIndex n : h.nodes) {
      holders_[static_cast<size_t>(n)].push_back(h.index);
      for (size_t d = 0; d < dims_; ++d) room[d] += node_room_[static_cast<size_t>(n) * dims_ + d];
    }
  }
  log_pos_ = ssn_.node_change_log().size();
  built_ = true;
}

void HyperNodeRoom::Sync() {
  const absl::Span<const NodeIndex> log = ssn_.node_change_log();
  for (; log_pos_ < log.size(); ++log_pos_) {
    const size_t n = static_cast<size_t>(log[log_pos_]);
    for (size_t d = 0; d < dims_; ++d) {
      const Amount now = NodeRoom(static_cast<NodeIndex>(n), d);
      const Amount delta = now - node_room_[n * dims_ + d];
      if (delta == 0) continue;
      node_room_[n * dims_ + d] = now;
      for (HyperNodeIndex h : holders_[n]) hyper_node_room_[static_cast<size_t>(h) * dims_ + d] += delta;
    }
  }
}

absl::Span<const HyperNodeRoom::Amount> HyperNodeRoom::Of(HyperNodeIndex hn) {
  if (!built_) Build();
  Sync();
  return absl::MakeConstSpan(&hyper_node_room_[static_cast<size_t>(hn) * dims_], dims_);
}

}  // namespace vcsched::internal
