// The HUD WAD (formats-globals.md §9). Wrench knows the GC header's field
// names and sizes but registers no unpacker, so what each range holds is
// unconfirmed: gcfs serves every present range raw under its field name and
// decodes one only when its own bytes prove the type.
#pragma once

#include <array>

#include "formats/common/bytes.h"
#include "formats/common/wad_header.h"

namespace gcfs::formats::hud {

constexpr int32_t kHudHeaderSize = 0x1870;

inline constexpr std::array<RangeTable, 22> kHudTables = {{
    {"hud_header", 0x008, 1},           {"hud_banks", 0x010, 5},          {"ratchet_seqs", 0x038, 28},
    {"hud_seqs", 0x118, 20},            {"vendor", 0x1B8, 1},             {"vendor_audio", 0x1C0, 277},
    {"help_controls", 0xA68, 11},       {"help_moves", 0xAC0, 18},        {"help_weapons", 0xB50, 45},
    {"help_gadgets", 0xCB8, 12},        {"help_items", 0xD18, 17},        {"rac1_menus", 0xDA0, 14},
    {"mission_ss", 0xE10, 83},          {"gmap_ss", 0x10A8, 28},          {"unknown2", 0x1188, 56},
    {"all_text", 0x1348, 1},            {"hudw3d", 0x1350, 1},            {"unknown3", 0x1358, 2},
    {"monsterpedia_shots", 0x1368, 84}, {"screen_gadgets", 0x1608, 12},   {"screen_weapons", 0x1668, 45},
    {"screen_items", 0x17D0, 20},
}};

// What a range's first bytes prove it to be (§9): a WAD-LZ stream ("WAD"),
// a PIF ("2FIP") or a VAG ("VAGp"); anything else stays unknown.
enum class Content { unknown, wad_lz, pif, vag };
Content identify(ByteSpan head);

}  // namespace gcfs::formats::hud
