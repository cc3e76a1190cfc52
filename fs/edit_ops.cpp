#include "fs/edit_ops.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <exception>

namespace gcfs::fs {
namespace {

edit::Session* session_of(fuse_req_t req) { return served(req).session; }

// What a session call answers, or EIO with one log line when it threw (the
// edits folder changed under the mount): nothing is thrown into libfuse.
template <class Call>
int answered(const char* what, Call call) {
    try {
        return call();
    } catch (const std::exception& e) {
        spdlog::warn("{}: {}", what, e.what());
        return EIO;
    }
}
uint64_t handle_of(const fuse_file_info* fi) { return fi->fh & ~kEditHandle; }

struct stat scratch_stat(uint64_t ino, uint64_t size, std::time_t time) {
    struct stat st {};
    st.st_ino = ino;
    st.st_mode = S_IFREG | 0644;
    st.st_nlink = 1;
    st.st_size = static_cast<off_t>(size);
    st.st_blocks = (st.st_size + 511) / 512;
    st.st_blksize = 2048;
    st.st_atime = st.st_mtime = st.st_ctime = time;
    return st;
}

}  // namespace

Served& served(fuse_req_t req) { return *static_cast<Served*>(fuse_req_userdata(req)); }

void edit_attributes(edit::Session& session, const std::string& path, struct stat& st) {
    if (session.writable(path)) st.st_mode = S_IFREG | 0644;
    if (const auto size = session.draft_size(path)) st.st_size = static_cast<off_t>(*size);
}

std::optional<std::string> edit_note(edit::Session& session, const std::string& path) {
    std::string note = session.edit_note(path);
    if (note.empty()) return std::nullopt;
    return note;
}

bool lookup_scratch(fuse_req_t req, tree::Disc& disc, fuse_ino_t parent, const char* name) {
    edit::Session* session = session_of(req);
    if (!session) return false;
    const auto scratch = session->scratch(disc.tree.path_of(parent), name);
    if (!scratch) return false;
    const fuse_entry_param e = scratch_entry(req, scratch->ino);
    fuse_reply_entry(req, &e);
    return true;
}

fuse_entry_param scratch_entry(fuse_req_t req, fuse_ino_t ino) {
    fuse_entry_param e{};
    const auto scratch = session_of(req)->scratch(ino);
    e.ino = ino;
    e.attr = scratch_stat(ino, scratch ? scratch->size : 0, scratch ? scratch->mtime : 0);
    return e;
}

bool scratch_attributes(fuse_req_t req, fuse_ino_t ino) {
    if (!edit::Session::is_scratch(ino)) return false;
    edit::Session* session = session_of(req);
    const auto scratch = session ? session->scratch(ino) : std::nullopt;
    if (!scratch) {
        fuse_reply_err(req, ENOENT);
        return true;
    }
    const struct stat st = scratch_stat(ino, scratch->size, scratch->mtime);
    fuse_reply_attr(req, &st, 0.0);
    return true;
}

std::vector<std::pair<std::string, uint64_t>> scratch_names(fuse_req_t req, tree::Disc& disc, fuse_ino_t dir) {
    std::vector<std::pair<std::string, uint64_t>> out;
    if (edit::Session* session = session_of(req))
        for (const auto& [name, scratch] : session->scratch_in(disc.tree.path_of(dir))) out.emplace_back(name, scratch.ino);
    return out;
}

void open_for_edit(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    edit::Session* session = session_of(req);
    if (!session) return (void)fuse_reply_err(req, EROFS);
    const auto held = session->disc();
    std::string path;
    if (!edit::Session::is_scratch(ino)) {
        const tree::NodeRef n = held->tree.node(ino);
        if (!n) return (void)fuse_reply_err(req, ENOENT);
        if (n->type != tree::NodeType::file) return (void)fuse_reply_err(req, EISDIR);
        path = held->tree.path_of(ino);
    }
    int error = 0;
    uint64_t handle = 0;
    error = answered("open for writing", [&] {
        handle = session->open(ino, path, (fi->flags & O_TRUNC) != 0, error);
        return error;
    });
    if (!handle) return (void)fuse_reply_err(req, error ? error : EIO);
    fi->fh = handle | kEditHandle;
    fi->direct_io = 1;  // the draft is the truth until it is applied
    fuse_reply_open(req, fi);
}

void read_edit(fuse_req_t req, size_t size, off_t offset, fuse_file_info* fi) {
    thread_local std::vector<uint8_t> buffer;
    buffer.resize(size);
    const int n = session_of(req)->read(handle_of(fi), buffer, static_cast<uint64_t>(offset));
    if (n < 0) return (void)fuse_reply_err(req, -n);
    fuse_reply_buf(req, reinterpret_cast<const char*>(buffer.data()), static_cast<size_t>(n));
}

void release_edit(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
    answered("release", [&] {
        session_of(req)->release(handle_of(fi));
        return 0;
    });
    fuse_reply_err(req, 0);
}

void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set, fuse_file_info* fi) {
    edit::Session* session = session_of(req);
    if (!session) return (void)fuse_reply_err(req, EROFS);
    if (to_set & FUSE_SET_ATTR_SIZE) {
        const uint64_t size = static_cast<uint64_t>(attr->st_size);
        const int error = answered("truncate", [&] {
            if (fi && is_edit_handle(fi->fh)) return session->truncate(handle_of(fi), size);
            // truncate(2) by name: a whole edit of its own
            const auto held = session->disc();
            const std::string path = edit::Session::is_scratch(ino) ? std::string() : held->tree.path_of(ino);
            int failed = 0;
            const uint64_t handle = session->open(ino, path, size == 0, failed);
            if (!handle) return failed ? failed : EIO;
            failed = session->truncate(handle, size);
            if (!failed) failed = session->apply(handle, fuse_req_ctx(req)->pid);
            session->release(handle);
            return failed;
        });
        if (error) return (void)fuse_reply_err(req, error);
    }
    // Modes, owners and times are the disc's: a request to change them is taken and has no effect.
    reply_attributes(req, ino);
}

void op_write(fuse_req_t req, fuse_ino_t, const char* data, size_t size, off_t offset, fuse_file_info* fi) {
    edit::Session* session = session_of(req);
    if (!session || !is_edit_handle(fi->fh)) return (void)fuse_reply_err(req, EROFS);
    int n = 0;
    if (const int error = answered("write", [&] {
            n = session->write(handle_of(fi), data, size, static_cast<uint64_t>(offset));
            return n < 0 ? -n : 0;
        }))
        return (void)fuse_reply_err(req, error);
    fuse_reply_write(req, static_cast<size_t>(n));
}

void op_flush(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
    // close(2)'s answer: an edit that cannot be encoded is EINVAL here.
    if (!is_edit_handle(fi->fh)) return (void)fuse_reply_err(req, 0);
    fuse_reply_err(req, answered("close", [&] { return session_of(req)->apply(handle_of(fi), fuse_req_ctx(req)->pid); }));
}

void op_fsync(fuse_req_t req, fuse_ino_t ino, int, fuse_file_info* fi) { op_flush(req, ino, fi); }

void op_create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t, fuse_file_info* fi) {
    edit::Session* session = session_of(req);
    if (!session) return (void)fuse_reply_err(req, EROFS);
    const auto held = session->disc();
    const tree::NodeRef dir = held->tree.node(parent);
    if (!dir || dir->type != tree::NodeType::directory) return (void)fuse_reply_err(req, ENOTDIR);
    if (held->tree.lookup(parent, name)) return (void)fuse_reply_err(req, EEXIST);
    int error = 0;
    uint64_t handle = 0;
    error = answered("create", [&] {
        handle = session->create(held->tree.path_of(parent), name, error);
        return error;
    });
    if (!handle) return (void)fuse_reply_err(req, error ? error : EIO);
    const auto scratch = session->scratch(held->tree.path_of(parent), name);
    fi->fh = handle | kEditHandle;
    fi->direct_io = 1;
    const fuse_entry_param e = scratch_entry(req, scratch->ino);
    fuse_reply_create(req, &e, fi);
}

void op_unlink(fuse_req_t req, fuse_ino_t parent, const char* name) {
    edit::Session* session = session_of(req);
    if (!session) return (void)fuse_reply_err(req, EROFS);
    fuse_reply_err(req, answered("unlink", [&] { return session->unlink(session->disc()->tree.path_of(parent), name); }));
}

void op_rename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t new_parent, const char* new_name, unsigned flags) {
    edit::Session* session = session_of(req);
    if (!session) return (void)fuse_reply_err(req, EROFS);
    if (flags) return (void)fuse_reply_err(req, EINVAL);  // RENAME_EXCHANGE and RENAME_NOREPLACE are not offered
    const auto held = session->disc();
    fuse_reply_err(req, answered("rename", [&] { return session->rename(held->tree.path_of(parent), name, held->tree.path_of(new_parent), new_name); }));
}

}  // namespace gcfs::fs
