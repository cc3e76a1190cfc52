// The FUSE operations that write, forwarded to the edit session
// (edit/session.h) under -o edits=DIR; without it each answers EROFS.
#pragma once

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>
#include <sys/stat.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fs/served.h"

namespace gcfs::fs {

Served& served(fuse_req_t req);

// Edit-session touches on what the read side answers.
void edit_attributes(edit::Session& session, const std::string& path, struct stat& st);  // mode, size of a draft
// user.gcfs.edit: a writable file's last edit event (applied or refused, when, why).
constexpr const char* kEditNote = "user.gcfs.edit";
std::optional<std::string> edit_note(edit::Session& session, const std::string& path);
bool lookup_scratch(fuse_req_t req, tree::Disc& disc, fuse_ino_t parent, const char* name);  // replied when true
bool scratch_attributes(fuse_req_t req, fuse_ino_t ino);                                   // replied when true
fuse_entry_param scratch_entry(fuse_req_t req, fuse_ino_t ino);
std::vector<std::pair<std::string, uint64_t>> scratch_names(fuse_req_t req, tree::Disc& disc, fuse_ino_t dir);

// File handles of writers carry this bit (the read side's are pointers).
constexpr uint64_t kEditHandle = 1ull << 63;
inline bool is_edit_handle(uint64_t fh) { return (fh & kEditHandle) != 0; }
void open_for_edit(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void read_edit(fuse_req_t req, size_t size, off_t offset, fuse_file_info* fi);
void release_edit(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
// What op_getattr answers, for a reply after a change.
void reply_attributes(fuse_req_t req, fuse_ino_t ino);

void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set, fuse_file_info* fi);
void op_write(fuse_req_t req, fuse_ino_t ino, const char* data, size_t size, off_t offset, fuse_file_info* fi);
void op_flush(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, fuse_file_info* fi);
void op_create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, fuse_file_info* fi);
void op_unlink(fuse_req_t req, fuse_ino_t parent, const char* name);
void op_rename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t new_parent, const char* new_name, unsigned flags);

}  // namespace gcfs::fs
