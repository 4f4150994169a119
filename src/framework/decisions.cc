#include "vcsched/decisions.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "src/model/output_text.h"
#include "src/framework/decisions_sort.h"

namespace vcsched {

namespace {
// Sorts unless already sorted (decisions are mostly produced in order).
template <typename T, typename Less>
void SortIfNeeded(std::vector<T>& v, Less less) {
  if (!std::is_sorted(v.begin(), v.end(), less)) std::sort(v.begin(), v.end(), less);
}
}  // namespace

namespace internal {

void SortDecisions(Decisions& d, KnownSorted known) {
  if (!known.binds) {
    SortIfNeeded(d.binds, [](const Bind& a, const Bind& b) { return std::tie(a.task, a.node) < std::tie(b.task, b.node); });
  }
  SortIfNeeded(d.evictions, [](const Eviction& a, const Eviction& b) {
    return std::tie(a.task, a.action, a.preemptor) < std::tie(b.task, b.action, b.preemptor);
  });
  SortIfNeeded(d.pipelined, [](const Pipelined& a, const Pipelined& b) {
    return std::tie(a.task, a.node) < std::tie(b.task, b.node);
  });
  if (!known.pod_groups) {
    SortIfNeeded(d.pod_groups, [](const PodGroupStatus& a, const PodGroupStatus& b) { return a.job < b.job; });
  }
  SortIfNeeded(d.task_reasons, [](const TaskReason& a, const TaskReason& b) { return a.task < b.task; });
  SortIfNeeded(d.volume_bindings, [](const VolumeBinding& a, const VolumeBinding& b) { return a.claim < b.claim; });
  std::sort(d.warnings.begin(), d.warnings.end());
  d.warnings.erase(std::unique(d.warnings.begin(), d.warnings.end()), d.warnings.end());
}

}  // namespace internal

// Texts copied into blocks that never move, so views into them survive the Decisions
// being moved or copied and the store growing.
struct Decisions::TextStore {
  static constexpr size_t kBlockSize = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks;
  char* free = nullptr;  // the unused end of the block being filled
  size_t left = 0;
};

SharedText Decisions::Keep(absl::string_view text) {
  if (text.empty()) return {};
  if (texts_ == nullptr) {
    texts_ = std::make_shared<TextStore>();
    texts_owner_ = SharedText::Owner(texts_);
  }
  TextStore& store = *texts_;
  char* at;
  if (text.size() > TextStore::kBlockSize / 4) {  // a long text gets a block of its own
    at = store.blocks.emplace_back(std::unique_ptr<char[]>(new char[text.size()])).get();
  } else {
    if (text.size() > store.left) {
      store.free = store.blocks.emplace_back(std::unique_ptr<char[]>(new char[TextStore::kBlockSize])).get();
      store.left = TextStore::kBlockSize;
    }
    at = store.free;
    store.free += text.size();
    store.left -= text.size();
  }
  std::memcpy(at, text.data(), text.size());
  return SharedText(absl::string_view(at, text.size()), texts_owner_);
}

void Decisions::Sort() { internal::SortDecisions(*this, {}); }

// Every field goes through Printable: a reason or message (a host plugin's, a name
// quoted from the input) cannot start a line that reads as a decision.
std::string Decisions::ToString() const {
  std::string out;
  const auto p = [](absl::string_view s) { return Printable(s); };
  for (const Bind& b : binds) {
    absl::StrAppend(&out, "bind ", p(b.task), " -> ", p(b.node));
    for (const PodAnnotation& a : b.annotations) absl::StrAppend(&out, " ", a.key, "=", a.value);
    out += "\n";
  }
  for (const Pipelined& pl : pipelined) absl::StrAppend(&out, "pipeline ", p(pl.task), " -> ", p(pl.node), "\n");
  for (const VolumeBinding& v : volume_bindings) {
    absl::StrAppend(&out, "bind claim ", p(v.claim), " of ", p(v.task), " -> ",
                    v.volume.empty() ? absl::StrCat("a volume provisioned for ", p(v.node)) : p(v.volume), "\n");
  }
  for (const Eviction& e : evictions) {
    absl::StrAppend(&out, "evict ", p(e.task), " by ", p(e.action));
    if (!e.preemptor.empty()) absl::StrAppend(&out, " for ", p(e.preemptor));
    absl::StrAppend(&out, ": ", p(e.reason), "\n");
  }
  for (const PodGroupStatus& g : pod_groups) {
    absl::StrAppend(&out, "podgroup ", p(g.job), " ", p(g.old_phase), " -> ", p(g.phase), "\n");
    for (const PodGroupCondition& c : g.conditions) {
      absl::StrAppend(&out, "  condition ", p(c.type), "=", p(c.status), " reason=\"", p(c.reason), "\"");
      if (!c.message.empty()) absl::StrAppend(&out, " message=\"", p(c.message), "\"");
      out += "\n";
    }
  }
  for (const TaskReason& r : task_reasons) {
    absl::StrAppend(&out, "unplaced ", p(r.task), " ", p(r.reason), ": ", p(r.message), "\n");
  }
  for (const std::string& w : warnings) absl::StrAppend(&out, "warning ", p(w), "\n");
  return out;
}

}  // namespace vcsched
