// The GC table of contents ("RC2.HDR") at LBA 1001 (formats.md §2.3).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats {

constexpr uint32_t kSystemCnfLba = 1000;  // §2.1
constexpr uint32_t kTocLba = 1001;        // §2.1
constexpr uint64_t kTocMaxSize = 0x200000;  // §2.3: Wrench reads at most 2 MiB
constexpr int kTocMaxLevels = 100;          // §2.3: Wrench parses 100 entries
constexpr uint64_t kLevelEntrySize = 0x18;  // §2.3: 3 SectorRanges
constexpr uint64_t kTocMaxResidentSectors = 0xB;  // §2.3: the boot ELF hardcodes it

// §2.3: GC globals in table order with the header sizes that identify them.
struct GlobalKind {
    const char* name;
    int32_t header_size;
};
const std::vector<GlobalKind>& gc_global_kinds();
const char* global_name_for_size(int32_t header_size);  // nullptr when unknown

constexpr int32_t kLevelAudioHeaderSize = 0x1018;  // §3.4 GcLevelAudioWadHeader
constexpr int32_t kLevelSceneHeaderSize = 0x137C;  // §3.4 GC LEVEL_SCENE

enum class PartKind { level, audio, scene };
const char* part_kind_name(PartKind kind);
// §2.3: parts are classified by the header_size of the copy they point at.
std::optional<PartKind> part_kind_for_size(int32_t header_size);

struct GlobalWad {
    std::string name;        // "mpeg", "misc", ... or "unknown"
    uint64_t toc_offset;     // where its header starts inside the TOC
    int32_t header_size;
    int32_t lba;             // absolute LBA of the WAD file
};

struct LevelPart {
    PartKind kind;
    int32_t header_lba;     // LBA of the header copy inside the TOC area
    int32_t size_sectors;   // the WAD file's size in sectors
    int32_t header_size;
    int32_t file_lba;       // +4 of the header copy: the file's absolute LBA
    uint64_t toc_offset;    // the header copy's byte offset inside the TOC
};

struct LevelEntry {
    int index;  // position in the level table (not the level id, §2.4)
    std::optional<LevelPart> level, audio, scene;
};

struct Toc {
    uint64_t table_offset = 0;
    std::vector<GlobalWad> globals;
    std::vector<LevelEntry> levels;   // slots with no part are dropped
    std::vector<FormatError> problems;  // parts that were skipped, with why
};

// `toc` holds the bytes from LBA 1001 on (at most kTocMaxSize).
Result<Toc> parse_toc(ByteSpan toc);

// Writer side. Each header is complete (header_size at +0); the writer patches
// +4 with the file LBA as the real TOC does.
struct TocPartInput {
    Bytes header;              // empty = part absent
    uint32_t file_lba = 0;
    uint32_t file_sectors = 0;
};
struct TocLevelInput {
    TocPartInput level, audio, scene;  // GC order: level, audio, scene (§2.3)
};
struct TocGlobalInput {
    Bytes header;
    uint32_t file_lba = 0;
};

uint64_t toc_size_sectors(const std::vector<TocGlobalInput>& globals, const std::vector<TocLevelInput>& levels);
Bytes write_toc(const std::vector<TocGlobalInput>& globals, const std::vector<TocLevelInput>& levels);

}  // namespace gcfs::formats
