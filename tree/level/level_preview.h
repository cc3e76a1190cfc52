// preview.png: the terrain from above with what gameplay places on it (tie
// and shrub footprints from their class boxes, moby markers). Without a
// terrain there is no picture frame: an empty (transparent) picture.
#pragma once

#include "formats/common/bytes.h"
#include "tree/level/scene_builder.h"

namespace gcfs::tree {

formats::Bytes level_preview_png(const SceneSources& sources);

}  // namespace gcfs::tree
