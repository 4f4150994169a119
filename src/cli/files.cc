#include "src/cli/files.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "vcsched/io/scenario.h"
#include "src/util/status_macros.h"

namespace vcsched::cli {

namespace {

// Reads a stream (standard input, a pipe, a FIFO, a character device) up to the
// loader's size limit: /dev/zero or an endless pipe ends with an error, not with all
// memory used, and an empty read of something that is not a regular file is not taken
// for an empty file without saying so.
// The pieces are kept apart until the end, so that memory stays near the bytes read (a
// growing string would double past the limit), and a NUL byte, which no YAML or JSON text
// holds, ends the read at once: /dev/zero and /dev/urandom are refused in their first
// pieces.
absl::StatusOr<std::string> ReadBounded(std::istream& in, const std::string& name) {
  const size_t kLimit = LoadOptions().max_bytes;
  std::vector<std::string> pieces;
  size_t total = 0;
  std::string chunk(size_t{1} << 20, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    const size_t got = static_cast<size_t>(in.gcount());
    if (const void* nul = std::memchr(chunk.data(), 0, got)) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": byte ", total + (static_cast<const char*>(nul) - chunk.data()),
                                                     " is NUL: not YAML or JSON text"));
    }
    total += got;
    if (total > kLimit) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": input exceeds the limit of ", kLimit, " bytes"));
    }
    pieces.emplace_back(chunk.data(), got);
  }
  std::string text;
  text.reserve(total + 64);  // the JSON parser reads up to 64 bytes past the end in place
  for (const std::string& p : pieces) text += p;
  return text;
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  if (path == "-" || path == "/dev/stdin") return ReadBounded(std::cin, "standard input");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory"));
  }
  const bool regular = std::filesystem::is_regular_file(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (!std::filesystem::exists(path, ec)) return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return absl::NotFoundError(absl::StrCat(path, ": cannot open file"));
  }
  if (!regular) return ReadBounded(in, path);  // a pipe, a FIFO, a device
  // One read into a string of the file's size: a stream copy of a 100 MB file costs more
  // than parsing it.
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return ReadBounded(in, path);
  if (size > LoadOptions().max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": input of ", size, " bytes exceeds the limit of ", LoadOptions().max_bytes));
  }
  // Spare capacity past the end lets the JSON parser read the text in place (it reads
  // up to 64 bytes beyond the last one) instead of copying it into a padded buffer.
  std::string text;
  text.reserve(static_cast<size_t>(size) + 64);
  text.resize(static_cast<size_t>(size));
  if (in.read(text.data(), static_cast<std::streamsize>(size))) return text;
  return absl::DataLossError(absl::StrCat(path, ": the file changed while it was read"));
}

absl::StatusOr<std::vector<ScenarioSource>> ReadSources(const std::vector<std::string>& paths) {
  std::vector<ScenarioSource> sources;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) return text.status();
    sources.push_back({path, *std::move(text)});
  }
  return sources;
}

absl::StatusOr<FileText> FileText::Open(const std::string& path) {
  FileText out;
  const int fd = path == "-" ? -1 : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const size_t size = static_cast<size_t>(st.st_size);
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    // Zero pages reserved after the file's last page keep the reads past the end inside
    // the mapping; the file is mapped over the front of the reservation.
    const size_t total = (size + page - 1) / page * page + page;
    void* base = mmap(nullptr, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base != MAP_FAILED) {
      if (mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0) != MAP_FAILED) {
        out.map_ = base;
        out.map_size_ = total;
        out.text_ = absl::string_view(static_cast<const char*>(base), size);
        out.readable_past_end_ = total - size;
      } else {
        munmap(base, total);
      }
    }
  }
  if (fd >= 0) close(fd);
  if (out.map_ != nullptr) return out;
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  out.owned_ = *std::move(text);
  out.owned_.reserve(out.owned_.size() + 64);
  out.text_ = out.owned_;
  out.readable_past_end_ = out.owned_.capacity() - out.owned_.size();
  return out;
}

FileText::FileText(FileText&& other) noexcept { *this = std::move(other); }

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this == &other) return *this;
  Release();
  map_ = std::exchange(other.map_, nullptr);
  map_size_ = std::exchange(other.map_size_, 0);
  owned_ = std::move(other.owned_);
  text_ = map_ != nullptr ? other.text_ : absl::string_view(owned_);  // a view of owned_ moves with it
  readable_past_end_ = map_ != nullptr ? other.readable_past_end_ : owned_.capacity() - owned_.size();
  other.text_ = {};
  other.readable_past_end_ = 0;
  return *this;
}

FileText::~FileText() { Release(); }

void FileText::Release() {
  if (map_ != nullptr) munmap(map_, map_size_);
  map_ = nullptr;
  map_size_ = 0;
}

ScenarioSource FileText::Source(std::string name) const {
  ScenarioSource s;
  s.name = std::move(name);
  s.borrowed_text = text_;
  s.readable_past_end = readable_past_end_;
  return s;
}

absl::StatusOr<Scenario> LoadScenarioFiles(const std::vector<std::string>& paths, const LoadOptions& options,
                                           int threads) {
  std::vector<FileText> texts;  // borrowed by the sources while loading
  std::vector<ScenarioSource> sources;
  texts.reserve(paths.size());
  for (const std::string& p : paths) {
    absl::StatusOr<FileText> text = FileText::Open(p);
    if (!text.ok()) return text.status();
    texts.push_back(*std::move(text));
    sources.push_back(texts.back().Source(p));
  }
  LoadOptions with_threads = options;
  with_threads.threads =
      threads > 0 ? threads : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  return LoadScenario(std::move(sources), with_threads);
}

absl::StatusOr<std::vector<std::string>> ExpandScenarioPaths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (p == "-" || !std::filesystem::is_directory(p, ec)) {
      out.push_back(p);  // a file that cannot be read is reported when it is read
      continue;
    }
    std::vector<std::string> found;
    for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      const std::string ext = it->path().extension().string();
      if (it->is_regular_file(ec) && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
        found.push_back(it->path().string());
      }
    }
    if (ec) return absl::InvalidArgumentError(absl::StrCat(p, ": ", ec.message()));
    if (found.empty()) return absl::NotFoundError(absl::StrCat(p, ": no *.yaml, *.yml or *.json file in the directory"));
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> CollectYamlFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        const std::string ext = it->path().extension().string();
        if (it->is_regular_file() && (ext == ".yaml" || ext == ".yml")) out.push_back(it->path().string());
      }
      if (ec) return absl::InvalidArgumentError(absl::StrCat(p, ": ", ec.message()));
    } else if (std::filesystem::exists(p, ec)) {
      out.push_back(p);
    } else {
      return absl::NotFoundError(absl::StrCat(p, ": no such file or directory"));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<SchedulerConfig> ResolveConfig(const std::optional<SchedulerConfig>& scenario_config,
                                              const std::string& config_path,
                                              const std::vector<std::string>& flag_args,
                                              std::vector<std::string>* warnings) {
  SchedulerConfig config = scenario_config.value_or(DefaultSchedulerConfig());
  if (!config_path.empty()) {
    VCSCHED_ASSIGN_OR_RETURN(const std::string text, ReadFile(config_path));
    VCSCHED_ASSIGN_OR_RETURN(SchedulerConfig file, LoadSchedulerConfig({config_path, text}, warnings));
    // The flags belong to the scheduler's command line, not to its configuration file.
    if (scenario_config) {
      file.scheduler_args.insert(file.scheduler_args.begin(), scenario_config->scheduler_args.begin(),
                                 scenario_config->scheduler_args.end());
    }
    config = std::move(file);
  }
  if (!flag_args.empty()) {
    config.scheduler_args.insert(config.scheduler_args.end(), flag_args.begin(), flag_args.end());
    if (absl::Status s = ParseSchedulerArgs(config.scheduler_args).status(); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("command line: ", s.message()));
    }
  }
  return config;
}

absl::StatusOr<SessionInput> LoadSessionInput(const std::vector<std::string>& paths, const std::string& config_path,
                                              const std::vector<std::string>& flag_args, const LoadOptions& options,
                                              std::vector<std::string>* config_warnings) {
  VCSCHED_ASSIGN_OR_RETURN(Scenario scenario, LoadScenarioFiles(paths, options));
  VCSCHED_ASSIGN_OR_RETURN(SchedulerConfig config,
                           ResolveConfig(scenario.config, config_path, flag_args, config_warnings));
  return SessionInput{std::move(scenario), std::move(config)};
}

}  // namespace vcsched::cli
