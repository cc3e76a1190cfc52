// Where edited level containers go in the image, and the few bytes that
// point at them (formats.md §2.2, §2.3): a container that still fits its
// sectors is written in place; one that grew moves to the image's end. The
// table of contents' entry and header copy, the ISO9660 record and, when the
// image grows, the volume size change with it. Nothing else is written but
// for one rule: the reference's unpacker sizes a global WAD as the distance
// to the next file the table of contents lists after it (Wrench,
// iso_unpacker.cpp, get_global_wad_file_size) and stops when there is none,
// so a grown global is never the last listed file: grown levels go after
// grown globals, and where no level grew, the level part the table lists
// last on the image is copied after them as it is.
#pragma once

#include <utility>
#include <vector>

#include "edit/containers.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"
#include "tree/node/image.h"
#include "tree/tree_builder.h"

namespace gcfs::edit {

// `containers`: each container's place on the original image and its new
// bytes (whole sectors). Throws std::runtime_error on an image it cannot
// place them in.
using NewContainers = std::vector<std::pair<ContainerPlace, formats::Bytes>>;
tree::ImagePatch lay_out(tree::Disc& original, NewContainers containers);

}  // namespace gcfs::edit
