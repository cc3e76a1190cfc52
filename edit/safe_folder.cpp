#include "edit/safe_folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gcfs::edit {
namespace {

constexpr int kStepFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;

std::vector<std::string> steps_of(std::string_view rel) {
    std::vector<std::string> steps;
    size_t start = 0;
    while (start <= rel.size()) {
        const size_t slash = rel.find('/', start);
        const auto step = rel.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (step.empty() || step == "." || step == "..") throw EditStoreError(fmt::format("{:?} is not a path inside the folder", rel));
        steps.emplace_back(step);
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return steps;
}

// What stands at `step` of `dir` when it is not what was wanted.
std::string kind_at(int dir, const std::string& step) {
    struct stat st {};
    if (::fstatat(dir, step.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return std::strerror(errno);
    if (S_ISLNK(st.st_mode)) return "a symlink, which gcfs never follows there";
    if (S_ISFIFO(st.st_mode)) return "a FIFO";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
    if (S_ISDIR(st.st_mode)) return "a folder";
    return "a plain file";
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.release();
    }
    return *this;
}

UniqueFd::~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
}

int UniqueFd::release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
}

SafeFolder::SafeFolder(std::string root, bool create) : root_(std::move(root)) {
    std::error_code error;
    if (create) std::filesystem::create_directories(root_, error);
    if (error) throw EditStoreError(fmt::format("cannot make {}: {}", root_, error.message()));
    fd_ = UniqueFd(::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK));
    if (!fd_) throw EditStoreError(fmt::format("cannot open the folder {}: {}", root_, std::strerror(errno)));
}

std::string SafeFolder::describe(std::string_view rel) const { return fmt::format("{}/{}", root_, rel); }

std::optional<UniqueFd> SafeFolder::folder(std::string_view rel, bool create) const {
    UniqueFd at(::dup(fd_.get()));
    if (!at) throw EditStoreError(fmt::format("{}: {}", root_, std::strerror(errno)));
    if (rel.empty()) return at;
    std::string walked;
    for (const auto& step : steps_of(rel)) {
        walked += (walked.empty() ? "" : "/") + step;
        if (create && ::mkdirat(at.get(), step.c_str(), 0755) != 0 && errno != EEXIST)
            throw EditStoreError(fmt::format("cannot make {}: {}", describe(walked), std::strerror(errno)));
        UniqueFd next(::openat(at.get(), step.c_str(), kStepFlags));
        if (!next) {
            if (errno == ENOENT && !create) return std::nullopt;
            throw EditStoreError(fmt::format("{} is not a folder gcfs can use: {}", describe(walked), kind_at(at.get(), step)));
        }
        at = std::move(next);
    }
    return at;
}

std::pair<UniqueFd, std::string> SafeFolder::parent_of(std::string_view rel, bool create) const {
    auto steps = steps_of(rel);
    std::string last = steps.back();
    const size_t cut = rel.size() - last.size();
    auto dir = folder(cut ? rel.substr(0, cut - 1) : std::string_view(), create);
    return {dir ? std::move(*dir) : UniqueFd(), std::move(last)};
}

UniqueFd SafeFolder::open_file(std::string_view rel, bool create, bool truncate) const {
    auto [dir, name] = parent_of(rel, create);
    if (!dir) throw EditStoreError(fmt::format("{}: its folder is missing", describe(rel)));
    const int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | (create ? O_CREAT : 0);
    UniqueFd fd(::openat(dir.get(), name.c_str(), flags, 0644));
    if (!fd) throw EditStoreError(fmt::format("cannot open {}: {}", describe(rel), errno == ELOOP ? kind_at(dir.get(), name) : std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        throw EditStoreError(fmt::format("{} is not a plain file: {}", describe(rel), kind_at(dir.get(), name)));
    // Blocking from here on: a plain file never blocks, and writes want whole counts.
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    if (truncate && ::ftruncate(fd.get(), 0) != 0) throw EditStoreError(fmt::format("cannot empty {}: {}", describe(rel), std::strerror(errno)));
    return fd;
}

std::optional<formats::Bytes> SafeFolder::read(std::string_view rel, uint64_t limit) const {
    auto [dir, name] = parent_of(rel, false);
    if (!dir) return std::nullopt;
    UniqueFd fd(::openat(dir.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd && errno == ENOENT) return std::nullopt;
    struct stat st {};
    if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        throw EditStoreError(fmt::format("{} is not a plain file gcfs can read: {}", describe(rel), kind_at(dir.get(), name)));
    if (static_cast<uint64_t>(st.st_size) > limit)
        throw EditStoreError(fmt::format("{} holds {} bytes, more than the {} it may", describe(rel), st.st_size, limit));
    formats::Bytes out(static_cast<uint64_t>(st.st_size));
    uint64_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(fd.get(), out.data() + done, out.size() - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw EditStoreError(fmt::format("{} ended at byte {} of {}", describe(rel), done, out.size()));
        done += static_cast<uint64_t>(n);
    }
    return out;
}

void SafeFolder::write_synced(std::string_view rel, formats::ByteSpan bytes) const {
    const UniqueFd fd = open_file(rel, true, true);
    uint64_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw EditStoreError(fmt::format("cannot write {}: {}", describe(rel), std::strerror(errno)));
        done += static_cast<uint64_t>(n);
    }
    if (::fsync(fd.get()) != 0) throw EditStoreError(fmt::format("cannot sync {}: {}", describe(rel), std::strerror(errno)));
}

void SafeFolder::rename(std::string_view from, std::string_view to) const {
    auto [from_dir, from_name] = parent_of(from, false);
    auto [to_dir, to_name] = parent_of(to, true);
    if (!from_dir || ::renameat(from_dir.get(), from_name.c_str(), to_dir.get(), to_name.c_str()) != 0)
        throw EditStoreError(fmt::format("cannot rename {} to {}: {}", describe(from), describe(to), std::strerror(errno)));
}

bool SafeFolder::unlink(std::string_view rel) const {
    auto [dir, name] = parent_of(rel, false);
    if (!dir) return false;
    struct stat st {};
    if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
    if (S_ISDIR(st.st_mode)) throw EditStoreError(fmt::format("{} is a folder, not a file gcfs wrote", describe(rel)));
    return ::unlinkat(dir.get(), name.c_str(), 0) == 0;
}

void SafeFolder::remove_tree(std::string_view rel) const {
    auto [parent, name] = parent_of(rel, false);
    if (!parent) return;
    // Depth first from descriptors: a name is only ever looked up in the folder that holds it.
    struct Remover {
        static void below(int dir) {
            const int copy = ::dup(dir);
            DIR* listing = copy >= 0 ? ::fdopendir(copy) : nullptr;
            if (!listing) return;
            std::vector<std::pair<std::string, bool>> entries;
            while (const dirent* e = ::readdir(listing)) {
                if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
                struct stat st {};
                const bool folder = ::fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
                entries.emplace_back(e->d_name, folder);
            }
            ::closedir(listing);
            for (const auto& [entry, folder] : entries) {
                if (folder) {
                    const UniqueFd sub(::openat(dir, entry.c_str(), kStepFlags));
                    if (sub) below(sub.get());
                }
                ::unlinkat(dir, entry.c_str(), folder ? AT_REMOVEDIR : 0);
            }
        }
    };
    struct stat st {};
    if (::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        const UniqueFd sub(::openat(parent.get(), name.c_str(), kStepFlags));
        if (sub) Remover::below(sub.get());
        ::unlinkat(parent.get(), name.c_str(), AT_REMOVEDIR);
    } else {
        ::unlinkat(parent.get(), name.c_str(), 0);  // a symlink or file where a folder was: the name alone goes
    }
}

void SafeFolder::sync_folder(std::string_view rel) const {
    if (auto dir = folder(rel, false)) (void)::fsync(dir->get());
}

std::vector<std::string> SafeFolder::files_below(std::string_view rel) const {
    std::vector<std::string> out;
    auto top = folder(rel, false);
    if (!top) return out;
    std::vector<std::pair<UniqueFd, std::string>> pending;
    pending.emplace_back(std::move(*top), std::string(rel));
    while (!pending.empty()) {
        auto [dir, path] = std::move(pending.back());
        pending.pop_back();
        const int copy = ::dup(dir.get());
        DIR* listing = copy >= 0 ? ::fdopendir(copy) : nullptr;
        if (!listing) continue;
        while (const dirent* e = ::readdir(listing)) {
            if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
            struct stat st {};
            if (::fstatat(dir.get(), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
            const std::string child = path.empty() ? e->d_name : path + "/" + e->d_name;
            if (S_ISREG(st.st_mode)) out.push_back(child);
            else if (S_ISDIR(st.st_mode))
                if (UniqueFd sub(::openat(dir.get(), e->d_name, kStepFlags)); sub) pending.emplace_back(std::move(sub), child);
        }
        ::closedir(listing);
    }
    return out;
}

}  // namespace gcfs::edit
