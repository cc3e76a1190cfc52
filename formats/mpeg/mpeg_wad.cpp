#include "formats/mpeg/mpeg_wad.h"

#include <map>

#include "formats/common/wad_relayout.h"

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

Result<Bytes> replace_subtitles(ByteSpan wad, int slot, ByteSpan blob) {
    return capture([&] {
        auto slots = parse_mpeg_wad(wad, wad.size());
        if (!slots.ok()) fail(slots.error().code, slots.error().offset, slots.error().message);
        std::map<int64_t, uint64_t> spans;
        const MpegSlot* target = nullptr;
        int sharing = 0;
        for (const auto& s : *slots) {
            if (!s.subtitles_error.empty() || !s.video_error.empty()) fail(Errc::out_of_range, 0, s.subtitles_error + s.video_error);
            for (const SectorByteRange* r : {&s.subtitles, &s.video})
                if (!r->empty()) spans[r->offset] = std::max(spans[r->offset], r->byte_size());
            if (s.index == slot) target = &s;
        }
        if (!target || target->subtitles.empty()) fail(Errc::bad_value, 0, fmt::format("slot {} has no subtitles", slot));
        for (const auto& s : *slots)
            for (const SectorByteRange* r : {&s.subtitles, &s.video}) sharing += !r->empty() && r->offset == target->subtitles.offset;
        const int64_t replaced = sharing > 1 ? kNewItem : target->subtitles.offset;
        if (sharing > 1) spans[kNewItem] = blob.size();
        const Relaid out = relay_items(wad, kMpegHeaderSize, spans, replaced, blob);
        Bytes result = out.wad;
        auto put = [&](uint64_t at, int32_t v) {
            for (int i = 0; i < 4; ++i) result.at(at + i) = static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * i));
        };
        for (const auto& s : *slots) {
            const uint64_t at = 0x8 + 16 * static_cast<uint64_t>(s.index);  // §4: {subtitles, video} per slot
            if (!s.subtitles.empty()) {
                const bool mine = s.index == slot;
                put(at, out.sector_of.at(mine ? replaced : s.subtitles.offset));
                put(at + 4, mine ? static_cast<int32_t>(blob.size()) : s.subtitles.size_bytes);
            }
            if (!s.video.empty()) put(at + 8, out.sector_of.at(s.video.offset));
        }
        return result;
    });
}

}  // namespace gcfs::formats::mpeg
