// How many nodes (and bytes of text) one YAML document may hold once its aliases are
// expanded (a few bytes of anchors and aliases can stand for billions), per reader.
//
// Fuzz builds (libFuzzer's FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) cap every limit at
// 16,384 nodes, so that an alias bomb is refused in microseconds instead of seconds
// under the sanitizers: the same checks and messages, reached sooner.
#ifndef VCSCHED_SRC_IO_EXPANSION_LIMITS_H_
#define VCSCHED_SRC_IO_EXPANSION_LIMITS_H_

#include <cstdint>

namespace vcsched::io_internal {

constexpr int64_t ExpansionLimit(int64_t limit) {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  return limit < 16384 ? limit : 16384;
#else
  return limit;
#endif
}

// Merge keys and duplicate keys are checked over this many nodes of a document.
inline constexpr int64_t kMaxDocumentNodes = ExpansionLimit(int64_t{1} << 22);
// Bytes of scalar text a document's aliases may stand for (readers copy them): the
// largest input's worth (1 MiB in fuzz builds).
inline constexpr int64_t kMaxDocumentAliasBytes = ExpansionLimit(int64_t{1} << 28) < (int64_t{1} << 28)
                                                      ? int64_t{1} << 20
                                                      : int64_t{1} << 28;
// A manifest or a Volcano Job document read into values.
inline constexpr int64_t kMaxManifestValues = ExpansionLimit(int64_t{1} << 20);
// A plugin's or action's arguments in a scheduler configuration.
inline constexpr int64_t kMaxArgumentValues = ExpansionLimit(100000);

}  // namespace vcsched::io_internal

#endif  // VCSCHED_SRC_IO_EXPANSION_LIMITS_H_
