#include "edit/edited_disc.h"

#include <fmt/format.h>

#include "edit/image_layout.h"
#include "tree/level/level_folder.h"
#include "tree/verify.h"

namespace gcfs::edit {

std::string image_key(const tree::Disc& original) {
    return fmt::format("{}-{}", original.image->file_size(), original.scan.toc_digest.text());
}

std::shared_ptr<tree::Disc> open_edited_disc(const std::string& image_path, tree::Disc& original, const std::map<ContainerKey, formats::Bytes>& containers,
                                             std::shared_ptr<cache::LruCache> cache, std::function<std::string()> render) {
    std::shared_ptr<const tree::ImagePatch> patch;
    NewContainers placed;
    for (const auto& [key, bytes] : containers) placed.emplace_back(place_of(original, key), bytes);
    if (!containers.empty()) patch = std::make_shared<tree::ImagePatch>(lay_out(original, placed));
    return tree::open_disc(image_path, tree::DiscSetup{patch, std::move(cache), [render = std::move(render)](tree::Disc& disc) {
        const uint64_t root = tree::Tree::kRootIno;
        disc.tree.add_file(root, "edited.iso", std::make_shared<tree::ImageSlice>(*disc.image, 0, disc.image->size()),
                           tree::Origins::generated("the image file, with the containers of every applied edit re-encoded",
                                                    "edited.iso: every sector no edit touches as the image holds it (README, Modding)"));
        if (const auto meta = disc.tree.lookup(root, ".gcfs"))
            disc.tree.add_file(*meta, "edits", std::make_shared<tree::LiveText>(render),
                               tree::Origins::generated("none: the edits folders' journals, written when read",
                                                        "every edit, its state and the containers it changed"));
    }});
}

formats::Bytes file_bytes(const tree::Disc& disc, const std::string& path) {
    const auto ino = disc.tree.resolve(path);
    // Held: a node of a run of files (help/, pvars/) is made for the asking and lives in its NodeRef.
    const tree::NodeRef node = ino ? disc.tree.node(*ino) : tree::NodeRef();
    if (!node || node->type != tree::NodeType::file) throw std::runtime_error(fmt::format("{} is not in the tree", path));
    const auto& source = *node->source;
    formats::Bytes out(source.size());
    const auto outcome = source.read(0, out);
    if (!outcome.ok()) throw std::runtime_error(fmt::format("{}: {}", path, outcome.error));
    out.resize(outcome.bytes);
    return out;
}

std::map<std::string, std::string> failing_checks(const tree::Disc& disc, size_t level) {
    std::map<std::string, std::string> out;
    for (const auto& check : tree::verify_level(disc, level, tree::LevelDepth::indexes).checks)
        if (!check.ok) out.emplace(check.name, check.detail);
    return out;
}

}  // namespace gcfs::edit
