#include "tools/open_image.h"

#include <fmt/format.h>

#include <system_error>

namespace gcfs::tools {

std::unique_ptr<tree::Disc> open_image(const std::string& image, uint64_t cache_bytes, int& exit_code) {
    try {
        return tree::open_disc(image, cache_bytes);
    } catch (const std::system_error& e) {
        fmt::print(stderr, "gcfs: cannot open image {}: {}\n", image, e.code().message());
        exit_code = 2;
    } catch (const tree::NotAGameDisc& e) {
        fmt::print(stderr, "gcfs: {}: {}\n", image, e.what());
        exit_code = 3;
    }
    return nullptr;
}

}  // namespace gcfs::tools
