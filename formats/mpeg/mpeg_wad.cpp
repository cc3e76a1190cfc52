#include "formats/mpeg/mpeg_wad.h"

#include <fmt/format.h>

namespace gcfs::formats::mpeg {

Result<std::vector<MpegSlot>> parse_mpeg_wad(ByteSpan header, uint64_t file_size) {
    return capture([&]() -> std::vector<MpegSlot> {
        require(header, 0, kMpegHeaderSize, "the MPEG header");
        if (s32_at(header, 0) != kMpegHeaderSize)
            fail(Errc::bad_magic, 0, fmt::format("header_size 0x{:x}, the MPEG header is 0x{:x}", s32_at(header, 0), kMpegHeaderSize));
        std::vector<MpegSlot> slots;
        auto check = [&](const SectorByteRange& r, uint64_t at, const char* what, int slot) -> std::string {
            if (r.empty()) return {};
            if (r.offset < 0 || r.byte_offset() + r.byte_size() > file_size)
                return fmt::format("slot {} {} claims bytes [0x{:x}, +{}) of a {}-byte WAD (header byte 0x{:x})", slot, what,
                                   int64_t{r.offset} * int64_t{kSectorSize}, r.size_bytes, file_size, at);
            return {};
        };
        for (int i = 0; i < kMpegSlots; ++i) {
            const uint64_t at = 8 + 16 * static_cast<uint64_t>(i);
            MpegSlot slot{i, sector_byte_range_at(header, at), sector_byte_range_at(header, at + 8)};
            if (slot.subtitles.empty() && slot.video.empty()) continue;
            slot.subtitles_error = check(slot.subtitles, at, "subtitles", i);
            slot.video_error = check(slot.video, at + 8, "video", i);
            slots.push_back(std::move(slot));
        }
        return slots;
    });
}

Bytes write_mpeg_header(const std::array<std::pair<SectorByteRange, SectorByteRange>, kMpegSlots>& slots) {
    ByteWriter out;
    out.s32(kMpegHeaderSize);
    out.s32(0);
    for (const auto& [subtitles, video] : slots) {
        put(out, subtitles);
        put(out, video);
    }
    return std::move(out.bytes());
}

bool starts_with_pack_header(ByteSpan video) {
    return video.size() >= 4 && video[0] == 0 && video[1] == 0 && video[2] == 1 && video[3] == 0xBA;
}

}  // namespace gcfs::formats::mpeg
