#include "formats/disc/toc.h"

#include "formats/disc/level_wad.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace gcfs::formats {

const std::vector<GlobalKind>& gc_global_kinds() {
    static const std::vector<GlobalKind> kinds = {
        {"mpeg", 0x328},   {"misc", 0x040},  {"hud", 0x1870},   {"bonus", 0xA48},  {"audio", 0x1800},
        {"space", 0xBA8},  {"scene", 0x170}, {"gadget", 0x3C8}, {"armor", 0x0F8},
    };
    return kinds;
}

const char* global_name_for_size(int32_t header_size) {
    for (const auto& kind : gc_global_kinds())
        if (kind.header_size == header_size) return kind.name;
    return nullptr;
}

const char* part_kind_name(PartKind kind) {
    switch (kind) {
        case PartKind::level: return "level";
        case PartKind::audio: return "audio";
        case PartKind::scene: return "scene";
    }
    return "?";
}

std::optional<PartKind> part_kind_for_size(int32_t header_size) {
    if (header_size == kLevelHeaderSize || header_size == kLevelHeader68Size) return PartKind::level;
    if (header_size == kLevelAudioHeaderSize) return PartKind::audio;
    if (header_size == kLevelSceneHeaderSize) return PartKind::scene;
    return std::nullopt;
}

namespace {

// Byte offset of a part's header copy inside the TOC, or nullopt when the
// part is absent (lba - 1001 <= 0, §2.3).
std::optional<uint64_t> copy_offset(int32_t lba) {
    const int64_t relative = static_cast<int64_t>(lba) - kTocLba;
    if (relative <= 0) return std::nullopt;
    return static_cast<uint64_t>(relative) * kSectorSize;
}

bool points_at_level_part(ByteSpan toc, int32_t lba) {
    const auto offset = copy_offset(lba);
    if (!offset || *offset + 8 > toc.size()) return false;
    return part_kind_for_size(s32_at(toc, *offset)).has_value();
}

// §2.3 guess_rac234_level_table_offset: the first 4-aligned offset where the
// two entries starting there have all six parts pointing at known headers.
uint64_t find_level_table(ByteSpan toc) {
    for (uint64_t i = 0; i + 2 * kLevelEntrySize <= toc.size(); i += 4) {
        bool all = true;
        for (uint64_t part = 0; part < 6 && all; ++part) all = points_at_level_part(toc, s32_at(toc, i + part * 8));
        if (all) return i;
    }
    fail(Errc::bad_magic, 0, "no level table: this is not a Going Commando table of contents");
}

}  // namespace

Result<Toc> parse_toc(ByteSpan toc) {
    return capture([&] {
        Toc result;
        result.table_offset = find_level_table(toc);

        // §2.3: globals are read from offset 0 while ofs + 24 < table_offset.
        for (uint64_t ofs = 0; ofs + 24 < result.table_offset;) {
            const int32_t size = s32_at(toc, ofs);
            if (size < 8 || size > 0xFFFF)
                fail(Errc::bad_value, ofs, fmt::format("global WAD header size {} is outside 8…0xFFFF", size));
            const char* name = global_name_for_size(size);
            result.globals.push_back({name ? name : "unknown", ofs, size, s32_at(toc, ofs + 4)});
            ofs += static_cast<uint64_t>(size);
        }

        // The table has no stored length; it cannot run into the header
        // copies it points at, and Wrench stops at 100 entries.
        uint64_t copies_start = toc.size();
        for (int index = 0; index < kTocMaxLevels; ++index) {
            const uint64_t entry = result.table_offset + index * kLevelEntrySize;
            if (entry + kLevelEntrySize > copies_start) break;
            LevelEntry level{index, {}, {}, {}};
            bool past_buffer = false;
            for (int slot = 0; slot < 3; ++slot) {
                const int32_t lba = s32_at(toc, entry + slot * 8);
                const int32_t sectors = s32_at(toc, entry + slot * 8 + 4);
                const auto offset = copy_offset(lba);
                if (!offset) continue;
                if (*offset + 8 > toc.size()) {
                    past_buffer = true;  // §2.3: parsing stops at the first part past the buffer
                    break;
                }
                const int32_t header_size = s32_at(toc, *offset);
                const auto kind = part_kind_for_size(header_size);
                if (!kind) {
                    result.problems.push_back(
                        {Errc::bad_value, entry + slot * 8,
                         fmt::format("level table entry {} part {} points at a header of unknown size 0x{:x}",
                                     index, slot, header_size)});
                    continue;
                }
                if (*offset + static_cast<uint64_t>(header_size) > toc.size())
                    fail(Errc::truncated, *offset, fmt::format("header copy of entry {} is cut off", index));
                copies_start = std::min(copies_start, *offset);
                LevelPart part{*kind, lba, sectors, header_size, s32_at(toc, *offset + 4), *offset};
                auto& dest = *kind == PartKind::level ? level.level : *kind == PartKind::audio ? level.audio : level.scene;
                if (dest) {
                    result.problems.push_back({Errc::bad_value, entry + slot * 8,
                                               fmt::format("level table entry {} has two {} parts", index,
                                                           part_kind_name(*kind))});
                    continue;
                }
                dest = part;
            }
            if (past_buffer) break;
            if (level.level || level.audio || level.scene) result.levels.push_back(level);
        }
        if (result.levels.empty()) fail(Errc::bad_value, result.table_offset, "the level table lists no levels");
        return result;
    });
}

namespace {

uint64_t resident_size(const std::vector<TocGlobalInput>& globals, size_t level_count) {
    uint64_t size = 0;
    for (const auto& g : globals) size += g.header.size();
    return size + level_count * kLevelEntrySize;
}

}  // namespace

uint64_t toc_size_sectors(const std::vector<TocGlobalInput>& globals, const std::vector<TocLevelInput>& levels) {
    uint64_t sectors = sectors_for(resident_size(globals, levels.size()));
    for (const auto& level : levels)
        for (const TocPartInput* part : {&level.level, &level.audio, &level.scene})
            sectors += sectors_for(part->header.size());
    return sectors;
}

Bytes write_toc(const std::vector<TocGlobalInput>& globals, const std::vector<TocLevelInput>& levels) {
    const uint64_t resident = resident_size(globals, levels.size());
    if (sectors_for(resident) > kTocMaxResidentSectors)
        throw std::invalid_argument(fmt::format("{} levels do not fit the 0xB-sector resident TOC", levels.size()));

    ByteWriter w;
    for (const auto& g : globals) {
        const uint64_t at = w.size();
        w.append(g.header);
        w.patch_u32(at + 4, g.file_lba);
    }
    // Header copies follow the resident part, each sector-aligned, in level order.
    uint64_t next_copy_sector = sectors_for(resident);
    std::vector<std::pair<uint64_t, const TocPartInput*>> copies;
    for (const auto& level : levels) {
        for (const TocPartInput* part : {&level.level, &level.audio, &level.scene}) {
            if (part->header.empty()) {
                w.s32(0);
                w.s32(0);
                continue;
            }
            w.s32(static_cast<int32_t>(kTocLba + next_copy_sector));
            w.s32(static_cast<int32_t>(part->file_sectors));
            copies.emplace_back(next_copy_sector, part);
            next_copy_sector += sectors_for(part->header.size());
        }
    }
    for (const auto& [sector, part] : copies) {
        w.bytes().resize(sector * kSectorSize, 0);
        w.append(part->header);
        w.patch_u32(sector * kSectorSize + 4, part->file_lba);
    }
    w.pad_to(kSectorSize);
    return std::move(w.bytes());
}

}  // namespace gcfs::formats
