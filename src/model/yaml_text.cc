#include "src/model/yaml_text.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace vcsched::model_internal {
namespace {

// A reader takes a key written plainly only within 1,024 characters of its colon: longer
// ones are written as explicit keys ("? key").
constexpr size_t kLongestImplicitKey = 1000;

bool IsNullWord(absl::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

// Text a plain scalar (or key) gives back unchanged in block context: no indicator first,
// no ": " or " #" inside, no blank at either end, nothing but printable ASCII and valid
// non-ASCII text without a YAML line break.
bool PlainKeeps(absl::string_view s) {
  if (IsNullWord(s) || s.find(": ") != s.npos || s.find(" #") != s.npos || s.back() == ':') return false;
  const char first = s.front();
  if (absl::string_view("?:,[]{}#&*!|>'\"%@`").find(first) != absl::string_view::npos) return false;
  if (first == '-' && (s.size() == 1 || s[1] == ' ')) return false;
  if (s.front() == ' ' || s.back() == ' ') return false;
  if (absl::StartsWith(s, "---") || absl::StartsWith(s, "...")) return false;  // a document marker at a line's start
  if (s == "<<" || s.find("\xc2\x85") != s.npos || s.find("\xe2\x80\xa8") != s.npos ||
      s.find("\xe2\x80\xa9") != s.npos || s.find("\xef\xbb\xbf") != s.npos) {
    return false;
  }
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return false;
  }
  return true;
}

void AppendKey(absl::string_view key, const std::string& pad, std::string* out) {
  std::string text = PlainKeeps(key) ? std::string(key) : YamlDoubleQuoted(key);
  if (text.size() > kLongestImplicitKey) {
    absl::StrAppend(out, pad, "? ", text, "\n", pad, ":");
  } else {
    absl::StrAppend(out, pad, text, ":");
  }
}

void AppendYamlList(const Value& list, int indent, std::string* out);

// What follows a "key:" or a "-": a scalar on the same line, a collection on the next
// lines, two spaces deeper.
void AppendNode(const Value& v, int indent, std::string* out) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      *out += "\n";
      return;
    case Value::Kind::kScalar:
      absl::StrAppend(out, " ", v.quoted() ? YamlDoubleQuoted(v.text()) : YamlScalar(v.text()), "\n");
      return;
    case Value::Kind::kMap:
      if (v.size() == 0) {
        *out += " {}\n";
      } else {
        *out += "\n";
        AppendYamlMap(v, indent + 2, out);
      }
      return;
    case Value::Kind::kList:
      if (v.size() == 0) {
        *out += " []\n";
      } else {
        *out += "\n";
        AppendYamlList(v, indent + 2, out);
      }
      return;
  }
}

void AppendYamlList(const Value& list, int indent, std::string* out) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  for (const Value& item : list.items()) {
    absl::StrAppend(out, pad, "-");
    AppendNode(item, indent, out);
  }
}

}  // namespace

std::string YamlDoubleQuoted(absl::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (s[i] == '"' || s[i] == '\\') {
      absl::StrAppend(&out, "\\", s.substr(i, 1));
    } else if (u < 0x20 || u == 0x7f) {
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", u));
    } else if (s.substr(i, 2) == "\xc2\x85") {
      out += "\\x85";
      ++i;
    } else if (s.substr(i, 3) == "\xe2\x80\xa8" || s.substr(i, 3) == "\xe2\x80\xa9") {
      out += s[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else if (s.substr(i, 3) == "\xef\xbb\xbf") {
      out += "\\ufeff";
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out + "\"";
}

std::string YamlScalar(absl::string_view s) { return PlainKeeps(s) ? std::string(s) : YamlDoubleQuoted(s); }

void AppendYamlMap(const Value& map, int indent, std::string* out) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  for (const auto& [key, child] : map.entries()) {
    AppendKey(key, pad, out);
    AppendNode(child, indent, out);
  }
}

}  // namespace vcsched::model_internal
