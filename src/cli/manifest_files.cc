#include "src/cli/manifest_files.h"

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "src/cli/files.h"

namespace vcsched::cli {

using lifecycle::SshKeyPair;
using lifecycle::SshKeySource;
using lifecycle::TimeZoneResolver;
using lifecycle::VolcanoJob;

absl::StatusOr<std::vector<Manifest>> ReadManifests(const std::vector<std::string>& paths) {
  std::vector<ScenarioSource> sources;
  for (const std::string& p : paths) {
    absl::StatusOr<std::string> text = ReadFile(p);
    if (!text.ok()) return text.status();
    sources.push_back({p, *std::move(text)});
  }
  return LoadManifests(sources);
}

TimeZoneResolver SystemTimeZones() {
  return [](const std::string& name) -> std::optional<absl::TimeZone> {
    absl::TimeZone tz;
    if (absl::LoadTimeZone(name, &tz)) return tz;
    return std::nullopt;
  };
}

SshKeySource CliSshKeys(const std::string& key_dir) {
  return [key_dir](const VolcanoJob& job) -> absl::StatusOr<SshKeyPair> {
    if (key_dir.empty()) {
      return SshKeyPair{absl::StrCat("-----BEGIN PLACEHOLDER KEY-----\nno key generated for job ", job.metadata.name,
                                     "; pass --ssh-key-dir\n-----END PLACEHOLDER KEY-----\n"),
                        absl::StrCat("ssh-rsa PLACEHOLDER ", job.metadata.name, "\n")};
    }
    absl::StatusOr<std::string> priv = ReadFile(absl::StrCat(key_dir, "/id_rsa"));
    if (!priv.ok()) return priv.status();
    absl::StatusOr<std::string> pub = ReadFile(absl::StrCat(key_dir, "/id_rsa.pub"));
    if (!pub.ok()) return pub.status();
    return SshKeyPair{*priv, *pub};
  };
}

}  // namespace vcsched::cli
