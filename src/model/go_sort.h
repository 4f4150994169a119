// Go's sort.Slice (pattern-defeating quicksort, Go 1.19 and later), step for step. Where a
// Volcano or kubelet comparator is not a strict weak order (kubelet's CPU assignment chains
// its criteria with "or"), the order it leaves depends on the algorithm's every comparison
// and swap; this reproduces them. `less(v, i, j)` compares the elements now at i and j.
#ifndef VCSCHED_SRC_MODEL_GO_SORT_H_
#define VCSCHED_SRC_MODEL_GO_SORT_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace vcsched::internal {

template <typename T, typename LessFn>
class GoSorter {
 public:
  GoSorter(std::vector<T>& v, const LessFn& less) : v_(v), less_(less) {}

  void Sort() {
    const int n = static_cast<int>(v_.size());
    int limit = 0;
    for (unsigned x = static_cast<unsigned>(n); x != 0; x >>= 1) ++limit;  // bits.Len
    Pdq(0, n, limit);
  }

 private:
  enum Hint { kUnknown, kIncreasing, kDecreasing };

  bool Less(int i, int j) const { return less_(v_, i, j); }
  void Swap(int i, int j) { std::swap(v_[static_cast<size_t>(i)], v_[static_cast<size_t>(j)]); }

  void Insertion(int a, int b) {
    for (int i = a + 1; i < b; ++i) {
      for (int j = i; j > a && Less(j, j - 1); --j) Swap(j, j - 1);
    }
  }

  void SiftDown(int lo, int hi, int first) {
    int root = lo;
    while (true) {
      int child = 2 * root + 1;
      if (child >= hi) return;
      if (child + 1 < hi && Less(first + child, first + child + 1)) ++child;
      if (!Less(first + root, first + child)) return;
      Swap(first + root, first + child);
      root = child;
    }
  }

  void Heap(int a, int b) {
    const int first = a, hi = b - a;
    for (int i = (hi - 1) / 2; i >= 0; --i) SiftDown(i, hi, first);
    for (int i = hi - 1; i >= 0; --i) {
      Swap(first, first + i);
      SiftDown(0, i, first);
    }
  }

  void Pdq(int a, int b, int limit) {
    constexpr int kMaxInsertion = 12;
    bool balanced = true, partitioned = true;
    while (true) {
      const int length = b - a;
      if (length <= kMaxInsertion) {
        Insertion(a, b);
        return;
      }
      if (limit == 0) {
        Heap(a, b);
        return;
      }
      if (!balanced) {
        BreakPatterns(a, b);
        --limit;
      }
      auto [pivot, hint] = ChoosePivot(a, b);
      if (hint == kDecreasing) {
        Reverse(a, b);
        pivot = (b - 1) - (pivot - a);
        hint = kIncreasing;
      }
      if (balanced && partitioned && hint == kIncreasing && PartialInsertion(a, b)) return;
      if (a > 0 && !Less(a - 1, pivot)) {
        a = PartitionEqual(a, b, pivot);
        continue;
      }
      const auto [mid, already] = Partition(a, b, pivot);
      partitioned = already;
      const int left = mid - a, right = b - mid, threshold = length / 8;
      if (left < right) {
        balanced = left >= threshold;
        Pdq(a, mid, limit);
        a = mid + 1;
      } else {
        balanced = right >= threshold;
        Pdq(mid + 1, b, limit);
        b = mid;
      }
    }
  }

  std::pair<int, bool> Partition(int a, int b, int pivot) {
    Swap(a, pivot);
    int i = a + 1, j = b - 1;
    while (i <= j && Less(i, a)) ++i;
    while (i <= j && !Less(j, a)) --j;
    if (i > j) {
      Swap(j, a);
      return {j, true};
    }
    Swap(i, j);
    ++i;
    --j;
    while (true) {
      while (i <= j && Less(i, a)) ++i;
      while (i <= j && !Less(j, a)) --j;
      if (i > j) break;
      Swap(i, j);
      ++i;
      --j;
    }
    Swap(j, a);
    return {j, false};
  }

  int PartitionEqual(int a, int b, int pivot) {
    Swap(a, pivot);
    int i = a + 1, j = b - 1;
    while (true) {
      while (i <= j && !Less(a, i)) ++i;
      while (i <= j && Less(a, j)) --j;
      if (i > j) break;
      Swap(i, j);
      ++i;
      --j;
    }
    return i;
  }

  bool PartialInsertion(int a, int b) {
    constexpr int kMaxSteps = 5, kShortestShifting = 50;
    int i = a + 1;
    for (int step = 0; step < kMaxSteps; ++step) {
      while (i < b && !Less(i, i - 1)) ++i;
      if (i == b) return true;
      if (b - a < kShortestShifting) return false;
      Swap(i, i - 1);
      if (i - a >= 2) {
        for (int j = i - 1; j >= 1; --j) {
          if (!Less(j, j - 1)) break;
          Swap(j, j - 1);
        }
      }
      if (b - i >= 2) {
        for (int j = i + 1; j < b; ++j) {
          if (!Less(j, j - 1)) break;
          Swap(j, j - 1);
        }
      }
    }
    return false;
  }

  void BreakPatterns(int a, int b) {
    const int length = b - a;
    if (length < 8) return;
    uint64_t random = static_cast<uint64_t>(length);
    int shift = 0;
    for (unsigned x = static_cast<unsigned>(length); x != 0; x >>= 1) ++shift;
    const uint64_t modulus = uint64_t{1} << shift;
    for (int idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; ++idx) {
      random ^= random << 13;
      random ^= random >> 7;
      random ^= random << 17;
      int other = static_cast<int>(random & (modulus - 1));
      if (other >= length) other -= length;
      Swap(idx, a + other);
    }
  }

  std::pair<int, Hint> ChoosePivot(int a, int b) {
    constexpr int kShortestNinther = 50, kMaxSwaps = 4 * 3;
    const int l = b - a;
    int swaps = 0;
    int i = a + l / 4 * 1, j = a + l / 4 * 2, k = a + l / 4 * 3;
    if (l >= 8) {
      if (l >= kShortestNinther) {
        i = Median(i - 1, i, i + 1, &swaps);
        j = Median(j - 1, j, j + 1, &swaps);
        k = Median(k - 1, k, k + 1, &swaps);
      }
      j = Median(i, j, k, &swaps);
    }
    if (swaps == 0) return {j, kIncreasing};
    if (swaps == kMaxSwaps) return {j, kDecreasing};
    return {j, kUnknown};
  }

  void Order2(int& a, int& b, int* swaps) const {
    if (Less(b, a)) {
      ++*swaps;
      std::swap(a, b);
    }
  }

  int Median(int a, int b, int c, int* swaps) const {
    Order2(a, b, swaps);
    Order2(b, c, swaps);
    Order2(a, b, swaps);
    return b;
  }

  void Reverse(int a, int b) {
    for (int i = a, j = b - 1; i < j; ++i, --j) Swap(i, j);
  }

  std::vector<T>& v_;
  const LessFn& less_;
};

template <typename T, typename LessFn>
void GoSortSlice(std::vector<T>& v, const LessFn& less) {
  GoSorter<T, LessFn>(v, less).Sort();
}

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_MODEL_GO_SORT_H_
