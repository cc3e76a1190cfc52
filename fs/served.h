// What the FUSE operations serve: one disc, or with -o edits the edit
// session's current generation (edit/session.h). A request takes the
// generation once and keeps it to its end.
#pragma once

#include <memory>

#include "edit/session.h"
#include "tree/tree_builder.h"

namespace gcfs::fs {

struct Served {
    std::shared_ptr<tree::Disc> fixed;  // without -o edits
    edit::Session* session = nullptr;   // with it
    std::shared_ptr<tree::Disc> disc() const { return session ? session->disc() : fixed; }
};

}  // namespace gcfs::fs
