#include "src/model/strict_json.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace vcsched::internal {

absl::StatusOr<std::string> StrictJsonReader::String() {
  if (!Eat('"')) return Error("expected a string");
  std::string out;
  while (i_ < s_.size() && s_[i_] != '"') {
    char c = s_[i_++];
    if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i_ >= s_.size()) break;
    const char e = s_[i_++];
    switch (e) {
      case '"': case '\\': case '/': out.push_back(e); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'u': {
        if (i_ + 4 > s_.size()) return Error("short \\u escape");
        uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
          const char h = s_[i_++];
          if (!absl::ascii_isxdigit(h)) return Error("bad \\u escape");
          cp = cp * 16 + static_cast<uint32_t>(absl::ascii_isdigit(h) ? h - '0' : absl::ascii_tolower(h) - 'a' + 10);
        }
        // UTF-8 of the code point (surrogates kept as they are: names never hold them).
        if (cp < 0x80) {
          out.push_back(static_cast<char>(cp));
        } else if (cp < 0x800) {
          out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
          out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else {
          out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
          out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
          out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        break;
      }
      default: return Error("bad escape");
    }
  }
  if (!Eat('"')) return Error("unterminated string");
  return out;
}

std::string StrictJsonReader::Number() {
  const size_t start = i_;
  while (i_ < s_.size() && (absl::ascii_isdigit(s_[i_]) || s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.' ||
                            s_[i_] == 'e' || s_[i_] == 'E')) {
    ++i_;
  }
  return std::string(s_.substr(start, i_ - start));
}

bool StrictJsonReader::Null() {
  if (s_.substr(i_, 4) != "null") return false;
  i_ += 4;
  return true;
}

absl::Status StrictJsonReader::End() {
  Space();
  if (i_ != s_.size()) return Error("unexpected text after the value");
  return absl::OkStatus();
}

void StrictJsonReader::Space() {
  while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
}

bool StrictJsonReader::Eat(char c) {
  if (i_ < s_.size() && s_[i_] == c) {
    ++i_;
    return true;
  }
  return false;
}

absl::Status StrictJsonReader::Error(absl::string_view what) const {
  return absl::InvalidArgumentError(absl::StrCat(what, " at offset ", i_));
}

}  // namespace vcsched::internal
