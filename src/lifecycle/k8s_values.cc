#include "src/lifecycle/k8s_values.h"

#include "absl/strings/str_cat.h"

namespace vcsched::lifecycle::internal {

Value NewObject(const std::string& api_version, const std::string& kind, const std::string& name,
                const std::string& namespace_) {
  Value v = Value::Map();
  v.Set("apiVersion", Value::String(api_version));
  v.Set("kind", Value::String(kind));
  Value& meta = v["metadata"];
  meta.Set("name", Value::String(name));
  if (!namespace_.empty()) meta.Set("namespace", Value::String(namespace_));
  return v;
}

void SetJobOwner(Value& object, const VolcanoJob& job) {
  Value owner = Value::Map();
  owner.Set("apiVersion", Value::String("batch.volcano.sh/v1alpha1"));
  owner.Set("kind", Value::String("Job"));
  owner.Set("name", Value::String(job.metadata.name));
  owner.Set("uid", Value::String(job.metadata.uid));
  owner.Set("controller", Value::Bool(true));
  owner.Set("blockOwnerDeletion", Value::Bool(true));
  Value list = Value::List();
  list.Push(std::move(owner));
  object["metadata"].Set("ownerReferences", std::move(list));
}

Value StringMapValue(const std::map<std::string, std::string>& map) {
  Value v = Value::Map();
  for (const auto& [k, s] : map) v.Set(k, Value::String(s));
  return v;
}

void AddEnv(Value& container, const std::string& name, Value env_entry) {
  Value& env = container["env"];
  if (env.is_null()) env = Value::List();
  if (!env.is_list()) return;
  for (const Value& e : env.items()) {
    const Value* n = e.Find("name");
    if (n != nullptr && n->text() == name) return;
  }
  env.Push(std::move(env_entry));
}

void AddEnvValue(Value& container, const std::string& name, const std::string& value) {
  Value e = Value::Map();
  e.Set("name", Value::String(name));
  e.Set("value", Value::String(value));
  AddEnv(container, name, std::move(e));
}

void AddVolume(Value& pod_spec, Value volume, const std::string& mount_path) {
  const std::string name = volume.Find("name")->text();
  Value& volumes = pod_spec["volumes"];
  if (volumes.is_null()) volumes = Value::List();
  bool present = false;
  for (const Value& v : volumes.items()) present = present || (v.Find("name") && v.Find("name")->text() == name);
  if (!present) volumes.Push(std::move(volume));
  ForEachContainer(pod_spec, [&](Value& c) {
    Value& mounts = c["volumeMounts"];
    if (mounts.is_null()) mounts = Value::List();
    for (const Value& m : mounts.items()) {
      const Value* p = m.Find("mountPath");
      if (p != nullptr && p->text() == mount_path) return;
    }
    Value m = Value::Map();
    m.Set("name", Value::String(name));
    m.Set("mountPath", Value::String(mount_path));
    mounts.Push(std::move(m));
  });
}

std::string PluginFlag(const std::vector<std::string>& args, const std::string& flag, const std::string& fallback) {
  const std::string prefix = absl::StrCat("--", flag, "=");
  for (const std::string& a : args) {
    if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
    if (a == absl::StrCat("--", flag)) return "true";
  }
  return fallback;
}

}  // namespace vcsched::lifecycle::internal
