// A mount with -o edits=DIR: the image as the edits in DIR change it. The
// tree served is always built from the original image file and a patch of
// the re-encoded containers (edit/image_layout.h), one generation per applied
// edit, so every file of an edited level is derived from the edited container
// exactly as from the original, and edited.iso at the root is the patched
// image itself. The image file is only ever read.
//
// Writers: a file opened for writing gets a draft in DIR/drafts; on flush,
// fsync or release the draft is encoded (edit/edit_kinds.h) and applied whole
// in a new generation, or refused with the reason. Names an editor creates
// (swap files, the temporary a save is renamed from) are scratch files that
// live in DIR only.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "edit/containers.h"
#include "edit/edit_store.h"
#include "tree/tree_builder.h"

namespace gcfs::edit {

class Session {
public:
    // Opens the image, DIR's journal and every applied edit. Throws
    // EditStoreError (DIR unusable) or what tree::open_disc throws.
    Session(const std::string& image_path, const std::string& edits_dir, uint64_t cache_bytes);
    ~Session();

    // The generation to serve; a request keeps the one it started with.
    std::shared_ptr<tree::Disc> disc() const;
    // The image key DIR's journal must carry (size and table-of-contents digest).
    static std::string image_key(const tree::Disc& original);

    // Whether the mount file at `path` can be written.
    bool writable(const std::string& path) const;

    // ---- scratch files: names an editor creates in a folder ----
    struct Scratch {
        uint64_t ino;
        uint64_t size;
    };
    static constexpr uint64_t kScratchBase = 1ull << 62;  // inodes above every tree's
    static bool is_scratch(uint64_t ino) { return ino >= kScratchBase; }
    std::optional<Scratch> scratch(const std::string& folder, const std::string& name) const;
    std::optional<Scratch> scratch(uint64_t ino) const;
    std::vector<std::pair<std::string, Scratch>> scratch_in(const std::string& folder) const;
    // Creates (or truncates) one and opens it: returns the handle.
    uint64_t create(const std::string& folder, const std::string& name);
    // Unlinks a scratch file, or drops the edit of an edited disc file; errno otherwise.
    int unlink(const std::string& folder, const std::string& name);
    // Renames a scratch file over a writable file (applying it, EINVAL when
    // refused) or to another scratch name; errno otherwise.
    int rename(const std::string& folder, const std::string& name, const std::string& to_folder, const std::string& to_name);

    // ---- handles of files opened for writing ----
    // Opens a writable disc file (its current bytes copied unless `truncate`)
    // or a scratch inode; 0 with errno set when it cannot be written.
    uint64_t open(uint64_t ino, const std::string& path, bool truncate, int& error);
    int write(uint64_t handle, const char* data, size_t size, uint64_t offset);
    int read(uint64_t handle, std::vector<uint8_t>& out, uint64_t offset) const;
    int truncate(uint64_t handle, uint64_t size);
    uint64_t handle_size(uint64_t handle) const;
    // The size a disc file shows while a handle on it has written more.
    std::optional<uint64_t> draft_size(const std::string& path) const;
    // Applies what the handle wrote, once (flush, fsync): 0 or EINVAL.
    int apply(uint64_t handle);
    void release(uint64_t handle);

    std::string render() const;  // .gcfs/edits

private:
    struct Draft;
    std::shared_ptr<tree::Disc> build(const std::map<ContainerKey, formats::Bytes>& containers) const;
    // The container with every applied edit of it in order, plus `path` as
    // `content` when given (empty: nothing changed it); throws EditRefused.
    formats::Bytes replay(ContainerKey key, const std::string* path, const formats::Bytes* content, std::string* status) const;
    int apply_content(const std::string& path, const formats::Bytes& content);

    std::string image_path_;
    std::shared_ptr<cache::LruCache> cache_;
    std::unique_ptr<tree::Disc> original_;  // the image as recorded: scans and containers come from it
    mutable std::mutex mutex_;              // one apply at a time; guards what follows
    std::unique_ptr<EditStore> store_;
    std::map<ContainerKey, formats::Bytes> containers_;  // every edited container
    mutable std::mutex current_mutex_;  // guards current_ alone: serving never waits for an apply
    std::shared_ptr<tree::Disc> current_;
    std::map<uint64_t, std::unique_ptr<Draft>> drafts_;
    uint64_t next_handle_ = 1;
    struct ScratchFile {
        std::string folder, name, file;  // mount folder, name, file in DIR/drafts
    };
    std::map<uint64_t, ScratchFile> scratch_;  // by inode
    uint64_t next_scratch_ = kScratchBase;
};

// The session's current image, written to `out_path` through a temporary
// renamed into place (gcfs pack): the same bytes edited.iso shows.
void write_image(const Session& session, const std::string& out_path);

}  // namespace gcfs::edit
