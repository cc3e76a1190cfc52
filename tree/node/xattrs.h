// The user.gcfs.* extended attributes of a file: where its bytes come from
// (container, sectors, decoder, detail), whether it reads cleanly, and what
// it is (its README.txt line).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tree/tree_builder.h"

namespace gcfs::tree {

// The attribute names of a node, in a fixed order; none for directories,
// symlinks, and files without a recorded provenance.
std::vector<std::string> xattr_names(const Disc& disc, const Node& node);

// An attribute's value, or nullopt for a name the node does not have.
// user.gcfs.status opens and reads the file (decoding it if it is not in the
// cache yet), so it reports what a read would meet; a failure is recorded in
// .gcfs/stats like any other.
std::optional<std::string> xattr_value(Disc& disc, const Node& node, std::string_view name);

}  // namespace gcfs::tree
