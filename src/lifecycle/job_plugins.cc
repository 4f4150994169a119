#include "src/lifecycle/job_plugins.h"

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "src/lifecycle/k8s_values.h"

namespace vcsched::lifecycle::internal {

namespace {

std::string Flag(const VolcanoJob& job, const char* plugin, const char* flag, const char* fallback) {
  const std::vector<std::string>* args = job.PluginArguments(plugin);
  return args == nullptr ? fallback : PluginFlag(*args, flag, fallback);
}

Value& SpecOf(PodDraft& d) { return d.pod["spec"]; }

// The env-var stem of a task: upper case, '-' -> '_'.
std::string EnvStem(const std::string& task) {
  return absl::AsciiStrToUpper(absl::StrReplaceAll(task, {{"-", "_"}}));
}

void OpenPort(Value& spec, const std::string& name, int port) {
  ForEachContainer(spec, [&](Value& c) {
    Value& ports = c["ports"];
    if (ports.is_null()) ports = Value::List();
    for (const Value& p : ports.items()) {
      const Value* n = p.Find("containerPort");
      if (n != nullptr && n->text() == absl::StrCat(port)) return;
    }
    Value p = Value::Map();
    p.Set("name", Value::String(name));
    p.Set("containerPort", Value::Int(port));
    p.Set("protocol", Value::String("TCP"));
    ports.Push(std::move(p));
  });
}

int Port(const VolcanoJob& job, const char* plugin, int fallback) {
  int port = fallback;
  const std::string text = Flag(job, plugin, "port", "");
  if (!text.empty() && !absl::SimpleAtoi(text, &port)) port = fallback;
  return port;
}

void ApplyEnv(std::vector<PodDraft>& pods) {
  for (PodDraft& d : pods) {
    ForEachContainer(SpecOf(d), [&](Value& c) {
      AddEnvValue(c, "VK_TASK_INDEX", absl::StrCat(d.index));
      AddEnvValue(c, "VC_TASK_INDEX", absl::StrCat(d.index));
    });
  }
}

void ApplySvc(const VolcanoJob& job, std::vector<Value>& objects, std::vector<PodDraft>& pods) {
  const std::string& name = job.metadata.name;
  const std::string& ns = job.metadata.namespace_;
  const bool publish_not_ready = Flag(job, "svc", "publish-not-ready-addresses", "false") == "true";
  const bool disable_policy = Flag(job, "svc", "disable-network-policy", "false") == "true";
  const bool inject_env = Flag(job, "svc", "inject-hosts-env", "true") == "true";
  Value selector = Value::Map();
  selector.Set("volcano.sh/job-name", Value::String(name));
  selector.Set("volcano.sh/job-namespace", Value::String(ns));

  Value cm = NewObject("v1", "ConfigMap", absl::StrCat(name, "-svc"), ns);
  SetJobOwner(cm, job);
  Value& data = cm["data"];
  for (const JobTask& t : job.tasks) {
    const std::vector<std::string> hosts = TaskHostNames(job, t);
    data.Set(absl::StrCat(t.name, ".host"), Value::String(absl::StrCat(absl::StrJoin(hosts, "\n"), "\n")));
    data.Set(absl::StrCat("VC_", EnvStem(t.name), "_HOSTS"), Value::String(absl::StrJoin(hosts, ",")));
    data.Set(absl::StrCat("VC_", EnvStem(t.name), "_NUM"), Value::String(absl::StrCat(hosts.size())));
  }
  objects.push_back(std::move(cm));

  Value svc = NewObject("v1", "Service", name, ns);
  SetJobOwner(svc, job);
  Value& sspec = svc["spec"];
  sspec.Set("clusterIP", Value::String("None"));
  sspec.Set("selector", selector);
  sspec.Set("publishNotReadyAddresses", Value::Bool(publish_not_ready));
  Value port = Value::Map();
  port.Set("name", Value::String("placeholder-volcano"));
  port.Set("port", Value::Int(1));
  port.Set("protocol", Value::String("TCP"));
  port.Set("targetPort", Value::Int(1));
  sspec["ports"].Push(std::move(port));
  objects.push_back(std::move(svc));

  if (!disable_policy) {
    Value np = NewObject("networking.k8s.io/v1", "NetworkPolicy", name, ns);
    SetJobOwner(np, job);
    Value& nspec = np["spec"];
    nspec["podSelector"].Set("matchLabels", selector);
    Value from = Value::Map();
    from["podSelector"].Set("matchLabels", selector);
    Value rule = Value::Map();
    rule["from"].Push(std::move(from));
    nspec["ingress"].Push(std::move(rule));
    nspec["policyTypes"].Push(Value::String("Ingress"));
    objects.push_back(std::move(np));
  }

  for (PodDraft& d : pods) {
    Value& spec = SpecOf(d);
    if (spec.Find("hostname") == nullptr) spec.Set("hostname", Value::String(d.pod["metadata"]["name"].text()));
    if (spec.Find("subdomain") == nullptr) spec.Set("subdomain", Value::String(name));
    if (inject_env) {
      ForEachContainer(spec, [&](Value& c) {
        for (const JobTask& t : job.tasks) {
          for (const char* suffix : {"_HOSTS", "_NUM"}) {
            const std::string var = absl::StrCat("VC_", EnvStem(t.name), suffix);
            Value e = Value::Map();
            e.Set("name", Value::String(var));
            Value& ref = e["valueFrom"]["configMapKeyRef"];
            ref.Set("name", Value::String(absl::StrCat(name, "-svc")));
            ref.Set("key", Value::String(var));
            AddEnv(c, var, std::move(e));
          }
        }
      });
    }
    Value vol = Value::Map();
    vol.Set("name", Value::String(absl::StrCat(name, "-svc")));
    vol["configMap"].Set("name", Value::String(absl::StrCat(name, "-svc")));
    AddVolume(spec, std::move(vol), "/etc/volcano");
  }
}

absl::Status ApplySsh(const VolcanoJob& job, const ExpandOptions& options, std::vector<Value>& objects,
                      std::vector<PodDraft>& pods) {
  const std::string key_path = Flag(job, "ssh", "ssh-key-file-path", "/root/.ssh");
  SshKeyPair keys{Flag(job, "ssh", "ssh-private-key", ""), Flag(job, "ssh", "ssh-public-key", "")};
  if (keys.private_key.empty() || keys.public_key.empty()) {
    if (!options.ssh_keys) {
      return absl::FailedPreconditionError(absl::StrCat(
          "job ", job.metadata.name, ": the ssh plugin needs key material and no SshKeySource was given"));
    }
    absl::StatusOr<SshKeyPair> made = options.ssh_keys(job);
    if (!made.ok()) return made.status();
    keys = *std::move(made);
  }
  int ssh_port = 22;
  if (std::string p = Flag(job, "ssh", "ssh-port", ""); !p.empty() && !absl::SimpleAtoi(p, &ssh_port)) {
    return absl::InvalidArgumentError(absl::StrCat("job ", job.metadata.name, ": ssh plugin: --ssh-port=", p,
                                                   " is not a port number"));
  }
  std::string config = "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n";
  for (const JobTask& t : job.tasks) {
    for (int32_t i = 0; i < t.replicas; ++i) {
      const std::string pod = absl::StrCat(job.metadata.name, "-", t.name, "-", i);
      absl::StrAppend(&config, "Host ", pod, "\n  HostName ", pod, ".", job.metadata.name, "\n  Port ", ssh_port, "\n");
    }
  }
  const std::string secret_name = absl::StrCat(job.metadata.name, "-ssh");
  Value secret = NewObject("v1", "Secret", secret_name, job.metadata.namespace_);
  SetJobOwner(secret, job);
  secret.Set("type", Value::String("Opaque"));
  Value& data = secret["data"];
  data.Set("id_rsa", Value::String(absl::Base64Escape(keys.private_key)));
  data.Set("id_rsa.pub", Value::String(absl::Base64Escape(keys.public_key)));
  data.Set("authorized_keys", Value::String(absl::Base64Escape(keys.public_key)));
  data.Set("config", Value::String(absl::Base64Escape(config)));
  objects.push_back(std::move(secret));
  const int mode = key_path == "/root/.ssh" ? 0600 : 0644;
  for (PodDraft& d : pods) {
    Value vol = Value::Map();
    vol.Set("name", Value::String(secret_name));
    Value& src = vol["secret"];
    src.Set("secretName", Value::String(secret_name));
    src.Set("defaultMode", Value::Int(mode));
    Value items = Value::List();
    for (const char* key : {"id_rsa", "id_rsa.pub", "authorized_keys", "config"}) {
      Value item = Value::Map();
      item.Set("key", Value::String(key));
      item.Set("path", Value::String(key));
      items.Push(std::move(item));
    }
    src.Set("items", std::move(items));
    AddVolume(SpecOf(d), std::move(vol), key_path);
  }
  return absl::OkStatus();
}

void ApplyMpi(const VolcanoJob& job, std::vector<PodDraft>& pods) {
  const std::string master = Flag(job, "mpi", "master", "master"), worker = Flag(job, "mpi", "worker", "worker");
  const int port = Port(job, "mpi", 22);
  const JobTask* w = job.FindTask(worker);
  const std::string hosts = w == nullptr ? "" : absl::StrJoin(TaskHostNames(job, *w), ",");
  for (PodDraft& d : pods) {
    if (d.task->name == master) ForEachContainer(SpecOf(d), [&](Value& c) { AddEnvValue(c, "MPI_HOST", hosts); });
    OpenPort(SpecOf(d), "mpijob-port", port);
  }
}

void ApplyPytorch(const VolcanoJob& job, std::vector<PodDraft>& pods) {
  const std::string master = Flag(job, "pytorch", "master", "master"), worker = Flag(job, "pytorch", "worker", "worker");
  const int port = Port(job, "pytorch", 23456);
  const JobTask* m = job.FindTask(master);
  const JobTask* w = job.FindTask(worker);
  if (m == nullptr) return;  // Volcano skips the plugin without a master task
  const int64_t world = m->replicas + (w == nullptr ? 0 : w->replicas);
  for (PodDraft& d : pods) {
    const bool is_master = d.task->name == master;
    if (!is_master && d.task->name != worker) continue;
    const int64_t rank = is_master ? 0 : d.index + 1;
    ForEachContainer(SpecOf(d), [&](Value& c) {
      AddEnvValue(c, "MASTER_ADDR", absl::StrCat(job.metadata.name, "-", master, "-0.", job.metadata.name));
      AddEnvValue(c, "MASTER_PORT", absl::StrCat(port));
      AddEnvValue(c, "WORLD_SIZE", absl::StrCat(world));
      AddEnvValue(c, "RANK", absl::StrCat(rank));
    });
    OpenPort(SpecOf(d), "pytorchjob-port", port);
  }
}

void ApplyTensorflow(const VolcanoJob& job, std::vector<PodDraft>& pods) {
  const int port = Port(job, "tensorflow", 2222);
  const std::vector<std::pair<std::string, std::string>> roles = {
      {"ps", Flag(job, "tensorflow", "ps", "ps")},
      {"worker", Flag(job, "tensorflow", "worker", "worker")},
      {"chief", Flag(job, "tensorflow", "chief", "chief")},
      {"evaluator", Flag(job, "tensorflow", "evaluator", "evaluator")}};
  std::vector<std::string> cluster;
  for (const auto& [role, task] : roles) {
    const JobTask* t = job.FindTask(task);
    if (t == nullptr) continue;
    std::vector<std::string> hosts;
    for (const std::string& h : TaskHostNames(job, *t)) hosts.push_back(absl::StrCat("\"", h, ":", port, "\""));
    cluster.push_back(absl::StrCat("\"", role, "\":[", absl::StrJoin(hosts, ","), "]"));
  }
  for (PodDraft& d : pods) {
    std::string type;
    for (const auto& [role, task] : roles) {
      if (d.task->name == task) type = role;
    }
    if (type.empty()) continue;
    const std::string tf_config = absl::StrCat("{\"cluster\":{", absl::StrJoin(cluster, ","), "},\"task\":{\"type\":\"",
                                               type, "\",\"index\":", d.index, "}}");
    ForEachContainer(SpecOf(d), [&](Value& c) { AddEnvValue(c, "TF_CONFIG", tf_config); });
  }
}

void ApplyRay(const VolcanoJob& job, std::vector<Value>& objects, std::vector<PodDraft>& pods) {
  const std::string head = Flag(job, "ray", "head", "head"), worker = Flag(job, "ray", "worker", "worker");
  const int gcs = Port(job, "ray", 6379);
  const std::string dashboard = Flag(job, "ray", "dashboardPort", "8265");
  const std::string client = Flag(job, "ray", "clientPort", "10001");
  const std::string head_host = absl::StrCat(job.metadata.name, "-", head, "-0.", job.metadata.name);
  for (PodDraft& d : pods) {
    Value* containers = SpecOf(d).Find("containers");
    if (containers == nullptr || !containers->is_list() || containers->size() == 0) continue;
    Value& c = containers->items()[0];
    Value cmd = Value::List();
    cmd.Push(Value::String("sh"));
    cmd.Push(Value::String("-c"));
    if (d.task->name == head) {
      cmd.Push(Value::String(absl::StrCat("ray start --head --block --port=", gcs, " --dashboard-host=0.0.0.0",
                                          " --dashboard-port=", dashboard, " --ray-client-server-port=", client)));
      c.Set("command", std::move(cmd));
      OpenPort(SpecOf(d), "gcs", gcs);
    } else if (d.task->name == worker) {
      cmd.Push(Value::String(absl::StrCat("ray start --block --address=", head_host, ":", gcs)));
      c.Set("command", std::move(cmd));
    }
  }
  Value svc = NewObject("v1", "Service", absl::StrCat(job.metadata.name, "-head-svc"), job.metadata.namespace_);
  SetJobOwner(svc, job);
  Value& spec = svc["spec"];
  spec["selector"].Set("volcano.sh/job-name", Value::String(job.metadata.name));
  spec["selector"].Set("volcano.sh/task-spec", Value::String(head));
  for (const auto& [pname, port] : std::vector<std::pair<std::string, std::string>>{
           {"gcs", absl::StrCat(gcs)}, {"dashboard", dashboard}, {"client", client}}) {
    Value p = Value::Map();
    p.Set("name", Value::String(pname));
    p.Set("port", Value::Plain(port));
    spec["ports"].Push(std::move(p));
  }
  objects.push_back(std::move(svc));
}

void ApplyHcclRank(const VolcanoJob& job, std::vector<PodDraft>& pods) {
  const std::string master = Flag(job, "hcclrank", "master", "master"), worker = Flag(job, "hcclrank", "worker", "worker");
  const JobTask* m = job.FindTask(master);
  const int64_t master_replicas = m == nullptr ? 0 : m->replicas;
  for (PodDraft& d : pods) {
    std::string rank;
    if (const Value* cs = SpecOf(d).Find("containers"); cs != nullptr && cs->is_list()) {
      for (const Value& c : cs->items()) {
        const Value* env = c.Find("env");
        for (size_t i = 0; env != nullptr && env->is_list() && i < env->size() && rank.empty(); ++i) {
          const Value& e = env->items()[i];
          if (e.Find("name") && e.Find("name")->text() == "RANK" && e.Find("value")) rank = e.Find("value")->text();
        }
      }
    }
    if (rank.empty() && d.task->name == master) rank = absl::StrCat(d.index);
    if (rank.empty() && d.task->name == worker) rank = absl::StrCat(master_replicas + d.index);
    if (!rank.empty()) d.pod["metadata"]["annotations"].Set("hccl/rankIndex", Value::String(rank));
  }
}

}  // namespace

std::vector<std::string> TaskHostNames(const VolcanoJob& job, const JobTask& task) {
  const Value* spec = task.pod_template.Find("spec");
  const Value* hostname = spec ? spec->Find("hostname") : nullptr;
  const Value* subdomain = spec ? spec->Find("subdomain") : nullptr;
  const std::string domain = subdomain != nullptr && !subdomain->text().empty() ? subdomain->text() : job.metadata.name;
  if (hostname != nullptr && !hostname->text().empty()) return {absl::StrCat(hostname->text(), ".", domain)};
  std::vector<std::string> out;
  for (int32_t i = 0; i < task.replicas; ++i) {
    out.push_back(absl::StrCat(job.metadata.name, "-", task.name, "-", i, ".", domain));
  }
  return out;
}

absl::Status ApplyJobPlugins(const VolcanoJob& job, const ExpandOptions& options, std::vector<Value>& objects,
                             std::vector<PodDraft>& pods) {
  for (const auto& [name, args] : job.plugins) {
    if (name == "env") ApplyEnv(pods);
    else if (name == "svc") ApplySvc(job, objects, pods);
    else if (name == "ssh") {
      if (absl::Status s = ApplySsh(job, options, objects, pods); !s.ok()) return s;
    } else if (name == "mpi") ApplyMpi(job, pods);
    else if (name == "pytorch") ApplyPytorch(job, pods);
    else if (name == "tensorflow") ApplyTensorflow(job, pods);
    else if (name == "ray") ApplyRay(job, objects, pods);
    else if (name == "hcclrank") ApplyHcclRank(job, pods);
    else return absl::InvalidArgumentError(absl::StrCat("unable to find job plugin: ", name));
  }
  return absl::OkStatus();
}

}  // namespace vcsched::lifecycle::internal
