#include "src/io/yaml_block_scanner.h"

#include <string>

namespace vcsched::io_internal {
namespace {

// Whether every byte is printable ASCII or a line feed: tabs, carriage returns, other
// control characters and UTF-8 are left to libyaml (it validates them, and counts
// columns in characters).
bool AllPrintableAscii(absl::string_view text) {
  bool bad = false;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    bad |= static_cast<unsigned char>(c - 0x20) >= 0x5f && c != '\n';
  }
  return !bad;
}

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

int HexValue(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

constexpr size_t kBail = absl::string_view::npos;
// libyaml takes a key only when its colon comes within 1024 characters of its start;
// longer keys are left to it.
constexpr size_t kMaxKeyLength = 1000;

// Scans a text line by line. At every step it is either inside a line or at the first
// character of a content line (neither blank nor a comment), whose indentation it knows.
class Scanner {
 public:
  Scanner(absl::string_view text, YamlEventSink* sink) : t_(text), sink_(sink) {}

  bool Run() {
    if (!AllPrintableAscii(t_) || !Seek() || at_ == At::kEnd) return false;
    for (;;) {
      if (at_ == At::kMarker && (!FinishLine(pos_ + 3) || at_ != At::kContent)) return false;  // "---" alone
      sink_->StartDocument();
      if (!Node(-1)) return false;
      sink_->EndDocument();
      if (at_ == At::kEnd) return true;
      if (at_ != At::kMarker) return false;
    }
  }

 private:
  enum class At { kContent, kMarker, kEnd };

  bool End(size_t p) const { return p >= t_.size() || t_[p] == '\n'; }  // the line ends at p
  char CharAt(size_t p) const { return p < t_.size() ? t_[p] : '\n'; }
  int32_t Column(size_t p) const { return static_cast<int32_t>(p - line_begin_); }
  size_t SkipBlanks(size_t p) const {
    while (CharAt(p) == ' ') ++p;
    return p;
  }

  // From a line's start, past blank and comment lines, to what comes next; false for
  // a directive or a document end marker ("..."), left to libyaml.
  bool Seek() {
    for (;;) {
      if (pos_ >= t_.size()) {
        at_ = At::kEnd;
        return true;
      }
      line_begin_ = pos_;
      const size_t p = SkipBlanks(pos_);
      if (!End(p) && t_[p] != '#') {
        if (p == line_begin_) {
          const absl::string_view rest = t_.substr(p, 3);
          const bool marker_end = End(p + 3) || t_[p + 3] == ' ';
          if (t_[p] == '%' || (rest == "..." && marker_end)) return false;
          if (rest == "---" && marker_end) {
            at_ = At::kMarker;
            pos_ = p;
            indent_ = 0;
            return true;
          }
        }
        at_ = At::kContent;
        pos_ = p;
        indent_ = Column(p);
        return true;
      }
      const size_t eol = t_.find('\n', p);
      pos_ = eol == absl::string_view::npos ? t_.size() : eol + 1;
      ++line_;
    }
  }

  // The rest of the line from p may hold blanks and a comment after a blank; then on to
  // the next content.
  bool FinishLine(size_t p) {
    size_t q = SkipBlanks(p);
    if (!End(q)) {
      if (t_[q] != '#' || q == p) return false;
      q = t_.find('\n', q);
      if (q == absl::string_view::npos) q = t_.size();
    }
    pos_ = q < t_.size() ? q + 1 : t_.size();
    ++line_;
    return Seek();
  }

  bool SequenceEntry(size_t p) const { return t_[p] == '-' && (End(p + 1) || t_[p + 1] == ' '); }

  // Whether a plain scalar may start at p (libyaml's indicators may not start one; "-",
  // "?" and ":" may when no blank follows, of which only "-" is taken here).
  bool PlainStart(size_t p) const {
    switch (t_[p]) {
      case '?': case ':': case ',': case '[': case ']': case '{': case '}': case '#': case '&': case '*':
      case '!': case '|': case '>': case '\'': case '"': case '%': case '@': case '`':
        return false;
      case '-':
        return !End(p + 1) && t_[p + 1] != ' ';
      default:
        return true;
    }
  }

  // The closing quote of the one-line quoted scalar opening at p, or npos.
  size_t QuotedEnd(size_t p) const {
    const char quote = t_[p];
    for (size_t q = p + 1; !End(q); ++q) {
      if (quote == '\'' && t_[q] == '\'') {
        if (CharAt(q + 1) != '\'') return q;
        ++q;
      } else if (quote == '"' && t_[q] == '\\') {
        if (End(q + 1)) return kBail;
        ++q;
      } else if (quote == '"' && t_[q] == '"') {
        return q;
      }
    }
    return kBail;
  }

  // The text of the quoted scalar from `open` to `close` into scratch_; false for an
  // escape this reader leaves to libyaml (one that is not ASCII, or is malformed).
  bool Unquote(size_t open, size_t close) {
    scratch_.clear();
    const absl::string_view body = t_.substr(open + 1, close - open - 1);
    if (t_[open] == '\'') {
      for (size_t i = 0; i < body.size(); ++i) {
        scratch_ += body[i];
        if (body[i] == '\'') ++i;  // '' is one quote
      }
      return true;
    }
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i] != '\\') {
        scratch_ += body[i];
        continue;
      }
      const char e = body[++i];
      static constexpr absl::string_view kFrom = "0abtnvfre \"/\\";
      static constexpr absl::string_view kTo = absl::string_view("\0\a\b\t\n\v\f\r\x1b \"/\\", 13);
      if (const size_t k = kFrom.find(e); k != absl::string_view::npos) {
        scratch_ += kTo[k];
        continue;
      }
      const size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
      if (digits == 0 || i + digits >= body.size()) return false;
      uint32_t code = 0;
      for (size_t d = 1; d <= digits; ++d) {
        if (!IsHex(body[i + d])) return false;
        code = code * 16 + static_cast<uint32_t>(HexValue(body[i + d]));
      }
      if (code >= 0x80) return false;
      scratch_ += static_cast<char>(code);
      i += digits;
    }
    return true;
  }

  // Whether the line from p is `key: ...` (or `key:`); *colon is the key's colon.
  bool KeyEnd(size_t p, size_t* colon) const {
    if (t_[p] == '\'' || t_[p] == '"') {
      const size_t close = QuotedEnd(p);
      if (close == kBail || CharAt(close + 1) != ':' || close + 1 - p > kMaxKeyLength) return false;
      if (!End(close + 2) && t_[close + 2] != ' ') return false;
      *colon = close + 1;
      return true;
    }
    if (!PlainStart(p)) return false;
    for (size_t q = p + 1; !End(q); ++q) {
      if (t_[q] == ':' && (End(q + 1) || t_[q + 1] == ' ')) {
        // A blank before the colon is trimmed by libyaml, left to it here.
        if (t_[q - 1] == ' ' || q - p > kMaxKeyLength) return false;
        *colon = q;
        return true;
      }
      if (t_[q] == '#' && t_[q - 1] == ' ') return false;
    }
    return false;
  }

  bool Key(size_t p, size_t colon) {
    if (t_[p] != '\'' && t_[p] != '"') return sink_->Scalar(t_.substr(p, colon - p), true, line_, Column(p));
    return Unquote(p, colon - 1) && sink_->Scalar(scratch_, false, line_, Column(p));
  }

  // A scalar inside a flow collection, starting at p: its event and the position after
  // it (npos: left to libyaml). A key's plain text ends at ": ", a value's at a flow
  // indicator; a colon, "?" or comment anywhere else is left to libyaml.
  size_t FlowScalar(size_t p, bool key) {
    if (End(p)) return kBail;
    const int32_t column = Column(p);
    if (t_[p] == '\'' || t_[p] == '"') {
      const size_t close = QuotedEnd(p);
      if (close == kBail || (key && close + 1 - p > kMaxKeyLength)) return kBail;
      if (!Unquote(p, close) || !sink_->Scalar(scratch_, false, line_, column)) return kBail;
      return close + 1;
    }
    if (!PlainStart(p)) return kBail;
    size_t end = p + 1, q = p + 1;
    for (; !End(q); ++q) {
      const char c = t_[q];
      if (c == ',' || c == '[' || c == ']' || c == '{' || c == '}') break;
      if (c == ':') {
        if (key && t_[q - 1] != ' ' && CharAt(q + 1) == ' ') break;
        return kBail;
      }
      if (c == '?' || (c == '#' && t_[q - 1] == ' ')) return kBail;
      if (c != ' ') end = q + 1;
    }
    if (key != (CharAt(q) == ':') || (key && q - p > kMaxKeyLength)) return kBail;  // a key without a value, or a pair in a list
    return sink_->Scalar(t_.substr(p, end - p), true, line_, column) ? end : kBail;
  }

  // The flow collection opening at p, ending on its line: its events and the position
  // after it (npos: left to libyaml, as are empty entries and a trailing comma).
  size_t Flow(size_t p) {
    const bool map = t_[p] == '{';
    const char close = map ? '}' : ']';
    if (!sink_->OpenCollection(map, line_, Column(p))) return kBail;
    size_t q = SkipBlanks(p + 1);
    if (CharAt(q) != close) {
      for (;;) {
        if (map) {
          q = FlowScalar(q, true);
          if (q == kBail || CharAt(q) != ':' || CharAt(q + 1) != ' ') return kBail;
          q = SkipBlanks(q + 1);
        }
        q = CharAt(q) == '{' || CharAt(q) == '[' ? Flow(q) : FlowScalar(q, false);
        if (q == kBail) return kBail;
        q = SkipBlanks(q);
        if (CharAt(q) == close) break;
        if (CharAt(q) != ',') return kBail;
        q = SkipBlanks(q + 1);
        if (End(q) || CharAt(q) == close || CharAt(q) == ',') return kBail;
      }
    }
    return sink_->CloseCollection(map) ? q + 1 : kBail;
  }

  // A scalar or a flow collection starting at p and ending its line.
  bool InlineValue(size_t p) {
    const int32_t column = Column(p);
    const char c = t_[p];
    if (c == '{' || c == '[') {
      const size_t end = Flow(p);
      return end != kBail && FinishLine(end);
    }
    if (c == '\'' || c == '"') {
      const size_t close = QuotedEnd(p);
      if (close == kBail || !Unquote(p, close)) return false;
      return sink_->Scalar(scratch_, false, line_, column) && FinishLine(close + 1);
    }
    if (!PlainStart(p)) return false;
    size_t end = p + 1;  // past the last non-blank
    for (size_t q = p + 1; !End(q); ++q) {
      if (t_[q] == ':' && (End(q + 1) || t_[q + 1] == ' ')) return false;  // a mapping where none may start
      if (t_[q] == '#' && t_[q - 1] == ' ') break;
      if (t_[q] != ' ') end = q + 1;
    }
    return sink_->Scalar(t_.substr(p, end - p), true, line_, column) && FinishLine(end);
  }

  // The node at the current content line, more indented than its parent.
  bool Node(int32_t parent) {
    if (at_ != At::kContent || indent_ <= parent) return false;
    if (SequenceEntry(pos_)) return Sequence(indent_, false);
    size_t colon = 0;
    return KeyEnd(pos_, &colon) && Mapping(indent_);
  }

  // A block mapping whose first key is at pos_, in column n.
  bool Mapping(int32_t n) {
    if (!sink_->OpenCollection(true, line_, n)) return false;
    for (;;) {
      size_t colon = 0;
      if (!KeyEnd(pos_, &colon) || !Key(pos_, colon) || !Value(n, colon)) return false;
      if (at_ != At::kContent || indent_ < n) break;
      if (indent_ > n) return false;
    }
    return sink_->CloseCollection(true);
  }

  // The value of the key whose colon is at `colon`, in a mapping at column n.
  bool Value(int32_t n, size_t colon) {
    const size_t p = SkipBlanks(colon + 1);
    if (!End(p) && t_[p] != '#') return InlineValue(p) && !(at_ == At::kContent && indent_ > n);
    // Nothing on the line: a nested node, a sequence at the key's own column, or null
    // (placed where libyaml places it: just after the colon).
    const int32_t line = line_, column = Column(colon + 1);
    if (!FinishLine(p)) return false;
    if (at_ == At::kContent && indent_ > n) return Node(n);
    if (at_ == At::kContent && indent_ == n && SequenceEntry(pos_)) return Sequence(n, true);
    return sink_->Scalar("", true, line, column);
  }

  // A block sequence whose first "-" is at pos_, in column n; `indentless` when it is a
  // mapping value at its key's column (it ends at the next key).
  bool Sequence(int32_t n, bool indentless) {
    if (!sink_->OpenCollection(false, line_, n)) return false;
    for (;;) {
      const size_t p = SkipBlanks(pos_ + 1);
      if (End(p) || t_[p] == '#' || SequenceEntry(p)) return false;  // item on the next lines, or "- -"
      size_t colon = 0;
      if (KeyEnd(p, &colon)) {
        pos_ = p;
        if (!Mapping(Column(p))) return false;
      } else if (!InlineValue(p)) {
        return false;
      }
      if (at_ != At::kContent || indent_ < n) break;
      if (indent_ > n) return false;
      if (!SequenceEntry(pos_)) {
        if (indentless) break;
        return false;
      }
    }
    return sink_->CloseCollection(false);
  }

  absl::string_view t_;
  YamlEventSink* sink_;
  size_t pos_ = 0;
  size_t line_begin_ = 0;
  int32_t line_ = 0;
  int32_t indent_ = 0;
  At at_ = At::kEnd;
  std::string scratch_;
};

}  // namespace

bool ScanBlockYaml(absl::string_view text, YamlEventSink* sink) { return Scanner(text, sink).Run(); }

}  // namespace vcsched::io_internal
