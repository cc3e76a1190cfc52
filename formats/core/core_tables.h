// The level core's class and texture tables (formats.md §6.3) as CSV text,
// every offset checked against the decompressed core and the GS-RAM lump.
#pragma once

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

// index, o_class, offset_in_core_data, model (ok / none / the problem), the
// unknown words, the 16 texture indices; shrubs add their billboard record.
std::string class_table_csv(const std::vector<ClassEntry>& entries, bool shrub, uint64_t core_size);

struct NamedTextureTable {
    std::string name;  // "tfrag", "moby", "tie", "shrub"
    std::vector<TextureEntry> entries;
};
// table, index, offsets in core_data.bin and gs_ram.bin, size, type, status.
std::string texture_tables_csv(const std::vector<NamedTextureTable>& tables, int32_t textures_base, uint64_t core_size,
                               uint64_t gs_ram_size);

}  // namespace gcfs::formats
