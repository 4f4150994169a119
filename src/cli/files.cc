#include "src/cli/files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace vcsched::cli {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ostringstream buf;
  if (path == "-") {
    buf << std::cin.rdbuf();
    return buf.str();
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory"));
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open file"));
  // One read into a string of the file's size: a stream copy of a 100 MB file costs more
  // than parsing it.
  const std::streamoff size = in.tellg();
  if (size >= 0) {
    // Spare capacity past the end lets the JSON parser read the text in place (it reads
    // up to 64 bytes beyond the last one) instead of copying it into a padded buffer.
    std::string text;
    text.reserve(static_cast<size_t>(size) + 64);
    text.resize(static_cast<size_t>(size));
    in.seekg(0);
    if (in.read(text.data(), size)) return text;
    in.clear();
    in.seekg(0);
  }
  buf << in.rdbuf();  // not seekable (a pipe): read as a stream
  return buf.str();
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

}  // namespace vcsched::cli
