// A mount with -o edits=DIR: the image as the edits in DIR change it. The
// tree served is always built from the original image file and a patch of
// the re-encoded containers (edit/image_layout.h), one generation per applied
// edit, so every file of an edited level is derived from the edited container
// exactly as from the original, and edited.iso at the root is the patched
// image itself. The image file is only ever read.
//
// Writers: a file opened for writing gets a draft in DIR/open; on flush,
// fsync or release the draft is encoded (edit/edit_kinds.h) and applied whole
// in a new generation, or refused with the reason. An edit is applied only
// when the level it makes passes the checks it passed before (edit/level_check.h).
// A draft is bounded as it is written (edit_size_limit), and one whose
// writer failed or was killed is never applied. A save that writes back what
// the file shows is no event. Names an editor creates (swap files, the
// temporary a save is renamed from) are scratch files that live in DIR only;
// one still there a moment after its close is kept in DIR/drafts and
// reported, never silently dropped. An emptied file whose writer does not
// write it again within that moment is refused (edit/deferred.h).
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "edit/containers.h"
#include "edit/deferred.h"
#include "edit/edit_kinds.h"
#include "edit/edit_store.h"
#include "edit/mods/mod_stack.h"
#include "tree/tree_builder.h"

namespace gcfs::edit {

class Session {
public:
    // Opens the image (an absolute path), the mod folders `mods` stacked over
    // it (read-only, edit/mods/mod_stack.h), DIR's journal and every applied
    // edit, over the stack. Throws EditStoreError (DIR unusable or in use, a
    // mod folder unreadable) or what tree::open_disc throws.
    Session(const std::string& image_path, const std::string& edits_dir, uint64_t cache_bytes, const std::vector<std::string>& mods = {});
    ~Session();

    // The generation to serve; a request keeps the one it started with, and
    // an open file the one it was opened in (fs/fuse_ops.cpp).
    std::shared_ptr<tree::Disc> disc() const;
    // The daemon forked: the edits folder's lock names the process that serves.
    void daemonized() { store_->claim_lock(); }

    // Whether the mount file at `path` can be written.
    bool writable(const std::string& path) const;
    // The time `path` last changed by an edit (its own, or its container's
    // for every file derived from it; edited.iso: the newest), if one did.
    std::optional<int64_t> edit_time(const std::string& path) const;
    // user.gcfs.edit: the last event of a writable file, "" when none.
    std::string edit_note(const std::string& path) const;

    // ---- scratch files: names an editor creates in a folder ----
    struct Scratch {
        uint64_t ino;
        uint64_t size;
        int64_t mtime;  // its draft file's
    };
    static constexpr uint64_t kScratchBase = 1ull << 62;  // inodes above every tree's
    static bool is_scratch(uint64_t ino) { return ino >= kScratchBase; }
    std::optional<Scratch> scratch(const std::string& folder, const std::string& name) const;
    std::optional<Scratch> scratch(uint64_t ino) const;
    std::vector<std::pair<std::string, Scratch>> scratch_in(const std::string& folder) const;
    // Creates (or truncates) one and opens it: returns the handle, 0 with errno.
    uint64_t create(const std::string& folder, const std::string& name, int& error);
    // Unlinks a scratch file, or drops the edit of an edited disc file; errno otherwise.
    int unlink(const std::string& folder, const std::string& name);
    // Renames a scratch file over a writable file (applying it, EINVAL when
    // refused) or to another scratch name; errno otherwise.
    int rename(const std::string& folder, const std::string& name, const std::string& to_folder, const std::string& to_name);

    // ---- handles of files opened for writing ----
    // Opens a writable disc file (its current bytes copied unless `truncate`)
    // or a scratch inode; 0 with errno set when it cannot be written.
    uint64_t open(uint64_t ino, const std::string& path, bool truncate, int& error);
    // Bytes written, or -errno (EFBIG past the file's bound).
    int write(uint64_t handle, const char* data, size_t size, uint64_t offset);
    int read(uint64_t handle, std::vector<uint8_t>& out, uint64_t offset) const;
    int truncate(uint64_t handle, uint64_t size);
    // The size a disc file shows while a handle on it has written more.
    std::optional<uint64_t> draft_size(const std::string& path) const;
    // Applies what the handle wrote, once (flush, fsync; `closer` the process
    // closing it): 0 or EINVAL (refused, or a writer that failed or was killed).
    int apply(uint64_t handle, pid_t closer);
    void release(uint64_t handle);

    std::string render() const;  // .gcfs/edits

private:
    struct Draft;
    struct ScratchFile {
        std::string folder, name, file;  // mount folder, name, file under DIR
    };
    std::shared_ptr<tree::Disc> build(const std::map<ContainerKey, formats::Bytes>& containers) const;
    // The container with every applied edit of it in order, plus `path` as
    // `content` when given (empty: nothing changed it); throws EditRefused.
    // When `path` has an applied edit, `content` is first rebased over the
    // parts it is applied to (edit_kinds.h rebase_edit). The edits resting on
    // `path`'s (resting_on()) follow its new content (none: the container
    // without it).
    // `replayed` gets the parts the container was written from.
    formats::Bytes replay(ContainerKey key, const std::string* path, formats::Bytes* content, std::string* status,
                          std::vector<Follower>* followers = nullptr, std::unique_ptr<ContainerParts>* replayed = nullptr) const;
    // The parts of base_'s container `key`: a clone of the last container
    // opened, so that a level saved again replays over parts decoded once.
    std::unique_ptr<ContainerParts> base_parts(ContainerKey key) const;
    // The applied edits made after `path`'s that may rest on it, in order: a
    // gameplay file's edit, when `path` is in the same level's gameplay/ (a
    // pvar file names a moby its table added). They are applied after it
    // again, and moved after it in the journal.
    std::vector<const EditRecord*> resting_on(ContainerKey key, const std::string& path) const;
    // Called with mutex_ held.
    int apply_content(const std::string& path, const formats::Bytes& saved);
    int apply_translated(const std::string& path, const EditTarget& target, const formats::Bytes& saved);
    struct Staged {
        formats::Bytes container;          // the container with the edit (empty: the image's own)
        std::vector<Follower> followers;   // the edits made after the file's earlier one, moved after it
        std::unique_ptr<ContainerParts> parts;  // what the container was written from
    };
    Staged stage_edit(const std::string& path, const EditTarget& target, formats::Bytes& content, std::string& status);
    EditRecord record_of(const std::string& path, ContainerKey key, const std::string& status, const formats::Bytes& container) const;
    // `parts`: what `container` was written from, when known (a level's
    // texel-only edit is then checked by edit/texel_checks.h).
    std::shared_ptr<tree::Disc> next_generation(ContainerKey key, const formats::Bytes& container,
                                                std::map<ContainerKey, formats::Bytes>& containers, ContainerParts* parts);
    // The level's failing checks in `next`, which serves `container` as `key`.
    std::map<std::string, std::string> level_failing_checks(ContainerKey key, tree::Disc& next, const formats::Bytes& container,
                                                            ContainerParts* parts);
    // tree::decoder_checks of base_'s level, made once.
    const std::vector<tree::Check>& base_decoder_checks(ContainerKey key);
    void serve(std::map<ContainerKey, formats::Bytes> containers, std::shared_ptr<tree::Disc> next);
    void refuse(const std::string& path, const std::string& why);
    bool shows(const std::string& path, const formats::Bytes& content) const;
    void after_close(const Draft& draft);
    void keep_if_unclaimed(uint64_t ino);
    void refuse_if_still_empty(const std::string& path);
    void note_times();
    void drop_file(const std::string& file) const;
    bool held_open(uint64_t scratch) const;

    std::string image_path_;
    std::shared_ptr<cache::LruCache> cache_;
    std::unique_ptr<tree::Disc> original_;  // the image as recorded: where containers lie
    std::unique_ptr<mods::ModStack> stack_; // the mod folders under DIR's edits
    // What DIR's edits are made over: the image, or the image as the mod
    // folders change it. Containers, shown files and level checks come from it.
    std::shared_ptr<tree::Disc> base_;
    mutable std::mutex mutex_;              // one apply at a time; guards what follows
    std::unique_ptr<EditStore> store_;
    std::map<ContainerKey, formats::Bytes> containers_;  // every edited container
    std::map<ContainerKey, std::set<std::string>> failing_;  // each checked level's failing checks, in the current generation
    std::map<ContainerKey, std::vector<tree::Check>> base_decoder_checks_;  // of each level a texel-only edit was checked against
    formats::Bytes core_scratch_;  // where a texel-only edit's core is decoded again (texel_checks.h)
    // The last container base_parts opened, with what it decoded (one: a
    // level core decoded is 28 MB at full scale).
    mutable std::optional<std::pair<ContainerKey, std::unique_ptr<ContainerParts>>> opened_;
    std::map<std::string, int64_t> folder_times_;             // the newest edit of each container's folder
    mutable std::mutex current_mutex_;  // guards current_ alone: serving never waits for an apply
    std::shared_ptr<tree::Disc> current_;
    std::map<uint64_t, std::unique_ptr<Draft>> drafts_;
    uint64_t next_handle_ = 1;
    std::map<uint64_t, ScratchFile> scratch_;  // by inode
    uint64_t next_scratch_ = kScratchBase;
    std::unique_ptr<Deferred> deferred_;  // last: its tasks use what is above
};

}  // namespace gcfs::edit
