#include "edit/image_out.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <vector>

#include "edit/safe_folder.h"

namespace gcfs::edit {
namespace {

void write_all(int fd, const uint8_t* data, uint64_t n, const std::string& out_path) {
    for (uint64_t done = 0; done < n;) {
        const ssize_t w = ::write(fd, data + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) throw std::runtime_error(fmt::format("cannot write {}: {}", out_path, std::strerror(errno)));
        done += static_cast<uint64_t>(w);
    }
}

// `fill` writes the file's bytes to the descriptor it is given.
void write_whole_file(const std::string& out_path, const std::function<void(int fd)>& fill) {
    const std::string folder = [&] {
        const size_t slash = out_path.rfind('/');
        return slash == std::string::npos ? std::string(".") : slash == 0 ? std::string("/") : out_path.substr(0, slash);
    }();
    const UniqueFd out(::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644));
    if (!out) throw std::runtime_error(fmt::format("cannot write in {}: {}", folder, std::strerror(errno)));
    fill(out.get());
    if (::fsync(out.get()) != 0) throw std::runtime_error(fmt::format("cannot write {}: {}", out_path, std::strerror(errno)));
    // Linked under a name of its own first, then renamed over OUT.
    const std::string staged = fmt::format("{}.gcfs-pack-{}", out_path, ::getpid());
    const std::string fd_path = fmt::format("/proc/self/fd/{}", out.get());
    if (::linkat(AT_FDCWD, fd_path.c_str(), AT_FDCWD, staged.c_str(), AT_SYMLINK_FOLLOW) != 0)
        throw std::runtime_error(fmt::format("cannot write {}: {}", staged, std::strerror(errno)));
    if (::rename(staged.c_str(), out_path.c_str()) != 0) {
        const int error = errno;
        ::unlink(staged.c_str());
        throw std::runtime_error(fmt::format("cannot write {}: {}", out_path, std::strerror(error)));
    }
}

}  // namespace

void write_image(const tree::Disc& disc, const std::string& out_path) {
    write_whole_file(out_path, [&](int fd) {
        std::vector<uint8_t> buffer(4 << 20);
        for (uint64_t at = 0; at < disc.image->size(); at += buffer.size()) {
            const uint64_t n = std::min<uint64_t>(buffer.size(), disc.image->size() - at);
            if (!disc.image->read(at, std::span(buffer).first(n)))
                throw std::runtime_error(fmt::format("cannot read {} at byte {}: {}", disc.image->path(), at, std::strerror(errno)));
            write_all(fd, buffer.data(), n, out_path);
        }
    });
}

formats::vcdiff::Written write_image_delta(tree::Disc& original, tree::Disc& edited, const std::map<ContainerKey, formats::Bytes>& containers,
                                           const std::string& out_path) {
    struct Moved {
        uint64_t at, bytes, from;
    };
    std::vector<Moved> moved;
    for (const auto& [key, bytes] : containers) {
        const ContainerPlace was = place_of(original, key), is = place_of(edited, key);
        if (was.lba != is.lba) moved.push_back({uint64_t{is.lba} * formats::kSectorSize, bytes.size(), uint64_t{was.lba} * formats::kSectorSize});
    }
    formats::vcdiff::Written written;
    write_whole_file(out_path, [&](int fd) {
        formats::vcdiff::Files files;
        files.source_size = original.image->size();
        files.target_size = edited.image->size();
        files.read_source = [&](uint64_t at, std::span<uint8_t> out) { return original.image->read(at, out); };
        files.read_target = [&](uint64_t at, std::span<uint8_t> out) { return edited.image->read(at, out); };
        files.origin = [&](uint64_t at) {
            for (const Moved& m : moved)
                if (at >= m.at && at < m.at + m.bytes) return m.from + (at - m.at);
            return at;
        };
        for (const Moved& m : moved) files.breaks.insert(files.breaks.end(), {m.at, m.at + m.bytes});
        std::sort(files.breaks.begin(), files.breaks.end());
        files.write = [&](formats::ByteSpan piece) {
            write_all(fd, piece.data(), piece.size(), out_path);
            return true;
        };
        written = formats::vcdiff::write_delta(files);
    });
    return written;
}

}  // namespace gcfs::edit
