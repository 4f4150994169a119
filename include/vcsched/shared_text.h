// SharedText: an immutable string that shares ownership of the storage it points into.
//
// Decisions name thousands of tasks and nodes; copying each name would cost a heap
// allocation per bind. A SharedText is a view of the name where it already lives (the
// snapshot, or a decisions' text store) together with a share of that storage, so it
// stays valid wherever it is copied to, for as long as it lives, with no copy of the
// text. Made from a std::string, a C string or a string_view it copies the text into
// storage of its own, so a hand-built value never dangles.
//
// It is an absl::string_view (read it, compare it, StrCat it as one); a string_view
// taken from it is valid only as long as some SharedText of that storage lives.
#ifndef VCSCHED_SHARED_TEXT_H_
#define VCSCHED_SHARED_TEXT_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace vcsched {

class SharedText : public absl::string_view {
 public:
  // A share of some storage: what keeps a SharedText's text alive. One pointer, copied
  // with one atomic count (a SharedText is 24 bytes).
  class Owner {
   public:
    Owner() = default;
    explicit Owner(std::shared_ptr<const void> storage) : block_(new Block{{1}, std::move(storage), {}}) {}
    Owner(const Owner& other) noexcept : block_(other.block_) {
      if (block_ != nullptr) block_->refs.fetch_add(1, std::memory_order_relaxed);
    }
    Owner(Owner&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
    Owner& operator=(const Owner& other) noexcept {
      Owner copy(other);
      std::swap(block_, copy.block_);
      return *this;
    }
    Owner& operator=(Owner&& other) noexcept {
      std::swap(block_, other.block_);  // `other` releases what this held
      return *this;
    }
    ~Owner() {
      if (block_ != nullptr && block_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete block_;
    }

   private:
    friend class SharedText;
    struct Block {
      std::atomic<long> refs;
      std::shared_ptr<const void> storage;  // shared storage, or
      std::string text;                     // a text of its own
    };
    Block* block_ = nullptr;
  };

  SharedText() = default;
  // Copies the text. Implicit from strings, so that hand-built values read naturally;
  // explicit from a string_view, so that a copy of a view is never made unawares.
  explicit SharedText(absl::string_view text) {
    if (text.empty()) return;
    owner_.block_ = new Owner::Block{{1}, nullptr, std::string(text)};
    static_cast<absl::string_view&>(*this) = owner_.block_->text;
  }
  SharedText(const std::string& text) : SharedText(absl::string_view(text)) {}  // NOLINT
  SharedText(const char* text) : SharedText(absl::string_view(text)) {}  // NOLINT
  // A view of `text`, which `owner` keeps alive (no copy).
  SharedText(absl::string_view text, Owner owner) : absl::string_view(text), owner_(std::move(owner)) {}
  // A string literal: static storage, nothing to own.
  template <size_t N>
  static SharedText Literal(const char (&text)[N]) {
    SharedText t;
    static_cast<absl::string_view&>(t) = absl::string_view(text, N - 1);
    return t;
  }

  absl::string_view view() const { return *this; }
  std::string str() const { return std::string(data(), size()); }

 private:
  Owner owner_;
};

}  // namespace vcsched

#endif  // VCSCHED_SHARED_TEXT_H_
