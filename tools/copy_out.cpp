#include "tools/copy_out.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace gcfs::tools {

std::string copy_out(const tree::Node& file, int fd, const std::function<void(uint64_t)>& progress) {
    if (std::string error = file.source->open_error(); !error.empty()) return error;
    std::vector<uint8_t> buffer(1 << 20);
    for (uint64_t offset = 0;;) {
        const auto outcome = file.source->read(offset, buffer);
        if (!outcome.ok()) return outcome.error;
        if (outcome.bytes == 0) return {};
        for (uint64_t done = 0; done < outcome.bytes;) {
            const ssize_t w = ::write(fd, buffer.data() + done, outcome.bytes - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) return std::string("write failed: ") + std::strerror(errno);
            done += static_cast<uint64_t>(w);
        }
        offset += outcome.bytes;
        if (progress) progress(outcome.bytes);
    }
}

}  // namespace gcfs::tools
