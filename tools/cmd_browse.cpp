// `gcfs ls` and `gcfs cat`: the mounted tree without a mount.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "tools/commands.h"
#include "tools/copy_out.h"
#include "tools/open_image.h"

namespace gcfs::tools {
namespace {

constexpr uint64_t kBrowseCacheBytes = 256ull << 20;

struct BrowseArgs {
    std::string image;
    std::string path;
};

void list(const tree::Disc& disc, uint64_t ino) {
    const tree::NodeRef n = disc.tree.node(ino);
    if (n->type != tree::NodeType::directory) {
        fmt::print("{:>12}  {}\n", n->type == tree::NodeType::file ? n->source->size() : 0, disc.tree.path_of(ino));
        return;
    }
    // By name, as ls sorts (the tree lists built names first, then each file run).
    std::vector<std::pair<std::string, uint64_t>> children;
    disc.tree.for_each_child(ino, 0, [&](const std::string& name, uint64_t child, tree::NodeType) {
        children.emplace_back(name, child);
        return true;
    });
    std::sort(children.begin(), children.end());
    for (const auto& [name, child] : children) {
        const tree::NodeRef c = disc.tree.node(child);
        switch (c->type) {
            case tree::NodeType::directory: fmt::print("{:>12}  {}/\n", "", name); break;
            case tree::NodeType::symlink: fmt::print("{:>12}  {} -> {}\n", "", name, c->link_target()); break;
            case tree::NodeType::file: fmt::print("{:>12}  {}\n", c->source->size(), name); break;
        }
    }
}

}  // namespace

void add_browse_commands(CLI::App& app, int& exit_code) {
    auto ls = std::make_shared<BrowseArgs>();
    CLI::App* ls_cmd = app.add_subcommand("ls", "list a folder of the tree without mounting");
    ls_cmd->add_option("image", ls->image, "disc image")->required();
    ls_cmd->add_option("path", ls->path, "folder or file inside the tree (default: the root)");
    ls_cmd->callback([ls, &exit_code] {
        auto disc = open_image(ls->image, kBrowseCacheBytes, exit_code);
        if (!disc) return;
        if (const auto ino = find_in_tree(*disc, ls->path, "ls", false, exit_code)) list(*disc, *ino);
    });

    auto cat = std::make_shared<BrowseArgs>();
    CLI::App* cat_cmd = app.add_subcommand("cat", "write a file of the tree to standard output without mounting");
    cat_cmd->add_option("image", cat->image, "disc image")->required();
    cat_cmd->add_option("path", cat->path, "file inside the tree")->required();
    cat_cmd->callback([cat, &exit_code] {
        auto disc = open_image(cat->image, kBrowseCacheBytes, exit_code);
        if (!disc) return;
        const auto ino = find_in_tree(*disc, cat->path, "cat", true, exit_code);
        if (!ino) return;
        if (const std::string error = copy_out(*disc->tree.node(*ino), 1); !error.empty()) {
            fmt::print(stderr, "gcfs cat: {}: {}\n", cat->path, error);
            exit_code = 1;
        }
    });
}

}  // namespace gcfs::tools
