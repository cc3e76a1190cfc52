#include "formats/core/sound_remap.h"

#include <fmt/format.h>

#include <stdexcept>

#include "formats/core/level_core.h"

namespace gcfs::formats {

Result<SoundRemap> parse_sound_remap(ByteSpan idx, int32_t offset) {
    return capture([&] {
        const ByteSpan block = core_index_block(idx, offset, 0x70, "sound_remap_offset", kSoundRemapHeaderSize, "sound remap header");
        const auto base = static_cast<uint64_t>(offset);
        SoundRemap remap;
        remap.second_part_ofs = s16_at(block, 0);
        remap.second_part_size = s16_at(block, 2);
        remap.third_part_ofs = s16_at(block, 4);
        remap.third_part_count = s16_at(block, 6);
        const int64_t table_end = remap.second_part_ofs;
        if (table_end < static_cast<int64_t>(kSoundRemapHeaderSize + 4) || (table_end - 8) % 4 != 0)
            fail(Errc::bad_value, base, fmt::format("second_part_ofs {} does not end a table of 4-byte elements after the 8-byte header", table_end));
        require(block, kSoundRemapHeaderSize, static_cast<uint64_t>(table_end) - kSoundRemapHeaderSize, "sound remap elements", base);
        for (int64_t at = 8; at < table_end; at += 4)
            remap.elements.push_back({s16_at(block, static_cast<uint64_t>(at)), s16_at(block, static_cast<uint64_t>(at) + 2)});
        const SoundRemapElement& last = remap.elements.back();
        const int64_t end = int64_t{last.offset} + 4 * int64_t{last.size};
        if (end < table_end)
            fail(Errc::bad_value, base + static_cast<uint64_t>(table_end) - 4,
                 fmt::format("the last element ends the block at {}, inside its own table (which ends at {})", end, table_end));
        require(block, 0, static_cast<uint64_t>(end), "sound remap (to the last element's end)", base);
        remap.size = static_cast<uint64_t>(end);
        for (size_t i = 0; i < remap.elements.size(); ++i) {
            const SoundRemapElement& e = remap.elements[i];
            if (e.offset < 0 || e.size < 0 || int64_t{e.offset} + 4 * int64_t{e.size} > end)
                fail(Errc::out_of_range, base + 8 + 4 * i,
                     fmt::format("element {}: {} words at {} run past the block's {} bytes", i, e.size, e.offset, end));
        }
        return remap;
    });
}

std::string sound_remap_csv(const SoundRemap& remap) {
    std::string out = "element,offset,words,bytes\n";
    for (size_t i = 0; i < remap.elements.size(); ++i) {
        const SoundRemapElement& e = remap.elements[i];
        out += fmt::format("{},{},{},0x{:x}-0x{:x}\n", i, e.offset, e.size, e.offset, e.offset + 4 * e.size);
    }
    return out;
}

Bytes write_sound_remap(const std::vector<std::vector<uint32_t>>& second_part, const std::vector<uint32_t>& third_part) {
    const uint64_t elements = second_part.size() + 1;
    const uint64_t table_end = kSoundRemapHeaderSize + 4 * elements;
    uint64_t second_words = 0;
    for (const auto& words : second_part) second_words += words.size();
    const uint64_t third_at = table_end + 4 * second_words;
    if (third_at + 4 * third_part.size() > 0x7fff) throw std::invalid_argument("sound remap: past s16 offsets");
    ByteWriter out;
    out.s16(static_cast<int16_t>(table_end));
    out.s16(static_cast<int16_t>(second_words));
    out.s16(static_cast<int16_t>(third_at));
    out.s16(static_cast<int16_t>(third_part.size()));
    uint64_t at = table_end;
    for (const auto& words : second_part) {
        out.s16(static_cast<int16_t>(at));
        out.s16(static_cast<int16_t>(words.size()));
        at += 4 * words.size();
    }
    out.s16(static_cast<int16_t>(third_at));
    out.s16(static_cast<int16_t>(third_part.size()));
    for (const auto& words : second_part)
        for (uint32_t w : words) out.u32(w);
    for (uint32_t w : third_part) out.u32(w);
    return std::move(out.bytes());
}

}  // namespace gcfs::formats
