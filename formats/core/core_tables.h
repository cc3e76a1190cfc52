// The level core's class and texture tables (formats.md §6.3) as CSV text,
// every offset checked against the decompressed core and the GS-RAM lump.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/core/level_core.h"

namespace gcfs::formats {

constexpr uint64_t kPaletteUnit = 0x100;   // §6.3: TextureEntry.palette counts 0x100-byte units of gs_ram
constexpr uint64_t kPaletteBytes = 1024;   // 256 RGBA32 entries

// Why a class entry's model offset is unusable ("" when fine; 0 means no model, §6.3).
std::string class_problem(const ClassEntry& entry, uint64_t core_size);
// Why a texture's pixels or palette lie outside their buffers ("" when fine).
std::string texture_problem(const TextureEntry& entry, int32_t textures_base, uint64_t core_size, uint64_t gs_ram_size);
// The same for a row whose texels are in gs_ram from `stash` when it is set
// (a stashed moby class's row, formats-moby.md §10.2), else in the core.
std::string texture_problem(const TextureEntry& entry, int32_t textures_base, uint64_t core_size, uint64_t gs_ram_size,
                            std::optional<uint64_t> stash);

// index, o_class, offset_in_core_data, model (ok / none / the problem), the
// unknown words, the 16 texture indices; mobies add gs_stash (yes when the
// class is on the GS stash list, formats-moby.md §10.2), shrubs their
// billboard record.
std::string class_table_csv(const std::vector<ClassEntry>& entries, bool shrub, uint64_t core_size,
                            const std::set<int32_t>* gs_stash = nullptr);

struct NamedTextureTable {
    std::string name;  // "tfrag", "moby", "tie", "shrub"
    std::vector<TextureEntry> entries;
};
// table, index, offsets in core_data.bin and gs_ram.bin, size, type, status;
// a stashed moby row (formats-moby.md §10.2) names its texels in gs_ram.bin.
std::string texture_tables_csv(const std::vector<NamedTextureTable>& tables, int32_t textures_base, uint64_t core_size,
                               uint64_t gs_ram_size, const std::set<size_t>& stashed_moby_rows, std::optional<uint64_t> stash_address);

// formats-moby.md §10.2: the moby classes whose textures stay in GS RAM
// (the s16 list at moby_gs_stash_list, ending at a negative id; 0: no list)
// and where their texels start in gs_ram: the address of GS table entry
// gs_ram.count, when moby_gs_stash_count > 0. A stashed class's texture rows
// read their texels at that address + data_offset.
struct MobyStash {
    std::set<int32_t> classes;
    std::optional<uint64_t> address;
};
Result<MobyStash> parse_moby_stash(ByteSpan core_index, const LevelCoreHeader& header);

}  // namespace gcfs::formats
