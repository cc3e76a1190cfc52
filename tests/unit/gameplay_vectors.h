// The gameplay files Wrench's own writer produced (../shared/vectors/gameplay,
// vectors/README.md), with what Wrench's reader decoded from each.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

#include "formats/common/bytes.h"

namespace gcfs::test {

inline const char* const kGameplayVectors[] = {"example_gc", "example_gc_minimal", "example_gc_rich"};

inline std::string shared_path(const std::string& relative) { return std::string(GCFS_SHARED_DIR) + "/" + relative; }

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path + " (the tests need ../shared beside the checkout)");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline formats::Bytes read_bytes(const std::string& path) {
    const std::string text = read_text(path);
    return formats::Bytes(text.begin(), text.end());
}

}  // namespace gcfs::test
