#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/testing/builders.h"
#include "vcsched/io/scenario.h"

namespace vcsched {
namespace {

std::string ReadData(const std::string& rel) {
  std::ifstream in(std::string(VCSCHED_TEST_DATA_DIR) + "/" + rel);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

absl::Status LoadError(const std::string& yaml) {
  absl::StatusOr<Scenario> sc = LoadScenario({{"bad.yaml", yaml}});
  return sc.ok() ? absl::OkStatus() : sc.status();
}

TEST_CASE("Loader: errors name source, document, line, object and field", "[io][loader]") {
  const absl::Status s = LoadError(R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: c1}
spec:
  containers:
  - resources:
      requests:
        cpu: 12x
)");
  REQUIRE(s.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(s.message()) ==
        "bad.yaml: document 2, line 13:14: Pod \"c1/p1\": spec.containers[0].resources.requests.cpu: "
        "invalid quantity \"12x\"");
}

TEST_CASE("Loader: every error of a file is reported", "[io][loader]") {
  const absl::Status s = LoadError(R"(apiVersion: v1
kind: Nod
metadata: {name: n1}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg}
spec: {minMember: many}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: q}
spec: {weight: 1, capability: {memory: -1Gi}}
)");
  const std::string msg(s.message());
  CHECK_THAT(msg, Catch::Contains("document 1, line 2:7: kind: unknown kind \"Nod\""));
  CHECK_THAT(msg, Catch::Contains("PodGroup \"default/pg\": spec.minMember: expected an integer, got \"many\""));
  CHECK_THAT(msg, Catch::Contains("Queue \"q\": spec.capability.memory: quantity \"-1Gi\" must not be negative"));
}

TEST_CASE("Loader: empty, null and unending documents keep the numbering of the ones after", "[io][loader]") {
  // A comment-only piece, a null document, a malformed piece (",x", on which yaml-cpp's
  // LoadAll never returned), then a document with an error: it is still number 4.
  const absl::Status s = LoadError(R"(# nothing here
---
~
---
,iece
---
apiVersion: v1
kind: Nod
metadata: {name: n1}
)");
  const std::string msg(s.message());
  CHECK_THAT(msg, Catch::Contains("bad.yaml: line 5:1: invalid YAML: "));  // its ",iece"
  CHECK_THAT(msg, Catch::Contains("bad.yaml: document 4, line 8:7: kind: unknown kind \"Nod\""));
  CHECK(std::count(msg.begin(), msg.end(), '\n') == 1);  // two errors, nothing about the others
}

TEST_CASE("Loader: malformed YAML is an error with its position", "[io][loader]") {
  const absl::Status s = LoadError("apiVersion: v1\nkind: Node\nmetadata: {name: [n1\n");
  CHECK(s.code() == absl::StatusCode::kInvalidArgument);
  CHECK_THAT(std::string(s.message()), Catch::Contains("bad.yaml: line"));
  CHECK_THAT(std::string(s.message()), Catch::Contains("invalid YAML"));
}

TEST_CASE("Loader: wrong shapes are errors, not crashes", "[io][loader]") {
  for (const char* doc : {"- a\n- b\n", "kind: Pod\napiVersion: v1\nmetadata: 3\n",
                          "kind: Pod\napiVersion: v1\nspec: {containers: {a: 1}}\n",
                          "kind: Node\napiVersion: v1\nmetadata: {name: n}\nspec: {taints: [{effect: Sometimes}]}\n",
                          "kind: Pod\napiVersion: batch/v1\nmetadata: {name: p}\n", "just a string\n"}) {
    CAPTURE(doc);
    CHECK(LoadError(doc).code() == absl::StatusCode::kInvalidArgument);
  }
}

TEST_CASE("Loader: duplicate objects are errors unless the same object was printed twice", "[io][loader]") {
  const std::string node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";
  CHECK_THAT(std::string(LoadError(node + "---\n" + node).message()), Catch::Contains("duplicate name"));
  // The first object of a kind is indexed only when a second comes: found all the same.
  const std::string n2 = "apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n";
  const std::string n3 = "apiVersion: v1\nkind: Node\nmetadata: {name: n3}\n";
  for (const std::string& docs : {node + "---\n" + n2 + "---\n" + node, node + "---\n" + n2 + "---\n" + n3 + "---\n" + node,
                                  n2 + "---\n" + node + "---\n" + node}) {
    CAPTURE(docs);
    CHECK_THAT(std::string(LoadError(docs).message()), Catch::Contains("Node \"n1\": metadata.name: duplicate name"));
  }
  const std::string v1 = "apiVersion: v1\nkind: Node\nmetadata: {name: n1, uid: u1, resourceVersion: \"5\"}\n"
                         "status: {allocatable: {cpu: \"1\"}}\n";
  const std::string v2 = "apiVersion: v1\nkind: Node\nmetadata: {name: n1, uid: u1, resourceVersion: \"9\"}\n"
                         "status: {allocatable: {cpu: \"2\"}}\n";
  absl::StatusOr<Scenario> sc = LoadScenario({{"x.yaml", v2 + "---\n" + v1}});
  REQUIRE(sc.ok());
  CHECK(sc->snapshot.nodes()[0].allocatable[kCpu] == 2000);
  REQUIRE(sc->warnings.size() == 1);
  CHECK_THAT(sc->warnings[0], Catch::Contains("printed twice"));
}

TEST_CASE("Loader: a Job dumped with its PodGroup and pods is read as they are, in either order", "[io][loader]") {
  const std::string job = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j, namespace: ns, uid: 11111111-2222-3333-4444-555555555555}
spec:
  minAvailable: 3
  schedulerName: volcano
  tasks:
  - name: w
    replicas: 3
    template:
      spec:
        containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
)";
  // The controller's objects as a cluster holds them: the gang Running on n1, one pod
  // already gone (deleted), the PodGroup's status written by the scheduler.
  const std::string objects_head = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: j-11111111-2222-3333-4444-555555555555, namespace: ns}
spec: {minMember: 3, queue: default}
status:
  phase: Running
  running: 2
  conditions:
  - {type: Scheduled, status: "True", transitionID: t1, reason: tasks in gang are ready to be scheduled}
---
)";
  const auto running_pod = [](const std::string& name) {
    return absl::StrCat("apiVersion: v1\nkind: Pod\nmetadata:\n  name: ", name, "\n  namespace: ns\n",
                        "  annotations: {scheduling.k8s.io/group-name: j-11111111-2222-3333-4444-555555555555, "
                        "volcano.sh/task-spec: w}\n",
                        "spec:\n  schedulerName: volcano\n  nodeName: n1\n",
                        "  containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]\nstatus: {phase: Running}\n");
  };
  const std::string objects = objects_head + running_pod("j-w-0") + "---\n" + running_pod("j-w-2");
  for (const std::string& text : {job + "---\n" + objects, objects + "---\n" + job}) {
    absl::StatusOr<ScenarioObjects> o = LoadObjects({{"dump.yaml", text}});
    REQUIRE(o.ok());
    REQUIRE(o->pod_groups.size() == 1);
    CHECK(o->pod_groups[0].phase == "Running");
    CHECK(o->pod_groups[0].running == 2);
    REQUIRE(o->pod_groups[0].conditions.size() == 1);
    CHECK(o->pod_groups[0].conditions[0].transition_id == "t1");
    std::vector<std::string> pods;
    for (const PodSpec& p : o->pods) pods.push_back(p.name + "@" + p.node_name + ":" + p.phase);
    std::sort(pods.begin(), pods.end());
    // j-w-1 was deleted: nothing makes it again.
    CHECK(pods == std::vector<std::string>{"j-w-0@n1:Running", "j-w-2@n1:Running"});
    REQUIRE(o->volcano_jobs.size() == 1);
    CHECK(o->job_pod_groups == std::vector<std::string>{"ns/j-11111111-2222-3333-4444-555555555555"});
  }
  // Without its PodGroup in the input, the Job is expanded as its controller would.
  absl::StatusOr<ScenarioObjects> fresh = LoadObjects({{"job.yaml", job}});
  REQUIRE(fresh.ok());
  CHECK(fresh->pods.size() == 3);
  CHECK(fresh->pod_groups.size() == 1);
}

TEST_CASE("Loader: a newer print replaces the kept object, and later prints still find it", "[io][loader]") {
  // Long names live outside the spec's own bytes: the index must follow the replacement.
  const auto pod = [](const char* version, const char* cpu) {
    return absl::StrCat("apiVersion: v1\nkind: Pod\nmetadata: {name: a-pod-with-a-long-name, namespace: a-long-namespace, "
                        "uid: u1, resourceVersion: \"", version, "\"}\nspec: {schedulerName: volcano, containers: [{name: c, resources: "
                        "{requests: {cpu: \"", cpu, "\"}}}]}\n");
  };
  const std::string other = "apiVersion: v1\nkind: Pod\nmetadata: {name: a-pod-with-a-long-name, namespace: a-long-namespace, "
                            "uid: u2}\n";
  absl::StatusOr<Scenario> sc =
      LoadScenario({{"x.yaml", pod("5", "1") + "---\n" + pod("9", "2") + "---\n" + pod("7", "3")}});
  REQUIRE(sc.ok());
  REQUIRE(sc->snapshot.tasks().size() == 1);
  CHECK(sc->snapshot.tasks()[0].resreq[kCpu] == 2000);  // resourceVersion 9
  const auto merged = std::count_if(sc->warnings.begin(), sc->warnings.end(),
                                    [](const std::string& w) { return w.find("printed twice") != std::string::npos; });
  CHECK(merged == 2);  // each later print is merged into the one object
  const std::string err(LoadError(pod("5", "1") + "---\n" + pod("9", "2") + "---\n" + other).message());
  CHECK_THAT(err, Catch::Contains("Pod \"a-long-namespace/a-pod-with-a-long-name\": metadata.name: duplicate name "
                                  "(also at bad.yaml: document 2)"));
}

TEST_CASE("Loader: a List is read item by item", "[io][loader]") {
  absl::StatusOr<Scenario> sc = LoadScenario({{"list.yaml", R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: a}
- apiVersion: v1
  kind: Node
  metadata: {name: b}
)"}});
  REQUIRE(sc.ok());
  CHECK(sc->snapshot.nodes().size() == 2);
}

TEST_CASE("Loader: Kubernetes defaults apply", "[io][loader]") {
  absl::StatusOr<Scenario> sc = LoadScenario({{"d.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: p, annotations: {scheduling.k8s.io/group-name: pg}}
spec:
  schedulerName: volcano
  containers: [{name: c, resources: {limits: {cpu: "2", memory: 1Gi}}}]
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: q}
)"}});
  REQUIRE(sc.ok());
  const TaskInfo& t = sc->snapshot.tasks()[0];
  CHECK(t.key == "default/p");
  CHECK(t.resreq[kCpu] == 2000);  // requests default to limits
  CHECK(sc->snapshot.queues()[*sc->snapshot.FindQueue("q")].spec.state == "Open");
}

TEST_CASE("Loader: host ports and claims are read, not warned about", "[io][loader]") {
  absl::StatusOr<Scenario> sc = LoadScenario({{"w.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  schedulerName: volcano
  containers: [{name: c, ports: [{containerPort: 80, hostPort: 80}]}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]
)"}});
  REQUIRE(sc.ok());
  // Host ports feed the NodePorts filter, claims the volume filters: nothing is warned about.
  CHECK(sc->warnings.empty());
  const PodSpec& pod = *sc->snapshot.tasks().front().pod;
  REQUIRE(pod.volume_claims.size() == 1);
  CHECK(pod.volume_claims.front().volume == "v");
  CHECK(pod.volume_claims.front().claim == "data");
  CHECK_FALSE(pod.volume_claims.front().ephemeral);
  REQUIRE(pod.containers.front().host_ports.size() == 1);
  CHECK(pod.containers.front().host_ports.front().port == 80);
}

TEST_CASE("Loader: a kubectl get-all dump loads, skipping kinds the scheduler does not read", "[io][loader]") {
  absl::StatusOr<Scenario> sc = LoadScenario({{"all.yaml", R"(apiVersion: v1
kind: List
items:
- {apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop}, spec: {replicas: 1}}
- {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web-5d8, namespace: shop}}
- {apiVersion: v1, kind: Namespace, metadata: {name: shop}}
- {apiVersion: batch/v1, kind: Job, metadata: {name: migrate, namespace: shop}}
- {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: web, namespace: shop}}
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "4", pods: "110"}}
)"}});
  REQUIRE(sc.ok());
  CHECK(sc->snapshot.nodes().size() == 1);
  // A Namespace is read (its labels serve pod affinity's namespaceSelector), not skipped.
  REQUIRE(sc->warnings.size() == 4);
  CHECK_THAT(sc->warnings[0], Catch::EndsWith("Deployment \"shop/web\" is a controller: the scheduler reads the pods "
                                              "it made, not it; skipped"));
  CHECK_THAT(sc->warnings[3], Catch::Contains("pdb plugin"));

  // A custom resource of another group is skipped too; an unknown kind of a built-in
  // group is an error (a misspelling, most likely).
  absl::StatusOr<Scenario> crd = LoadScenario({{"crd.yaml", "apiVersion: ray.io/v1\nkind: RayCluster\n"
                                                            "metadata: {name: rc, namespace: ml}\n"}});
  REQUIRE(crd.ok());
  REQUIRE(crd->warnings.size() == 1);
  CHECK_THAT(crd->warnings[0], Catch::Contains("RayCluster \"ml/rc\" is a custom resource of ray.io"));
  for (const char* doc : {"apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: web}\n",
                          "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queeu\nmetadata: {name: q}\n"}) {
    absl::StatusOr<Scenario> bad = LoadScenario({{"bad.yaml", doc}});
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(std::string(bad.status().message()), Catch::Contains("unknown kind"));
  }
}

TEST_CASE("Loader: the configuration may come as a bare volcano-scheduler.conf or as Volcano's ConfigMap",
          "[io][loader][config]") {
  const std::string node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";
  absl::StatusOr<Scenario> bare =
      LoadScenario({{"nodes.yaml", node}, {"volcano-scheduler.conf", "actions: \"allocate\"\ntiers:\n- plugins: [{name: gang}]\n"}});
  REQUIRE(bare.ok());
  REQUIRE(bare->config.has_value());
  CHECK(bare->config->actions == std::vector<std::string>{"allocate"});

  absl::StatusOr<Scenario> cm = LoadScenario({{"dump.yaml", node + R"(---
apiVersion: v1
kind: ConfigMap
metadata: {name: volcano-scheduler-configmap, namespace: volcano-system}
data:
  volcano-scheduler.conf: |
    actions: "enqueue, allocate"
    tiers:
    - plugins: [{name: gang}, {name: predicates}]
)"}});
  REQUIRE(cm.ok());
  REQUIRE(cm->config.has_value());
  CHECK(cm->config->actions == std::vector<std::string>{"enqueue", "allocate"});
  CHECK(cm->config->tiers.at(0).plugins.size() == 2);
  CHECK(cm->warnings.empty());

  absl::StatusOr<Scenario> broken = LoadScenario({{"cm.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata: {name: volcano-scheduler-configmap}
data:
  volcano-scheduler.conf: "actions: [unclosed"
)"}});
  REQUIRE_FALSE(broken.ok());
  CHECK_THAT(std::string(broken.status().message()),
             Catch::Contains("ConfigMap \"default/volcano-scheduler-configmap\": data.volcano-scheduler.conf: line 1:1: invalid YAML"));
}

TEST_CASE("Loader: every real cluster dump loads", "[io][loader][dumps]") {
  const char* file = GENERATE("azureml-aks-blog-2022.yaml", "kuberay-volcano-2022.yaml",
                              "openshift-mustgather-gcp-nodes-2022.yaml", "ray-doc-rayjob-2025.yaml",
                              "volcano-pr1040-kind-2020.yaml", "ebs-csi-claim-volume-eks-2019.yaml",
                              "ingress-nginx-hostports-minikube-2022.yaml");
  DYNAMIC_SECTION(file) {
    const std::string text = ReadData(std::string("real-dumps/") + file);
    REQUIRE_FALSE(text.empty());
    absl::StatusOr<Scenario> sc = LoadScenario({{file, text}});
    INFO((sc.ok() ? "" : std::string(sc.status().message())));
    REQUIRE(sc.ok());
    CHECK(RunSession(sc->snapshot, DefaultSchedulerConfig()).ok());
  }
}

TEST_CASE("Loader: real claims, volumes and host ports are read, not warned about", "[io][loader][dumps]") {
  absl::StatusOr<Scenario> sc =
      LoadScenario({{"pv.yaml", ReadData("real-dumps/ebs-csi-claim-volume-eks-2019.yaml")},
                    {"ingress.yaml", ReadData("real-dumps/ingress-nginx-hostports-minikube-2022.yaml")}});
  REQUIRE(sc.ok());
  for (const std::string& w : sc->warnings) {
    INFO(w);
    CHECK_FALSE(absl::StrContains(w, "PersistentVolume"));
    CHECK_FALSE(absl::StrContains(w, "hostPort"));
    CHECK_FALSE(absl::StrContains(w, "ports"));
  }
  const StorageObjects& st = sc->snapshot.storage();
  REQUIRE(st.claims.size() == 1);
  const PersistentVolumeClaimSpec& claim = st.claims.begin()->second;
  CHECK(claim.volume_name == "pvc-4383c0bd-df78-11e9-bd75-0a35aab5d502");
  CHECK(claim.annotations.count(kAnnBindCompleted) == 1);
  CHECK(claim.storage_request == int64_t{3} << 30);
  REQUIRE(st.volumes.size() == 1);
  const PersistentVolumeSpec& pv = st.volumes.begin()->second;
  CHECK(pv.csi_driver == "ebs.csi.aws.com");
  REQUIRE(pv.node_affinity.size() == 1);
  CHECK(pv.node_affinity[0].match_expressions[0].key == "topology.ebs.csi.aws.com/zone");
  REQUIRE(pv.claim_ref.has_value());
  CHECK(pv.claim_ref->uid == claim.uid);
  // The ingress controller holds ports 80 and 443 of its node (8443 is no host port).
  const PodSpec* ingress = nullptr;
  for (const std::shared_ptr<const PodSpec>& p : sc->snapshot.other_scheduler_pods()) ingress = p.get();
  for (const TaskInfo& t : sc->snapshot.tasks()) ingress = t.pod.get();
  REQUIRE(ingress != nullptr);
  REQUIRE(ingress->containers.size() == 1);
  CHECK(ingress->containers[0].host_ports.size() == 2);
}

TEST_CASE("Loader: the openshift nodes keep their scalars and taints", "[io][loader][dumps]") {
  absl::StatusOr<Scenario> sc =
      LoadScenario({{"o.yaml", ReadData("real-dumps/openshift-mustgather-gcp-nodes-2022.yaml")}});
  REQUIRE(sc.ok());
  const Snapshot& s = sc->snapshot;
  REQUIRE(s.nodes().size() == 2);
  CHECK(s.nodes()[0].allocatable[kCpu] == 3500);
  CHECK(s.nodes()[0].spec.taints.size() == 1);
  CHECK(s.space().Find("hugepages-1Gi") >= 0);
  CHECK(s.space().Find("attachable-volumes-gce-pd") >= 0);
}

TEST_CASE("Config loader: Volcano's shipped files and the seeds' file load", "[io][config]") {
  const char* file = GENERATE("volcano-scheduler.conf", "volcano-scheduler-ci.conf", "004-scheduler-config.conf");
  DYNAMIC_SECTION(file) {
    absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({file, ReadData(std::string("scheduler-config/") + file)});
    INFO((c.ok() ? "" : std::string(c.status().message())));
    REQUIRE(c.ok());
    CHECK(c->tiers.size() == 2);
    CHECK_FALSE(c->tiers[0].plugins[1].Enabled(Switch::kPreemptable));  // gang: enablePreemptable false
    CHECK(c->tiers[0].plugins[1].Enabled(Switch::kJobReady));
    CHECK(Registry::BuiltIn().ValidateConfig(*c).ok());  // every plugin and action is known
  }
}

TEST_CASE("Config loader: a configuration prints as YAML that loads back to the same configuration",
          "[io][config]") {
  // Names and argument texts a reader would take differently if printed plainly (quotes,
  // colons, comments, indicators, line breaks, a merge key, null words), nested lists and
  // maps, empty collections, a key past the 1,024-character window of implicit keys.
  const std::string long_key(1100, 'k');
  const std::string text = absl::StrCat(R"(actions: "r\", al\\locate, x: y, #z"
tiers:
- plugins:
  - name: "gang # not a comment"
    enableJobReady: false
    arguments:
      "<<": merge
      "a: b": "- c"
      "null": "~"
      plain: -5
      quoted: "10"
      multi: "line\none\ttab \u2028 sep"
      "next \N line": "no-break \_ space \x85 \xa0"
      empty_map: {}
      empty_list: []
      nothing:
      nested: [[1, {x: "y"}], {k: [a, "b"]}, null]
      )",
                                         "? \"", long_key, "\"\n      : {deep: {deeper: [\"", long_key, "\"]}}\n",
                                         R"(  - name: "- dash"
configurations:
- name: "[alloc]"
  arguments:
    "? q": "@at"
)");
  absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({"c.conf", text});
  INFO((c.ok() ? "" : std::string(c.status().message())));
  REQUIRE(c.ok());
  CHECK(c->actions == std::vector<std::string>{"r\"", "al\\locate", "x: y", "#z"});
  const std::string printed = c->ToYaml();
  INFO(printed);
  absl::StatusOr<SchedulerConfig> again = LoadSchedulerConfig({"again.conf", printed});
  INFO((again.ok() ? "" : std::string(again.status().message())));
  REQUIRE(again.ok());
  CHECK(again->ToYaml() == printed);
  CHECK(again->actions == c->actions);
  REQUIRE(again->tiers.size() == 1);
  REQUIRE(again->tiers[0].plugins.size() == 2);
  CHECK(again->tiers[0].plugins[0].name == "gang # not a comment");
  CHECK(again->tiers[0].plugins[1].name == "- dash");
  CHECK(again->tiers[0].plugins[0].arguments.root() == c->tiers[0].plugins[0].arguments.root());
  CHECK(again->configurations.at(0).name == "[alloc]");
  CHECK(again->configurations.at(0).arguments.root() == c->configurations.at(0).arguments.root());
  // YAML's \N and \_ are U+0085 and U+00A0 (yaml-cpp alone gives the single bytes 0x85, 0xA0).
  const Value* escaped = c->tiers[0].plugins[0].arguments.root().Find("next \xc2\x85 line");
  REQUIRE(escaped != nullptr);
  CHECK(escaped->text() == "no-break \xc2\xa0 space \xc2\x85 \xc2\xa0");
}

TEST_CASE("Config loader: misspelt switches and bad shapes are errors", "[io][config]") {
  absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({"c.conf", R"(actions: "allocate"
tiers:
- plugins:
  - name: gang
    enableJobReadyy: true
  - name: drf
    enablePreemptable: maybe
)"});
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(std::string(c.status().message()), Catch::Contains("tiers[0].plugins[0].enableJobReadyy: unknown plugin switch"));
  CHECK_THAT(std::string(c.status().message()), Catch::Contains("enablePreemptable: expected true or false"));
}

TEST_CASE("Config loader: a sharding nodeSelector is read and warned about, not applied", "[io][config]") {
  std::vector<std::string> warnings;
  absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({"c.conf", R"(actions: "allocate"
tiers:
- plugins: [{name: gang}]
nodeSelector:
  role: batch,gpu
)"},
                                                          &warnings);
  REQUIRE(c.ok());
  CHECK(c->actions == std::vector<std::string>{"allocate"});
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::StartsWith("c.conf: document 1: nodeSelector: scheduler sharding is not applied"));
}

TEST_CASE("Config loader: a configuration file with hierarchical drf beside proportion is refused, a scenario "
          "document is not",
          "[io][config]") {
  const std::string tiers = "tiers:\n- plugins: [{name: drf, enableHierarchy: true}, {name: proportion}]\n";
  absl::StatusOr<SchedulerConfig> file = LoadSchedulerConfig({"c.conf", "actions: \"allocate\"\n" + tiers});
  REQUIRE_FALSE(file.ok());
  CHECK_THAT(std::string(file.status().message()),
             Catch::Contains("tiers[0]: drf with enableHierarchy and proportion in one tier: Volcano's scheduler refuses"));
  // Among a scenario's files, a bare configuration is a file too.
  CHECK_FALSE(LoadScenario({{"c.conf", "actions: \"allocate\"\n" + tiers}}).ok());
  // A SchedulerConfiguration document holds tiers as Volcano's tests build them.
  absl::StatusOr<Scenario> doc =
      LoadScenario({{"s.yaml", "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"allocate\"\n" + tiers}});
  REQUIRE(doc.ok());
  REQUIRE(doc->config.has_value());
  CHECK(doc->config->tiers.at(0).plugins.size() == 2);
}

TEST_CASE("Config loader: a scheduler ConfigMap is unwrapped", "[io][config]") {
  absl::StatusOr<SchedulerConfig> c = LoadSchedulerConfig({"cm.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata: {name: volcano-scheduler-configmap}
data:
  volcano-scheduler.conf: |
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: gang
)"});
  REQUIRE(c.ok());
  CHECK(c->actions == std::vector<std::string>{"enqueue", "allocate"});
}

TEST_CASE("Expectation: differences are described", "[io][expectation]") {
  Expectation e;
  e.has_binds = true;
  e.binds["ns/a"] = {"n1", "n2"};
  e.evictions = std::vector<std::string>{"ns/v"};
  e.pod_group_phases["ns/pg"] = "Running";
  Decisions d;
  d.binds = {{"ns/a", "n3"}, {"ns/b", "n1"}};
  const std::vector<std::string> diffs = CompareWithExpectation(d, e);
  REQUIRE(diffs.size() == 4);
  CHECK(diffs[0] == "bind ns/a: expected one of [n1, n2], got n3");
  CHECK(diffs[1] == "bind ns/b: expected no bind, got n1");
  CHECK(diffs[2] == "evictions: expected [ns/v], got []");
  CHECK_THAT(diffs[3], Catch::Contains("podGroupPhases ns/pg"));
}

}  // namespace
}  // namespace vcsched
