// The MPEG WAD: the cutscenes and their subtitles (formats-globals.md §4).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/ranges.h"

namespace gcfs::formats::mpeg {

constexpr int32_t kMpegHeaderSize = 0x328;  // §4
constexpr int kMpegSlots = 50;

struct MpegSlot {
    int index = 0;
    SectorByteRange subtitles, video;
    std::string subtitles_error, video_error;  // a range past the WAD's end
};

// Slots where either range is present (§4), with each range checked against
// the WAD's `file_size`.
Result<std::vector<MpegSlot>> parse_mpeg_wad(ByteSpan header, uint64_t file_size);
Bytes write_mpeg_header(const std::array<std::pair<SectorByteRange, SectorByteRange>, kMpegSlots>& slots);

// The WAD with slot `slot`'s subtitle blob replaced (edit/), every item
// laid out again as the builder lays them out (formats/common/wad_relayout.h).
Result<Bytes> replace_subtitles(ByteSpan wad, int slot, ByteSpan blob);

// A video begins with an MPEG program stream's pack start code (00 00 01 BA):
// what info.json reports, not a reason to refuse the bytes.
bool starts_with_pack_header(ByteSpan video);

}  // namespace gcfs::formats::mpeg
