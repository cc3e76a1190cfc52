// What gcfs pack writes: a disc's image (edited.iso: an edit session's
// current one, or a mod stack's), or the VCDIFF delta from the original
// image to it (formats/vcdiff/vcdiff_write.h). Each is written to an unnamed
// file in OUT's folder and linked in when whole, so a killed pack leaves
// nothing behind and OUT is its old file or the whole new one.
#pragma once

#include <map>
#include <string>

#include "edit/containers.h"
#include "formats/vcdiff/vcdiff_write.h"
#include "tree/tree_builder.h"

namespace gcfs::edit {

// Throws std::runtime_error naming what could not be read or written.
void write_image(const tree::Disc& disc, const std::string& out_path);

// The delta from `original`'s image file to `edited`'s image, where
// `containers` are the containers that changed (a container that moved is
// searched for at its old place).
formats::vcdiff::Written write_image_delta(tree::Disc& original, tree::Disc& edited, const std::map<ContainerKey, formats::Bytes>& containers,
                                           const std::string& out_path);

}  // namespace gcfs::edit
