// The core's particle and fx texture tables (formats.md §6.1 0x50, 0x58 give
// only "0x10 B"; the fields are Wrench's, level_textures.h): each record
// points into its bank in DAT (part_bank_offset, fx_bank_offset), where both
// the 8-bit texels and the 256-entry palette live, swizzled and with PS2
// alpha like every other level texture.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "formats/core/level_core.h"

namespace gcfs::formats {

struct BankTexture {
    int32_t palette = 0;  // byte offset in the bank of 256 × RGBA32
    int32_t texels = 0;   // byte offset in the bank of width × height indices
    int32_t width = 0, height = 0;
};

// Particle records are {palette, unknown, texels, side} (square); fx records
// {palette, texels, width, height}. The count is checked against IDX first.
Result<std::vector<BankTexture>> parse_bank_textures(ByteSpan core_index, ArrayRange range, bool particle);
// Why the texels or palette lie outside DAT ("" when fine); sides up to 1024.
std::string bank_texture_problem(const BankTexture& t, int32_t bank_offset, uint64_t core_size);
// Its size and range checks alone, in `size` bytes with the bank at
// `bank_offset`: a window of the core may begin inside the bank, past its
// first byte, so the bank's own offset need not be positive there.
std::string bank_texture_outside(const BankTexture& t, int32_t bank_offset, uint64_t size);
// The core bytes [first, second) holding the texture's texels and palette
// both; meaningful only when bank_texture_problem finds none.
std::pair<uint64_t, uint64_t> bank_texture_span(const BankTexture& t, int32_t bank_offset);
// The texture as PNG from `core`, the decompressed core or a window of it
// (`bank_offset` counted from the window's start); the ranges are checked
// against the window again.
Result<Bytes> bank_texture_png(const BankTexture& t, ByteSpan core, int32_t bank_offset);

}  // namespace gcfs::formats
