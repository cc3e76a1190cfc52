// The BONUS WAD (formats-globals.md §7): the bonus gallery. Every range is a
// SectorRange; each holds a compressed PIF (→ PNG) but credits_text (a table
// of eight binary parts) and credits_images (uncompressed RGBA images).
#pragma once

#include <array>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/wad_header.h"

namespace gcfs::formats::bonus {

constexpr int32_t kBonusHeaderSize = 0xA48;

// Wrench's GcBonusWadHeader, a packed struct: character_sketches starts at
// 0x58, where goodies_images[10] ends. (Its source comment, and §7's table
// after it, say 0x60; the struct's packing, and every later offset, put it
// at 0x58: 0x58 + 19 × 8 = 0xF0, where character_renders starts.)
inline constexpr std::array<RangeTable, 22> kBonusTables = {{
    {"goodies_images", 0x008, 10},     {"character_sketches", 0x058, 19}, {"character_renders", 0x0F0, 19},
    {"old_skill_images", 0x188, 31},   {"epilogue_english", 0x280, 12},   {"epilogue_french", 0x2E0, 12},
    {"epilogue_italian", 0x340, 12},   {"epilogue_german", 0x3A0, 12},    {"epilogue_spanish", 0x400, 12},
    {"sketchbook", 0x460, 30},         {"commercials", 0x550, 5},         {"item_images", 0x578, 9},
    {"credits_text", 0x5C0, 1},        {"credits_images", 0x5C8, 29},     {"random_stuff", 0x6B0, 5},
    {"movie_images", 0x6D8, 5},        {"cinematic_images", 0x700, 33},   {"skill_images", 0x808, 30},
    {"clanks_day", 0x8F8, 18},         {"endorsement_deals", 0x988, 10},  {"short_cuts", 0x9D8, 8},
    {"paintings", 0xA18, 6},
}};

enum class Item { compressed_pif, rgba_image, credits_text };
Item item_of(const RangeTable& table);

// credits_text (§7): eight s32 offsets from the range's start (-1: absent);
// part i runs to the next present part, the last to the range's end.
constexpr int kCreditsParts = 8;
struct CreditsPart {
    int index = 0;
    ByteRange range;  // within the credits_text range
};
Result<std::vector<CreditsPart>> read_credits_text(ByteSpan range);
// `parts` eight byte strings (empty: absent), each 0x10-aligned after the offsets.
Bytes write_credits_text(const std::array<Bytes, kCreditsParts>& parts);

}  // namespace gcfs::formats::bonus
