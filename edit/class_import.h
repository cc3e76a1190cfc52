// What the class imports (edit/tie_class_edit.h, edit/shrub_class_edit.h)
// share: a model's materials as the class's texture slots, and the new class
// written over the old one with its class-table entry's slots.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "edit/level_parts.h"
#include "edit/texture_import.h"
#include "formats/core/level_core.h"
#include "formats/import/class_mesh_in.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// "ties/tie_12.obj" -> 12 for folder "ties/" and prefix "tie": the class id a
// class OBJ's name gives; nullopt for any other name.
std::optional<int32_t> class_file(const std::string& inside, std::string_view folder, std::string_view prefix);

// formats-moby.md 1.1: the packer allows 15 slots a class; 0xFF ends the list.
constexpr size_t kMostClassSlots = 15;

// A model file (any assimp reads, y up as the class OBJs show it) as a class
// mesh: positions in the game's axes, UVs as the game stores them (the OBJs
// show vt = (s, 1 - t)), polygons as fans, each face's texture slot from its
// material as `<prefix>_NNN` names a row of the level's table (the class's
// MTL) or the image the file packs for it (`images`).
struct ClassFaces {
    formats::ClassMeshIn mesh;
    std::vector<int> slot_rows;  // each slot's row of the table, in the order the faces first name them
};
// Throws EditRefused when the file does not read, a face's material has
// neither a row's name nor an image, and past kMostClassSlots.
ClassFaces class_faces(formats::ByteSpan content, const std::string& prefix, size_t rows, TableImages& images);

// Where a class of table `table` (LevelScan::classes: 0 moby, 1 tie, 2 shrub) with id `o_class` is.
struct ClassPlace {
    size_t entry = 0;               // its row of the class table
    formats::CoreRegion extent;     // its bytes in core_data (formats-tie-sky.md A.1)
};
ClassPlace find_class(const tree::LevelScan& level, size_t table, int32_t o_class, uint64_t core_size, const std::string& kind);

// Writes `block` over the class (grown as core_region.h grows a region)
// after `images` are committed (their texels go before the classes,
// formats.md 6.2, so the class's offset is read again), and the entry's 16
// texture slots. Returns the growth.
uint64_t write_class(LevelParts& parts, size_t table, const ClassPlace& place, formats::ByteSpan block,
                     const std::vector<int>& slot_rows, TableImages& images, const std::string& what);

}  // namespace gcfs::edit
