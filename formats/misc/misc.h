// The MISC WAD (formats-globals.md §8): the debug font, the IOP modules, the
// front end's executables and two raw items; and the GC IRX table found in
// its decompressed irx range.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/ranges.h"
#include "formats/common/wad_header.h"

namespace gcfs::formats::misc {

constexpr int32_t kMiscHeaderSize = 0x40;  // §8

// §8: seven single SectorRanges, each item of its own kind.
inline constexpr std::array<RangeTable, 7> kMiscTables = {{
    {"debug_font", 0x08, 1},    // an 8-bit PIF
    {"irx", 0x10, 1},           // compressed: the IRX table below
    {"save_game", 0x18, 1},     // raw
    {"frontbin", 0x20, 1},      // a ratchet executable (formats/executable)
    {"frontbin_net", 0x28, 1},  // compressed, raw inside
    {"frontend", 0x30, 1},      // raw
    {"exit", 0x38, 1},          // raw
}};

// The GC IRX table (§8) at the start of the decompressed irx: an RGBA image,
// two unused ranges, then nine IOP modules, each a ByteRange from the table's
// start.
constexpr uint64_t kIrxTableSize = 0x60;
inline constexpr std::array<const char*, 9> kIrxModules = {"sio2man", "mcman", "mcserv", "dbcman", "sio2d", "ds2u", "stash", "libsd", "989snd"};
struct IrxItem {
    std::string name;  // "image" or a module's
    ByteRange range;
    std::string error;  // the range passes the decompressed irx's end
};
// The present items (size > 0) of the table at the start of `irx`, each range
// checked against `irx_size`, the whole decompressed irx's (`irx` may hold
// the table alone).
Result<std::vector<IrxItem>> parse_irx_table(ByteSpan irx, uint64_t irx_size);

// ---- writer (the disc builder) ----
// `image` the RGBA image's bytes, `modules` the nine in kIrxModules order
// (empty: absent); every item 0x40-aligned, as Wrench writes it.
Bytes write_irx_table(const Bytes& image, const std::array<Bytes, 9>& modules);

}  // namespace gcfs::formats::misc
