// Mod folders stacked over an image, only read (gcfs mount -o mods=A:B
// without -o edits, gcfs pack IMAGE A B … OUT, gcfs diff): the image as the
// stack changes it, with edited.iso and .gcfs/edits as an edit session
// shows them. Every write to it answers EROFS, as a read-only mount's does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "edit/mods/mod_stack.h"
#include "tree/tree_builder.h"

namespace gcfs::edit::mods {

struct StackedImage {
    std::unique_ptr<tree::Disc> original;  // the image as it is
    std::unique_ptr<ModStack> stack;
    std::shared_ptr<tree::Disc> disc;      // the image with the stack's containers
};

// `image` and `dirs` absolute. Throws EditStoreError or what tree::open_disc throws.
std::shared_ptr<StackedImage> open_stacked(const std::string& image, const std::vector<std::string>& dirs, uint64_t cache_bytes);

}  // namespace gcfs::edit::mods
