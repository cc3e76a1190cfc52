// libfuse3 low-level operations over the virtual tree. Thin: every answer
// comes from tree::Node; every write operation is EROFS.
#pragma once

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include "tree/tree_builder.h"

namespace gcfs::fs {

// The ops table; userdata passed to fuse_session_new must be a tree::Disc*.
const fuse_lowlevel_ops& operations();

}  // namespace gcfs::fs
