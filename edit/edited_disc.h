// A disc as edits change it: the image file with re-encoded containers laid
// over it (edit/image_layout.h), edited.iso at its root and .gcfs/edits
// telling the edits. The edit session's generations and a read-only mount of
// mod folders (edit/mods/mod_stack.h) are both this.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "edit/containers.h"
#include "formats/common/bytes.h"
#include "tree/tree_builder.h"

namespace gcfs::edit {

// The key an edits folder's journal carries for `original`, the image it
// was made over: its size and table-of-contents digest.
std::string image_key(const tree::Disc& original);

// `render` writes .gcfs/edits when it is read.
std::shared_ptr<tree::Disc> open_edited_disc(const std::string& image_path, tree::Disc& original, const std::map<ContainerKey, formats::Bytes>& containers,
                                             std::shared_ptr<cache::LruCache> cache, std::function<std::string()> render);

// Every byte of the file at mount path `path`; throws std::runtime_error
// naming it when it is not there or does not read.
formats::Bytes file_bytes(const tree::Disc& disc, const std::string& path);

// The checks a level fails, by name, with their details (tree/verify.h at
// index depth): an edited level must fail none its image passes.
std::map<std::string, std::string> failing_checks(const tree::Disc& disc, size_t level);

}  // namespace gcfs::edit
