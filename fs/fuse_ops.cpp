#include "fs/fuse_ops.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fs/edit_ops.h"
#include "tree/node/sources.h"
#include "tree/node/xattrs.h"

namespace gcfs::fs {
namespace {

using tree::Node;
using tree::NodeRef;
using tree::NodeType;

constexpr double kTimeout = 86400.0;  // data never changes while mounted
constexpr uint32_t kMaxRead = 1u << 20;

// The generation a request serves: held by the request to its end.
std::shared_ptr<tree::Disc> disc_of(fuse_req_t req) { return served(req).disc(); }

struct stat attributes(const tree::Disc& disc, const Node& n, edit::Session* session = nullptr) {
    struct stat st {};
    st.st_ino = n.ino;
    st.st_uid = 0;
    st.st_gid = 0;
    st.st_atime = st.st_mtime = st.st_ctime = disc.tree.timestamp;
    st.st_blksize = 2048;
    switch (n.type) {
        case NodeType::directory:
            st.st_mode = S_IFDIR | 0555;
            st.st_nlink = 1;  // a level folder: subdirectories not counted, its children unread (tree/node/node.h)
            if (!n.lazy) {
                st.st_nlink = 2;
                for (const auto& [name, child] : n.children())
                    if (disc.tree.node(child)->type == NodeType::directory) ++st.st_nlink;
            }
            st.st_size = 0;
            if (session) st.st_mode = S_IFDIR | 0755;  // editors make their temporaries beside the file (edit/session.h)
            break;
        case NodeType::symlink:
            st.st_mode = S_IFLNK | 0777;
            st.st_nlink = 1;
            st.st_size = static_cast<off_t>(n.link_target().size());
            break;
        case NodeType::file:
            st.st_mode = S_IFREG | 0444;
            st.st_nlink = 1;
            {
                // A size may need a level's index built: what it decodes for
                // that is let go soon (cache/lru_cache.h), not kept like a read.
                const cache::SizingLoads sizing;
                st.st_size = static_cast<off_t>(n.source->size());
            }
            if (session) edit_attributes(*session, disc.tree.path_of(n.ino), st);
            break;
    }
    if (session)
        if (const auto when = session->edit_time(disc.tree.path_of(n.ino))) st.st_mtime = st.st_ctime = static_cast<std::time_t>(*when);
    st.st_blocks = (st.st_size + 511) / 512;
    return st;
}

void op_init(void* userdata, fuse_conn_info* conn) {
    // An edit session truncates a draft at open rather than copying the file first.
    if (static_cast<Served*>(userdata)->session && (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)) conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
    // Large requests: the kernel sizes reads by max_pages, which libfuse
    // derives from max_write; readahead up to 1 MiB too.
    conn->max_write = kMaxRead;
    conn->max_readahead = kMaxRead;
    if (static_cast<Served*>(userdata)->session) conn->max_read = kEditMaxRead;  // as -o max_read says (fs/mount.cpp)
    if (conn->capable & FUSE_CAP_SPLICE_WRITE) conn->want |= FUSE_CAP_SPLICE_WRITE;
    // Always list with attributes: `ls -l` and file managers then need no
    // LOOKUP round trip per file (65k of them on a full disc).
    conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
}

// With -o edits nothing is cached by the kernel: an applied edit changes
// sizes and bytes across its level at once.
double entry_timeout(fuse_req_t req) { return served(req).session ? 0.0 : kTimeout; }
double attr_timeout(fuse_req_t req, const Node& n) {
    return (n.type == NodeType::file && n.source->dynamic()) || served(req).session ? 0.0 : kTimeout;
}

fuse_entry_param entry_for(fuse_req_t req, const tree::Disc& disc, uint64_t ino) {
    fuse_entry_param e{};
    const NodeRef held_node = disc.tree.node(ino);
    const Node& n = *held_node;
    e.ino = ino;
    e.attr = attributes(disc, n, served(req).session);
    e.attr_timeout = attr_timeout(req, n);
    e.entry_timeout = entry_timeout(req);
    return e;
}

// A folder that cannot be shown (tree::Tree::folder_error): EIO, logged once.
bool folder_failed(fuse_req_t req, tree::Disc& disc, fuse_ino_t ino) {
    const std::string error = disc.tree.folder_error(ino);
    if (error.empty()) return false;
    disc.diagnostics.report(disc.tree.path_of(ino), "open", error);
    fuse_reply_err(req, EIO);
    return true;
}

void op_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
    const auto held = disc_of(req);
    auto& disc = *held;
    if (folder_failed(req, disc, parent)) return;
    if (lookup_scratch(req, disc, parent, name)) return;
    const auto ino = disc.tree.lookup(parent, name);
    if (!ino) {
        fuse_entry_param e{};
        e.entry_timeout = entry_timeout(req);  // negative entries are stable too, without edits
        fuse_reply_entry(req, &e);
        return;
    }
    const fuse_entry_param e = entry_for(req, disc, *ino);
    fuse_reply_entry(req, &e);
}

void op_getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
    if (scratch_attributes(req, ino)) return;
    const auto held = disc_of(req);
    const NodeRef n = held->tree.node(ino);
    if (!n) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    const struct stat st = attributes(*held, *n, served(req).session);
    fuse_reply_attr(req, &st, attr_timeout(req, *n));
}

void op_readlink(fuse_req_t req, fuse_ino_t ino) {
    const auto held = disc_of(req);
    const NodeRef n = held->tree.node(ino);
    if (!n || n->type != NodeType::symlink) {
        fuse_reply_err(req, EINVAL);
        return;
    }
    fuse_reply_readlink(req, n->link_target().c_str());
}

void op_opendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    const auto held = disc_of(req);
    const NodeRef n = held->tree.node(ino);
    if (!n) return (void)fuse_reply_err(req, ENOENT);
    if (n->type != NodeType::directory) return (void)fuse_reply_err(req, ENOTDIR);
    fi->cache_readdir = !served(req).session;
    fi->keep_cache = !served(req).session;
    fuse_reply_open(req, fi);
}

// READDIR and READDIRPLUS: "." and "..", then the tree's children, resuming
// at `offset`; with `plus` every entry carries its attributes, like a LOOKUP.
void list_directory(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, bool plus) {
    const auto held = disc_of(req);
    auto& disc = *held;
    if (folder_failed(req, disc, ino)) return;
    const NodeRef n = disc.tree.node(ino);
    if (!n || n->type != NodeType::directory) return (void)fuse_reply_err(req, ENOTDIR);
    std::vector<char> buffer(size);
    size_t used = 0;
    off_t index = offset;
    auto add = [&](const char* name, uint64_t child, NodeType type) {
        const bool dot = index < 2;  // the kernel takes no entry for "." and ".."
        fuse_entry_param e{};
        if (plus && !dot && edit::Session::is_scratch(child)) {
            e = scratch_entry(req, child);
        } else if (plus && !dot) {
            e = entry_for(req, disc, child);
        } else {  // readdir needs only the inode and the type
            e.attr.st_ino = child;
            e.attr.st_mode = type == NodeType::directory ? S_IFDIR : type == NodeType::symlink ? S_IFLNK : S_IFREG;
        }
        char* at = buffer.data() + used;
        const size_t room = size - used;
        const size_t needed = plus ? fuse_add_direntry_plus(req, at, room, name, &e, index + 1)
                                   : fuse_add_direntry(req, at, room, name, &e.attr, index + 1);
        if (needed > room) return false;
        used += needed;
        ++index;
        return true;
    };
    bool room = true;
    if (index == 0) room = add(".", n->ino, NodeType::directory);
    if (room && index == 1) room = add("..", n->parent, NodeType::directory);
    // An edit session's scratch files first (edit/session.h), then the tree's.
    const auto scratch = scratch_names(req, disc, ino);
    for (size_t i = static_cast<size_t>(index - 2); room && i < scratch.size(); ++i)
        room = add(scratch[i].first.c_str(), scratch[i].second, NodeType::file);
    if (room)
        disc.tree.for_each_child(ino, static_cast<uint64_t>(index - 2) - scratch.size(),
                                 [&](const std::string& name, uint64_t child, NodeType type) {
                                     return add(name.c_str(), child, type);
                                 });
    fuse_reply_buf(req, buffer.data(), used);
}

void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info*) {
    list_directory(req, ino, size, offset, false);
}

void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info*) {
    list_directory(req, ino, size, offset, true);
}

// Every file but the daemon's own counters comes from the image: once the
// image changed under the mount (truncated, rewritten), what is cached and
// what is decoded anew would mix two images, so every such open and read is
// EIO, logged once per file (tree::Diagnostics).
bool refused_as_stale(fuse_req_t req, tree::Disc& disc, fuse_ino_t ino, const char* what) {
    if (disc.image->unchanged()) return false;
    disc.diagnostics.report(disc.tree.path_of(ino), what,
                            fmt::format("the image {} changed (size or modification time) since it was mounted; unmount and mount "
                                        "it again", disc.image->path()));
    fuse_reply_err(req, EIO);
    return true;
}

// What an open file reads from: a dynamic file's text, snapshotted at open
// so that one reader sees one text; under -o edits the generation it was
// opened in, so that a save landing while it is open never mixes two
// versions in one descriptor (stat and new opens see the newest).
struct OpenFile {
    std::optional<std::string> text;
    std::shared_ptr<tree::Disc> generation;
};

void op_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    const bool writing = (fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC);
    if (edit::Session::is_scratch(ino) || (writing && served(req).session)) return open_for_edit(req, ino, fi);
    const auto held = disc_of(req);
    auto& disc = *held;
    const NodeRef n = disc.tree.node(ino);
    if (!n) return (void)fuse_reply_err(req, ENOENT);
    if (n->type != NodeType::file) return (void)fuse_reply_err(req, EISDIR);
    if (writing) return (void)fuse_reply_err(req, EROFS);
    if (const std::string error = n->source->open_error(); !error.empty()) {
        disc.diagnostics.report(disc.tree.path_of(ino), "open", error);
        return (void)fuse_reply_err(req, EIO);
    }
    const auto* live = dynamic_cast<const tree::LiveText*>(n->source.get());
    if (!live && refused_as_stale(req, disc, ino, "open")) return;
    if (live) {
        fi->direct_io = 1;
        fi->fh = reinterpret_cast<uint64_t>(new OpenFile{live->render(), nullptr});
    } else if (served(req).session) {
        // Reads bypass the page cache: it is one per inode, and two
        // descriptors of one file may be of two generations.
        fi->direct_io = 1;
        fi->fh = reinterpret_cast<uint64_t>(new OpenFile{std::nullopt, held});
    } else {
        fi->keep_cache = 1;  // immutable data: let the page cache keep it
    }
    fuse_reply_open(req, fi);
}

void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info* fi) {
    if (is_edit_handle(fi->fh)) return read_edit(req, size, offset, fi);
    const auto* open = reinterpret_cast<const OpenFile*>(fi->fh);
    const auto held = open && open->generation ? open->generation : disc_of(req);
    auto& disc = *held;
    const NodeRef n = disc.tree.node(ino);
    if (!n || n->type != NodeType::file) return (void)fuse_reply_err(req, EISDIR);
    if (open && open->text) {
        const auto& text = *open->text;
        const uint64_t start = std::min<uint64_t>(static_cast<uint64_t>(offset), text.size());
        fuse_reply_buf(req, text.data() + start, std::min<uint64_t>(size, text.size() - start));
        return;
    }
    if (refused_as_stale(req, disc, ino, fmt::format("read at file offset {}", offset).c_str())) return;
    // Image bytes served as recorded go to the kernel by splice, with no copy here.
    if (const auto* slice = dynamic_cast<const tree::ImageSlice*>(n->source.get())) {
        uint64_t length = size;
        if (const auto at = slice->file_range(static_cast<uint64_t>(offset), length)) {
            fuse_bufvec data{};  // FUSE_BUFVEC_INIT, spelled out: its compound literal is not C++
            data.count = 1;
            data.buf[0].size = length;
            data.buf[0].flags = static_cast<fuse_buf_flags>(FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK);
            data.buf[0].fd = at->first;
            data.buf[0].pos = static_cast<off_t>(at->second);
            if (fuse_reply_data(req, &data, FUSE_BUF_SPLICE_MOVE) == 0) return;
            disc.diagnostics.report(disc.tree.path_of(ino), fmt::format("read at file offset {}", offset), "the image could not be read");
            return (void)fuse_reply_err(req, EIO);
        }
    }
    thread_local std::vector<uint8_t> buffer;
    buffer.resize(size);
    const tree::ReadOutcome outcome = n->source->read(static_cast<uint64_t>(offset), buffer);
    if (!outcome.ok()) {
        disc.diagnostics.report(disc.tree.path_of(ino), fmt::format("read at file offset {}", offset), outcome.error);
        fuse_reply_err(req, EIO);
        return;
    }
    fuse_reply_buf(req, reinterpret_cast<const char*>(buffer.data()), outcome.bytes);
}

void op_release(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    if (is_edit_handle(fi->fh)) return release_edit(req, ino, fi);
    delete reinterpret_cast<OpenFile*>(fi->fh);
    fuse_reply_err(req, 0);
}

void op_statfs(fuse_req_t req, fuse_ino_t) {
    const auto held = disc_of(req);
    const auto& disc = *held;
    struct statvfs s {};
    s.f_bsize = 2048;
    s.f_frsize = 2048;
    s.f_blocks = disc.image->size() / 2048;
    s.f_files = disc.tree.size();
    s.f_namemax = 255;
    s.f_flag = served(req).session ? 0 : ST_RDONLY;
    fuse_reply_statfs(req, &s);
}

// Every operation that would change the tree; those an edit session takes
// are in fs/edit_ops.cpp.
void erofs(fuse_req_t req) { fuse_reply_err(req, EROFS); }
void op_rmdir(fuse_req_t req, fuse_ino_t, const char*) { erofs(req); }
void op_mknod(fuse_req_t req, fuse_ino_t, const char*, mode_t, dev_t) { erofs(req); }
void op_mkdir(fuse_req_t req, fuse_ino_t, const char*, mode_t) { erofs(req); }
void op_symlink(fuse_req_t req, const char*, fuse_ino_t, const char*) { erofs(req); }
void op_link(fuse_req_t req, fuse_ino_t, fuse_ino_t, const char*) { erofs(req); }
// Replies with `value`, or its size when the caller asks for that (size 0).
void reply_xattr(fuse_req_t req, const std::string& value, size_t size) {
    if (size == 0) return (void)fuse_reply_xattr(req, value.size());
    if (size < value.size()) return (void)fuse_reply_err(req, ERANGE);
    fuse_reply_buf(req, value.data(), value.size());
}

void op_getxattr(fuse_req_t req, fuse_ino_t ino, const char* name, size_t size) {
    const auto held = disc_of(req);
    auto& disc = *held;
    const NodeRef n = disc.tree.node(ino);
    if (!n) return (void)fuse_reply_err(req, ENOENT);
    // Only the user namespace holds attributes here; gcfs has no POSIX ACLs
    // and no security labels. Saying so (EOPNOTSUPP, not ENODATA) lets `ls -l`
    // stop asking after the first file of the mount (coreutils remembers a
    // device without support): answering "no ACL" instead cost one round trip
    // per file on a first `ls -lR`, 4.5 s of 9.6 on the full-scale disc.
    const std::string_view key = name;
    if (!key.starts_with("user.")) return (void)fuse_reply_err(req, EOPNOTSUPP);
    auto value = tree::xattr_value(disc, *n, key);
    if (key == kEditNote && served(req).session) value = edit_note(*served(req).session, disc.tree.path_of(ino));
    if (!value) return (void)fuse_reply_err(req, ENODATA);
    reply_xattr(req, *value, size);
}

void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size) {
    const auto held = disc_of(req);
    const auto& disc = *held;
    const NodeRef n = disc.tree.node(ino);
    if (!n) return (void)fuse_reply_err(req, ENOENT);
    std::string names;
    for (const auto& name : tree::xattr_names(disc, *n)) names += name + '\0';
    if (served(req).session && edit_note(*served(req).session, disc.tree.path_of(ino))) names += std::string(kEditNote) + '\0';
    reply_xattr(req, names, size);
}

// With -o edits an editor copying a file's ACL onto its temporary is told
// there are none to set, as on a file system without them (sed -i, cp -p).
void no_xattrs(fuse_req_t req) { fuse_reply_err(req, served(req).session ? EOPNOTSUPP : EROFS); }
void op_setxattr(fuse_req_t req, fuse_ino_t, const char*, const char*, size_t, int) { no_xattrs(req); }
void op_removexattr(fuse_req_t req, fuse_ino_t, const char*) { no_xattrs(req); }
void op_fallocate(fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) { erofs(req); }

fuse_lowlevel_ops make_operations(bool xattrs) {
    fuse_lowlevel_ops ops{};
    ops.init = op_init;
    ops.lookup = op_lookup;
    ops.getattr = op_getattr;
    ops.readlink = op_readlink;
    ops.opendir = op_opendir;
    ops.readdir = op_readdir;
    ops.readdirplus = op_readdirplus;
    ops.open = op_open;
    ops.read = op_read;
    ops.release = op_release;
    ops.statfs = op_statfs;
    ops.setattr = op_setattr;
    ops.flush = op_flush;
    ops.fsync = op_fsync;
    ops.mknod = op_mknod;
    ops.mkdir = op_mkdir;
    ops.unlink = op_unlink;
    ops.rmdir = op_rmdir;
    ops.symlink = op_symlink;
    ops.rename = op_rename;
    ops.link = op_link;
    ops.write = op_write;
    ops.create = op_create;
    if (xattrs) {
        ops.getxattr = op_getxattr;
        ops.listxattr = op_listxattr;
    }
    ops.setxattr = op_setxattr;
    ops.removexattr = op_removexattr;
    ops.fallocate = op_fallocate;
    return ops;
}

}  // namespace

void reply_attributes(fuse_req_t req, fuse_ino_t ino) { op_getattr(req, ino, nullptr); }

const fuse_lowlevel_ops& operations(bool xattrs) {
    static const fuse_lowlevel_ops with = make_operations(true), without = make_operations(false);
    return xattrs ? with : without;
}

}  // namespace gcfs::fs
