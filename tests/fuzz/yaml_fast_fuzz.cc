// Differential fuzzing of the YAML readers: the block scanner (src/io/yaml_block_scanner.h)
// must give exactly libyaml's tree (nodes, texts, flags, positions) for every text it
// accepts, and leave every other text to libyaml.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/testing/yaml_tree_compare.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const vcsched::testing::ReaderComparison c = vcsched::testing::CompareYamlReaders(text, 40);
  if (!c.difference.empty()) {
    std::fprintf(stderr, "readers differ: %s\n", c.difference.c_str());
    std::abort();
  }
  return 0;
}
