// A folder gcfs writes into that someone else may have laid out (the edits
// folder, -o edits=DIR): every path under it is opened step by step from a
// descriptor of the folder, each step with O_NOFOLLOW, so no symlink, in any
// step, leads outside it; every file is opened with O_NONBLOCK and checked to
// be a plain file before a byte is read or written, so a FIFO or a device
// can neither hang nor feed gcfs. Anything that is neither a plain file nor a
// folder is refused with the path that holds it.
//
// The folder itself is the one the user named (its own path may pass
// through symlinks: that is the user's choice, resolved once at mount).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::edit {

// A folder gcfs cannot use as it is (another image's, a damaged journal, a
// symlink or a FIFO where a file or folder should be).
class EditStoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An owned descriptor, closed once.
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept;
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd();
    int get() const { return fd_; }
    int release();
    explicit operator bool() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

class SafeFolder {
public:
    // Opens `root` (an absolute path), creating it and its parents when
    // absent and `create` (a folder only read is never made).
    explicit SafeFolder(std::string root, bool create = true);
    const std::string& root() const { return root_; }
    int fd() const { return fd_.get(); }

    // `rel` is '/'-separated steps, none empty, "." or "..".
    // A folder under the root, made when `create`; nullopt when absent and not made.
    std::optional<UniqueFd> folder(std::string_view rel, bool create) const;
    // A plain file's bytes, at most `limit`; nullopt when absent. Throws
    // EditStoreError for anything else there, or one larger than `limit`.
    std::optional<formats::Bytes> read(std::string_view rel, uint64_t limit) const;
    // Writes `bytes` to `rel` (its folders made), synced.
    void write_synced(std::string_view rel, formats::ByteSpan bytes) const;
    // Opens a plain file for reading and writing, created when `create`
    // (truncated when `truncate`); throws EditStoreError.
    UniqueFd open_file(std::string_view rel, bool create, bool truncate) const;
    // rename(2) between two paths under the root (the target's folders made).
    void rename(std::string_view from, std::string_view to) const;
    // Removes a plain file; false when there was none.
    bool unlink(std::string_view rel) const;
    // Removes a folder and everything in it without following a link.
    void remove_tree(std::string_view rel) const;
    // fsync of a folder, so that a rename in it lasts.
    void sync_folder(std::string_view rel) const;
    // Every plain file below `rel`, as paths relative to the root.
    std::vector<std::string> files_below(std::string_view rel) const;

    // The path a message names.
    std::string describe(std::string_view rel) const;

private:
    // The folder holding `rel`'s last step, and that step.
    std::pair<UniqueFd, std::string> parent_of(std::string_view rel, bool create) const;

    std::string root_;
    UniqueFd fd_;
};

}  // namespace gcfs::edit
