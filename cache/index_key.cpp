#include "cache/index_key.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "formats/common/late_library.h"

namespace gcfs::cache {
namespace {

struct Sodium {
    formats::LateLibrary library{"libsodium.so.23"};
    GCFS_LATE_FUNCTION(init, sodium_init);
    GCFS_LATE_FUNCTION(hmac_init, crypto_auth_hmacsha256_init);
    GCFS_LATE_FUNCTION(hmac_update, crypto_auth_hmacsha256_update);
    GCFS_LATE_FUNCTION(hmac_final, crypto_auth_hmacsha256_final);
};

const Sodium& sodium() {
    static const bool ready = [] {
        const Sodium& s = formats::late_table<Sodium>();
        return s.library.error().empty() && s.init() >= 0;
    }();
    (void)ready;
    return formats::late_table<Sodium>();
}

// The key file's 32 bytes; `why` set when it is not a plain file of them
// (a FIFO there must not hang a mount: opened O_NONBLOCK, checked first).
std::optional<std::array<uint8_t, 32>> read_key(const std::string& path, std::string& why) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        why = errno == ENOENT ? "" : fmt::format("{}: {}", path, std::strerror(errno));
        return std::nullopt;
    }
    std::array<uint8_t, 32> key{};
    struct stat st {};
    const bool plain = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == static_cast<off_t>(key.size());
    const bool whole = plain && ::pread(fd, key.data(), key.size(), 0) == static_cast<ssize_t>(key.size());
    ::close(fd);
    if (!whole) {
        why = fmt::format("{} is not a plain file of {} bytes", path, key.size());
        return std::nullopt;
    }
    return key;
}

}  // namespace

std::string IndexKey::default_path() {
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && xdg[0] == '/') return std::string(xdg) + "/gcfs/index.key";
    if (const char* home = std::getenv("HOME"); home && home[0] == '/') return std::string(home) + "/.local/state/gcfs/index.key";
    return {};
}

std::optional<IndexKey> IndexKey::load(std::string& why) {
    if (const std::string& missing = sodium().library.error(); !missing.empty()) {
        why = "libsodium: " + missing;
        return std::nullopt;
    }
    const std::string path = default_path();
    if (path.empty()) {
        why = "neither XDG_STATE_HOME nor HOME is set, so the index has no place for its key";
        return std::nullopt;
    }
    if (auto key = read_key(path, why)) return IndexKey(*key);
    if (!why.empty()) return std::nullopt;
    // None yet: made whole under a temporary name, then linked in (a second
    // mount making one at once keeps the first).
    std::error_code error;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
    std::array<uint8_t, 32> fresh{};
    if (::getrandom(fresh.data(), fresh.size(), 0) != static_cast<ssize_t>(fresh.size())) {
        why = fmt::format("no random bytes for a key: {}", std::strerror(errno));
        return std::nullopt;
    }
    const std::string temporary = fmt::format("{}.{}", path, ::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    const bool written = fd >= 0 && ::write(fd, fresh.data(), fresh.size()) == static_cast<ssize_t>(fresh.size()) && ::fsync(fd) == 0;
    if (fd >= 0) ::close(fd);
    const bool linked = written && ::link(temporary.c_str(), path.c_str()) == 0;
    const int link_error = errno;
    ::unlink(temporary.c_str());
    if (!linked && !(written && link_error == EEXIST)) {
        why = fmt::format("cannot make {}: {}", path, std::strerror(written ? link_error : errno));
        return std::nullopt;
    }
    if (auto key = read_key(path, why)) return IndexKey(*key);
    if (why.empty()) why = fmt::format("{} vanished as it was made", path);
    return std::nullopt;
}

IndexMac IndexKey::mac(std::initializer_list<formats::ByteSpan> parts) const {
    const Sodium& s = sodium();
    crypto_auth_hmacsha256_state state;
    s.hmac_init(&state, bytes_.data(), bytes_.size());
    for (const formats::ByteSpan part : parts) {
        uint8_t length[8];
        for (int k = 0; k < 8; ++k) length[k] = static_cast<uint8_t>(static_cast<uint64_t>(part.size()) >> (8 * k));
        s.hmac_update(&state, length, sizeof length);
        s.hmac_update(&state, part.data(), part.size());
    }
    IndexMac out{};
    s.hmac_final(&state, out.data());
    return out;
}

}  // namespace gcfs::cache
