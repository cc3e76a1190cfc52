// The AUDIO WADs: the global one of vendor lines and spoken help
// (formats-globals.md §2) and each level's sound effects (§3). Both headers
// only locate VAGs (formats/audio/vag.h); every range is relative to the
// WAD file's first byte.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/ranges.h"
#include "formats/disc/toc.h"

namespace gcfs::formats::audio {

constexpr int32_t kGlobalAudioHeaderSize = 0x1800;  // §2 (the level one, 0x1018, is in disc/toc.h)

// §2: six tables of Sector32 starts.
struct AudioTable {
    const char* name;      // "vendor", "help_english", ...
    const char* language;  // "" for vendor, else "english", ...
    uint64_t offset;       // in the header
    int count;
};
inline constexpr std::array<AudioTable, 6> kGlobalAudioTables = {{
    {"vendor", "", 0x0008, 254},
    {"help_english", "english", 0x0400, 256},
    {"help_french", "french", 0x0800, 256},
    {"help_german", "german", 0x0C00, 256},
    {"help_spanish", "spanish", 0x1000, 256},
    {"help_italian", "italian", 0x1400, 256},
}};

// One present slot of the global AUDIO WAD.
struct GlobalAudioEntry {
    size_t table = 0;  // index into kGlobalAudioTables
    int index = 0;
    int32_t start_sector = 0;
    uint64_t span_sectors = 0;  // §2 extent rule: to the next greater start or the file's end
    std::string error;          // the start lies at or past the end (span 0)
};

struct GlobalAudioWad {
    std::array<std::vector<int32_t>, 6> starts;  // every slot of every table, as stored
    std::vector<GlobalAudioEntry> entries;       // slots with a start > 0, table by table
    uint64_t file_sectors = 0;                   // ceil(file size / 0x800)
};

// `header` holds at least the 0x1800-byte header; `file_size` is the WAD's.
Result<GlobalAudioWad> parse_global_audio(ByteSpan header, uint64_t file_size);
// A whole header (header_size, sector 0, then the six tables).
Bytes write_global_audio_header(const std::array<std::vector<int32_t>, 6>& starts);

// One slot of a level AUDIO WAD (§3): bin_data[511], then three named ones.
struct LevelAudioEntry {
    std::string name;  // "sfx_007", "upgrade_sample", "thermanator_freeze", "thermanator_thaw"
    int index = 0;     // bin_data's index; -1 for the named three
    SectorByteRange range;
    std::string error;  // the range passes the file's end
};
inline constexpr int kLevelAudioSlots = 511;

Result<std::vector<LevelAudioEntry>> parse_level_audio(ByteSpan header, uint64_t file_size);
struct LevelAudioHeader {
    std::array<SectorByteRange, kLevelAudioSlots> bin_data{};
    SectorByteRange upgrade_sample, thermanator_freeze, thermanator_thaw;
};
Bytes write_level_audio_header(const LevelAudioHeader& header);

// The WADs written again with one VAG replaced (edit/), laid out as the
// builder lays them out: the header padded to a sector, then every item at a
// sector boundary in its old order, zero-padded to the next. Every other
// VAG keeps its bytes; only the header's ranges (or starts) change.
// Level WAD (§3): the slot named as parse_level_audio names it.
Result<Bytes> replace_level_audio(ByteSpan wad, const std::string& slot, ByteSpan vag);
// Global WAD (§2): entry `index` of table `table`. An entry whose start other
// entries share gets a span of its own, so they keep their recording.
Result<Bytes> replace_global_audio(ByteSpan wad, size_t table, int index, ByteSpan vag);

}  // namespace gcfs::formats::audio
