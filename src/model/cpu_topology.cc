#include "src/model/cpu_topology.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "src/model/go_parse.h"
#include "src/model/go_sort.h"

namespace vcsched::internal {
namespace {

constexpr int64_t kMaxCpus = 1 << 16;  // a CPU list may not name more (a node has hundreds)

bool ParseBound(absl::string_view text, int64_t* out) {
  const std::optional<int64_t> v = GoAtoi(text);
  if (v) *out = *v;
  return v.has_value();
}

template <typename Pick>
CpuSet Collect(const CpuDetails& d, Pick pick) {
  CpuSet out;
  for (const auto& [cpu, info] : d) {
    if (std::optional<int32_t> v = pick(cpu, info)) out.insert(*v);
  }
  return out;
}

int PopCount(uint64_t v) { return __builtin_popcountll(v); }

uint64_t MaskOf(const CpuSet& numa_nodes) {
  uint64_t m = 0;
  for (int32_t n : numa_nodes) m |= uint64_t{1} << n;  // ids are 0..63 (ObjectProblems)
  return m;
}

// The kubelet's cpuAccumulator.
class Accumulator {
 public:
  Accumulator(const CpuTopology& topo, const CpuSet& available, int count)
      : topo_(topo), details_(KeepOnly(topo.details, available)), needed_(count) {}

  std::optional<CpuSet> Take() {
    if (Satisfied()) return result_;
    if (Failed()) return std::nullopt;
    if (Needs(topo_.CpusPerSocket())) {
      for (int32_t s : FreeSockets()) {
        TakeSet(CpusInSockets(details_, {s}));
        if (Satisfied()) return result_;
        if (!Needs(topo_.CpusPerSocket())) break;
      }
    }
    if (Needs(topo_.CpusPerCore())) {
      for (int32_t c : FreeCores()) {
        TakeSet(CpusInCores(details_, {c}));
        if (Satisfied()) return result_;
        if (!Needs(topo_.CpusPerCore())) break;
      }
    }
    for (int32_t cpu : FreeCpus()) {
      if (Needs(1)) TakeSet({cpu});
      if (Satisfied()) return result_;
    }
    return std::nullopt;
  }

 private:
  void TakeSet(const CpuSet& cpus) {
    result_ = Union(result_, cpus);
    details_ = KeepOnly(details_, Difference(CpusOf(details_), result_));
    needed_ -= static_cast<int>(cpus.size());
  }
  bool Needs(int n) const { return needed_ >= n; }
  bool Satisfied() const { return needed_ < 1; }
  bool Failed() const { return needed_ > static_cast<int>(details_.size()); }

  // Sockets all of whose CPUs are free (the kubelet intersects socket ids with CPU ids,
  // a quirk kept: it works on machines numbering sockets and CPUs alike).
  std::vector<int32_t> FreeSockets() const {
    std::vector<int32_t> out;
    const CpuSet cpus = CpusOf(details_);
    for (int32_t s : SocketsOf(details_)) {
      if (cpus.count(s)) out.push_back(s);
    }
    return out;
  }

  std::vector<int32_t> FreeCores() const {
    const CpuSet cpus = CpusOf(details_);
    const auto free_cores = [&](int32_t socket) {
      CpuSet cores;
      for (int32_t c : CoresInSockets(details_, {socket})) {
        if (cpus.count(c)) cores.insert(c);
      }
      return cores;
    };
    const CpuSet socket_set = SocketsOf(details_);
    std::vector<int32_t> sockets(socket_set.begin(), socket_set.end());
    // The kubelet's comparator is not a strict weak order: Go's sort decides, and the
    // order it starts from matters. Volcano starts from Go's map order (random); vcsched
    // from ascending socket ids.
    GoSortSlice(sockets, [&](const std::vector<int32_t>& v, int i, int j) {
      const int32_t a = v[static_cast<size_t>(i)], b = v[static_cast<size_t>(j)];
      return free_cores(a).size() < free_cores(b).size() || a < b;
    });
    std::vector<int32_t> out;
    for (int32_t s : sockets) {
      for (int32_t c : free_cores(s)) out.push_back(c);
    }
    return out;
  }

  std::vector<int32_t> FreeCpus() const {
    const CpuSet core_set = CoresOf(details_);
    std::vector<int32_t> cores(core_set.begin(), core_set.end());
    const auto socket_of = [&](int32_t core) {
      const CpuSet cpus = CpusInCores(topo_.details, {core});
      return topo_.details.at(*cpus.begin()).socket;
    };
    const auto count_in = [](const CpuSet& a, const CpuSet& b) {
      int n = 0;
      for (int32_t x : a) n += static_cast<int>(b.count(x));
      return n;
    };
    GoSortSlice(cores, [&](const std::vector<int32_t>& v, int i, int j) {
      const int32_t ci = v[static_cast<size_t>(i)], cj = v[static_cast<size_t>(j)];
      const int32_t si = socket_of(ci), sj = socket_of(cj);
      const int coloc_i = count_in(CpusInSockets(topo_.details, {si}), result_);
      const int coloc_j = count_in(CpusInSockets(topo_.details, {sj}), result_);
      const size_t free_socket_i = CpusInSockets(details_, {si}).size();
      const size_t free_socket_j = CpusInSockets(details_, {sj}).size();
      const size_t free_core_i = CpusInCores(details_, {ci}).size();
      const size_t free_core_j = CpusInCores(details_, {cj}).size();
      return coloc_i > coloc_j || free_socket_i < free_socket_j || free_core_i < free_core_j || si < sj || ci < cj;
    });
    std::vector<int32_t> out;
    for (int32_t core : cores) {
      for (int32_t cpu : CpusInCores(details_, {core})) out.push_back(cpu);
    }
    return out;
  }

  const CpuTopology& topo_;
  CpuDetails details_;
  int needed_;
  CpuSet result_;
};

}  // namespace

absl::StatusOr<CpuSet> ParseCpuList(absl::string_view text) {
  CpuSet out;
  if (text.empty()) return out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    const std::vector<absl::string_view> bounds = absl::StrSplit(part, absl::MaxSplits('-', 1));
    int64_t from = 0, to = 0;
    if (!ParseBound(bounds[0], &from) || (bounds.size() == 2 && !ParseBound(bounds[1], &to))) {
      return absl::InvalidArgumentError(absl::StrCat("\"", part, "\" is not a CPU id or range"));
    }
    if (bounds.size() == 1) to = from;
    if (from > to) return absl::InvalidArgumentError(absl::StrCat("invalid range \"", part, "\" (", from, " > ", to, ")"));
    if (from < 0 || to >= kMaxCpus || to - from + 1 + static_cast<int64_t>(out.size()) > kMaxCpus) {
      return absl::InvalidArgumentError(absl::StrCat("\"", part, "\": CPU ids are 0 to ", kMaxCpus - 1));
    }
    for (int64_t c = from; c <= to; ++c) out.insert(static_cast<int32_t>(c));
  }
  return out;
}

std::string FormatCpuList(const CpuSet& cpus) {
  std::string out;
  for (auto it = cpus.begin(); it != cpus.end();) {
    const int32_t start = *it;
    int32_t end = start;
    for (++it; it != cpus.end() && *it == end + 1; ++it) end = *it;
    if (!out.empty()) out += ",";
    absl::StrAppend(&out, start);
    if (end != start) absl::StrAppend(&out, "-", end);
  }
  return out;
}

CpuSet Difference(const CpuSet& a, const CpuSet& b) {
  CpuSet out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

CpuSet Union(const CpuSet& a, const CpuSet& b) {
  CpuSet out = a;
  out.insert(b.begin(), b.end());
  return out;
}

CpuSet CpusOf(const CpuDetails& d) {
  return Collect(d, [](int32_t cpu, const NumaCpuSpec&) { return std::optional<int32_t>(cpu); });
}
CpuSet NumaNodesOf(const CpuDetails& d) {
  return Collect(d, [](int32_t, const NumaCpuSpec& i) { return std::optional<int32_t>(i.numa); });
}
CpuSet SocketsOf(const CpuDetails& d) {
  return Collect(d, [](int32_t, const NumaCpuSpec& i) { return std::optional<int32_t>(i.socket); });
}
CpuSet CoresOf(const CpuDetails& d) {
  return Collect(d, [](int32_t, const NumaCpuSpec& i) { return std::optional<int32_t>(i.core); });
}
CpuSet CpusInNumaNodes(const CpuDetails& d, const CpuSet& numa_nodes) {
  return Collect(d, [&](int32_t cpu, const NumaCpuSpec& i) {
    return numa_nodes.count(i.numa) ? std::optional<int32_t>(cpu) : std::nullopt;
  });
}
CpuSet CpusInSockets(const CpuDetails& d, const CpuSet& sockets) {
  return Collect(d, [&](int32_t cpu, const NumaCpuSpec& i) {
    return sockets.count(i.socket) ? std::optional<int32_t>(cpu) : std::nullopt;
  });
}
CpuSet CpusInCores(const CpuDetails& d, const CpuSet& cores) {
  return Collect(d, [&](int32_t cpu, const NumaCpuSpec& i) {
    return cores.count(i.core) ? std::optional<int32_t>(cpu) : std::nullopt;
  });
}
CpuSet CoresInSockets(const CpuDetails& d, const CpuSet& sockets) {
  return Collect(d, [&](int32_t, const NumaCpuSpec& i) {
    return sockets.count(i.socket) ? std::optional<int32_t>(i.core) : std::nullopt;
  });
}
CpuDetails KeepOnly(const CpuDetails& d, const CpuSet& cpus) {
  CpuDetails out;
  for (const auto& [cpu, info] : d) {
    if (cpus.count(cpu)) out.emplace(cpu, info);
  }
  return out;
}

CpuTopology::CpuTopology(const CpuDetails& d) : details(d) {
  num_cpus = static_cast<int>(d.size());
  std::set<std::pair<int32_t, int32_t>> cores;
  for (const auto& [cpu, info] : d) cores.emplace(info.socket, info.core);
  num_cores = static_cast<int>(cores.size());
  num_sockets = static_cast<int>(SocketsOf(d).size());
}

std::optional<CpuSet> TakeByTopology(const CpuTopology& topo, const CpuSet& available, int count) {
  return Accumulator(topo, available, count).Take();
}

std::vector<NumaHint> CpuTopologyHints(const CpuSet& available, const CpuDetails& details, int request) {
  const CpuSet numa_set = NumaNodesOf(details);
  const std::vector<int32_t> numa(numa_set.begin(), numa_set.end());
  int min_affinity = static_cast<int>(numa.size());
  std::vector<NumaHint> hints;
  // Every non-empty subset, by size, then in lexicographic order of its members (the
  // kubelet's IterateBitMasks).
  std::vector<int32_t> pick;
  const auto visit = [&](uint64_t mask) {
    CpuSet nodes;
    for (int32_t n : numa) {
      if (mask & (uint64_t{1} << n)) nodes.insert(n);
    }
    if (static_cast<int>(CpusInNumaNodes(details, nodes).size()) >= request && PopCount(mask) < min_affinity) {
      min_affinity = PopCount(mask);
    }
    int matching = 0;
    for (int32_t c : available) {
      auto it = details.find(c);
      // A free CPU the details do not list counts as NUMA node 0 (a Go map's zero value).
      const int32_t node = it == details.end() ? 0 : it->second.numa;
      if (mask & (uint64_t{1} << node)) ++matching;
    }
    if (matching < request) return;
    hints.push_back({mask, false});
  };
  std::function<void(size_t, size_t, uint64_t)> iterate = [&](size_t from, size_t left, uint64_t mask) {
    if (left == 0) {
      visit(mask);
      return;
    }
    for (size_t i = from; i < numa.size(); ++i) iterate(i + 1, left - 1, mask | (uint64_t{1} << numa[i]));
  };
  for (size_t size = 1; size <= numa.size(); ++size) iterate(0, size, 0);
  for (NumaHint& h : hints) h.preferred = PopCount(*h.mask) == min_affinity;
  return hints;
}

PolicyVerdict ApplyTopologyPolicy(absl::string_view policy, const CpuSet& numa_nodes,
                                  const std::vector<std::optional<std::vector<NumaHint>>>& resources) {
  const bool single = policy == "single-numa-node";
  if (policy != "best-effort" && policy != "restricted" && !single) return {NumaHint{}, true};
  // Each resource's hints as the topology manager filters them: no preference is one
  // preferred hint without NUMA nodes, no possible placement one that is not preferred.
  std::vector<std::vector<NumaHint>> lists;
  for (const std::optional<std::vector<NumaHint>>& hints : resources) {
    std::vector<NumaHint> list;
    if (!hints) list.push_back({std::nullopt, true});
    else if (hints->empty()) list.push_back({std::nullopt, false});
    else list = *hints;
    if (single) {
      std::vector<NumaHint> kept;
      for (const NumaHint& h : list) {
        if (h.preferred && (!h.mask || PopCount(*h.mask) == 1)) kept.push_back(h);
      }
      list = std::move(kept);
    }
    lists.push_back(std::move(list));
  }
  const uint64_t all = MaskOf(numa_nodes);
  NumaHint best{all, false};
  // Every choice of one hint per resource, in order; each merged: the NUMA nodes all
  // name, preferred when all are.
  std::vector<size_t> pick(lists.size(), 0);
  const auto consider = [&]() {
    uint64_t mask = all;
    bool preferred = true;
    for (size_t r = 0; r < lists.size(); ++r) {
      const NumaHint& h = lists[r][pick[r]];
      mask &= h.mask ? *h.mask : all;
      preferred = preferred && h.preferred;
    }
    if (PopCount(mask) == 0) return;
    if (preferred && !best.preferred) {
      best = {mask, true};
      return;
    }
    if (!preferred && best.preferred) return;
    const int mc = PopCount(mask), bc = PopCount(*best.mask);
    if (mc == bc ? mask < *best.mask : mc < bc) best = {mask, preferred};
  };
  std::function<void(size_t)> iterate = [&](size_t r) {
    if (r == lists.size()) {
      consider();
      return;
    }
    for (size_t i = 0; i < lists[r].size(); ++i) {
      pick[r] = i;
      iterate(r + 1);
    }
  };
  iterate(0);
  return {best, policy == "best-effort" || best.preferred};
}

CpuSet AllocateCpus(const CpuTopology& topo, const CpuSet& available, const NumaHint& best, int request) {
  CpuSet result;
  if (best.mask) {
    CpuSet nodes;
    for (int n = 0; n < 64; ++n) {
      if (*best.mask & (uint64_t{1} << n)) nodes.insert(n);
    }
    const CpuSet in_nodes = CpusInNumaNodes(topo.details, nodes);
    CpuSet aligned;
    for (int32_t c : available) {
      if (in_nodes.count(c)) aligned.insert(c);
    }
    const int take = std::min(request, static_cast<int>(aligned.size()));
    std::optional<CpuSet> got = TakeByTopology(topo, aligned, take);
    if (!got) return {};
    result = *got;
  }
  std::optional<CpuSet> rest = TakeByTopology(topo, Difference(available, result), request - static_cast<int>(result.size()));
  if (!rest) return {};
  return Union(result, *rest);
}

int NumaNodeCount(const CpuSet& cpus, const CpuDetails& details) {
  uint64_t mask = 0;
  for (int32_t c : cpus) {
    auto it = details.find(c);
    mask |= uint64_t{1} << (it == details.end() ? 0 : it->second.numa);
  }
  return PopCount(mask);
}

}  // namespace vcsched::internal
