#include "src/io/yaml_normalize.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "src/io/yaml_reader.h"

namespace vcsched::io_internal {
namespace {

struct Failure {
  std::string message;
};

// YAML's merge key is a plain "<<" (yaml-cpp tags an untagged plain scalar "?") or one
// tagged !!merge; a quoted "<<" is an ordinary key, as in Kubernetes' decoder.
bool IsMergeKey(const YAML::Node& key) {
  return key.IsScalar() && key.Scalar() == "<<" && (key.Tag() == "?" || key.Tag() == "tag:yaml.org,2002:merge");
}

// yaml-cpp decodes the escapes \N and \_ to the single bytes 0x85 and 0xA0, not to
// U+0085 and U+00A0 in UTF-8. The text it read was valid UTF-8, so a lone such byte in a
// scalar is one of them: it is written as the character it stands for.
void RepairLoneEscapeBytes(YAML::Node node) {
  const std::string& text = node.Scalar();
  if (text.find_first_of("\x85\xa0") == std::string::npos) return;
  std::string out;
  absl::string_view rest = text;
  for (int64_t bad; (bad = FirstInvalidUtf8(rest)) >= 0;) {
    const auto at = static_cast<size_t>(bad);
    out.append(rest.data(), at);
    const char byte = rest[at];
    if (byte == '\x85' || byte == '\xa0') out += '\xc2';
    out += byte;
    rest.remove_prefix(at + 1);
  }
  out.append(rest.data(), rest.size());
  if (out != text) node = out;
}

class Normalizer {
 public:
  explicit Normalizer(int line_offset) : line_offset_(line_offset) {}

  void Visit(YAML::Node node) {
    if (--budget_ < 0) {
      throw Failure{absl::StrCat("the document holds more than ", kMaxDocumentNodes,
                                 " values once its aliases are expanded")};
    }
    if (node.IsScalar()) RepairLoneEscapeBytes(node);
    if (!node.IsSequence() && !node.IsMap()) return;
    // A collection reached again through an alias was done the first time (two
    // collections never start at the same place of the text).
    const YAML::Mark m = node.Mark();
    if (m.pos >= 0 && !done_.insert(m.pos).second) return;
    if (node.IsSequence()) {
      for (YAML::Node item : node) Visit(item);
    } else if (node.IsMap()) {
      bool merges = false;
      for (auto kv : node) {
        if (kv.first.IsScalar()) RepairLoneEscapeBytes(kv.first);
        Visit(kv.second);
        if (IsMergeKey(kv.first)) {
          merges = true;
        }
      }
      CheckDuplicates(node);
      if (merges) Merge(node);
    }
  }

 private:
  std::string Where(const YAML::Mark& m) const {
    return m.line < 0 ? std::string("") : absl::StrCat("line ", m.line + 1 + line_offset_, ":", m.column + 1);
  }

  // Also refuses keys that are not strings or numbers, as Kubernetes' decoder does (a
  // manifest is JSON, whose keys are strings): a mapping, a list or null as a key.
  void CheckDuplicates(const YAML::Node& map) {
    absl::flat_hash_map<std::string, YAML::Mark> seen;
    for (auto kv : map) {
      if (!kv.first.IsScalar()) {
        throw Failure{absl::StrCat(Where(kv.first.Mark()), ": a mapping key must be a string or a number, not ",
                                   kv.first.IsMap() ? "a mapping" : kv.first.IsSequence() ? "a list" : "null")};
      }
      const std::string& key = kv.first.Scalar();
      if (IsMergeKey(kv.first)) continue;
      auto [it, fresh] = seen.emplace(key, kv.first.Mark());
      if (!fresh) {
        throw Failure{absl::StrCat(Where(kv.first.Mark()), ": duplicate key \"", key, "\" (first at ",
                                   Where(it->second), ")")};
      }
    }
  }

  void Merge(YAML::Node map) {
    YAML::Node merged(YAML::NodeType::Map);
    absl::flat_hash_set<std::string> keys;
    std::vector<YAML::Node> sources;
    for (auto kv : map) {
      if (IsMergeKey(kv.first)) {
        const YAML::Node v = kv.second;
        if (v.IsMap()) {
          sources.push_back(v);
        } else if (v.IsSequence()) {
          for (const YAML::Node& item : v) {
            if (!item.IsMap()) {
              throw Failure{absl::StrCat(Where(item.Mark()), ": a merge key (<<) takes mappings, got ",
                                         item.IsSequence() ? "a list" : "a scalar")};
            }
            sources.push_back(item);
          }
        } else {
          throw Failure{absl::StrCat(Where(kv.first.Mark()), ": a merge key (<<) takes a mapping or a list of mappings")};
        }
        continue;
      }
      if (kv.first.IsScalar()) keys.insert(kv.first.Scalar());
      merged.force_insert(kv.first, kv.second);
    }
    for (const YAML::Node& source : sources) {
      for (auto kv : source) {
        if (--budget_ < 0) {
          throw Failure{absl::StrCat("the document holds more than ", kMaxDocumentNodes,
                                     " values once its merge keys are expanded")};
        }
        if (kv.first.IsScalar() && !keys.insert(kv.first.Scalar()).second) continue;
        merged.force_insert(kv.first, kv.second);
      }
    }
    map = merged;
  }

  int line_offset_;
  int64_t budget_ = kMaxDocumentNodes;
  absl::flat_hash_set<int64_t> done_;
};

}  // namespace

std::string NormalizeYamlDocument(YAML::Node& doc, int line_offset) {
  try {
    Normalizer(line_offset).Visit(doc);
  } catch (const Failure& f) {
    return f.message;
  }
  return "";
}

}  // namespace vcsched::io_internal
