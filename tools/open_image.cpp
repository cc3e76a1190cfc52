#include "tools/open_image.h"

#include <fmt/format.h>

#include <system_error>

namespace gcfs::tools {

namespace {

// What `open` makes of `image`, or null after one line on stderr and exit_code
// set (2: the file cannot be opened, 3: not this game's disc, 9: DIR unusable).
template <class Open>
auto opened(const std::string& image, int& exit_code, Open open) -> decltype(open()) {
    try {
        return open();
    } catch (const edit::EditStoreError& e) {
        fmt::print(stderr, "gcfs: edits folder: {}\n", e.what());
        exit_code = 9;
    } catch (const std::system_error& e) {
        fmt::print(stderr, "gcfs: cannot open image {}: {}\n", image, e.code().message());
        exit_code = 2;
    } catch (const tree::NotAnImageFile& e) {
        fmt::print(stderr, "gcfs: cannot open image {}: {}\n", image, e.what());
        exit_code = 2;
    } catch (const tree::NotAGameDisc& e) {
        fmt::print(stderr, "gcfs: {}: {}\n", image, e.what());
        exit_code = 3;
    }
    return nullptr;
}

}  // namespace

std::unique_ptr<tree::Disc> open_image(const std::string& image, uint64_t cache_bytes, int& exit_code) {
    return opened(image, exit_code, [&] { return tree::open_disc(image, cache_bytes); });
}

std::unique_ptr<edit::Session> open_edit_session(const std::string& image, const std::string& edits_dir, uint64_t cache_bytes,
                                                 int& exit_code, const std::vector<std::string>& mods) {
    return opened(image, exit_code, [&] { return std::make_unique<edit::Session>(image, edits_dir, cache_bytes, mods); });
}

std::shared_ptr<edit::mods::StackedImage> open_stacked_image(const std::string& image, const std::vector<std::string>& mods, uint64_t cache_bytes,
                                                             int& exit_code) {
    return opened(image, exit_code, [&] { return edit::mods::open_stacked(image, mods, cache_bytes); });
}

std::optional<uint64_t> find_in_tree(const tree::Disc& disc, const std::string& path, const char* command, bool want_file,
                                     int& exit_code) {
    const auto ino = disc.tree.resolve(path);
    if (ino && (!want_file || disc.tree.node(*ino)->type == tree::NodeType::file)) return ino;
    if (ino && disc.tree.node(*ino)->type == tree::NodeType::directory)
        fmt::print(stderr, "gcfs {}: {}: is a folder (gcfs ls lists it, gcfs extract copies it)\n", command, path);
    else
        fmt::print(stderr, "gcfs {}: {}: no such {} in the tree\n", command, path, want_file ? "file" : "file or folder");
    exit_code = 1;
    return std::nullopt;
}

}  // namespace gcfs::tools
