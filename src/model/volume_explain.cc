#include "src/model/volume_explain.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "src/model/k8s_match.h"
#include "vcsched/resource.h"

namespace vcsched::internal {
namespace {

std::string Requirement(const LabelSelectorRequirement& r) {
  using Op = LabelSelectorRequirement::Operator;
  switch (r.op) {
    case Op::kExists: return r.key;
    case Op::kDoesNotExist: return absl::StrCat("!", r.key);
    case Op::kIn: return absl::StrCat(r.key, "=", absl::StrJoin(r.values, "|"));
    case Op::kNotIn: return absl::StrCat(r.key, "!=", absl::StrJoin(r.values, "|"));
    case Op::kGt: return absl::StrCat(r.key, ">", absl::StrJoin(r.values, ","));
    case Op::kLt: return absl::StrCat(r.key, "<", absl::StrJoin(r.values, ","));
  }
  return r.key;
}

std::string Terms(const std::vector<NodeSelectorTerm>& terms) {
  std::vector<std::string> out;
  for (const NodeSelectorTerm& t : terms) {
    std::vector<std::string> reqs;
    for (const auto& r : t.match_expressions) reqs.push_back(Requirement(r));
    for (const auto& r : t.match_fields) reqs.push_back(Requirement(r));
    out.push_back(absl::StrJoin(reqs, ","));
  }
  return out.empty() ? std::string("no node") : absl::StrJoin(out, " or ");
}

bool AffinityFits(const PersistentVolumeSpec& pv, const NodeSpec& node) {
  if (!pv.has_node_affinity) return true;
  return std::any_of(pv.node_affinity.begin(), pv.node_affinity.end(),
                     [&](const NodeSelectorTerm& t) { return MatchNodeSelectorTerm(t, node); });
}

const PersistentVolumeClaimSpec* ClaimOf(const StorageObjects& s, const PodSpec& pod, const PodVolumeClaim& v) {
  auto it = s.claims.find(absl::StrCat(pod.namespace_, "/", v.claim));
  return it == s.claims.end() ? nullptr : &it->second;
}

// Why no volume of the claim's class takes it on this node.
std::string UnmatchedClaim(const StorageObjects& s, const PersistentVolumeClaimSpec& c, const NodeSpec& node) {
  const std::string cls = ClaimStorageClass(c);
  int of_class = 0, available = 0, big_enough = 0, here = 0;
  for (const auto& [_, pv] : s.volumes) {
    if (VolumeStorageClass(pv) != cls) continue;
    ++of_class;
    if (pv.phase != "Available" || pv.claim_ref) continue;
    ++available;
    if (pv.capacity < c.storage_request) continue;
    ++big_enough;
    if (AffinityFits(pv, node)) ++here;
  }
  std::string why = absl::StrCat("no PersistentVolume matches claim ", c.name, " (class \"", cls, "\", ",
                                 FormatAmount("memory", c.storage_request), ": ", of_class, " volumes of the class, ",
                                 available, " available, ", big_enough, " large enough, ", here,
                                 " that this node may use");
  auto sc = s.classes.find(cls);
  if (sc == s.classes.end()) {
    absl::StrAppend(&why, "; StorageClass \"", cls, "\" is not in the input)");
  } else if (sc->second.provisioner.empty() || sc->second.provisioner == "kubernetes.io/no-provisioner") {
    absl::StrAppend(&why, "; the class provisions nothing: ", sc->second.provisioner.empty() ? "no provisioner" : sc->second.provisioner, ")");
  } else {
    absl::StrAppend(&why, "; the class's allowedTopologies exclude this node)");
  }
  return why;
}

}  // namespace

std::string VolumeCause(const StorageObjects& s, const PodSpec& pod, const NodeSpec& node, absl::string_view text) {
  const bool zone = text == "node(s) had no available volume zone";
  const bool affinity = text == "node(s) had volume node affinity conflict";
  const bool bind = text == "node(s) didn't find available persistent volumes to bind";
  if (!zone && !affinity && !bind) return std::string(text);
  for (const PodVolumeClaim& v : pod.volume_claims) {
    const PersistentVolumeClaimSpec* c = ClaimOf(s, pod, v);
    if (c == nullptr) continue;
    const bool bound = !c->volume_name.empty() && c->annotations.count(kAnnBindCompleted);
    auto pv = s.volumes.find(c->volume_name);
    if ((zone || affinity) && pv != s.volumes.end()) {
      if (affinity && bound && !AffinityFits(pv->second, node)) {
        return absl::StrCat("volume node affinity conflict (", pv->first, " requires ", Terms(pv->second.node_affinity),
                            "; claim ", c->name, ")");
      }
      if (zone) {
        for (const char* key : {"topology.kubernetes.io/zone", "topology.kubernetes.io/region",
                                "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region"}) {
          auto label = pv->second.labels.find(key);
          if (label == pv->second.labels.end()) continue;
          auto at = node.labels.find(key);
          const std::vector<std::string> zones = absl::StrSplit(label->second, "__");
          if (at == node.labels.end() || std::find(zones.begin(), zones.end(), at->second) == zones.end()) {
            return absl::StrCat("volume zone conflict (", pv->first, " is in ", key, "=", label->second, "; claim ",
                                c->name, ")");
          }
        }
      }
    }
    if (bind && !bound && c->volume_name.empty()) {
      if (auto sel = c->annotations.find(kAnnSelectedNode); sel != c->annotations.end() && sel->second != node.name) {
        return absl::StrCat("claim ", c->name, " is being provisioned for node ", sel->second);
      }
      return UnmatchedClaim(s, *c, node);
    }
  }
  return std::string(text);
}

}  // namespace vcsched::internal
