#include "src/model/vgpu.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "src/model/go_parse.h"

namespace vcsched::internal {
namespace {

// Go's strconv.ParseUint(s, 10, 32).
std::optional<int64_t> ParseUint32(absl::string_view s) {
  if (s.empty() || s.size() > 10) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v > 0xFFFFFFFFLL) return std::nullopt;
  return v;
}

// A quantity's AsInt64 (whole values only), then Go's int32 conversion (low 32 bits).
std::optional<int64_t> AsInt32(const ResourceList& list, const char* name) {
  auto it = list.find(name);
  if (it == list.end()) return std::nullopt;
  if (it->second % 1000 != 0) return int64_t{0};  // AsInt64 fails: Volcano keeps its default 0
  return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(it->second / 1000))));
}

}  // namespace

std::optional<std::vector<VgpuCard>> NodeVgpuCards(const NodeSpec& node) {
  auto register_it = node.annotations.find(kVgpuRegisterAnnotation);
  if (register_it == node.annotations.end()) return std::nullopt;
  for (const char* name : {kVgpuNumberResource, kVgpuCoresResource, kVgpuMemoryResource}) {
    auto it = node.allocatable.find(name);
    if (it == node.allocatable.end() || it->second == 0) return std::nullopt;
  }
  const std::string& text = register_it->second;
  if (text.find(':') == std::string::npos) return std::nullopt;
  std::vector<VgpuCard> cards;
  int64_t index = 0;
  for (absl::string_view part : absl::StrSplit(text, ':')) {
    const int64_t id = index++;
    if (part.find(',') == absl::string_view::npos) continue;
    const std::vector<absl::string_view> items = absl::StrSplit(part, ',');
    if (items.size() < 6) return std::nullopt;
    cards.push_back({id, std::string(items[0]), GoAtoi(items[1]).value_or(0), GoAtoi(items[2]).value_or(0),
                     std::string(items[3])});  // Volcano ignores Atoi's errors: 0
  }
  if (cards.empty()) return std::nullopt;
  return cards;
}

bool PodAsksVgpu(const PodSpec& pod) {
  return std::any_of(pod.containers.begin(), pod.containers.end(), [](const Container& c) {
    return c.limits.count(kVgpuMemoryResource) != 0 || c.limits.count(kVgpuNumberResource) != 0;
  });
}

std::vector<VgpuRequest> PodVgpuRequests(const PodSpec& pod) {
  std::vector<VgpuRequest> out;
  for (const Container& c : pod.containers) {
    VgpuRequest r;
    if (std::optional<int64_t> n = AsInt32(c.limits, kVgpuNumberResource)) {
      r.cards = *n;
    } else if (c.limits.count(kVgpuMemoryResource) != 0) {
      r.cards = 1;
    } else {
      continue;
    }
    std::optional<int64_t> memory = AsInt32(c.limits, kVgpuMemoryResource);
    if (!memory) memory = AsInt32(c.requests, kVgpuMemoryResource);
    r.memory = memory.value_or(0);
    if (r.memory == 0) r.memory_percent = 100;
    std::optional<int64_t> cores = AsInt32(c.limits, kVgpuCoresResource);
    if (!cores) cores = AsInt32(c.requests, kVgpuCoresResource);
    r.cores = cores.value_or(0);
    out.push_back(r);
  }
  return out;
}

std::string EncodeVgpuGrants(const std::vector<std::vector<VgpuGrant>>& containers) {
  std::vector<std::string> parts;
  for (const std::vector<VgpuGrant>& grants : containers) {
    std::string s;
    for (const VgpuGrant& g : grants) absl::StrAppend(&s, g.uuid, ",", g.type, ",", g.memory, ",", g.cores, ":");
    parts.push_back(std::move(s));
  }
  return absl::StrJoin(parts, ";");
}

std::vector<std::vector<VgpuGrant>> DecodeVgpuGrants(const std::string& text) {
  std::vector<std::vector<VgpuGrant>> out;
  if (text.empty()) return out;
  for (absl::string_view container : absl::StrSplit(text, ';')) {
    std::vector<VgpuGrant>& grants = out.emplace_back();
    if (container.empty()) continue;
    for (absl::string_view part : absl::StrSplit(container, ':')) {
      if (part.find(',') == absl::string_view::npos) continue;
      const std::vector<absl::string_view> items = absl::StrSplit(part, ',');
      if (items.size() < 4) continue;
      const std::optional<int64_t> memory = ParseUint32(items[2]);
      const std::optional<int64_t> cores = ParseUint32(items[3]);
      if (!memory || !cores) continue;
      grants.push_back({std::string(items[0]), std::string(items[1]), *memory, *cores});
    }
  }
  return out;
}

}  // namespace vcsched::internal
