// The level's sound remap, GC layout (formats-globals.md §13; Wrench's
// level_core.cpp reads it this way for R&C1-3): in core_index at
// sound_remap_offset, {s16 second_part_ofs, s16 second_part_size, s16
// third_part_ofs, s16 third_part_count}, then {s16 offset, s16 size}
// elements up to second_part_ofs. The block ends at last.offset + last.size
// × 4, `last` being the element at second_part_ofs − 4. Offsets count from
// the block's start. What the parts mean is unknown: gcfs serves the block
// raw and its element table as CSV.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats {

constexpr uint64_t kSoundRemapHeaderSize = 8;

struct SoundRemapElement {
    int16_t offset = 0, size = 0;  // size in 4-byte words
};

struct SoundRemap {
    int16_t second_part_ofs = 0, second_part_size = 0, third_part_ofs = 0, third_part_count = 0;
    std::vector<SoundRemapElement> elements;
    uint64_t size = 0;  // the block's bytes, by the rule above
};

// Checked: the element table ends at second_part_ofs on a whole element, the
// block's end lies past the table and inside core_index, and every element's
// words lie inside the block.
Result<SoundRemap> parse_sound_remap(ByteSpan core_index, int32_t offset);
// element, offset, words, bytes (hex range in the block)
std::string sound_remap_csv(const SoundRemap& remap);

// ---- writer (the disc builder) ----
// Header, elements, then the elements' words. The builder makes the last
// element the third part, so Wrench's GC rule (the last element's end) and its
// DL rule (third_part_ofs + third_part_count × 4) give the same size; the
// reference asks for neither, and says nothing of what the words hold.
Bytes write_sound_remap(const std::vector<std::vector<uint32_t>>& second_part, const std::vector<uint32_t>& third_part);

}  // namespace gcfs::formats
