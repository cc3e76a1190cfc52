// One item of a global WAD, as the units of tree/globals/ read it: a byte
// range of the WAD file, raw or a WAD-LZ stream (formats.md §5), the whole of
// it or only its first bytes (a header, to know a size without decoding the
// rest).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "formats/common/bytes.h"
#include "tree/node/image.h"

namespace gcfs::tree {

struct WadItem {
    const Image* image = nullptr;
    uint64_t offset = 0, length = 0;  // image bytes
    bool compressed = false;
    std::string name;  // "bonus.wad sketchbook[0]", for errors
    // Set for an item inside another (the image in the decompressed irx
    // table): bytes [first, first + size) of what the range decodes to.
    std::optional<std::pair<uint64_t, uint64_t>> part;

    // Every byte, decompressed when compressed (the stream measured first).
    formats::Result<formats::Bytes> bytes() const;
    // The first `count` bytes (decoded ones when compressed; a stream that
    // decodes to fewer fails), or as many as a raw item has.
    formats::Result<formats::Bytes> head(uint64_t count) const;
    // How many bytes bytes() gives, found without decoding: a compressed
    // range's stream is measured (its packets walked, nothing written).
    formats::Result<uint64_t> size() const;
    // "bonus.wad sketchbook[0] at image byte 0x5000"
    std::string where() const;
};

}  // namespace gcfs::tree
