// Free room (idle + releasing - pipelined) summed over each HyperNode's nodes, kept
// current by replaying the session's node change log, so that the topology search can
// ask it of every candidate HyperNode of every job without walking their nodes.
#ifndef VCSCHED_SRC_ACTIONS_HYPER_NODE_ROOM_H_
#define VCSCHED_SRC_ACTIONS_HYPER_NODE_ROOM_H_

#include <cstddef>
#include <vector>

#include "absl/types/span.h"
#include "vcsched/session.h"

namespace vcsched::internal {

class HyperNodeRoom {
 public:
  // 128 bits: a sum of huge nodes must not wrap.
  __extension__ typedef __int128 Amount;

  explicit HyperNodeRoom(const Session& ssn) : ssn_(ssn) {}

  // Per resource dimension, hn's room now.
  absl::Span<const Amount> Of(HyperNodeIndex hn);

 private:
  void Build();
  void Sync();
  Amount NodeRoom(NodeIndex n, size_t d) const;

  const Session& ssn_;
  bool built_ = false;
  size_t dims_ = 0;
  size_t log_pos_ = 0;  // how much of the node change log is counted
  std::vector<Amount> node_room_;                     // nodes x dims, as counted
  std::vector<Amount> hyper_node_room_;               // HyperNodes x dims
  std::vector<std::vector<HyperNodeIndex>> holders_;  // per node: the HyperNodes that list it
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_HYPER_NODE_ROOM_H_
