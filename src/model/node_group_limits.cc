// A strict reader for the one JSON shape of the nodegroup resource-limits annotation.
#include "src/model/node_group_limits.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "vcsched/objects.h"

namespace vcsched::internal {
namespace {

class Reader {
 public:
  explicit Reader(absl::string_view text) : s_(text) {}

  absl::StatusOr<NodeGroupLimits> Top() {
    NodeGroupLimits out;
    Space();
    if (Null()) return End(std::move(out));
    if (!Eat('{')) return Error("expected an object");
    if (Object([&](std::string group) -> absl::Status {
          std::vector<std::pair<std::string, int64_t>>& limits = out[group];
          limits.clear();  // a repeated key: the last wins, as in Go
          if (Null()) return absl::OkStatus();
          if (!Eat('{')) return Error("expected a resource list");
          return Object([&](std::string name) -> absl::Status {
            std::string text = "0";
            if (!Null()) {
              if (Peek() == '"') {
                absl::StatusOr<std::string> str = String();
                if (!str.ok()) return str.status();
                text = *std::move(str);
              } else {
                text = Number();
                if (text.empty()) return Error("expected a quantity");
              }
            }
            bool tracked = false;
            absl::StatusOr<int64_t> v = ParseResourceQuantity(name, text, &tracked);
            if (!v.ok()) return Error(absl::StrCat(group, ".", name, ": ", v.status().message()));
            for (auto it = limits.begin(); it != limits.end(); ++it) {
              if (it->first == name) {
                limits.erase(it);
                break;
              }
            }
            limits.emplace_back(name, name == "pods" ? 0 : *v);
            return absl::OkStatus();
          });
        }) != absl::OkStatus()) {
      return status_;
    }
    return End(std::move(out));
  }

 private:
  template <typename F>
  absl::Status Object(F&& member) {
    Space();
    if (Eat('}')) return absl::OkStatus();
    while (true) {
      Space();
      absl::StatusOr<std::string> key = String();
      if (!key.ok()) return Fail(key.status());
      Space();
      if (!Eat(':')) return Fail(Error("expected ':'"));
      Space();
      if (absl::Status s = member(*std::move(key)); !s.ok()) return Fail(s);
      Space();
      if (Eat('}')) return absl::OkStatus();
      if (!Eat(',')) return Fail(Error("expected ',' or '}'"));
    }
  }

  absl::StatusOr<std::string> String() {
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

  // A JSON number's text; empty when there is none.
  std::string Number() {
    const size_t start = i_;
    while (i_ < s_.size() && (absl::ascii_isdigit(s_[i_]) || s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.' ||
                              s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
    }
    return std::string(s_.substr(start, i_ - start));
  }

  bool Null() {
    if (s_.substr(i_, 4) != "null") return false;
    i_ += 4;
    return true;
  }
  absl::StatusOr<NodeGroupLimits> End(NodeGroupLimits out) {
    Space();
    if (i_ != s_.size()) return Error("unexpected text after the object");
    return out;
  }
  void Space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool Eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  char Peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(what, " at offset ", i_));
  }
  absl::Status Fail(absl::Status s) {
    if (status_.ok()) status_ = s;
    return s;
  }

  absl::string_view s_;
  size_t i_ = 0;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<NodeGroupLimits> ParseNodeGroupLimits(absl::string_view json) { return Reader(json).Top(); }

}  // namespace vcsched::internal
