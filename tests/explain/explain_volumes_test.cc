// Explain on pods' volumes: the claim and volume behind each node verdict, and the hints
// (a CSI driver the nodes lack, volumes for claims none matches) checked by a re-run.
#include <catch2/catch.hpp>

#include <string>

#include "absl/strings/str_cat.h"
#include "vcsched/explain.h"
#include "vcsched/io/scenario.h"
#include "vcsched/scheduler.h"

namespace vcsched {
namespace {

constexpr char kNodes[] = R"(apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
)";

std::string PodWithClaim(const std::string& name, const std::string& claim) {
  return absl::StrCat("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ", name,
                      ", namespace: ns}\nspec: {minMember: 1}\nstatus: {phase: Inqueue}\n---\n",
                      "apiVersion: v1\nkind: Pod\nmetadata: {name: ", name,
                      ", namespace: ns, annotations: {scheduling.k8s.io/group-name: ", name,
                      "}}\nspec:\n  schedulerName: volcano\n  containers: [{name: c, resources: {requests: {cpu: '1'}}}]\n"
                      "  volumes: [{name: d, persistentVolumeClaim: {claimName: ",
                      claim, "}}]\n---\n");
}

std::string Claim(const std::string& name, const std::string& extra = "") {
  return absl::StrCat("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ", name, ", namespace: ns", extra,
                      "}\nspec: {accessModes: [ReadWriteOnce], storageClassName: local, ",
                      "resources: {requests: {storage: 5Gi}}}\n---\n");
}

const JobExplanation& Job(const ExplainResult& r, const std::string& key) {
  for (const JobExplanation& e : r.explanation.jobs) {
    if (e.job == key) return e;
  }
  FAIL("no explanation for " << key);
  throw std::logic_error("unreachable");
}

ExplainResult Explained(const std::string& text) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"volumes.yaml", text}});
  REQUIRE(sc.ok());
  absl::StatusOr<ExplainResult> r = Explain(sc->snapshot, DefaultSchedulerConfig(), ExplainOptions{});
  REQUIRE(r.ok());
  return *std::move(r);
}

const Hint* HintOf(const JobExplanation& e, const std::string& kind) {
  for (const Hint& h : e.hints) {
    if (h.kind == kind) return &h;
  }
  return nullptr;
}

TEST_CASE("Explain: a bound volume's node affinity names the volume, claim and requirement", "[explain][volumes]") {
  const std::string pv = R"(apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-3}
spec:
  capacity: {storage: 10Gi}
  storageClassName: local
  claimRef: {namespace: ns, name: data-0}
  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [c]}]}]}}
status: {phase: Bound}
---
)";
  const std::string csi = R"(apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec: {drivers: [{name: kubernetes.io/no-provisioner, nodeID: n1}]}
---
)";
  const ExplainResult r = Explained(absl::StrCat(
      kNodes, pv, csi,
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-0, namespace: ns, annotations: "
      "{pv.kubernetes.io/bind-completed: 'yes'}}\nspec: {storageClassName: local, volumeName: pv-3}\n---\n",
      PodWithClaim("p", "data-0")));
  const JobExplanation& e = Job(r, "ns/p");
  CHECK(e.reason == "NoFeasibleNode");
  bool named = false;
  for (const auto& [cause, count] : e.nodes) {
    named = named || cause == "volume node affinity conflict (pv-3 requires topology.kubernetes.io/zone=c; claim data-0)";
  }
  CHECK(named);
}

TEST_CASE("Explain: an unbound claim no volume matches, and the hints that run it", "[explain][volumes]") {
  // No node lists the class's "driver" in a CSINode: Volcano counts the claim against an
  // attach limit no node offers. One volume exists, on n2, too small.
  const std::string small = R"(apiVersion: v1
kind: PersistentVolume
metadata: {name: small}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local
  nodeAffinity: {required: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n2]}]}]}}
status: {phase: Available}
---
)";
  const ExplainResult r = Explained(absl::StrCat(kNodes, small, Claim("data-1"), PodWithClaim("q", "data-1")));
  const JobExplanation& e = Job(r, "ns/q");
  bool csi = false;
  for (const auto& [cause, count] : e.nodes) {
    csi = csi || cause.rfind("Insufficient attachable-volumes-csi-kubernetes.io-no-provisioner", 0) == 0;
  }
  CHECK(csi);
  CHECK(HintOf(e, "csi-driver") == nullptr);  // listing the driver alone leaves the claim without a volume
  const Hint* h = HintOf(e, "add-volumes");
  REQUIRE(h != nullptr);
  CHECK(h->amount == 1);
  CHECK(h->target == "ns/data-1 (class \"local\", 5Gi)");
  CHECK_THAT(h->change, Catch::Contains("--ignored-provisioners=kubernetes.io/no-provisioner"));

  // With the driver listed on both nodes, the verdict is the claim's own.
  const std::string listed = R"(apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec: {drivers: [{name: kubernetes.io/no-provisioner, nodeID: n1}]}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n2}
spec: {drivers: [{name: kubernetes.io/no-provisioner, nodeID: n2}]}
---
)";
  const ExplainResult r2 = Explained(absl::StrCat(kNodes, small, listed, Claim("data-1"), PodWithClaim("q", "data-1")));
  const JobExplanation& e2 = Job(r2, "ns/q");
  bool unmatched = false;
  for (const auto& [cause, count] : e2.nodes) {
    unmatched = unmatched || cause.rfind("no PersistentVolume matches claim data-1 (class \"local\", 5Gi: 1 volumes of "
                                         "the class, 1 available, 0 large enough", 0) == 0;
  }
  CHECK(unmatched);
  REQUIRE(HintOf(e2, "add-volumes") != nullptr);
  CHECK_THAT(HintOf(e2, "add-volumes")->change, !Catch::Contains("ignored-provisioners"));
}

TEST_CASE("Explain: a missing claim refuses the pod with Kubernetes' message", "[explain][volumes]") {
  const ExplainResult r = Explained(absl::StrCat(kNodes, PodWithClaim("m", "nowhere")));
  const JobExplanation& e = Job(r, "ns/m");
  bool said = false;
  for (const auto& [cause, count] : e.nodes) said = said || cause == "persistentvolumeclaim \"nowhere\" not found";
  CHECK(said);
}

}  // namespace
}  // namespace vcsched
