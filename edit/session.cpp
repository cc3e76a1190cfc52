#include "edit/session.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "edit/containers.h"
#include "edit/edited_disc.h"
#include "edit/edit_kinds.h"
#include "edit/level_parts.h"
#include "edit/notify.h"
#include "edit/texel_checks.h"
#include "edit/writer_state.h"

namespace gcfs::edit {

using formats::Bytes;

struct Session::Draft {
    std::string path;  // the mount path it becomes on apply (a scratch file's own path)
    std::string file;  // under DIR
    UniqueFd fd;
    uint64_t scratch = 0;  // the scratch inode, 0 for a disc file
    uint64_t limit = 0;    // the most bytes it may hold (edit_size_limit)
    bool dirty = false;
    std::string broken;  // why it must not be applied: a write failed, its writer was killed
};

namespace {

// How long after a close a save is taken to be over (edit/deferred.h): an
// editor's next step (a second open, a rename) comes within milliseconds.
constexpr std::chrono::milliseconds kSettle{1500};

std::string join(const std::string& folder, const std::string& name) { return folder.empty() ? name : folder + "/" + name; }

uint64_t size_of(int fd) {
    struct stat st {};
    return ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

Session::Scratch scratch_of(uint64_t ino, int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return {ino, 0, 0};
    return {ino, static_cast<uint64_t>(st.st_size), static_cast<int64_t>(st.st_mtime)};
}

Bytes read_fd(int fd) {
    Bytes out(size_of(fd));
    uint64_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw EditRefused("the draft ended early");
        done += static_cast<uint64_t>(n);
    }
    return out;
}

// Every byte of a served file (the content a writer opened without O_TRUNC starts from).
Bytes whole(const tree::Source& source) {
    Bytes out(source.size());
    const auto outcome = source.read(0, out);
    if (!outcome.ok()) throw EditRefused(outcome.error);
    out.resize(outcome.bytes);
    return out;
}

// Every byte of the file at `path` of `disc` (edited_disc.h file_bytes: its
// node held while read), or the edit refused with why it cannot be read.
Bytes shown_file(const tree::Disc& disc, const std::string& path) {
    try {
        return file_bytes(disc, path);
    } catch (const std::runtime_error& e) {
        throw EditRefused(e.what());
    }
}

// The folder whose files a container's edit derives anew: "LEVEL03", "global/audio".
std::string derived_folder(const std::string& path) {
    const size_t first = path.find('/');
    if (first == std::string::npos) return path;
    if (path.compare(0, first, "global") != 0) return path.substr(0, first);
    const size_t second = path.find('/', first + 1);
    return second == std::string::npos ? path : path.substr(0, second);
}

}  // namespace

Session::Session(const std::string& image_path, const std::string& edits_dir, uint64_t cache_bytes, const std::vector<std::string>& mods)
    : image_path_(image_path), cache_(std::make_shared<cache::LruCache>(cache_bytes)) {
    if (std::find(mods.begin(), mods.end(), edits_dir) != mods.end())
        throw EditStoreError(fmt::format("{} is both a mod folder (only read) and the edits folder (written): give the edits their own folder", edits_dir));
    original_ = tree::open_disc(image_path, tree::DiscSetup{nullptr, cache_, {}});
    store_ = std::make_unique<EditStore>(edits_dir, image_key(*original_), original_->scan.volume.volume_id);
    stack_ = std::make_unique<mods::ModStack>(*original_, mods);
    base_ = stack_->empty() ? std::shared_ptr<tree::Disc>(std::shared_ptr<void>(), original_.get())
                            : open_edited_disc(image_path, *original_, stack_->containers(), cache_, [] { return std::string(); });
    // Each container's applied edits in order; one that no longer encodes,
    // or makes a level fail a check it passed, is turned into a refused one
    // and the rest go on.
    std::map<ContainerKey, std::vector<std::pair<const EditRecord*, EditTarget>>> by_container;
    size_t replayed = 0;
    for (const auto& r : store_->records())
        if (const auto target = edit_target(original_->scan, r.path); r.applied() && target) by_container[target->key].emplace_back(&r, *target);
    std::vector<std::pair<std::string, std::string>> failed;
    for (const auto& [key, records] : by_container) {
        std::unique_ptr<ContainerParts> parts;
        try {
            parts = open_parts(key, read_container(*base_, key));
        } catch (const std::exception& e) {
            for (const auto& [r, target] : records) failed.emplace_back(r->path, fmt::format("no longer applies: {}", e.what()));
            continue;
        }
        for (const auto& [r, target] : records) {
            try {
                auto trial = parts->clone();
                apply_edit(*trial, *base_, target, store_->stored(*r));
                parts = std::move(trial);
                ++replayed;
            } catch (const std::exception& e) {
                failed.emplace_back(r->path, fmt::format("no longer applies: {}", e.what()));
            }
        }
        if (!parts->changed()) continue;
        auto rebuilt = parts->rebuild();
        if (!rebuilt.ok()) throw EditStoreError(fmt::format("{}: the edited container cannot be written: {}", place_of(*original_, key).iso_path,
                                                            rebuilt.error().describe()));
        containers_[key] = std::move(*rebuilt);
    }
    current_ = build(containers_);
    // A journal is untrusted (a mod folder travels): each edited level must
    // pass every check the image's own level passes, or its edits go.
    for (auto it = containers_.begin(); it != containers_.end();) {
        const ContainerKey key = it->first;
        if (key.kind != ContainerKey::level) {
            ++it;
            continue;
        }
        const auto before = failing_checks(*base_, key.index);
        std::string problem;
        for (const auto& [name, detail] : failing_checks(*current_, key.index))
            if (!before.count(name) && problem.empty()) problem = fmt::format("the edited level fails its check \"{}\": {}", name, detail);
        if (problem.empty()) {
            ++it;
            continue;
        }
        for (const auto& entry : by_container[key]) {
            const std::string& path = entry.first->path;
            if (std::none_of(failed.begin(), failed.end(), [&](const auto& f) { return f.first == path; })) {
                failed.emplace_back(path, fmt::format("no longer applies: {}", problem));
                --replayed;
            }
        }
        it = containers_.erase(it);
        current_ = build(containers_);
    }
    for (const auto& [path, reason] : failed) {
        spdlog::warn("edit of {:?} refused: {}", path, reason);
        store_->demote(path, reason);
    }
    for (const auto& r : store_->records())  // kept new names show where they were made
        if (r.state == EditState::kept) {
            const size_t slash = r.path.rfind('/');
            scratch_[next_scratch_++] = {slash == std::string::npos ? "" : r.path.substr(0, slash), r.path.substr(slash + 1),
                                         EditStore::stored_path(r)};
        }
    note_times();
    spdlog::info("edits folder {}: {} edits replayed, {} refused", store_->dir(), replayed, failed.size());
    deferred_ = std::make_unique<Deferred>(kSettle);
}

Session::~Session() {
    deferred_.reset();  // what waits to be reported is reported now
    for (auto& [handle, draft] : drafts_)
        if (!draft->scratch) drop_file(draft->file);
}

// Removes a file gcfs made under DIR; one that cannot go (the folder changed
// under the mount) is logged, never thrown into the caller (a FUSE reply).
void Session::drop_file(const std::string& file) const {
    try {
        store_->folder().unlink(file);
    } catch (const EditStoreError& e) {
        spdlog::warn("{}: cannot be removed: {}", store_->folder().describe(file), e.what());
    }
}

std::shared_ptr<tree::Disc> Session::disc() const {
    std::lock_guard lock(current_mutex_);
    return current_;
}

std::shared_ptr<tree::Disc> Session::build(const std::map<ContainerKey, Bytes>& containers) const {
    auto all = stack_->containers();  // the mod folders' containers, under DIR's
    for (const auto& [key, bytes] : containers) all[key] = bytes;
    const Session* self = this;
    return open_edited_disc(image_path_, *original_, all, cache_, [self] { return self->render(); });
}

void Session::note_times() {
    folder_times_.clear();
    for (const auto& r : store_->records()) {
        if (!r.applied()) continue;
        for (const std::string& key : {r.path, derived_folder(r.path), std::string("edited.iso")})
            folder_times_[key] = std::max(folder_times_[key], r.time);
    }
}

std::optional<int64_t> Session::edit_time(const std::string& path) const {
    std::lock_guard lock(mutex_);
    if (folder_times_.empty()) return std::nullopt;
    for (const std::string& key : {path, derived_folder(path)})
        if (const auto it = folder_times_.find(key); it != folder_times_.end()) return it->second;
    return std::nullopt;
}

std::string Session::edit_note(const std::string& path) const {
    std::lock_guard lock(mutex_);
    const EditRecord* r = store_->find(path);
    if (!r) return {};
    auto stamp = [](int64_t t) { return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(static_cast<std::time_t>(t))); };
    const bool refused_last = !r->last_refusal.empty() && r->refusal_sequence > r->sequence;
    if (refused_last) return fmt::format("refused at {}: {} (the applied edit of {} stays)", stamp(r->refusal_time), r->last_refusal, stamp(r->time));
    const char* state = r->state == EditState::applied      ? "applied"
                        : r->state == EditState::kept       ? "kept"
                        : r->state == EditState::translated ? "read"
                                                            : "refused";
    return fmt::format("{} at {}: {}", state, stamp(r->time), r->status);
}

bool Session::writable(const std::string& path) const {
    if (!edit_target(original_->scan, path)) return false;
    const auto held = disc();
    const auto ino = held->tree.resolve(path);
    return ino && held->tree.node(*ino)->type == tree::NodeType::file;
}

std::optional<Session::Scratch> Session::scratch(const std::string& folder, const std::string& name) const {
    std::lock_guard lock(mutex_);
    for (const auto& [ino, s] : scratch_)
        if (s.folder == folder && s.name == name) {
            try {
                return scratch_of(ino, store_->folder().open_file(s.file, false, false).get());
            } catch (const EditStoreError&) {
                return Scratch{ino, 0, 0};
            }
        }
    return std::nullopt;
}

std::optional<Session::Scratch> Session::scratch(uint64_t ino) const {
    std::lock_guard lock(mutex_);
    const auto it = scratch_.find(ino);
    if (it == scratch_.end()) return std::nullopt;
    try {
        return scratch_of(ino, store_->folder().open_file(it->second.file, false, false).get());
    } catch (const EditStoreError&) {
        return Scratch{ino, 0, 0};
    }
}

std::vector<std::pair<std::string, Session::Scratch>> Session::scratch_in(const std::string& folder) const {
    std::vector<std::pair<std::string, Scratch>> out;
    std::vector<std::pair<std::string, uint64_t>> names;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [ino, s] : scratch_)
            if (s.folder == folder) names.emplace_back(s.name, ino);
    }
    for (const auto& [name, ino] : names)
        if (const auto s = scratch(ino)) out.emplace_back(name, *s);
    return out;
}

uint64_t Session::create(const std::string& folder, const std::string& name, int& error) {
    std::lock_guard lock(mutex_);
    uint64_t ino = 0;
    for (const auto& [i, s] : scratch_)
        if (s.folder == folder && s.name == name) ino = i;
    const bool made = !ino;
    if (made) {
        ino = next_scratch_++;
        scratch_[ino] = {folder, name, store_->new_draft_path()};
    }
    deferred_->cancel(fmt::format("scratch:{}", ino));
    auto draft = std::make_unique<Draft>();
    draft->path = join(folder, name);
    draft->file = scratch_[ino].file;
    draft->scratch = ino;
    draft->limit = kMaxStoredBytes;  // bounded again by the file it is renamed over
    try {
        draft->fd = store_->folder().open_file(draft->file, true, true);
    } catch (const EditStoreError& e) {
        spdlog::warn("{:?}: cannot be made: {}", draft->path, e.what());
        if (made) scratch_.erase(ino);
        return error = EIO, 0;
    }
    const uint64_t handle = next_handle_++;
    drafts_[handle] = std::move(draft);
    return handle;
}

uint64_t Session::open(uint64_t ino, const std::string& path, bool truncate, int& error) {
    auto draft = std::make_unique<Draft>();
    draft->path = path;
    if (is_scratch(ino)) {
        std::lock_guard lock(mutex_);
        const auto it = scratch_.find(ino);
        if (it == scratch_.end()) return error = ENOENT, 0;
        deferred_->cancel(fmt::format("scratch:{}", ino));
        draft->path = join(it->second.folder, it->second.name);
        draft->file = it->second.file;
        draft->scratch = ino;
        draft->limit = kMaxStoredBytes;
        try {
            draft->fd = store_->folder().open_file(draft->file, false, truncate);
        } catch (const EditStoreError& e) {
            spdlog::warn("{:?}: cannot be opened: {}", draft->path, e.what());
            return error = EIO, 0;
        }
    } else {
        if (!writable(path)) return error = EACCES, 0;
        const auto held = disc();
        const auto source = held->tree.node(*held->tree.resolve(path))->source;
        Bytes current;
        try {
            draft->limit = edit_size_limit(path, *source);
            if (!truncate) current = whole(*source);
        } catch (const EditRefused& e) {
            spdlog::warn("{:?}: cannot be opened for writing: {}", path, e.what());
            return error = EIO, 0;
        }
        std::lock_guard lock(mutex_);
        draft->file = store_->new_draft_path();
        try {
            draft->fd = store_->folder().open_file(draft->file, true, true);
        } catch (const EditStoreError& e) {
            spdlog::warn("{:?}: no draft can be made: {}", path, e.what());
            return error = EIO, 0;
        }
        if (!current.empty() && ::pwrite(draft->fd.get(), current.data(), current.size(), 0) != static_cast<ssize_t>(current.size())) {
            error = errno ? errno : EIO;
            drop_file(draft->file);
            return 0;
        }
        draft->dirty = truncate;
    }
    std::lock_guard lock(mutex_);
    const uint64_t handle = next_handle_++;
    drafts_[handle] = std::move(draft);
    return handle;
}

int Session::write(uint64_t handle, const char* data, size_t size, uint64_t offset) {
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return -EBADF;
    Draft& d = *it->second;
    d.dirty = true;
    if (offset > d.limit || size > d.limit - offset) {
        d.broken = fmt::format("a write reached byte {}, past the {} bytes this file may hold (EFBIG)", offset + size, d.limit);
        return -EFBIG;
    }
    const ssize_t n = ::pwrite(d.fd.get(), data, size, static_cast<off_t>(offset));
    if (n < 0) {
        const int error = errno;
        d.broken = fmt::format("a write failed: {}", std::strerror(error));
        return -error;
    }
    return static_cast<int>(n);
}

int Session::read(uint64_t handle, std::vector<uint8_t>& out, uint64_t offset) const {
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return -EBADF;
    const ssize_t n = ::pread(it->second->fd.get(), out.data(), out.size(), static_cast<off_t>(offset));
    return n < 0 ? -errno : static_cast<int>(n);
}

int Session::truncate(uint64_t handle, uint64_t size) {
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return EBADF;
    if (size > it->second->limit) return EFBIG;  // nothing changed: the draft stays whole
    if (::ftruncate(it->second->fd.get(), static_cast<off_t>(size)) != 0) return errno;
    it->second->dirty = true;
    return 0;
}

std::optional<uint64_t> Session::draft_size(const std::string& path) const {
    std::lock_guard lock(mutex_);
    for (const auto& [handle, d] : drafts_)
        if (d->path == path && d->dirty && !d->scratch) return size_of(d->fd.get());
    return std::nullopt;
}

int Session::apply(uint64_t handle, pid_t closer) {
    std::unique_lock lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end() || !it->second->dirty || it->second->scratch) return 0;
    Draft& d = *it->second;
    d.dirty = false;
    if (const auto signal = killing_signal(closer); signal && d.broken.empty())
        d.broken = fmt::format("its writer (pid {}) was killed by signal {} ({}) before it closed the file", closer, *signal, ::strsignal(*signal));
    if (!d.broken.empty()) {
        refuse(d.path, fmt::format("nothing applied: {}", d.broken));
        return EINVAL;
    }
    if (size_of(d.fd.get()) == 0) {
        // An editor empties a file, closes it, then opens it again to write
        // (ImageMagick): only an emptied file left so is refused.
        const std::string path = d.path;
        deferred_->schedule("empty:" + path, [this, path] { refuse_if_still_empty(path); });
        return 0;
    }
    Bytes content;
    try {
        content = read_fd(d.fd.get());
    } catch (const EditRefused& e) {
        refuse(d.path, e.what());
        return EINVAL;
    }
    return apply_content(d.path, content);
}

void Session::refuse_if_still_empty(const std::string& path) {
    std::lock_guard lock(mutex_);
    for (const auto& [h, d] : drafts_)
        if (d->path == path && !d->scratch) {  // opened again and not closed yet: asked again later
            deferred_->schedule("empty:" + path, [this, path] { refuse_if_still_empty(path); });
            return;
        }
    refuse(path, "the file was emptied (0 bytes) and not written again; it keeps its content");
}

void Session::release(uint64_t handle) {
    apply(handle, 0);
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return;
    const auto draft = std::move(it->second);
    drafts_.erase(it);
    if (!draft->scratch) drop_file(draft->file);
    else after_close(*draft);
}

// Called with mutex_ held: whether a writer's handle holds the scratch file.
bool Session::held_open(uint64_t scratch) const {
    return std::any_of(drafts_.begin(), drafts_.end(), [&](const auto& entry) { return entry.second->scratch == scratch; });
}

// Called with mutex_ held: a scratch file no handle holds any more is kept
// and reported a moment later, unless a rename or unlink took it first.
void Session::after_close(const Draft& draft) {
    if (held_open(draft.scratch)) return;
    if (!scratch_.count(draft.scratch)) return;
    if (scratch_[draft.scratch].file.starts_with("drafts/")) return;  // already kept
    const uint64_t ino = draft.scratch;
    deferred_->schedule(fmt::format("scratch:{}", ino), [this, ino] { keep_if_unclaimed(ino); });
}

void Session::keep_if_unclaimed(uint64_t ino) {
    std::lock_guard lock(mutex_);
    const auto it = scratch_.find(ino);
    if (it == scratch_.end()) return;
    if (held_open(ino)) return;
    ScratchFile& s = it->second;
    const std::string path = join(s.folder, s.name);
    if (!valid_mount_path(path)) {
        spdlog::warn("{:?}: a file made in the mount under a name gcfs cannot keep; it is dropped", path);
        drop_file(s.file);
        scratch_.erase(it);
        return;
    }
    const std::string why = "kept in DIR/drafts only, not on the disc: no file of the disc has this name, so it is no edit "
                            "(rename it over one to apply it)";
    try {
        store_->keep(path, s.file, why);
        s.file = "drafts/" + path;
        spdlog::warn("{:?}: {} ({}/drafts/{})", path, why, store_->dir(), path);
        notify_desktop("gcfs: a file was not put on the disc", fmt::format("{}: {}", path, why));
    } catch (const EditStoreError& e) {
        spdlog::warn("{:?}: cannot be kept: {}", path, e.what());
    }
}

bool Session::shows(const std::string& path, const Bytes& content) const {
    const auto held = disc();
    const auto ino = held->tree.resolve(path);
    if (!ino) return false;
    const auto source = held->tree.node(*ino)->source;
    if (source->size() != content.size()) return false;
    try {
        return whole(*source) == content;
    } catch (const EditRefused&) {
        return false;
    }
}

// The applied edit of `path`, if any.
static const EditRecord* applied_record(const EditStore& store, const std::string& path) {
    const EditRecord* r = store.find(path);
    return r && r->applied() ? r : nullptr;
}

std::vector<const EditRecord*> Session::resting_on(ContainerKey key, const std::string& path) const {
    std::vector<const EditRecord*> out;
    const EditRecord* own = applied_record(*store_, path);
    const size_t gameplay = path.find("/gameplay/");
    if (!own || gameplay == std::string::npos) return out;
    const std::string folder = path.substr(0, gameplay + 10);  // "LEVEL03/gameplay/"
    for (const auto& r : store_->records()) {
        const auto target = edit_target(original_->scan, r.path);
        if (r.sequence > own->sequence && r.applied() && target && target->key == key && r.path.starts_with(folder)) out.push_back(&r);
    }
    return out;
}

std::unique_ptr<ContainerParts> Session::base_parts(ContainerKey key) const {
    if (!opened_ || opened_->first != key) {
        opened_.reset();  // the one before freed first
        opened_.emplace(key, open_parts(key, read_container(*base_, key)));
    }
    return opened_->second->clone();
}

Bytes Session::replay(ContainerKey key, const std::string* path, Bytes* content, std::string* status, std::vector<Follower>* followers,
                      std::unique_ptr<ContainerParts>* replayed) const {
    auto parts = base_parts(key);
    const auto resting = path ? resting_on(key, *path) : std::vector<const EditRecord*>{};
    for (const auto& r : store_->records()) {
        const auto target = edit_target(original_->scan, r.path);
        if (!r.applied() || !target || target->key != key || (path && r.path == *path)) continue;
        if (std::find(resting.begin(), resting.end(), &r) != resting.end()) continue;
        apply_edit(*parts, *base_, *target, store_->stored(r));
    }
    // The rows of the file as the edits after its earlier one were made over
    // them (`from`), and as they are now (`to`): numbers those edits name of
    // them follow (groups.csv's members of mobies.csv, edit_kinds.h follow_edit).
    Bytes from, to;
    const EditRecord* earlier = path ? applied_record(*store_, *path) : nullptr;
    const auto target = path ? edit_target(original_->scan, *path) : std::nullopt;
    if (earlier && !resting.empty()) {
        if (content) {
            from = shown_file(*disc(), *path);
            to = *content;
        } else {  // taken back: the shown rows by the disc's numbers, and the disc's file
            from = rebase_edit(*parts, *base_, *target, store_->stored(*earlier), shown_file(*disc(), *path));
            to = shown_file(*base_, *path);
        }
    }
    if (path && content) {
        // A file saved again was saved over what its earlier edit showed, which
        // was applied over these parts: kept as an edit of the file without it.
        if (earlier) {
            std::vector<EditTarget> after;
            for (const EditRecord* r : resting) after.push_back(*edit_target(original_->scan, r->path));
            const Bytes stored = store_->stored(*earlier);
            if (!after.empty()) *content = before_followers(*target, from, stored, *content, after);
            *content = rebase_edit(*parts, *base_, *target, stored, *content);
        }
        *status = apply_edit(*parts, *base_, *target, *content);
    }
    for (const EditRecord* r : resting) {
        const EditTarget follower = *edit_target(original_->scan, r->path);
        const Bytes stored = store_->stored(*r);
        try {
            const auto followed = from.empty() ? std::nullopt : follow_edit(*target, from, to, follower, stored);
            if (followers) followers->push_back({r->path, followed});
            apply_edit(*parts, *base_, follower, followed ? *followed : stored);
        } catch (const EditRefused& e) {
            throw EditRefused(fmt::format("the edit of {} made after this file's earlier one would no longer apply ({}); save that file "
                                          "again first, or take it back",
                                          r->path, e.what()));
        }
    }
    if (!parts->changed()) return {};
    auto rebuilt = parts->rebuild();
    if (!rebuilt.ok()) throw EditRefused(fmt::format("the edited container cannot be written: {}", rebuilt.error().describe()));
    if (replayed) *replayed = std::move(parts);
    return std::move(*rebuilt);
}

// Called with mutex_ held: the refusal logged, recorded and told to the desktop.
void Session::refuse(const std::string& path, const std::string& why) {
    spdlog::warn("edit of {:?} refused: {}", path, why);
    try {
        store_->commit(EditRecord{path, EditState::refused, why}, nullptr);
    } catch (const EditStoreError& journal) {
        spdlog::warn("the refusal of {:?} could not be recorded: {}", path, journal.what());
    }
    notify_desktop("gcfs: an edit was refused", fmt::format("{}: {}", path, why));
}

// Called with mutex_ held.
int Session::apply_content(const std::string& path, const Bytes& saved) {
    const auto target = edit_target(original_->scan, path);
    if (!target) return EINVAL;
    deferred_->cancel("empty:" + path);  // the file was written again after it was emptied: this save decides
    // What the file already shows is no edit: it neither applies nor clears
    // a refusal (an editor writing back what it read after a refused save).
    if (shows(path, saved)) {
        spdlog::info("{:?}: saved as it was shown; nothing to apply", path);
        return 0;
    }
    if (translated(*target)) return apply_translated(path, *target, saved);
    try {
        std::string status;
        auto containers = containers_;
        Bytes content = saved;
        const Staged staged = stage_edit(path, *target, content, status);
        auto next = next_generation(target->key, staged.container, containers, staged.parts.get());
        store_->commit(record_of(path, target->key, status, staged.container), &content, staged.followers);
        serve(std::move(containers), std::move(next));
        spdlog::info("edit of {:?} applied: {}", path, status);
        return 0;
    } catch (const std::exception& e) {
        refuse(path, e.what());
        return EINVAL;
    }
}

// Called with mutex_ held: `content` (a save of `path`) prepared and applied
// over every other edit of its container. Throws EditRefused.
Session::Staged Session::stage_edit(const std::string& path, const EditTarget& target, Bytes& content, std::string& status) {
    content = prepare_edit(target, content, [&] {
        return shown_file(*disc(), path);
    });
    Staged out;
    out.container = replay(target.key, &path, &content, &status, &out.followers, &out.parts);
    return out;
}

EditRecord Session::record_of(const std::string& path, ContainerKey key, const std::string& status, const Bytes& container) const {
    EditRecord record{path, EditState::applied, status};
    if (!container.empty()) record.containers.push_back({place_of(*original_, key).iso_path, container.size()});
    return record;
}

// Called with mutex_ held: the generation that serves `container` as `key`
// (empty: the image's own) among `containers`, refused unless it reads as
// the image's did. Applied whole or not at all: the rewritten container
// must pass the checks its reader makes before anything is served from it.
std::shared_ptr<tree::Disc> Session::next_generation(ContainerKey key, const Bytes& container, std::map<ContainerKey, Bytes>& containers,
                                                     ContainerParts* parts) {
    if (container.empty())
        containers.erase(key);
    else
        containers[key] = container;
    if (const std::string problem = container_problem(key, container); !problem.empty())
        throw EditRefused(fmt::format("the re-encoded container fails its reader's checks: {}", problem));
    auto next = build(containers);
    if (key.kind == ContainerKey::level) {
        // The level reads as the readers read it: no check that passed fails now.
        auto& before = failing_;
        if (!before.count(key)) {
            std::set<std::string> names;
            if (containers_.count(key)) {
                for (const auto& [name, detail] : failing_checks(*disc(), key.index)) names.insert(name);
            } else {  // the level as base_ has it
                for (const auto& check : base_->level(key.index).checks)
                    if (!check.ok) names.insert(check.name);
                for (const auto& check : base_decoder_checks(key))
                    if (!check.ok) names.insert(check.name);
            }
            before[key] = std::move(names);
        }
        std::set<std::string> after;
        std::string problem;
        for (const auto& [name, detail] : level_failing_checks(key, *next, container, parts)) {
            after.insert(name);
            if (!before[key].count(name) && problem.empty()) problem = fmt::format("\"{}\": {}", name, detail);
        }
        if (!problem.empty()) throw EditRefused(fmt::format("the edited level would fail its check {}", problem));
        before[key] = std::move(after);
    }
    return next;
}

// Called with mutex_ held. A level whose edits changed only texels and
// palettes of the base's is checked as edit/texel_checks.h says; any other,
// by every decoder's index.
std::map<std::string, std::string> Session::level_failing_checks(ContainerKey key, tree::Disc& next, const Bytes& container, ContainerParts* parts) {
    auto* level = dynamic_cast<LevelParts*>(parts);
    const formats::CoreRegion* textures = base_->level(key.index).region("textures");
    if (!level || container.empty() || !textures || !level->only_texels_differ(*textures)) return failing_checks(next, key.index);
    const auto core = level->view("core_data");
    if (!core.ok()) return failing_checks(next, key.index);
    return texel_edit_failing_checks(base_decoder_checks(key), next, key.index, container, *core, core_scratch_);
}

const std::vector<tree::Check>& Session::base_decoder_checks(ContainerKey key) {
    auto [base, fresh] = base_decoder_checks_.try_emplace(key);
    if (fresh) {
        tree::LevelVerdict verdict;
        tree::decoder_checks(*base_, key.index, tree::LevelDepth::indexes, verdict);
        base->second = std::move(verdict.checks);
    }
    return base->second;
}

// Called with mutex_ held: `next` is served from now on.
void Session::serve(std::map<ContainerKey, Bytes> containers, std::shared_ptr<tree::Disc> next) {
    containers_ = std::move(containers);
    note_times();
    std::lock_guard swap(current_mutex_);
    current_ = std::move(next);
}

// Called with mutex_ held: a save read as edits of other files
// (edit_kinds.h translate_edit), each applied as its own save would be and
// all committed in one journal write; `path` records what was read.
int Session::apply_translated(const std::string& path, const EditTarget& target, const Bytes& saved) {
    const std::string folder = derived_folder(path);
    try {
        const auto held = disc();
        if (!held->tree.resolve(folder + "/gameplay.bin")) throw EditRefused("the level has no gameplay.bin to place instances in");
        const Translation translation = translate_edit(target, shown_file(*held, folder + "/gameplay.bin"), saved);
        auto containers = containers_;
        std::shared_ptr<tree::Disc> next;
        std::vector<std::string> wrote;
        store_->begin_batch();
        for (const auto& [inside, text] : translation.files) {
            const std::string file = folder + "/" + inside;
            const auto file_target = edit_target(original_->scan, file);
            if (!file_target || file_target->key != target.key) throw EditRefused(fmt::format("{} is not a file of this level", file));
            Bytes content = text;
            std::string status;
            const Staged staged = stage_edit(file, *file_target, content, status);
            next = next_generation(target.key, staged.container, containers, staged.parts.get());
            store_->commit(record_of(file, target.key, "saved through level.glb: " + status, staged.container), &content, staged.followers);
            wrote.push_back(inside);
        }
        const std::string status = wrote.empty() ? translation.status + "; no table changed"
                                                 : fmt::format("{}; written as {}", translation.status, fmt::join(wrote, ", "));
        store_->commit(EditRecord{path, EditState::translated, status}, nullptr);
        store_->finish_batch();
        if (next) serve(std::move(containers), std::move(next));
        spdlog::info("save of {:?} read: {}", path, status);
        return 0;
    } catch (const std::exception& e) {
        store_->abort_batch();
        refuse(path, e.what());
        return EINVAL;
    }
}

int Session::unlink(const std::string& folder, const std::string& name) {
    std::unique_lock lock(mutex_);
    const std::string path = join(folder, name);
    for (auto it = scratch_.begin(); it != scratch_.end(); ++it)
        if (it->second.folder == folder && it->second.name == name) {
            const bool open = held_open(it->first);
            deferred_->cancel(fmt::format("scratch:{}", it->first));
            try {
                if (const EditRecord* r = store_->find(path); r && r->state == EditState::kept) store_->forget(path);
                else if (!open) drop_file(it->second.file);
            } catch (const EditStoreError& e) {
                spdlog::warn("{:?}: cannot be removed: {}", path, e.what());
                return EIO;
            }
            scratch_.erase(it);
            return 0;
        }
    const EditRecord* record = store_->find(path);
    // A disc file: only an edit can be taken back (a translated save's are its files' own).
    if (!record || record->state == EditState::translated) return EPERM;
    const auto target = edit_target(original_->scan, path);
    try {
        auto containers = containers_;
        std::string unused;
        std::vector<Follower> followers;
        Bytes container = target ? replay(target->key, &path, nullptr, &unused, &followers) : Bytes{};  // the container without it
        store_->forget(path, followers);
        if (target && container.empty()) containers.erase(target->key);
        else if (target) containers[target->key] = std::move(container);
        auto next = build(containers);
        containers_ = std::move(containers);
        if (target) failing_.erase(target->key);
        note_times();
        std::lock_guard swap(current_mutex_);
        current_ = std::move(next);
    } catch (const std::exception& e) {
        spdlog::warn("taking back the edit of {:?} failed: {}", path, e.what());
        return EIO;
    }
    spdlog::info("edit of {:?} taken back: the disc's content is shown", path);
    return 0;
}

int Session::rename(const std::string& folder, const std::string& name, const std::string& to_folder, const std::string& to_name) {
    std::unique_lock lock(mutex_);
    uint64_t source = 0;
    for (const auto& [ino, s] : scratch_)
        if (s.folder == folder && s.name == name) source = ino;
    if (!source) return EPERM;  // the disc's own files stay where they are
    deferred_->cancel(fmt::format("scratch:{}", source));
    const std::string from = join(folder, name), target = join(to_folder, to_name);
    lock.unlock();
    const bool onto_disc_file = [&] {
        const auto held = disc();
        return held->tree.resolve(target).has_value();
    }();
    if (onto_disc_file) {
        if (!writable(target)) return EACCES;
        const auto held = disc();
        uint64_t limit = 0;
        try {
            limit = edit_size_limit(target, *held->tree.node(*held->tree.resolve(target))->source);
        } catch (const EditRefused& e) {
            return EIO;
        }
        lock.lock();
        Bytes content;
        try {
            auto bytes = store_->folder().read(scratch_[source].file, limit);
            if (bytes) content = std::move(*bytes);
        } catch (const EditStoreError& e) {
            refuse(target, e.what());
            return EINVAL;
        }
        if (const int error = apply_content(target, content)) return error;
        const bool open = held_open(source);
        try {
            if (const EditRecord* r = store_->find(from); r && r->state == EditState::kept) store_->forget(from);
            else if (!open) drop_file(scratch_[source].file);
        } catch (const EditStoreError& e) {
            spdlog::warn("{:?}: its kept file cannot be forgotten: {}", from, e.what());
        }
        scratch_.erase(source);
        return 0;
    }
    lock.lock();
    for (auto it = scratch_.begin(); it != scratch_.end();)  // a scratch file renamed over another replaces it
        if (it->first != source && it->second.folder == to_folder && it->second.name == to_name) it = scratch_.erase(it);
        else ++it;
    scratch_[source].folder = to_folder;
    scratch_[source].name = to_name;
    const bool open = held_open(source);
    if (const EditRecord* r = store_->find(from); r && r->state == EditState::kept) {
        // A kept file renamed to another new name stays kept, under that name.
        try {
            store_->keep(target, scratch_[source].file, r->status);
            store_->forget(from);
            scratch_[source].file = "drafts/" + target;
        } catch (const EditStoreError& e) {
            spdlog::warn("{:?}: cannot be kept as {:?}: {}", from, target, e.what());
        }
    } else if (!open) {
        const uint64_t ino = source;
        deferred_->schedule(fmt::format("scratch:{}", ino), [this, ino] { keep_if_unclaimed(ino); });
    }
    return 0;
}

std::string Session::render() const {
    std::lock_guard lock(mutex_);
    return stack_->empty() ? store_->render() : stack_->render() + "\nedits folder, on top:\n" + store_->render();
}

}  // namespace gcfs::edit
