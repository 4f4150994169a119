#include "src/model/host_ports.h"

#include "absl/strings/str_cat.h"

namespace vcsched::internal {
namespace {

constexpr char kEveryAddress[] = "0.0.0.0";

void AppendFilledIn(const std::vector<HostPort>& ports, std::vector<HostPort>& out) {
  for (const HostPort& p : ports) {
    if (p.port <= 0) continue;
    HostPort& q = out.emplace_back(p);
    if (q.host_ip.empty()) q.host_ip = kEveryAddress;
    if (q.protocol.empty()) q.protocol = "TCP";
  }
}

}  // namespace

std::vector<HostPort> PodHostPorts(const PodSpec& pod) {
  std::vector<HostPort> out;
  for (const Container& c : pod.init_containers) {
    if (c.restartable) AppendFilledIn(c.host_ports, out);  // a sidecar runs as long as the pod
  }
  for (const Container& c : pod.containers) AppendFilledIn(c.host_ports, out);
  return out;
}

bool HasPodHostPorts(const PodSpec& pod) {
  for (const Container& c : pod.init_containers) {
    if (!c.restartable) continue;
    for (const HostPort& p : c.host_ports) {
      if (p.port > 0) return true;
    }
  }
  for (const Container& c : pod.containers) {
    for (const HostPort& p : c.host_ports) {
      if (p.port > 0) return true;
    }
  }
  return false;
}

bool HostPortsConflict(const HostPort& want, const HostPort& used) {
  if (want.port != used.port || want.protocol != used.protocol) return false;
  return want.host_ip == kEveryAddress || used.host_ip == kEveryAddress || want.host_ip == used.host_ip;
}

std::string HostPortText(const HostPort& p) {
  return p.host_ip.empty() || p.host_ip == kEveryAddress ? absl::StrCat(p.port, "/", p.protocol)
                                                         : absl::StrCat(p.host_ip, ":", p.port, "/", p.protocol);
}

}  // namespace vcsched::internal
