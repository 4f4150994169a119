#include "src/io/yaml_pieces.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"

namespace vcsched::io_internal {

namespace {

// Fewer pieces than this are not worth a thread.
constexpr size_t kMinPiecesForThreads = 64;
// Pieces parsed ahead of the reader, per thread, and their text at most (the piece the
// reader waits for is parsed whatever its size): trees of large documents are not
// piled up ahead of it.
constexpr size_t kSlotsPerThread = 32;
constexpr size_t kBytesAhead = size_t{16} << 20;
// A slot whose piece was larger than this gives its storage back once read.
constexpr size_t kKeptPieceBytes = size_t{1} << 20;

// Never throws: a helper thread has no caller to throw to.
void ParseOne(const DocumentText& piece, int max_depth, ParsedPiece* out) {
  try {
    out->failure = out->tree.Parse(piece.text, piece.first_line, max_depth, &out->error);
  } catch (const std::exception& e) {
    out->failure = YamlTree::Failure::kSyntax;
    out->error = absl::StrCat("line ", piece.first_line + 1, ": invalid YAML: cannot be read (", e.what(), ")");
  }
}

// Pieces are claimed in order by whichever thread is free; piece j is parsed into slot
// j % slots once the reader is done with piece j - slots.
class Pipeline {
 public:
  Pipeline(absl::Span<const DocumentText> pieces, int max_depth, size_t slots)
      : pieces_(pieces), max_depth_(max_depth), slots_(slots), trees_(slots), ready_(slots, 0) {}

  void Work() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      changed_.wait(lock, [&] { return stop_ || next_parse_ >= pieces_.size() || CanClaim(); });
      if (stop_ || next_parse_ >= pieces_.size()) return;
      ParseClaimed(lock);
    }
  }

  void Read(const std::function<void(const ParsedPiece&)>& read) {
    for (size_t i = 0; i < pieces_.size(); ++i) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        while (!ready_[i % slots_]) {
          // The reader parses too while it would otherwise wait.
          if (next_parse_ < pieces_.size() && CanClaim()) ParseClaimed(lock);
          else changed_.wait(lock);
        }
      }
      read(slot(i));  // no lock: workers never touch a ready slot
      if (pieces_[i].text.size() > kKeptPieceBytes) slot(i) = ParsedPiece();
      std::lock_guard<std::mutex> lock(mu_);
      ready_[i % slots_] = 0;
      next_read_ = i + 1;
      bytes_ahead_ -= pieces_[i].text.size();
      changed_.notify_all();
    }
  }

  void Stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    changed_.notify_all();
  }

 private:
  ParsedPiece& slot(size_t piece) { return trees_[piece % slots_]; }

  // Whether the next piece may be claimed (with the lock held): its slot is free, and it
  // is the piece the reader needs or the text parsed ahead stays within bounds.
  bool CanClaim() const {
    return next_parse_ < next_read_ + slots_ &&
           (next_parse_ == next_read_ || bytes_ahead_ + pieces_[next_parse_].text.size() <= kBytesAhead);
  }

  // Claims the next piece and parses it with the lock released.
  void ParseClaimed(std::unique_lock<std::mutex>& lock) {
    const size_t j = next_parse_++;
    bytes_ahead_ += pieces_[j].text.size();
    lock.unlock();
    ParseOne(pieces_[j], max_depth_, &slot(j));
    lock.lock();
    ready_[j % slots_] = 1;
    changed_.notify_all();
  }

  absl::Span<const DocumentText> pieces_;
  int max_depth_;
  size_t slots_;
  std::vector<ParsedPiece> trees_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<char> ready_;
  size_t next_parse_ = 0;  // the next piece to claim
  size_t next_read_ = 0;   // the next piece to read
  size_t bytes_ahead_ = 0;  // text of the pieces claimed and not yet read
  bool stop_ = false;
};

}  // namespace

void ParsePiecesInOrder(absl::Span<const DocumentText> pieces, int max_depth, int threads,
                        const std::function<void(const ParsedPiece&)>& read) {
  if (threads <= 1 || pieces.size() < kMinPiecesForThreads) {
    ParsedPiece parsed;
    for (const DocumentText& piece : pieces) {
      ParseOne(piece, max_depth, &parsed);
      read(parsed);
    }
    return;
  }
  const size_t helpers = static_cast<size_t>(threads) - 1;
  Pipeline pipeline(pieces, max_depth, kSlotsPerThread * (helpers + 1));
  std::vector<std::thread> workers;
  workers.reserve(helpers);
  // Joins the helpers however the reader leaves (an exception included).
  struct Joiner {
    Pipeline& pipeline;
    std::vector<std::thread>& workers;
    ~Joiner() {
      pipeline.Stop();
      for (std::thread& t : workers) t.join();
    }
  } joiner{pipeline, workers};
  for (size_t k = 0; k < helpers; ++k) {
    try {
      workers.emplace_back([&pipeline] { pipeline.Work(); });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the reader parses what the others do not
    }
  }
  pipeline.Read(read);
}

}  // namespace vcsched::io_internal
