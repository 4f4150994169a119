#include "src/io/yaml_tree.h"

#include <yaml.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "src/io/expansion_limits.h"
#include "src/io/yaml_block_scanner.h"

namespace vcsched::io_internal {

namespace {

constexpr char kMergeTag[] = "tag:yaml.org,2002:merge";
// Past this a node's expanded size is only "too many".
constexpr int64_t kSizeCap = int64_t{1} << 40;

int32_t Clamp32(size_t v) {
  return static_cast<int32_t>(std::min<size_t>(v, std::numeric_limits<int32_t>::max()));
}

bool TagIs(const yaml_char_t* tag, const char* name) {
  return tag != nullptr && std::strcmp(reinterpret_cast<const char*>(tag), name) == 0;
}

// Owns one libyaml parser for the length of a parse.
class EventParser {
 public:
  explicit EventParser(absl::string_view text) {
    ok_ = yaml_parser_initialize(&parser_) != 0;
    if (ok_) {
      yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    }
  }
  ~EventParser() {
    if (ok_) yaml_parser_delete(&parser_);
  }
  EventParser(const EventParser&) = delete;
  EventParser& operator=(const EventParser&) = delete;

  bool ok() const { return ok_; }
  yaml_parser_t* get() { return &parser_; }

 private:
  yaml_parser_t parser_;
  bool ok_ = false;
};

// Frees an event when it goes out of scope.
struct EventHolder {
  yaml_event_t event;
  bool live = false;
  ~EventHolder() { Reset(); }
  void Reset() {
    if (live) yaml_event_delete(&event);
    live = false;
  }
};

}  // namespace

struct YamlTree::Scratch {
  struct Open {
    int32_t node;
    size_t first_pending;
    std::string anchor;
  };
  std::vector<int32_t> pending;  // the nodes of open collections, in order
  std::vector<Open> open;
  // Per node: the nodes and the scalar bytes it stands for, aliases expanded.
  struct Size {
    int64_t nodes;
    int64_t bytes;
  };
  std::vector<Size> expanded;
  absl::flat_hash_map<std::string, int32_t> anchors;
  // Keys of the map being closed: listed, then also hashed once there are many.
  std::vector<int32_t> seen_list;
  absl::flat_hash_map<absl::string_view, int32_t> seen;
  std::vector<int32_t> merged;
};

YamlTree::YamlTree() : scratch_(std::make_unique<Scratch>()) {}
YamlTree::~YamlTree() = default;
YamlTree::YamlTree(YamlTree&&) noexcept = default;
YamlTree& YamlTree::operator=(YamlTree&&) noexcept = default;

class YamlTreeBuilder : public YamlEventSink {
 public:
  YamlTreeBuilder(YamlTree* tree, int line_offset, int max_depth)
      : t_(*tree),
        line_offset_(line_offset),
        max_depth_(max_depth),
        pending_(tree->scratch_->pending),
        open_(tree->scratch_->open),
        expanded_(tree->scratch_->expanded),
        anchors_(tree->scratch_->anchors),
        seen_list_(tree->scratch_->seen_list),
        seen_(tree->scratch_->seen),
        merged_(tree->scratch_->merged) {
    pending_.clear();
    open_.clear();
    expanded_.clear();
    if (!anchors_.empty()) anchors_.clear();
  }

  YamlTree::Failure Run(absl::string_view text, std::string* error) {
    text_ = text;
    EventParser parser(text);
    if (!parser.ok()) return Fail(YamlTree::Failure::kSyntax, "invalid YAML: out of memory", error);
    EventHolder ev;
    for (;;) {
      ev.Reset();
      if (yaml_parser_parse(parser.get(), &ev.event) == 0) return SyntaxError(*parser.get(), error);
      ev.live = true;
      const yaml_event_t& e = ev.event;
      switch (e.type) {
        case YAML_STREAM_END_EVENT: return YamlTree::Failure::kNone;
        case YAML_DOCUMENT_START_EVENT: StartDocument(); break;
        case YAML_DOCUMENT_END_EVENT: EndDocument(); break;
        case YAML_SCALAR_EVENT:
          if (!AddScalar(e)) return Fail(YamlTree::Failure::kContent, TooLarge(e.start_mark), error);
          break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
          const bool map = e.type == YAML_MAPPING_START_EVENT;
          const yaml_char_t* anchor = map ? e.data.mapping_start.anchor : e.data.sequence_start.anchor;
          if (!OpenNode(map, anchor != nullptr ? reinterpret_cast<const char*>(anchor) : "", Line(e.start_mark),
                        Column(e.start_mark))) {
            return Fail(YamlTree::Failure::kContent,
                        absl::StrCat(Where(e.start_mark), ": nesting depth exceeds the limit of ", max_depth_), error);
          }
          break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: {
          const std::string failure = e.type == YAML_MAPPING_END_EVENT ? CloseMap() : CloseList();
          if (!failure.empty()) return Fail(YamlTree::Failure::kContent, failure, error);
          break;
        }
        case YAML_ALIAS_EVENT: {
          const std::string failure = AddAlias(e);
          if (!failure.empty()) return Fail(YamlTree::Failure::kContent, failure, error);
          break;
        }
        default: break;
      }
    }
  }

  // The events of the block scanner (yaml_block_scanner.h); a refusal makes it give up,
  // and libyaml's parse of the text then reports it.
  void StartDocument() override {
    if (!anchors_.empty()) anchors_.clear();
    alias_nodes_ = 0;
    alias_bytes_ = 0;
    pending_.clear();
  }
  void EndDocument() override {
    if (pending_.size() == 1) t_.documents_.push_back(pending_.back());
    pending_.clear();
  }
  bool Scalar(absl::string_view value, bool plain, int32_t line, int32_t column) override {
    return AddScalarText(value, plain, nullptr, nullptr, line, column);
  }
  bool OpenCollection(bool map, int32_t line, int32_t column) override { return OpenNode(map, "", line, column); }
  bool CloseCollection(bool map) override { return (map ? CloseMap() : CloseList()).empty(); }

 private:
  using Open = YamlTree::Scratch::Open;

  static int32_t Line(const yaml_mark_t& m) { return Clamp32(m.line); }
  static int32_t Column(const yaml_mark_t& m) { return Clamp32(m.column); }

  std::string Where(const yaml_mark_t& m) const {
    return absl::StrCat("line ", static_cast<int64_t>(m.line) + 1 + line_offset_, ":", m.column + 1);
  }
  std::string Where(const YamlTree::Node& n) const {
    return absl::StrCat("line ", int64_t{n.line} + 1 + line_offset_, ":", n.column + 1);
  }
  std::string TooLarge(const yaml_mark_t& m) const {
    return absl::StrCat(Where(m), ": the document holds more text or values than one document may");
  }

  static YamlTree::Failure Fail(YamlTree::Failure f, std::string message, std::string* error) {
    *error = std::move(message);
    return f;
  }

  // libyaml starts a new line at the end of the text: a problem found there is placed
  // after the text's last character instead.
  yaml_mark_t Clamped(yaml_mark_t m) const {
    if (m.index < text_.size()) return m;
    m.line = static_cast<size_t>(std::count(text_.begin(), text_.end(), '\n'));
    const size_t last = text_.rfind('\n');
    m.column = last == absl::string_view::npos ? text_.size() : text_.size() - last - 1;
    return m;
  }

  YamlTree::Failure SyntaxError(const yaml_parser_t& p, std::string* error) const {
    if (p.error == YAML_MEMORY_ERROR) return Fail(YamlTree::Failure::kSyntax, "invalid YAML: out of memory", error);
    std::string message = absl::StrCat(Where(Clamped(p.problem_mark)), ": invalid YAML: ",
                                       p.problem != nullptr ? p.problem : "malformed input");
    if (p.context != nullptr) {
      absl::StrAppend(&message, " (", p.context, " at ", Where(Clamped(p.context_mark)), ")");
    }
    return Fail(YamlTree::Failure::kSyntax, std::move(message), error);
  }

  int32_t NewNode(YamlTree::Kind kind, int32_t line, int32_t column) {
    YamlTree::Node n;
    n.kind = kind;
    n.line = line;
    n.column = column;
    t_.nodes_.push_back(n);
    expanded_.push_back({1, 0});
    return static_cast<int32_t>(t_.nodes_.size() - 1);
  }

  // False past the nesting limit.
  bool OpenNode(bool map, const char* anchor, int32_t line, int32_t column) {
    if (static_cast<int>(open_.size()) >= max_depth_) return false;
    const int32_t index = NewNode(map ? YamlTree::Kind::kMap : YamlTree::Kind::kList, line, column);
    open_.push_back({index, pending_.size(), anchor});
    return true;
  }

  void Anchor(const char* name, int32_t index) {
    if (name != nullptr && name[0] != '\0') anchors_[name] = index;
  }

  bool AddScalar(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    return AddScalarText(absl::string_view(reinterpret_cast<const char*>(s.value), s.length),
                         s.style == YAML_PLAIN_SCALAR_STYLE, s.tag, reinterpret_cast<const char*>(s.anchor),
                         Line(e.start_mark), Column(e.start_mark));
  }

  // False when the document's text would pass what a tree holds.
  bool AddScalarText(absl::string_view value, bool plain, const yaml_char_t* tag, const char* anchor, int32_t line,
                     int32_t column) {
    const bool null = TagIs(tag, YAML_NULL_TAG) ||
                      (plain && tag == nullptr &&
                       (value.empty() || value == "~" || value == "null" || value == "Null" || value == "NULL"));
    const int32_t index = NewNode(null ? YamlTree::Kind::kNull : YamlTree::Kind::kScalar, line, column);
    if (!null) {
      if (t_.text_.size() + value.size() > std::numeric_limits<uint32_t>::max()) return false;
      YamlTree::Node& n = t_.nodes_.back();
      n.quoted = TagIs(tag, YAML_STR_TAG) || (!plain && tag == nullptr);
      n.merge_key = value == "<<" && ((plain && tag == nullptr) || TagIs(tag, kMergeTag));
      n.begin = static_cast<uint32_t>(t_.text_.size());
      n.size = static_cast<uint32_t>(value.size());
      expanded_.back().bytes = static_cast<int64_t>(value.size());
      t_.text_.append(value.data(), value.size());
    }
    Anchor(anchor, index);
    pending_.push_back(index);
    return true;
  }

  std::string AddAlias(const yaml_event_t& e) {
    const char* name = reinterpret_cast<const char*>(e.data.alias.anchor);
    const auto it = anchors_.find(name != nullptr ? name : "");
    if (it == anchors_.end()) {
      return absl::StrCat(Where(e.start_mark), ": invalid YAML: the alias *", name != nullptr ? name : "",
                          " names no anchor whose node ends before it");
    }
    const YamlTree::Scratch::Size& size = expanded_[static_cast<size_t>(it->second)];
    alias_nodes_ = std::min(kSizeCap, alias_nodes_ + size.nodes);
    alias_bytes_ = std::min(kSizeCap, alias_bytes_ + size.bytes);
    if (alias_nodes_ > kMaxDocumentNodes) {
      return absl::StrCat(Where(e.start_mark), ": the document holds more than ", kMaxDocumentNodes,
                          " values once its aliases are expanded");
    }
    // Readers copy what an alias stands for: a large scalar aliased many times would
    // stand for more text than any input may hold.
    if (alias_bytes_ > kMaxDocumentAliasBytes) {
      return absl::StrCat(Where(e.start_mark), ": the document's aliases stand for more than ",
                          kMaxDocumentAliasBytes, " bytes of text");
    }
    pending_.push_back(it->second);
    return "";
  }

  // Moves the open collection's children from pending_ to the links; `children` are
  // the links to write (by default the pending ones as they are).
  void Close(const Open& open, const int32_t* children, size_t count, uint32_t size) {
    YamlTree::Node& n = t_.nodes_[static_cast<size_t>(open.node)];
    n.begin = static_cast<uint32_t>(t_.links_.size());
    n.size = size;
    YamlTree::Scratch::Size expanded{1, 0};
    for (size_t i = 0; i < count; ++i) {
      const YamlTree::Scratch::Size& child = expanded_[static_cast<size_t>(children[i])];
      expanded.nodes = std::min(kSizeCap, expanded.nodes + child.nodes);
      expanded.bytes = std::min(kSizeCap, expanded.bytes + child.bytes);
    }
    t_.links_.insert(t_.links_.end(), children, children + count);
    expanded_[static_cast<size_t>(open.node)] = expanded;
    pending_.resize(open.first_pending);
    pending_.push_back(open.node);
    Anchor(open.anchor.c_str(), open.node);
  }

  std::string CloseList() {
    const Open open = std::move(open_.back());
    open_.pop_back();
    const size_t count = pending_.size() - open.first_pending;
    Close(open, pending_.data() + open.first_pending, count, static_cast<uint32_t>(count));
    return "";
  }

  const YamlTree::Node& NodeAt(int32_t i) const { return t_.nodes_[static_cast<size_t>(i)]; }
  absl::string_view KeyText(int32_t i) const { return t_.text(NodeAt(i)); }

  // The key node first seen with this key's text in the map being closed, or -1 (and
  // the key is recorded). Most maps are small: a scan beats hashing until they are not.
  int32_t Seen(int32_t key) {
    const absl::string_view text = KeyText(key);
    if (seen_list_.size() < 16) {
      for (int32_t k : seen_list_) {
        if (KeyText(k) == text) return k;
      }
      seen_list_.push_back(key);
      if (seen_list_.size() == 16) {
        for (int32_t k : seen_list_) seen_.emplace(KeyText(k), k);
      }
      return -1;
    }
    const auto [it, fresh] = seen_.emplace(text, key);
    return fresh ? -1 : it->second;
  }

  std::string CloseMap() {
    const Open open = std::move(open_.back());
    open_.pop_back();
    const int32_t* pairs = pending_.data() + open.first_pending;
    const size_t entries = (pending_.size() - open.first_pending) / 2;
    // Keys first: each a scalar, none repeated (merge keys aside).
    bool merges = false;
    seen_list_.clear();
    if (!seen_.empty()) seen_.clear();
    for (size_t i = 0; i < entries; ++i) {
      const YamlTree::Node& key = NodeAt(pairs[2 * i]);
      if (key.kind != YamlTree::Kind::kScalar) {
        return absl::StrCat(Where(key), ": a mapping key must be a string or a number, not ",
                            key.kind == YamlTree::Kind::kMap    ? "a mapping"
                            : key.kind == YamlTree::Kind::kList ? "a list"
                                                                : "null");
      }
      if (key.merge_key) {
        merges = true;
        continue;
      }
      if (const int32_t first = Seen(pairs[2 * i]); first >= 0) {
        return absl::StrCat(Where(key), ": duplicate key \"", KeyText(pairs[2 * i]), "\" (first at ",
                            Where(NodeAt(first)), ")");
      }
    }
    if (!merges) {
      Close(open, pairs, 2 * entries, static_cast<uint32_t>(entries));
      return "";
    }
    // Own entries, then those of the merged mappings in order, each key once.
    merged_.clear();
    std::vector<int32_t> sources;
    for (size_t i = 0; i < entries; ++i) {
      const int32_t key = pairs[2 * i], value = pairs[2 * i + 1];
      if (!NodeAt(key).merge_key) {
        merged_.push_back(key);
        merged_.push_back(value);
        continue;
      }
      const YamlTree::Node& v = NodeAt(value);
      if (v.kind == YamlTree::Kind::kMap) {
        sources.push_back(value);
      } else if (v.kind == YamlTree::Kind::kList) {
        for (uint32_t k = 0; k < v.size; ++k) {
          const int32_t item = t_.link(v, k);
          const YamlTree::Node& m = NodeAt(item);
          if (m.kind != YamlTree::Kind::kMap) {
            return absl::StrCat(Where(m), ": a merge key (<<) takes mappings, got ",
                                m.kind == YamlTree::Kind::kList ? "a list" : "a scalar");
          }
          sources.push_back(item);
        }
      } else {
        return absl::StrCat(Where(NodeAt(key)), ": a merge key (<<) takes a mapping or a list of mappings");
      }
    }
    for (int32_t source : sources) {
      const YamlTree::Node& m = NodeAt(source);
      for (uint32_t k = 0; k < m.size; ++k) {
        const int32_t key = t_.link(m, 2 * k);
        if (Seen(key) >= 0) continue;
        merged_.push_back(key);
        merged_.push_back(t_.value(m, k));
      }
    }
    Close(open, merged_.data(), merged_.size(), static_cast<uint32_t>(merged_.size() / 2));
    return "";
  }

  YamlTree& t_;
  absl::string_view text_;
  int line_offset_;
  int max_depth_;
  std::vector<int32_t>& pending_;
  std::vector<Open>& open_;
  std::vector<YamlTree::Scratch::Size>& expanded_;
  absl::flat_hash_map<std::string, int32_t>& anchors_;
  std::vector<int32_t>& seen_list_;
  absl::flat_hash_map<absl::string_view, int32_t>& seen_;
  std::vector<int32_t>& merged_;
  int64_t alias_nodes_ = 0;  // nodes the document's aliases stand for
  int64_t alias_bytes_ = 0;  // and scalar bytes
};

namespace {

// Whether `text` holds nothing but white space and comments once a leading "---" is
// taken off (*marker says whether there was one): an empty document, or none.
bool OnlyBlanks(absl::string_view text, bool* marker) {
  *marker = text.size() >= 3 && text.substr(0, 3) == "---";
  size_t i = *marker ? 3 : 0;
  bool line_start = !*marker;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#' && (line_start || text[i - 1] == ' ' || text[i - 1] == '\t')) {
      i = text.find('\n', i);
      if (i == absl::string_view::npos) return true;
      continue;
    }
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
    line_start = c == '\n';
    ++i;
  }
  return true;
}

}  // namespace

void YamlTree::Clear() {
  nodes_.clear();
  links_.clear();
  text_.clear();
  documents_.clear();
}

YamlTree::Failure YamlTree::Parse(absl::string_view text, int line_offset, int max_depth, std::string* error,
                                  Reader reader) {
  Clear();
  source_ = text;
  last_parse_fast_ = false;
  // Streams of many empty documents are common in generated manifests (and cheap to
  // make in bulk): they need no parser.
  if (bool marker = false; OnlyBlanks(text, &marker)) {
    if (marker) {
      Node null;
      null.column = 3;
      nodes_.push_back(null);
      documents_.push_back(0);
    }
    return Failure::kNone;
  }
  // Most manifests are block YAML that the block scanner reads several times faster;
  // what it leaves is read again by libyaml.
  if (reader == Reader::kAny) {
    YamlTreeBuilder fast(this, line_offset, max_depth);
    if (ScanBlockYaml(text, &fast)) {
      last_parse_fast_ = true;
      return Failure::kNone;
    }
    Clear();  // what the scanner built before it gave up
  }
  return YamlTreeBuilder(this, line_offset, max_depth).Run(text, error);
}

}  // namespace vcsched::io_internal
