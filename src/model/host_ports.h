// Host ports as Kubernetes' NodePorts filter reads them (v1.36.1 util.GetHostPorts and
// framework.HostPortInfo): a pod's ports with hostPort > 0 of its containers and of its
// sidecars (init containers with restartPolicy Always), an empty host IP meaning every
// address (0.0.0.0) and an empty protocol TCP.
#ifndef VCSCHED_SRC_MODEL_HOST_PORTS_H_
#define VCSCHED_SRC_MODEL_HOST_PORTS_H_

#include <string>
#include <vector>

#include "vcsched/objects.h"

namespace vcsched::internal {

// The pod's host ports, host IP and protocol filled in, in container order.
std::vector<HostPort> PodHostPorts(const PodSpec& pod);
bool HasPodHostPorts(const PodSpec& pod);
// Whether a pod wanting `want` cannot share a node holding `used` (both filled in): the
// same protocol and port, and the same address or either bound to every address.
bool HostPortsConflict(const HostPort& want, const HostPort& used);
// "8080/TCP", with the address when it is not every address: "127.0.0.1:8080/UDP".
std::string HostPortText(const HostPort& p);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_HOST_PORTS_H_
