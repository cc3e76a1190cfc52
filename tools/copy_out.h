// Copying a file of the tree to a file descriptor, for `gcfs cat` and
// `gcfs extract`: the same sources the mount serves, without FUSE.
#pragma once

#include <functional>
#include <string>

#include "tree/node/node.h"

namespace gcfs::tools {

// Writes the whole file to `fd`; returns why it failed ("" on success).
// `progress` is told each chunk's byte count.
std::string copy_out(const tree::Node& file, int fd, const std::function<void(uint64_t)>& progress = {});

}  // namespace gcfs::tools
