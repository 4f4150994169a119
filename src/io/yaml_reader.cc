#include "src/io/yaml_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "vcsched/policy.h"

#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

namespace vcsched::io_internal {

YAML::Node Get(const YAML::Node& parent, const char* key) {
  if (!parent.IsDefined() || !parent.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node child = parent[key];
  return child.IsDefined() ? child : YAML::Node(YAML::NodeType::Undefined);
}

bool DocumentSplitter::Next(DocumentText* piece) {
  if (done_) return false;
  const absl::string_view s = stream_;
  auto marker = [&](size_t pos, char c) {
    if (s.size() < pos + 3 || s[pos] != c || s[pos + 1] != c || s[pos + 2] != c) return false;
    return pos + 3 == s.size() || s[pos + 3] == '\n' || s[pos + 3] == ' ' || s[pos + 3] == '\t' || s[pos + 3] == '\r';
  };
  while (pos_ <= s.size()) {
    const size_t pos = pos_;
    const size_t eol = std::min(s.find('\n', pos), s.size());
    const bool begin = marker(pos, '-'), end = marker(pos, '.');
    const bool cut = (begin || end) && pos > start_;
    const DocumentText found{s.substr(start_, pos - start_), start_line_};
    if (begin || end) {
      // "---" starts the next document on this line; "..." ends the current one.
      start_ = begin ? pos : std::min(eol + 1, s.size());
      start_line_ = begin ? line_ : line_ + 1;
    }
    if (eol >= s.size()) {
      pos_ = s.size() + 1;  // the last line was looked at
    } else {
      pos_ = eol + 1;
      ++line_;
    }
    if (cut) {
      *piece = found;
      return true;
    }
  }
  done_ = true;
  if (start_ < s.size()) {
    *piece = {s.substr(start_), start_line_};
    return true;
  }
  return false;
}

std::vector<DocumentText> SplitDocuments(absl::string_view stream) {
  std::vector<DocumentText> out;
  DocumentSplitter splitter(stream);
  for (DocumentText piece; splitter.Next(&piece);) out.push_back(piece);
  return out;
}

std::string ObjectKey(const DocNode& doc, bool namespaced) {
  const auto [name_value, namespace_value] = doc.Get("metadata").Fields({"name", "namespace"});
  std::string scratch_name, scratch_ns;
  const absl::string_view name = name_value.IsScalar() ? name_value.ScalarRef(&scratch_name) : "";
  const absl::string_view ns = namespace_value.IsScalar() ? namespace_value.ScalarRef(&scratch_ns) : "default";
  return namespaced ? absl::StrCat(ns, "/", name) : std::string(name);
}

std::string Describe(const DocNode& node) {
  if (!node.IsDefined() || node.IsNull()) return "null";
  if (node.IsScalar()) return absl::StrCat("\"", node.Scalar(), "\"");
  if (node.IsMap()) return "a map";
  return node.IsSequence() ? "a list" : "a value YAML cannot hold";  // a host's (HostTree)
}

std::string Place::str() const {
  if (document == nullptr) return "";
  return item < 0 ? *document : absl::StrCat(*document, ", items[", item, "]");
}

namespace {
// An absurdly long label (a huge name) is cut so that messages stay readable.
std::string Shortened(std::string label) {
  // Control bytes (a NUL, a newline in a name) are shown escaped: a message is one line.
  if (std::any_of(label.begin(), label.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) {
    std::string escaped;
    for (char c : label) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f) absl::StrAppend(&escaped, "\\x", absl::Hex(u, absl::kZeroPad2));
      else escaped += c;
    }
    label = std::move(escaped);
  }
  constexpr size_t kShown = 120;
  if (label.size() > 2 * kShown) {
    const size_t total = label.size();
    label.resize(kShown);
    absl::StrAppend(&label, "...(", total, " characters)");
  }
  return label;
}
}  // namespace

void ObjectReader::set_object(std::string object) {
  object_ = Shortened(std::move(object));
  object_kind_ = nullptr;
  object_doc_ = DocNode();
}

void ObjectReader::set_object(const char* kind, const DocNode& doc, bool namespaced) {
  object_.clear();
  object_kind_ = kind;
  object_doc_ = doc;
  object_namespaced_ = namespaced;
}

std::string ObjectReader::Object() const {
  if (object_kind_ == nullptr) return object_;
  return Shortened(absl::StrCat(object_kind_, " \"", ObjectKey(object_doc_, object_namespaced_), "\""));
}

void ObjectReader::Fail(const DocNode& at, const FieldPath& path, absl::string_view message) {
  const std::string field = path.str();
  const std::string object = Object();
  std::string pos = at.Position(line_offset_);
  diag_->errors.push_back(absl::StrCat(Where(), pos.empty() ? "" : ", ", pos, ": ", object,
                                       object.empty() ? "" : ": ", field, field.empty() ? "" : ": ", message));
}

void ObjectReader::FailPlaced(const DocNode& at, absl::string_view problem) {
  const std::string pos = at.Position(line_offset_);
  diag_->errors.push_back(absl::StrCat(Where(), pos.empty() ? "" : ", ", pos, ": ", problem));
}

void ObjectReader::Warn(const FieldPath& field, absl::string_view message) {
  const std::string object = Object();
  diag_->warnings.push_back(
      absl::StrCat(Where(), ": ", object, object.empty() ? "" : ": ", field.str(), ": ", message));
}

namespace {

bool Absent(const DocNode& n) { return !n.IsDefined() || n.IsNull(); }

// parent[key] when present and not null; undefined otherwise.
DocNode Present(const DocNode& parent, const char* key) {
  if (!parent.IsMap()) return DocNode();
  DocNode n = parent.Get(key);
  return Absent(n) ? DocNode() : n;
}

}  // namespace

std::optional<std::string> ObjectReader::String(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsString(Present(parent, key), field);
}
std::optional<int64_t> ObjectReader::Int(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsInt(Present(parent, key), field);
}
std::optional<int32_t> ObjectReader::Int32(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsInt32(Present(parent, key), field);
}
std::optional<bool> ObjectReader::Bool(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsBool(Present(parent, key), field);
}
DocNode ObjectReader::Map(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsMap(Present(parent, key), field);
}
DocNode ObjectReader::List(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsList(Present(parent, key), field);
}
Labels ObjectReader::StringMap(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsStringMap(Present(parent, key), field);
}
ResourceList ObjectReader::Resources(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsResources(Present(parent, key), field);
}
int64_t ObjectReader::Time(const DocNode& parent, const char* key, const FieldPath& field) {
  return AsTime(Present(parent, key), field);
}
QuotaList ObjectReader::Quotas(const DocNode& parent, const char* key, const FieldPath& field) {
  QuotaList out;
  std::string scratch;
  AsMap(Present(parent, key), field).ForEachEntry([&](std::string name, const DocNode& v) {
    const std::string at = absl::StrCat(field.str(), ".", name);
    if (!v.IsScalar()) {
      Fail(v, at, absl::StrCat("expected a quantity, got ", Describe(v)));
      return;
    }
    const absl::StatusOr<int64_t> amount = ParseQuotaQuantity(name, v.ScalarRef(&scratch));
    if (!amount.ok()) {
      Fail(v, at, amount.status().message());
      return;
    }
    out[std::move(name)] = *amount;
  });
  return out;
}

bool ObjectReader::NotAString(const DocNode& value, const FieldPath& field) {
  const ScalarType type = value.TypeAsKubernetesReads();
  if (type != ScalarType::kBool && type != ScalarType::kNumber) return false;
  const std::string text = value.Scalar();
  Fail(value, field,
       type == ScalarType::kBool
           ? absl::StrCat("expected a string, got the boolean ", text,
                          " (Kubernetes reads an unquoted y, yes, n, no, on, off, true or false as a boolean, and "
                          "the API server refuses it where a string belongs): write \"", text, "\"")
           : absl::StrCat("expected a string, got the number ", text,
                          " (the API server refuses a number where a string belongs): write \"", text, "\""));
  return true;
}

std::optional<std::string> ObjectReader::AsString(const DocNode& value, const FieldPath& field) {
  if (Absent(value)) return std::nullopt;
  const DocNode& n = value;
  if (!n.IsScalar()) {
    Fail(n, field, absl::StrCat("expected a string, got ", Describe(n)));
    return std::nullopt;
  }
  if (NotAString(n, field)) return std::nullopt;
  return n.Scalar();
}

void ObjectReader::AsStringInto(const DocNode& value, const FieldPath& field, absl::string_view absent,
                                std::string* out) {
  if (Absent(value)) {
    if (absent.empty()) {
      out->clear();  // no call: most absent fields read as empty
    } else {
      out->assign(absent.data(), absent.size());
    }
    return;
  }
  if (!value.IsScalar() || NotAString(value, field)) {
    if (!value.IsScalar()) Fail(value, field, absl::StrCat("expected a string, got ", Describe(value)));
    out->assign(absent.data(), absent.size());
    return;
  }
  std::string scratch;
  const absl::string_view text = value.ScalarRef(&scratch);
  if (text.data() == scratch.data()) {
    *out = std::move(scratch);
  } else {
    out->assign(text.data(), text.size());
  }
}

std::optional<int64_t> ObjectReader::AsInt(const DocNode& value, const FieldPath& field) {
  if (Absent(value)) return std::nullopt;
  const DocNode& n = value;
  int64_t v = 0;
  if (!n.IsScalar() || !absl::SimpleAtoi(n.Scalar(), &v)) {
    Fail(n, field, absl::StrCat("expected an integer, got ", Describe(n)));
    return std::nullopt;
  }
  return v;
}

std::optional<int32_t> ObjectReader::AsInt32(const DocNode& value, const FieldPath& field) {
  const std::optional<int64_t> v = AsInt(value, field);
  if (!v) return std::nullopt;
  if (*v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max()) {
    Fail(value, field, absl::StrCat(*v, " is out of range: the field is a 32-bit integer (",
                                    std::numeric_limits<int32_t>::min(), " to ", std::numeric_limits<int32_t>::max(), ")"));
    return std::nullopt;
  }
  return static_cast<int32_t>(*v);
}

std::optional<bool> ObjectReader::AsBool(const DocNode& value, const FieldPath& field) {
  if (Absent(value)) return std::nullopt;
  const DocNode& n = value;
  if (n.IsScalar()) {
    const std::string s = n.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  Fail(n, field, absl::StrCat("expected true or false, got ", Describe(n)));
  return std::nullopt;
}

DocNode ObjectReader::AsMap(const DocNode& value, const FieldPath& field) {
  if (Absent(value)) return DocNode();
  const DocNode& n = value;
  if (!n.IsMap()) {
    Fail(n, field, absl::StrCat("expected a map, got ", Describe(n)));
    return DocNode();
  }
  return n;
}

DocNode ObjectReader::AsList(const DocNode& value, const FieldPath& field) {
  if (Absent(value)) return DocNode();
  const DocNode& n = value;
  if (!n.IsSequence()) {
    Fail(n, field, absl::StrCat("expected a list, got ", Describe(n)));
    return DocNode();
  }
  return n;
}

// Maps below are filled with a hint at their end: printed maps (kubectl's) come with
// their keys sorted, and each insertion then costs no search.
Labels ObjectReader::AsStringMap(const DocNode& value, const FieldPath& field) {
  Labels out;
  AsMap(value, field).ForEachEntry([&](std::string k, const DocNode& v) {
    if (v.IsNull()) {
      out.insert_or_assign(out.end(), std::move(k), "");
    } else if (!v.IsScalar()) {
      Fail(v, absl::StrCat(field.str(), ".", k), absl::StrCat("expected a string, got ", Describe(v)));
    } else if (NotAString(v, absl::StrCat(field.str(), ".", k))) {
      return;
    } else {
      out.insert_or_assign(out.end(), std::move(k), v.Scalar());
    }
  });
  return out;
}

ResourceList ObjectReader::AsResources(const DocNode& value, const FieldPath& field) {
  ResourceList out;
  std::string scratch;
  AsMap(value, field).ForEachEntry([&](std::string name, const DocNode& v) {
    if (!v.IsScalar()) {
      Fail(v, absl::StrCat(field.str(), ".", name), absl::StrCat("expected a quantity, got ", Describe(v)));
      return;
    }
    bool tracked = false;
    const absl::StatusOr<int64_t> amount = ParseResourceQuantity(name, v.ScalarRef(&scratch), &tracked);
    if (!amount.ok()) {
      Fail(v, absl::StrCat(field.str(), ".", name), amount.status().message());
      return;
    }
    if (tracked) out.try_emplace(out.end(), std::move(name), 0)->second += *amount;
  });
  return out;
}

int64_t ObjectReader::AsTime(const DocNode& value, const FieldPath& field) {
  std::string scratch;
  if (!Absent(value) && value.IsScalar()) {
    if (int64_t seconds = 0; ParseApiTime(value.ScalarRef(&scratch), &seconds)) return seconds;
  }
  const std::optional<std::string> s = AsString(value, field);  // absent, or not text: reported
  if (s) Fail(value, field, absl::StrCat("expected an RFC 3339 time, got \"", *s, "\""));
  return 0;
}

namespace {

// Counts parser events and stops the parse (by throwing) past a budget.
class BudgetedEvents : public YAML::EventHandler {
 public:
  struct Exhausted {};
  explicit BudgetedEvents(int64_t budget) : budget_(budget) {}
  void OnDocumentStart(const YAML::Mark&) override { Spend(); }
  void OnDocumentEnd() override { Spend(); }
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { Spend(); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { Spend(); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override { Spend(); }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Spend();
  }
  void OnSequenceEnd() override { Spend(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Spend();
  }
  void OnMapEnd() override { Spend(); }

 private:
  void Spend() {
    if (--budget_ < 0) throw Exhausted{};
  }
  int64_t budget_;
};

}  // namespace

bool YamlParsesWithinBudget(const std::string& text, std::string* why) {
  std::istringstream in(text);
  // Valid YAML cannot produce more than a few events per byte.
  BudgetedEvents events(static_cast<int64_t>(text.size()) * 8 + 64);
  try {
    YAML::Parser parser(in);
    int64_t documents = 0;
    while (parser.HandleNextDocument(events)) {
      if (++documents > static_cast<int64_t>(text.size()) + 1) {
        *why = "the parser does not advance (malformed input)";
        return false;
      }
    }
  } catch (const BudgetedEvents::Exhausted&) {
    *why = "the parser does not advance (malformed input)";
    return false;
  } catch (const YAML::Exception&) {
    return true;  // a plain syntax error; LoadAll reports it with its position
  }
  return true;
}

int64_t FirstInvalidUtf8(absl::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  // Eight bytes at a time while they are printable ASCII (no byte with its high bit set,
  // below 0x20 or equal to 0x7f): most of any manifest.
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  while (i < n) {
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      const uint64_t below_space = (w - 0x20 * kOnes) & ~w & kHighs;
      const uint64_t x = w ^ (0x7f * kOnes);
      const uint64_t del = (x - kOnes) & ~x & kHighs;
      if (((w & kHighs) | below_space | del) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = p[i];
    size_t len = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return static_cast<int64_t>(i);
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
    else return static_cast<int64_t>(i);
    if (i + len > n) return static_cast<int64_t>(i);
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return static_cast<int64_t>(i);
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      return static_cast<int64_t>(i);
    }
    i += len;
  }
  return -1;
}

std::string DescribeInvalidByte(absl::string_view text, int64_t offset) {
  const size_t at = static_cast<size_t>(offset);
  const absl::string_view before = text.substr(0, at);
  const int64_t line = 1 + std::count(before.begin(), before.end(), '\n');
  const size_t line_start = before.rfind('\n');
  const int64_t column = static_cast<int64_t>(at - (line_start == absl::string_view::npos ? 0 : line_start + 1)) + 1;
  const auto c = static_cast<unsigned char>(text[at]);
  const std::string place = absl::StrCat("byte ", offset, " (line ", line, ", column ", column, ")");
  if (c < 0x80) {
    return absl::StrCat("a control character (0x", absl::Hex(c, absl::kZeroPad2), ") at ", place,
                        ": YAML and JSON text allow none but tab, line feed and carriage return");
  }
  return absl::StrCat("invalid UTF-8 at ", place);
}

}  // namespace vcsched::io_internal
