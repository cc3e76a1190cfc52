// The LEVEL WAD container header (formats.md §3.1, §3.2).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "formats/common/ranges.h"

namespace gcfs::formats {

constexpr int32_t kLevelHeaderSize = 0x60;
constexpr int32_t kLevelHeader68Size = 0x68;  // §3.2 variant

struct LevelHeader {
    int32_t header_size = kLevelHeaderSize;
    int32_t sector = 0;  // §3.1: absolute LBA in the TOC copy, 0 in Wrench-written files
    int32_t id = 0;
    int32_t reverb = 0;
    SectorRange data;
    SectorRange sound_bank;
    SectorRange gameplay;
    SectorRange occlusion;
    std::array<SectorRange, 3> chunks{};
    std::array<SectorRange, 3> chunk_sound_banks{};
};

// Accepts the 0x60 layout and the 0x68 variant (§3.2, which carries NTSC and
// PAL gameplay; we read NTSC as Wrench does).
Result<LevelHeader> parse_level_header(ByteSpan bytes);
void write_level_header(ByteWriter& out, const LevelHeader& header);  // always 0x60
// Writes the extents of `header` into `bytes`, a header of either layout as
// found (its header_size decides which), leaving every other byte as it is.
// In the 0x68 layout a PAL gameplay range equal to the NTSC one before the
// change follows it; a distinct PAL range is left alone (§3.2: Wrench reads
// NTSC only, so nothing says what a writer owes PAL).
void put_level_extents(std::span<uint8_t> bytes, const LevelHeader& header);

// One named sector range of a level container, in header order.
struct LevelExtent {
    std::string name;  // "data", "sound_bank", "gameplay", "occlusion", "chunk_0", "chunk_sound_bank_0", ...
    SectorRange range;
};
std::vector<LevelExtent> level_extents(const LevelHeader& header);  // non-empty ones only

// Sectors the header claims: its own sector plus every extent. The extents
// tile the container when this equals the container's sector count (design.md).
uint64_t claimed_sectors(const LevelHeader& header);

// §3.1 reader invariants on the extents: each inside the file, none
// overlapping the header sector or another extent. Returns every problem.
std::vector<FormatError> extent_problems(const LevelHeader& header, uint64_t file_sectors);

}  // namespace gcfs::formats
