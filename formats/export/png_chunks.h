// The pieces PNG and APNG files share (formats/export/png.cpp, apng.cpp):
// chunks with their CRC, and image data as a stored (not deflated) zlib
// stream, so that a file's size is arithmetic on its width and height.
#pragma once

#include <cstdint>

#include "formats/common/bytes.h"

namespace gcfs::formats::png {

inline constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
constexpr uint64_t kChunkOverhead = 12;  // length, type, CRC

void be32(Bytes& out, uint32_t v);
void be16(Bytes& out, uint16_t v);
void chunk(Bytes& out, const char type[4], const Bytes& data);
// The signature and IHDR (depth 8, no interlace) of a `colour_type` image.
Bytes signature_and_header(uint32_t width, uint32_t height, uint8_t colour_type);

// Bytes of a stored zlib stream holding `raw` bytes.
uint64_t stored_zlib_size(uint64_t raw);
// `rows` rows of `row_bytes` each, a filter byte (none) before each, as a stored zlib stream.
Bytes stored_zlib(const uint8_t* pixels, uint64_t rows, uint64_t row_bytes);

}  // namespace gcfs::formats::png
