#include "formats/audio/audio_wad.h"

#include "formats/common/wad_relayout.h"

#include <limits>
#include <map>
#include <optional>

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

namespace {

void put_s32(Bytes& b, uint64_t at, int32_t v) {
    for (int i = 0; i < 4; ++i) b.at(at + i) = static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * i));
}

}  // namespace

Result<Bytes> replace_level_audio(ByteSpan wad, const std::string& slot, ByteSpan vag) {
    return capture([&] {
        auto entries = parse_level_audio(wad, wad.size());
        if (!entries.ok()) fail(entries.error().code, entries.error().offset, entries.error().message);
        std::map<int64_t, uint64_t> spans;  // old start -> bytes
        std::optional<LevelAudioEntry> target;
        for (const auto& e : *entries) {
            if (!e.error.empty()) fail(Errc::out_of_range, 0, e.error);
            auto& bytes = spans[e.range.offset];
            bytes = std::max(bytes, e.range.byte_size());
            if (e.name == slot) target = e;
        }
        if (!target) fail(Errc::bad_value, 0, fmt::format("the WAD has no {}", slot));
        int shared = 0;
        for (const auto& e : *entries) shared += e.range.offset == target->range.offset;
        // A slot sharing its VAG with another gets its own, after the rest.
        const int64_t fresh = shared > 1 ? kNewItem : target->range.offset;
        if (shared > 1) spans[fresh] = vag.size();
        const Relaid out = relay_items(wad, kLevelAudioHeaderSize, spans, fresh, vag);
        Bytes result = out.wad;
        for (const auto& e : *entries) {
            const uint64_t at = e.index >= 0 ? 0x8 + 8 * static_cast<uint64_t>(e.index)
                                : e.name == "upgrade_sample" ? 0x1000 : e.name == "thermanator_freeze" ? 0x1008 : 0x1010;  // §3
            const bool mine = e.name == slot;
            put_s32(result, at, out.sector_of.at(mine ? fresh : e.range.offset));
            put_s32(result, at + 4, mine ? static_cast<int32_t>(vag.size()) : e.range.size_bytes);
        }
        return result;
    });
}

Result<Bytes> replace_global_audio(ByteSpan wad, size_t table, int index, ByteSpan vag) {
    return capture([&] {
        auto parsed = parse_global_audio(wad, wad.size());
        if (!parsed.ok()) fail(parsed.error().code, parsed.error().offset, parsed.error().message);
        if (table >= kGlobalAudioTables.size() || index < 0 || index >= kGlobalAudioTables[table].count)
            fail(Errc::bad_value, 0, "no such entry");
        std::map<int64_t, uint64_t> spans;  // §2's extent rule: each start to the next greater one or the end
        const GlobalAudioEntry* target = nullptr;
        int shared = 0;
        for (const auto& e : parsed->entries) {
            if (!e.error.empty()) fail(Errc::out_of_range, 0, e.error);
            spans[e.start_sector] = e.span_sectors * kSectorSize;
            if (e.table == table && e.index == index) target = &e;
        }
        if (!target) fail(Errc::bad_value, 0, "the entry is empty in this WAD");
        for (const auto& e : parsed->entries) shared += e.start_sector == target->start_sector;
        const int64_t fresh = shared > 1 ? kNewItem : target->start_sector;
        if (shared > 1) spans[fresh] = vag.size();
        const Relaid out = relay_items(wad, kGlobalAudioHeaderSize, spans, fresh, vag);
        Bytes result = out.wad;
        for (const auto& e : parsed->entries) {
            const bool mine = e.table == table && e.index == index;
            put_s32(result, kGlobalAudioTables[e.table].offset + 4 * static_cast<uint64_t>(e.index),
                    out.sector_of.at(mine ? fresh : e.start_sector));
        }
        return result;
    });
}

}  // namespace gcfs::formats::audio
