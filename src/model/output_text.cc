#include "src/model/output_text.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace vcsched {

std::string JsonQuote(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

namespace {

// The length of the UTF-8 sequence at s[i] and its code point; 0 when it is not valid
// UTF-8 (overlong forms, surrogates and code points past U+10FFFF included).
size_t Utf8At(absl::string_view s, size_t i, uint32_t* cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n = 0;
  uint32_t v = 0, min = 0;
  if (c < 0x80) return *cp = c, 1;
  if ((c & 0xE0) == 0xC0) n = 2, v = c & 0x1F, min = 0x80;
  else if ((c & 0xF0) == 0xE0) n = 3, v = c & 0x0F, min = 0x800;
  else if ((c & 0xF8) == 0xF0) n = 4, v = c & 0x07, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    v = (v << 6) | (b(i + k) & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

}  // namespace

std::string Printable(absl::string_view s) {
  const auto plain = [](unsigned char c) { return c >= 0x20 && c != 0x7F && c != 0xC2; };
  if (std::all_of(s.begin(), s.end(), [&](char c) { return plain(static_cast<unsigned char>(c)); })) {
    return std::string(s);
  }
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    char buf[8];
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(s[i + 1]));  // a C1 control
      out += buf;
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string XmlText(absl::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const size_t n = Utf8At(s, i, &cp);
    const bool allowed = n > 0 && (cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp != 0x7F && cp < 0xFFFE));
    if (!allowed) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      i += n > 0 ? n : 1;
      continue;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.append(s.data() + i, n);
    }
    i += n;
  }
  return out;
}

std::string CsvCell(absl::string_view s) {
  const bool formula = !s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' ||
                                      s[0] == '\r');
  if (!formula && s.find_first_of(",\"\n\r") == absl::string_view::npos) return std::string(s);
  std::string out = formula ? "\"'" : "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::pair<absl::string_view, absl::string_view> SplitTaskKey(absl::string_view key) {
  const size_t slash = key.find('/');
  if (slash == absl::string_view::npos) return {"default", key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

}  // namespace vcsched
