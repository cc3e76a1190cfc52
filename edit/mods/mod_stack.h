// Mod folders stacked (issue 57): `-o mods=A:B:C` and `gcfs pack IMAGE A B C
// OUT` apply the edits folders A, B, C in order, as overlayfs stacks its
// lower layers; an edits folder (-o edits=DIR) goes on top. A mod folder is
// only read: never locked, recovered or written (its journal and files are
// untrusted input as an edits folder's are, edit/edit_store.h).
//
// Each file the folders changed gets one content: a file one folder changed
// is that folder's; a file several changed is merged at its finest grain
// (edit/mods/merge.h), each later folder over the earlier result, the later
// winning what both changed (a conflict, listed). Files are applied once
// each, in the order of the last folder that changed them (by its journal's
// order), so a folder's own edits apply in the order they were made.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "edit/containers.h"
#include "edit/edit_store.h"
#include "formats/common/bytes.h"
#include "tree/tree_builder.h"

namespace gcfs::edit::mods {

struct Conflict {
    std::string path;                  // the mount file
    std::string item;                  // "the whole file", "row index 0 (uid 1000), bolts", "cue 3, its text"
    std::vector<std::string> folders;  // the folders that changed that file, in order; the last one's is applied
};

class ModStack {
public:
    // `dirs`: absolute paths, in stacking order. Throws EditStoreError when a
    // folder cannot be read or holds another image's edits.
    ModStack(tree::Disc& original, const std::vector<std::string>& dirs);

    bool empty() const { return layers_.empty(); }
    // Every container the stack changes, re-encoded.
    const std::map<ContainerKey, formats::Bytes>& containers() const { return containers_; }
    const std::vector<Conflict>& conflicts() const { return conflicts_; }
    // Every mount file some folder changed (applied or not), in order.
    std::vector<std::string> paths() const;
    // The folders, their edits and the conflicts, as .gcfs/edits shows them.
    std::string render() const;

private:
    struct Layer {
        std::string dir;
        EditStore store;
    };
    struct Planned {  // one file's content, merged across the folders
        std::string path;
        std::vector<size_t> layers;  // that changed it
        formats::Bytes content, last_whole;  // what is applied; the last folder's own file
        size_t order_layer = 0;
        uint64_t order_sequence = 0;
    };
    void plan(tree::Disc& original, std::vector<Planned>& planned);
    void build(tree::Disc& original, std::vector<Planned>& planned);
    std::vector<std::string> names(const std::vector<size_t>& layers) const;

    std::vector<Layer> layers_;
    std::map<ContainerKey, formats::Bytes> containers_;
    std::vector<Conflict> conflicts_;
    std::vector<std::pair<std::string, std::string>> refused_;  // path, why
    std::vector<std::string> paths_;
};

}  // namespace gcfs::edit::mods
