#include "src/io/value_yaml.h"

#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/io/json_documents.h"
#include "src/io/yaml_normalize.h"
#include "src/io/yaml_reader.h"
#include "vcsched/io/manifests.h"

namespace vcsched::io_internal {

bool ToValue(const YAML::Node& node, Value* out, int64_t* budget, int depth) {
  if (--*budget < 0 || depth > kMaxValueDepth) return false;
  if (node.IsMap()) {
    *out = Value::Map();
    for (const auto& kv : node) {
      Value child;
      if (!ToValue(kv.second, &child, budget, depth + 1)) return false;
      out->entries().emplace_back(kv.first.IsScalar() ? kv.first.Scalar() : "", std::move(child));
    }
  } else if (node.IsSequence()) {
    *out = Value::List();
    for (const auto& item : node) {
      Value child;
      if (!ToValue(item, &child, budget, depth + 1)) return false;
      out->Push(std::move(child));
    }
  } else if (node.IsScalar()) {
    *out = node.Tag() == "!" ? Value::String(node.Scalar()) : Value::Plain(node.Scalar());
  } else {
    *out = Value::Null();
  }
  return true;
}

bool ToValue(const YamlTree& tree, int32_t index, Value* out, int64_t* budget) {
  if (--*budget < 0) return false;
  const YamlTree::Node& n = tree.node(index);
  switch (n.kind) {
    case YamlTree::Kind::kNull: *out = Value::Null(); break;
    case YamlTree::Kind::kScalar: {
      std::string text(tree.text(n));
      *out = n.quoted ? Value::String(std::move(text)) : Value::Plain(std::move(text));
      break;
    }
    case YamlTree::Kind::kMap:
      *out = Value::Map();
      out->entries().reserve(n.size);
      for (uint32_t k = 0; k < n.size; ++k) {
        Value child;
        if (!ToValue(tree, tree.value(n, k), &child, budget)) return false;
        out->entries().emplace_back(std::string(tree.key(n, k)), std::move(child));
      }
      break;
    case YamlTree::Kind::kList:
      *out = Value::List();
      out->items().reserve(n.size);
      for (uint32_t k = 0; k < n.size; ++k) {
        Value child;
        if (!ToValue(tree, tree.link(n, k), &child, budget)) return false;
        out->items().push_back(std::move(child));
      }
      break;
  }
  return true;
}

YAML::Node ToYamlNode(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return YAML::Node(YAML::NodeType::Null);
    case Value::Kind::kScalar: {
      YAML::Node n(v.text());
      if (v.quoted()) n.SetTag("!");
      return n;
    }
    case Value::Kind::kMap: {
      YAML::Node n(YAML::NodeType::Map);
      for (const auto& [k, child] : v.entries()) n[k] = ToYamlNode(child);
      return n;
    }
    case Value::Kind::kList: {
      YAML::Node n(YAML::NodeType::Sequence);
      for (const Value& child : v.items()) n.push_back(ToYamlNode(child));
      return n;
    }
  }
  return YAML::Node();
}

namespace {

// A string that a YAML reader would take for something else when written plain.
bool NeedsQuotes(const std::string& s) {
  if (s.empty()) return true;
  static const char* kWords[] = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"};
  const std::string lower = absl::AsciiStrToLower(s);
  for (const char* w : kWords) {
    if (lower == w) return true;
  }
  // Anything Kubernetes' YAML 1.1 reader would type (0x1F, 1_000, .5, Off).
  if (PlainYamlScalarType(s) != ScalarType::kString) return true;
  double d;
  return absl::SimpleAtod(s, &d) || s.find_first_of(":#{}[],&*!|>'\"%@`") != std::string::npos ||
         absl::ascii_isspace(static_cast<unsigned char>(s.front())) || s.front() == '-' || s.front() == '?';
}

// U+0085, U+2028 and U+2029 are line breaks to a YAML 1.1 reader (libyaml), and a
// byte-order mark is dropped: text holding one is written double-quoted with every
// non-ASCII character escaped (yaml-cpp would write U+2028 and U+2029 as they are).
bool HasUnicodeBreak(const std::string& s) {
  return s.find("\xc2\x85") != std::string::npos || s.find("\xe2\x80\xa8") != std::string::npos ||
         s.find("\xe2\x80\xa9") != std::string::npos || s.find("\xef\xbb\xbf") != std::string::npos;
}

// At most how many characters `s` takes written double-quoted: a backslash escape for a
// quote or a backslash, at most six characters for anything else escaped.
size_t WrittenLengthBound(const std::string& s) {
  size_t n = 2;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    n += c == '"' || c == '\\' ? 2 : (u < 0x20 || u >= 0x7f) ? 6 : 1;
  }
  return n;
}

// Text that no plain scalar holds as it is: a control character (a carriage return is a
// line break to a reader) or white space at either end (a reader trims it). Read from a
// flow mapping or from JSON, a value can still hold them; printed double-quoted, they
// come back escaped. The same goes for a Unicode line break (HasUnicodeBreak).
bool PlainCannotHold(const std::string& s) {
  if (s.empty()) return false;
  if (HasUnicodeBreak(s)) return true;
  if (absl::ascii_isspace(static_cast<unsigned char>(s.front())) ||
      absl::ascii_isspace(static_cast<unsigned char>(s.back()))) {
    return true;
  }
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

// yaml-cpp writes a literal block with "|" (keep one final newline): it reads back as
// the same text only for text that ends with exactly one newline and holds nothing a
// block would change (leading space, control characters, non-ASCII bytes).
bool LiteralBlockKeeps(const std::string& s) {
  if (s.size() < 2 || s.back() != '\n' || s[s.size() - 2] == '\n') return false;
  if (s.front() == ' ' || s.front() == '\n') return false;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n') || u >= 0x7f) return false;
  }
  return true;
}

}  // namespace

void EmitValue(YAML::Emitter& out, const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: out << YAML::Null; break;
    case Value::Kind::kScalar:
      if (v.quoted() && LiteralBlockKeeps(v.text())) {
        out << YAML::Literal << v.text();
      } else if ((v.quoted() && NeedsQuotes(v.text())) || PlainCannotHold(v.text())) {
        if (HasUnicodeBreak(v.text())) out << YAML::EscapeNonAscii;
        out << YAML::DoubleQuoted << v.text();
      } else {
        out << v.text();
      }
      break;
    case Value::Kind::kMap:
      if (v.size() == 0) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        break;
      }
      out << YAML::BeginMap;
      for (const auto& [k, child] : v.entries()) {
        out << YAML::Key;
        // A reader takes a key written plainly ("key: value") only within 1,024
        // characters of the colon (libyaml, like the YAML spec's implicit keys): a longer
        // one, escapes and quotes counted, is written as an explicit key ("? key" then
        // ": value").
        if (WrittenLengthBound(k) > 1000) out << YAML::LongKey;
        if (HasUnicodeBreak(k)) out << YAML::EscapeNonAscii;
        // A plain "<<" key is YAML's merge key: a key of that text was written quoted.
        // So is one starting with "---" or "...": at the start of a line (a document's
        // own keys) a reader takes it for a document marker.
        if (NeedsQuotes(k) || PlainCannotHold(k) || k == "<<" || absl::StartsWith(k, "---") ||
            absl::StartsWith(k, "...")) {
          out << YAML::DoubleQuoted;
        }
        out << k << YAML::Value;
        EmitValue(out, child);
      }
      out << YAML::EndMap;
      break;
    case Value::Kind::kList:
      if (v.size() == 0) {
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        break;
      }
      out << YAML::BeginSeq;
      for (const Value& child : v.items()) EmitValue(out, child);
      out << YAML::EndSeq;
      break;
  }
}

}  // namespace vcsched::io_internal

namespace vcsched {

std::vector<const Value*> ObjectsOfKind(const std::vector<Manifest>& manifests, const std::string& kind) {
  std::vector<const Value*> out;
  for (const Manifest& m : manifests) {
    if (m.kind == kind) out.push_back(&m.object);
  }
  return out;
}

bool IsVolcanoJob(const Manifest& m) { return m.kind == "Job" && m.api_version.rfind("batch.volcano.sh/", 0) == 0; }

std::string ToYaml(const std::vector<const Value*>& objects) {
  std::string out;
  for (const Value* v : objects) {
    YAML::Emitter e;
    e.SetIndent(2);
    e << YAML::BeginDoc;
    io_internal::EmitValue(e, *v);
    absl::StrAppend(&out, e.c_str(), "\n");
  }
  return out;
}

namespace {

void Flatten(Value doc, const std::string& where, std::vector<Manifest>& out, std::vector<std::string>& errors) {
  if (doc.is_null()) return;
  if (!doc.is_map()) {
    errors.push_back(absl::StrCat(where, ": expected an object (a map), got ", doc.Describe()));
    return;
  }
  const Value* kind = doc.Find("kind");
  const Value* api = doc.Find("apiVersion");
  Manifest m{where, api != nullptr ? api->text() : "", kind != nullptr ? kind->text() : "", Value()};
  if (m.kind == "List") {
    Value* items = doc.Find("items");
    for (size_t i = 0; items != nullptr && i < items->items().size(); ++i) {
      Flatten(std::move(items->items()[i]), absl::StrCat(where, ", items[", i, "]"), out, errors);
    }
    return;
  }
  m.object = std::move(doc);
  out.push_back(std::move(m));
}

}  // namespace

absl::StatusOr<std::vector<Manifest>> LoadManifests(const std::vector<ScenarioSource>& sources) {
  std::vector<Manifest> out;
  std::vector<std::string> errors;
  for (const ScenarioSource& src : sources) {
    if (const int64_t bad = io_internal::FirstInvalidUtf8(src.text); bad >= 0) {
      errors.push_back(absl::StrCat(src.name, ": ", io_internal::DescribeInvalidByte(src.text, bad)));
      continue;
    }
    const size_t out_before = out.size(), errors_before = errors.size();
    int index = 0;
    io_internal::YamlTree tree;
    std::string error;
    for (const io_internal::DocumentText& piece : io_internal::SplitDocuments(src.text)) {
      const io_internal::YamlTree::Failure failure =
          tree.Parse(piece.text, piece.first_line, io_internal::kMaxValueDepth, &error);
      if (failure == io_internal::YamlTree::Failure::kSyntax) {
        errors.push_back(absl::StrCat(src.name, ": ", error));
        continue;
      }
      for (int32_t root : tree.documents()) {
        const std::string where = absl::StrCat(src.name, ": document ", ++index);
        Value v;
        int64_t budget = io_internal::kMaxManifestValues;
        if (!io_internal::ToValue(tree, root, &v, &budget)) {
          errors.push_back(absl::StrCat(where, ": the document holds more than ", io_internal::kMaxManifestValues,
                                        " values once its aliases are expanded"));
          continue;
        }
        Flatten(std::move(v), where, out, errors);
      }
      if (failure == io_internal::YamlTree::Failure::kContent) {
        errors.push_back(absl::StrCat(src.name, ": document ", ++index, ", ", error));
      }
    }
    // JSON values one after another are not YAML: read as the scenario loader reads them.
    if (errors.size() == errors_before || !io_internal::LooksLikeJson(src.text)) continue;
    std::optional<std::vector<io_internal::JsonDocument>> json = io_internal::ReadJsonStream(src.text);
    if (!json) continue;  // nor JSON: the YAML errors stand
    out.erase(out.begin() + static_cast<ptrdiff_t>(out_before), out.end());
    errors.resize(errors_before);
    for (io_internal::JsonDocument& d : *json) {
      const std::string where = absl::StrCat(src.name, ": document ", d.number);
      if (d.error.empty()) {
        Flatten(std::move(d.value), where, out, errors);
      } else {
        errors.push_back(absl::StrCat(where, ": ", d.error));
      }
    }
  }
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  return out;
}

}  // namespace vcsched
