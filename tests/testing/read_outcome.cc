#include "tests/testing/read_outcome.h"

#include "absl/strings/str_cat.h"
#include "vcsched/cluster.h"
#include "vcsched/io/cluster_io.h"

namespace vcsched::testing {
namespace {

// `text` without the places YAML messages give (", line 12:5").
std::string WithoutLines(std::string text) {
  const std::string mark = ", line ";
  for (size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at)) {
    size_t end = at + mark.size();
    const auto digits = [&] {
      const size_t from = end;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
      return end > from;
    };
    if (digits() && end < text.size() && text[end] == ':' && (++end, digits())) text.erase(at, end - at);
    else at += mark.size();
  }
  return text;
}

}  // namespace

std::string ReadOutcome(absl::StatusOr<ScenarioObjects> objects, bool unplaced) {
  const auto said = [&](absl::string_view message) {
    return unplaced ? WithoutLines(std::string(message)) : std::string(message);
  };
  if (!objects.ok()) return absl::StrCat("error: ", said(objects.status().message()));
  std::string out;
  for (const std::string& w : objects->warnings) absl::StrAppend(&out, "warning: ", said(w), "\n");
  Cluster cluster;
  if (absl::Status s = PutObjects(*objects, cluster); !s.ok()) return absl::StrCat(out, "refused: ", said(s.message()));
  return out + ClusterToYaml(cluster);
}

}  // namespace vcsched::testing
