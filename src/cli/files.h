// File access for the command-line tool (the libraries do no I/O).
#ifndef VCSCHED_SRC_CLI_FILES_H_
#define VCSCHED_SRC_CLI_FILES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/io/scenario.h"

namespace vcsched::cli {

// The whole file, or "-" for standard input.
absl::StatusOr<std::string> ReadFile(const std::string& path);
// Each file read whole, named by its path: what LoadObjects and ReadWorkload take.
absl::StatusOr<std::vector<ScenarioSource>> ReadSources(const std::vector<std::string>& paths);
// A scenario file's text: a regular file is memory-mapped, so that a large input is read
// from the page cache without a copy (a file truncated while mapped faults, as for any
// mapped file); anything else is read. Either way at least 64 bytes past the end are
// readable, which lets the JSON reader parse in place.
class FileText {
 public:
  static absl::StatusOr<FileText> Open(const std::string& path);  // "-": standard input
  FileText(FileText&& other) noexcept;
  FileText& operator=(FileText&& other) noexcept;
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText();

  absl::string_view text() const { return text_; }
  // A source that borrows the text: `this` must outlive the loading.
  ScenarioSource Source(std::string name) const;

 private:
  FileText() = default;
  void Release();
  void* map_ = nullptr;  // the mapping, with spare pages after the file
  size_t map_size_ = 0;
  std::string owned_;  // when not mapped
  absl::string_view text_;
  size_t readable_past_end_ = 0;
};

// Loads scenario files (FORMAT.md) into one scenario; the files are unmapped on return.
// `threads` parse the YAML documents (LoadOptions::threads); 0: every processor, up to 8
// (the command line is a host that allows them).
absl::StatusOr<Scenario> LoadScenarioFiles(const std::vector<std::string>& paths, const LoadOptions& options = {},
                                           int threads = 0);
// The configuration a session uses: `config_path` when given (a volcano-scheduler.conf;
// its warnings appended to `warnings`), else the scenario's own, else Volcano's default.
// Its scheduler_args are the scenario's, then the file's, then `flag_args` (the command
// line's vc-scheduler flags: the last of a flag wins, as in vc-scheduler); a bad one is an
// error naming it.
absl::StatusOr<SchedulerConfig> ResolveConfig(const std::optional<SchedulerConfig>& scenario_config,
                                              const std::string& config_path,
                                              const std::vector<std::string>& flag_args,
                                              std::vector<std::string>* warnings);
// The scenario of `paths` and the configuration a session uses (ResolveConfig).
struct SessionInput {
  Scenario scenario;
  SchedulerConfig config;
};
absl::StatusOr<SessionInput> LoadSessionInput(const std::vector<std::string>& paths, const std::string& config_path,
                                              const std::vector<std::string>& flag_args, const LoadOptions& options,
                                              std::vector<std::string>* config_warnings);
// The paths with each directory replaced by the scenario files under it (*.yaml, *.yml,
// *.json, recursively, sorted); files, `-` and /dev/stdin are kept as given. A missing
// path, or a directory without scenario files, is an error.
absl::StatusOr<std::vector<std::string>> ExpandScenarioPaths(const std::vector<std::string>& paths);
// Every *.yaml / *.yml file under each path (a file is taken as it is), sorted.
absl::StatusOr<std::vector<std::string>> CollectYamlFiles(const std::vector<std::string>& paths);

}  // namespace vcsched::cli

#endif  // VCSCHED_SRC_CLI_FILES_H_
