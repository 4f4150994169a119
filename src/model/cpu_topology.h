// CPU sets and the kubelet's CPU topology arithmetic as Volcano's numa-aware plugin uses
// them: CPU lists ("0-3,8"), the CPUs of NUMA nodes, sockets and cores, the CPU manager's
// takeByTopology, the CPU hint provider and the topology manager's policies (kubelet code
// vendored by Volcano HEAD, Kubernetes v1.36.1).
#ifndef VCSCHED_SRC_MODEL_CPU_TOPOLOGY_H_
#define VCSCHED_SRC_MODEL_CPU_TOPOLOGY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/policy.h"

namespace vcsched::internal {

using CpuSet = std::set<int32_t>;
using CpuDetails = std::map<int32_t, NumaCpuSpec>;

// Go's cpuset.Parse: comma-separated ids and inclusive ranges "a-b" (a <= b); "" is empty.
absl::StatusOr<CpuSet> ParseCpuList(absl::string_view text);
// The inverse, as cpuset.String writes it: runs of consecutive ids as ranges ("0-3,8").
std::string FormatCpuList(const CpuSet& cpus);

CpuSet Difference(const CpuSet& a, const CpuSet& b);
CpuSet Union(const CpuSet& a, const CpuSet& b);

// Queries over CPU details (all of a node's CPUs, or those still free).
CpuSet CpusOf(const CpuDetails& d);
CpuSet NumaNodesOf(const CpuDetails& d);
CpuSet SocketsOf(const CpuDetails& d);
CpuSet CoresOf(const CpuDetails& d);
CpuSet CpusInNumaNodes(const CpuDetails& d, const CpuSet& numa_nodes);
CpuSet CpusInSockets(const CpuDetails& d, const CpuSet& sockets);
// Core ids are matched alone (not with their socket), as the kubelet matches them.
CpuSet CpusInCores(const CpuDetails& d, const CpuSet& cores);
CpuSet CoresInSockets(const CpuDetails& d, const CpuSet& sockets);
CpuDetails KeepOnly(const CpuDetails& d, const CpuSet& cpus);

struct CpuTopology {
  explicit CpuTopology(const CpuDetails& details);
  CpuDetails details;
  int num_cpus = 0;
  int num_cores = 0;  // distinct (socket, core) pairs
  int num_sockets = 0;
  int CpusPerCore() const { return num_cores == 0 ? 0 : num_cpus / num_cores; }
  int CpusPerSocket() const { return num_sockets == 0 ? 0 : num_cpus / num_sockets; }
};

// The CPU manager's takeByTopology: whole sockets, then whole cores, then single CPUs,
// from `available`; nullopt when they are too few.
std::optional<CpuSet> TakeByTopology(const CpuTopology& topo, const CpuSet& available, int count);

// A topology hint: a set of NUMA nodes (bits; none: no preference) and whether it is one
// of the narrowest that could hold the request.
struct NumaHint {
  std::optional<uint64_t> mask;
  bool preferred = false;
};

// The CPU hint provider for one container: nullopt when it has no preference (no integral
// CPU request, or the node has no cpu resource set), else every set of NUMA nodes whose
// free CPUs hold `request` (possibly none), the narrowest ones preferred.
std::vector<NumaHint> CpuTopologyHints(const CpuSet& available, const CpuDetails& details, int request);

// The topology manager's policies (TopologyManagerPolicy: none, best-effort, restricted,
// single-numa-node; any other name acts as none): the best merge of one hint per
// resource (each resource's hint list; nullopt: no preference) and whether the policy
// admits it.
struct PolicyVerdict {
  NumaHint best;
  bool admit = true;
};
PolicyVerdict ApplyTopologyPolicy(absl::string_view policy, const CpuSet& numa_nodes,
                                  const std::vector<std::optional<std::vector<NumaHint>>>& resources);

// The CPUs the CPU manager would give a container asking `request` whole CPUs under
// `best` from `available`: first from the hint's NUMA nodes, then from the rest. Empty
// when there are too few (the kubelet refuses the pod later; the scheduler does not).
CpuSet AllocateCpus(const CpuTopology& topo, const CpuSet& available, const NumaHint& best, int request);

// Number of NUMA nodes the CPUs span.
int NumaNodeCount(const CpuSet& cpus, const CpuDetails& details);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_CPU_TOPOLOGY_H_
