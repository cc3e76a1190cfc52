#include "formats/audio/audio_wad.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace gcfs::formats::audio {
namespace {

void require_header(ByteSpan header, int32_t size, const char* what) {
    require(header, 0, static_cast<uint64_t>(size), what);
    if (s32_at(header, 0) != size) fail(Errc::bad_magic, 0, fmt::format("header_size 0x{:x}, {} is 0x{:x}", s32_at(header, 0), what, size));
}

}  // namespace

Result<GlobalAudioWad> parse_global_audio(ByteSpan header, uint64_t file_size) {
    return capture([&]() -> GlobalAudioWad {
        require_header(header, kGlobalAudioHeaderSize, "the AUDIO header");
        GlobalAudioWad wad;
        wad.file_sectors = sectors_for(file_size);
        // §2: an entry runs to the next greater start of all six tables, or
        // to the file's end; equal starts share one recording.
        std::set<int64_t> ends = {static_cast<int64_t>(wad.file_sectors)};
        for (size_t t = 0; t < kGlobalAudioTables.size(); ++t) {
            const AudioTable& table = kGlobalAudioTables[t];
            for (int i = 0; i < table.count; ++i) {
                const int32_t start = s32_at(header, table.offset + 4 * static_cast<uint64_t>(i));
                wad.starts[t].push_back(start);
                if (start > 0) ends.insert(start);
            }
        }
        for (size_t t = 0; t < kGlobalAudioTables.size(); ++t)
            for (int i = 0; i < kGlobalAudioTables[t].count; ++i) {
                const int32_t start = wad.starts[t][i];
                if (start <= 0) continue;  // §2: a Sector32 start <= 0 is absent
                GlobalAudioEntry entry{t, i, start};
                if (static_cast<uint64_t>(start) >= wad.file_sectors)
                    entry.error = fmt::format("{}[{}] starts at sector {}, the WAD ends at sector {} (header byte 0x{:x})",
                                              kGlobalAudioTables[t].name, i, start, wad.file_sectors,
                                              kGlobalAudioTables[t].offset + 4 * static_cast<uint64_t>(i));
                else
                    entry.span_sectors = static_cast<uint64_t>(*ends.upper_bound(start) - start);
                wad.entries.push_back(entry);
            }
        return wad;
    });
}

Bytes write_global_audio_header(const std::array<std::vector<int32_t>, 6>& starts) {
    ByteWriter out;
    out.s32(kGlobalAudioHeaderSize);
    out.s32(0);  // the sector field: the TOC's copy carries the file's LBA (formats.md §2.3)
    out.zeros(kGlobalAudioHeaderSize - 8);
    for (size_t t = 0; t < kGlobalAudioTables.size(); ++t)
        for (size_t i = 0; i < starts[t].size() && i < static_cast<size_t>(kGlobalAudioTables[t].count); ++i)
            out.patch_u32(kGlobalAudioTables[t].offset + 4 * i, static_cast<uint32_t>(starts[t][i]));
    return std::move(out.bytes());
}

Result<std::vector<LevelAudioEntry>> parse_level_audio(ByteSpan header, uint64_t file_size) {
    return capture([&]() -> std::vector<LevelAudioEntry> {
        require_header(header, kLevelAudioHeaderSize, "the level AUDIO header");
        std::vector<LevelAudioEntry> entries;
        auto add = [&](std::string name, int index, uint64_t at) {
            const SectorByteRange range = sector_byte_range_at(header, at);
            if (range.empty()) return;
            LevelAudioEntry entry{std::move(name), index, range};
            if (range.offset < 0 || range.byte_offset() + range.byte_size() > file_size)
                entry.error = fmt::format("{} claims bytes [0x{:x}, +{}) of a {}-byte WAD (header byte 0x{:x})", entry.name,
                                          int64_t{range.offset} * int64_t{kSectorSize}, range.size_bytes, file_size, at);
            entries.push_back(std::move(entry));
        };
        for (int i = 0; i < kLevelAudioSlots; ++i) add(fmt::format("sfx_{:03d}", i), i, 0x8 + 8 * static_cast<uint64_t>(i));
        add("upgrade_sample", -1, 0x1000);
        add("thermanator_freeze", -1, 0x1008);
        add("thermanator_thaw", -1, 0x1010);
        return entries;
    });
}

Bytes write_level_audio_header(const LevelAudioHeader& header) {
    ByteWriter out;
    out.s32(kLevelAudioHeaderSize);
    out.s32(0);
    for (const SectorByteRange& r : header.bin_data) put(out, r);
    put(out, header.upgrade_sample);
    put(out, header.thermanator_freeze);
    put(out, header.thermanator_thaw);
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::audio
