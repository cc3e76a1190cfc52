// The global WADs' textures (formats-globals.md §5, §7): PIF images (8-bit
// with a swizzled 256-colour palette and mip levels, or 4-bit with 16
// colours), texture lists of them, and plain RGBA images. All with PS2 alpha
// (0x80 is opaque). Each becomes a PNG whose size is arithmetic on its header.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/ranges.h"
#include "formats/export/png.h"
#include "formats/export/png_read.h"

#include <string>

namespace gcfs::formats::pif {

constexpr uint64_t kHeaderSize = 0x20;
constexpr int32_t kFormat8 = 0x13;  // 8-bit, 256 colours, palette swizzled
constexpr int32_t kFormat4 = 0x94;  // 4-bit, 16 colours
constexpr int32_t kMaxSide = 2048;

struct Header {
    int32_t file_size = 0;  // "unused, may be 0" (§5); kept for info.json
    int32_t width = 0, height = 0, format = 0, clut_format = 0, clut_order = 0, mip_levels = 0;

    bool eight_bit() const { return format == kFormat8; }
    uint32_t colours() const { return eight_bit() ? 256 : 16; }
    // Bytes from the header's start through the last declared mip level
    // (each level halves both sides; 0 and 1 mean one level).
    uint64_t data_size() const;
};

// Checks the magic "2FIP", the format (0x13 or 0x94), sides of 1-2048 (a
// 4-bit image an even number of pixels); the first bytes of a PIF suffice.
Result<Header> read_header(ByteSpan pif);
uint64_t png_size(const Header& header);
// The image as PNG: 8-bit through its swizzled palette (entry i is file
// entry i with bits 3 and 4 swapped), 4-bit with the high nibble as the
// first pixel of each byte (as Wrench writes it: which order the game uses is
// not settled, formats-globals.md §5); alpha scaled from PS2's. Only mip
// level 0 is shown. Fails when the bytes are shorter than the header says.
Result<Bytes> to_png(ByteSpan pif);

// A texture list (§5): s32 count (< 0x1000), then count offsets from the
// list's start, each 0x10-aligned and ascending; texture i runs to the next
// offset, the last to the end of the list.
constexpr int32_t kMaxTextures = 0x1000;
Result<std::vector<ByteRange>> read_texture_list(ByteSpan list);
// The same from the list's first bytes (the count and offsets at least) and
// its whole size, so a compressed list is known without decoding it all.
Result<std::vector<ByteRange>> read_texture_list(ByteSpan head, uint64_t list_size);

// An RGBA image (§7): {s32 width, s32 height, u32 pad[2]}, then width ×
// height × 4 bytes (R, G, B, A with PS2 alpha).
constexpr uint64_t kRgbaHeaderSize = 0x10;
struct RgbaHeader {
    int32_t width = 0, height = 0;
};
Result<RgbaHeader> read_rgba_header(ByteSpan image);
uint64_t rgba_png_size(const RgbaHeader& header);
Result<Bytes> rgba_to_png(ByteSpan image);

// ---- writer (the disc builder) ----

// `palette` in PNG order with PS2 alpha; `indices` one byte per pixel of
// level 0; the smaller levels are made by keeping every other pixel of every
// other row while a level is at least 8 wide (Wrench's way), up to `mip_levels`.
Bytes write_pif8(uint32_t width, uint32_t height, const std::array<png::Rgba, 256>& palette, ByteSpan indices, int mip_levels = 1);
// `indices` one byte per pixel (0-15), packed two to a byte, the first pixel high.
Bytes write_pif4(uint32_t width, uint32_t height, const std::array<png::Rgba, 16>& palette, ByteSpan indices);
Bytes write_texture_list(const std::vector<Bytes>& textures);

// ---- the edit decoder for pictures (edit/) ----

// `old` with `picture` (its width and height) in its place: the same format
// (8-bit or 4-bit) and header, the palette kept where the colours fit it and
// made anew from the picture's own where not (formats/core/texture_encode.h;
// the palette is the PIF's alone), the mip levels made again by the writer's
// rule. `how` says how the colours were placed.
Result<Bytes> encode_like(ByteSpan old, const png::RgbaImage& picture, std::string& how);
// An RGBA image (§7) with `picture`'s pixels, PS2 alpha; the header as it was.
Result<Bytes> encode_rgba_like(ByteSpan old, const png::RgbaImage& picture);
Bytes write_rgba_image(uint32_t width, uint32_t height, std::span<const png::Rgba> pixels);

}  // namespace gcfs::formats::pif
