#include "edit/session.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <fstream>

#include "edit/edit_kinds.h"
#include "edit/image_layout.h"
#include "edit/containers.h"
#include "edit/level_parts.h"
#include "tree/level_folder.h"

namespace gcfs::edit {

using formats::Bytes;

struct Session::Draft {
    std::string path;   // the mount path it becomes on apply (a scratch file's own path)
    std::string file;   // in DIR/drafts
    int fd = -1;
    uint64_t scratch = 0;  // the scratch inode, 0 for a disc file
    bool dirty = false;
};

namespace {

std::string join(const std::string& folder, const std::string& name) { return folder.empty() ? name : folder + "/" + name; }

Bytes read_fd(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw EditRefused(fmt::format("cannot read the draft: {}", std::strerror(errno)));
    Bytes out(static_cast<uint64_t>(st.st_size));
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

}  // namespace

std::string Session::image_key(const tree::Disc& original) {
    return fmt::format("{}-{}", original.image->file_size(), original.scan.toc_digest.text());
}

Session::Session(const std::string& image_path, const std::string& edits_dir, uint64_t cache_bytes)
    : image_path_(image_path), cache_(std::make_shared<cache::LruCache>(cache_bytes)) {
    original_ = tree::open_disc(image_path, tree::DiscSetup{nullptr, cache_, {}});
    store_ = std::make_unique<EditStore>(edits_dir, image_key(*original_));
    // Each container's applied edits in order; one that no longer encodes
    // is turned into a refused one and the rest go on.
    std::map<ContainerKey, std::vector<std::pair<const EditRecord*, EditTarget>>> by_container;
    for (const auto& r : store_->records())
        if (const auto target = edit_target(original_->scan, r.path); r.applied && target) by_container[target->key].emplace_back(&r, *target);
    std::vector<std::pair<std::string, std::string>> failed;
    for (const auto& [key, records] : by_container) {
        std::unique_ptr<ContainerParts> parts;
        try {
            parts = open_parts(key, read_container(*original_, key));
        } catch (const std::exception& e) {
            for (const auto& [r, target] : records) failed.emplace_back(r->path, fmt::format("no longer applies: {}", e.what()));
            continue;
        }
        for (const auto& [r, target] : records) {
            try {
                auto trial = parts->clone();
                apply_edit(*trial, *original_, target, store_->stored(*r));
                parts = std::move(trial);
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
    for (const auto& [path, reason] : failed) {
        spdlog::warn("edit of {:?} refused: {}", path, reason);
        store_->demote(path, reason);
    }
    current_ = build(containers_);
}

Session::~Session() {
    for (auto& [handle, draft] : drafts_) {
        if (draft->fd >= 0) ::close(draft->fd);
        if (!draft->scratch) ::unlink(draft->file.c_str());
    }
}

std::shared_ptr<tree::Disc> Session::disc() const {
    std::lock_guard lock(current_mutex_);
    return current_;
}

std::shared_ptr<tree::Disc> Session::build(const std::map<ContainerKey, Bytes>& containers) const {
    std::shared_ptr<const tree::ImagePatch> patch;
    NewContainers placed;
    for (const auto& [key, bytes] : containers) placed.emplace_back(place_of(*original_, key), bytes);
    if (!containers.empty()) patch = std::make_shared<tree::ImagePatch>(lay_out(*original_->image, original_->scan, placed));
    const Session* self = this;
    return tree::open_disc(image_path_, tree::DiscSetup{patch, cache_, [self](tree::Disc& disc) {
        const uint64_t root = tree::Tree::kRootIno;
        disc.tree.add_file(root, "edited.iso", std::make_shared<tree::ImageSlice>(*disc.image, 0, disc.image->size()),
                           tree::Origins::generated("the image file, with the containers of every applied edit re-encoded",
                                                    "edited.iso: every sector no edit touches as the image holds it (README, Modding)"));
        if (const auto meta = disc.tree.lookup(root, ".gcfs"))
            disc.tree.add_file(*meta, "edits", std::make_shared<tree::LiveText>([self] { return self->render(); }),
                               tree::Origins::generated("none: the edits folder's journal, written when read",
                                                        "every edit, its state and the containers it changed"));
    }});
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
            struct stat st {};
            return Scratch{ino, ::stat(s.file.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0};
        }
    return std::nullopt;
}

std::optional<Session::Scratch> Session::scratch(uint64_t ino) const {
    std::lock_guard lock(mutex_);
    const auto it = scratch_.find(ino);
    if (it == scratch_.end()) return std::nullopt;
    struct stat st {};
    return Scratch{ino, ::stat(it->second.file.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0};
}

std::vector<std::pair<std::string, Session::Scratch>> Session::scratch_in(const std::string& folder) const {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, Scratch>> out;
    for (const auto& [ino, s] : scratch_)
        if (s.folder == folder) {
            struct stat st {};
            out.emplace_back(s.name, Scratch{ino, ::stat(s.file.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0});
        }
    return out;
}

uint64_t Session::create(const std::string& folder, const std::string& name) {
    std::lock_guard lock(mutex_);
    uint64_t ino = 0;
    for (const auto& [i, s] : scratch_)
        if (s.folder == folder && s.name == name) ino = i;
    if (!ino) {
        ino = next_scratch_++;
        scratch_[ino] = {folder, name, store_->new_draft_path()};
    }
    auto draft = std::make_unique<Draft>();
    draft->path = join(folder, name);
    draft->file = scratch_[ino].file;
    draft->scratch = ino;
    draft->fd = ::open(draft->file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (draft->fd < 0) {
        scratch_.erase(ino);
        return 0;
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
        draft->file = it->second.file;
        draft->scratch = ino;
        draft->fd = ::open(draft->file.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | (truncate ? O_TRUNC : 0));
    } else {
        if (!writable(path)) return error = EACCES, 0;
        Bytes current;
        if (!truncate) {
            const auto held = disc();
            try {
                current = whole(*held->tree.node(*held->tree.resolve(path))->source);
            } catch (const EditRefused& e) {
                spdlog::warn("{:?}: cannot be opened for writing: {}", path, e.what());
                return error = EIO, 0;
            }
        }
        std::lock_guard lock(mutex_);
        draft->file = store_->new_draft_path();
        draft->fd = ::open(draft->file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (draft->fd >= 0 && !current.empty() &&
            ::pwrite(draft->fd, current.data(), current.size(), 0) != static_cast<ssize_t>(current.size())) {
            ::close(draft->fd);
            draft->fd = -1;
        }
        draft->dirty = truncate;
    }
    if (draft->fd < 0) return error = errno ? errno : EIO, 0;
    std::lock_guard lock(mutex_);
    const uint64_t handle = next_handle_++;
    drafts_[handle] = std::move(draft);
    return handle;
}

int Session::write(uint64_t handle, const char* data, size_t size, uint64_t offset) {
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return -EBADF;
    const ssize_t n = ::pwrite(it->second->fd, data, size, static_cast<off_t>(offset));
    if (n < 0) return -errno;
    it->second->dirty = true;
    return static_cast<int>(n);
}

int Session::read(uint64_t handle, std::vector<uint8_t>& out, uint64_t offset) const {
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return -EBADF;
    const ssize_t n = ::pread(it->second->fd, out.data(), out.size(), static_cast<off_t>(offset));
    return n < 0 ? -errno : static_cast<int>(n);
}

int Session::truncate(uint64_t handle, uint64_t size) {
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return EBADF;
    if (::ftruncate(it->second->fd, static_cast<off_t>(size)) != 0) return errno;
    it->second->dirty = true;
    return 0;
}

uint64_t Session::handle_size(uint64_t handle) const {
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    struct stat st {};
    if (it == drafts_.end() || ::fstat(it->second->fd, &st) != 0) return 0;
    return static_cast<uint64_t>(st.st_size);
}

std::optional<uint64_t> Session::draft_size(const std::string& path) const {
    std::lock_guard lock(mutex_);
    for (const auto& [handle, d] : drafts_) {
        struct stat st {};
        if (d->path == path && d->dirty && !d->scratch && ::fstat(d->fd, &st) == 0) return static_cast<uint64_t>(st.st_size);
    }
    return std::nullopt;
}

int Session::apply(uint64_t handle) {
    std::unique_lock lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end() || !it->second->dirty || it->second->scratch) return 0;
    it->second->dirty = false;
    const std::string path = it->second->path;
    Bytes content;
    try {
        content = read_fd(it->second->fd);
    } catch (const EditRefused& e) {
        spdlog::warn("edit of {:?} refused: {}", path, e.what());
        return EINVAL;
    }
    return apply_content(path, content);
}

void Session::release(uint64_t handle) {
    apply(handle);
    std::lock_guard lock(mutex_);
    const auto it = drafts_.find(handle);
    if (it == drafts_.end()) return;
    ::close(it->second->fd);
    if (!it->second->scratch) ::unlink(it->second->file.c_str());
    drafts_.erase(it);
}

Bytes Session::replay(ContainerKey key, const std::string* path, const Bytes* content, std::string* status) const {
    auto parts = open_parts(key, read_container(*original_, key));
    for (const auto& r : store_->records()) {
        const auto target = edit_target(original_->scan, r.path);
        if (!r.applied || !target || target->key != key || (path && r.path == *path)) continue;
        apply_edit(*parts, *original_, *target, store_->stored(r));
    }
    if (path) *status = apply_edit(*parts, *original_, *edit_target(original_->scan, *path), *content);
    if (!parts->changed()) return {};
    auto rebuilt = parts->rebuild();
    if (!rebuilt.ok()) throw EditRefused(fmt::format("the edited container cannot be written: {}", rebuilt.error().describe()));
    return std::move(*rebuilt);
}

// Called with mutex_ held.
int Session::apply_content(const std::string& path, const Bytes& content) {
    const auto target = edit_target(original_->scan, path);
    if (!target) return EINVAL;
    try {
        std::string status;
        auto containers = containers_;
        Bytes container = replay(target->key, &path, &content, &status);
        if (container.empty())
            containers.erase(target->key);
        else
            containers[target->key] = container;
        // Applied whole or not at all: the rewritten container must pass the
        // checks its reader makes before anything is served from it.
        if (const std::string problem = container_problem(target->key, container); !problem.empty())
            throw EditRefused(fmt::format("the re-encoded container fails its reader's checks: {}", problem));
        auto next = build(containers);
        if (target->key.kind == ContainerKey::level)
            for (const auto& check : next->level(target->key.index).checks)
                if (!check.ok) throw EditRefused(fmt::format("the re-encoded level fails its check \"{}\": {}", check.name, check.detail));
        EditRecord record{path, true, status, 0, 0, 0, {}};
        if (!container.empty()) record.containers.push_back({place_of(*original_, target->key).iso_path, container.size()});
        store_->commit(record, &content);
        containers_ = std::move(containers);
        {
            std::lock_guard swap(current_mutex_);
            current_ = std::move(next);
        }
        spdlog::info("edit of {:?} applied: {}", path, status);
        return 0;
    } catch (const std::exception& e) {
        spdlog::warn("edit of {:?} refused: {}", path, e.what());
        try {
            store_->commit(EditRecord{path, false, e.what(), 0, 0, 0, {}}, nullptr);
        } catch (const EditStoreError& journal) {
            spdlog::warn("the refusal of {:?} could not be recorded: {}", path, journal.what());
        }
        return EINVAL;
    }
}

int Session::unlink(const std::string& folder, const std::string& name) {
    std::unique_lock lock(mutex_);
    for (auto it = scratch_.begin(); it != scratch_.end(); ++it)
        if (it->second.folder == folder && it->second.name == name) {
            bool open = false;
            for (const auto& [h, d] : drafts_) open = open || d->scratch == it->first;
            if (!open) ::unlink(it->second.file.c_str());
            scratch_.erase(it);
            return 0;
        }
    const std::string path = join(folder, name);
    if (!store_->find(path)) return EPERM;  // a disc file: only an edit can be taken back
    const auto target = edit_target(original_->scan, path);
    try {
        store_->forget(path);
        auto containers = containers_;
        std::string unused;
        Bytes container = target ? replay(target->key, nullptr, nullptr, &unused) : Bytes{};
        if (target && container.empty()) containers.erase(target->key);
        else if (target) containers[target->key] = std::move(container);
        auto next = build(containers);
        containers_ = std::move(containers);
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
    const std::string target = join(to_folder, to_name);
    lock.unlock();
    const bool onto_disc_file = [&] {
        const auto held = disc();
        return held->tree.resolve(target).has_value();
    }();
    if (onto_disc_file) {
        if (!writable(target)) return EACCES;
        lock.lock();
        Bytes content;
        {
            std::ifstream in(scratch_[source].file, std::ios::binary);
            content.assign(std::istreambuf_iterator<char>(in), {});
        }
        if (const int error = apply_content(target, content)) return error;
        bool open = false;
        for (const auto& [h, d] : drafts_) open = open || d->scratch == source;
        if (!open) ::unlink(scratch_[source].file.c_str());
        scratch_.erase(source);
        return 0;
    }
    lock.lock();
    for (auto it = scratch_.begin(); it != scratch_.end();)  // a scratch file renamed over another replaces it
        if (it->first != source && it->second.folder == to_folder && it->second.name == to_name) it = scratch_.erase(it);
        else ++it;
    scratch_[source].folder = to_folder;
    scratch_[source].name = to_name;
    return 0;
}

std::string Session::render() const {
    std::lock_guard lock(mutex_);
    return store_->render();
}

void write_image(const Session& session, const std::string& out_path) {
    const auto disc = session.disc();
    const std::string& image_path = disc->image->path();
    const std::string temporary = out_path + ".gcfs-tmp";
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}: {}", temporary, std::strerror(errno)));
    std::vector<uint8_t> buffer(4 << 20);
    for (uint64_t at = 0; at < disc->image->size(); at += buffer.size()) {
        const uint64_t n = std::min<uint64_t>(buffer.size(), disc->image->size() - at);
        if (!disc->image->read(at, std::span(buffer).first(n)))
            throw std::runtime_error(fmt::format("cannot read {} at byte {}: {}", image_path, at, std::strerror(errno)));
        out.write(reinterpret_cast<const char*>(buffer.data()), static_cast<std::streamsize>(n));
    }
    out.close();
    if (!out || ::rename(temporary.c_str(), out_path.c_str()) != 0)
        throw std::runtime_error(fmt::format("cannot write {}: {}", out_path, std::strerror(errno)));
}

}  // namespace gcfs::edit
