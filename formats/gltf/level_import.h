// level.glb saved back (the edit decoder of LEVELnn/level.glb): each node
// gcfs placed is found by its name, or by its extras when it was renamed,
// its transform is taken back to the game's axes, and what changed is
// written as the instance tables' CSVs would be saved by hand: a moved node
// changes its row's transform cells, a node missing removes its row, a
// duplicate (Blender's "name.001") adds a copy of its row. A volume's node
// (drawn in world space) moved or turned by T makes its matrix T · matrix
// in volumes.csv. The tables are
// then imported as those CSVs are (formats/gameplay/import.h), so the
// blocks derived from them follow as they do for a CSV edit.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "formats/gameplay/gameplay.h"
#include "formats/gltf/scene_read.h"

namespace gcfs::formats::gltf {

struct LevelSave {
    // The tables that change: their gameplay/ name and new text, in the
    // order ties, shrubs, mobies, cameras, sounds, volumes.
    std::vector<std::pair<std::string, std::string>> files;
    std::string status;  // what each kind's nodes did, and what was left or ignored
};

// The changes `scene` makes to the level whose gameplay is `g`, as level.glb
// showed it. Errors name the node: a transform a record cannot hold (a
// moby or camera sheared, mirrored or scaled unevenly, a camera scaled), a
// node named for an instance the level does not have (a level.glb exported
// before another edit renumbered the rows), or a save that drops more than
// half of a kind's nodes without the scene's extras.gcfs_allow_delete.
Result<LevelSave> level_save(const gameplay::Gameplay& g, const SavedScene& scene);

}  // namespace gcfs::formats::gltf
