// `gcfs extract IMAGE PATH DEST`: copies a file or a whole folder of the tree
// out, like `cp -r` from a mount, for machines without FUSE. A file that cannot
// be read is named on stderr and skipped; the rest is still copied (exit 1).
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "tools/commands.h"
#include "tools/copy_out.h"
#include "tools/open_image.h"

namespace gcfs::tools {
namespace {

constexpr uint64_t kExtractCacheBytes = 256ull << 20;

struct ExtractArgs {
    std::string image, path, dest;
};

// One line on a terminal, rewritten in place; nothing when stderr is piped.
class Progress {
public:
    Progress() : shown_(::isatty(2) == 1) {}
    void file_done() { ++files_, show(); }
    void bytes(uint64_t n) { bytes_ += n, show(); }
    void finish() {
        if (shown_) fmt::print(stderr, "\n");
    }
    uint64_t files() const { return files_; }

private:
    void show() const {
        if (shown_) fmt::print(stderr, "\rextracting: {} files, {:.1f} MB", files_, bytes_ / 1e6);
    }
    bool shown_;
    uint64_t files_ = 0, bytes_ = 0;
};

// Every output path is DEST joined with names of the tree, each one path step
// (tree/node/safe_name.h); still, each is checked to stay under DEST, and nothing
// already there as a symlink is followed or written through.
class Extractor {
public:
    Extractor(const tree::Disc& disc, std::filesystem::path dest) : disc_(disc), dest_(std::move(dest).lexically_normal()) {}

    void node(uint64_t ino, const std::filesystem::path& to) {
        const tree::NodeRef held_node = disc_.tree.node(ino);
        const tree::Node& n = *held_node;
        std::error_code ec;
        if (!inside_dest(to)) return problem(to.string(), "refused: the path would leave " + dest_.string());
        if (std::filesystem::is_symlink(std::filesystem::symlink_status(to, ec)))
            return problem(to.string(), "refused: already there as a symlink, which is not followed");
        switch (n.type) {
            case tree::NodeType::directory:
                std::filesystem::create_directories(to, ec);
                if (ec) return problem(to.string(), ec.message());
                disc_.tree.for_each_child(ino, 0, [&](const std::string& name, uint64_t child, tree::NodeType) {
                    node(child, to / name);
                    return true;
                });
                return;
            case tree::NodeType::symlink:
                if (!inside_dest(to.parent_path() / n.link_target()))
                    return problem(to.string(), "refused: the link " + n.link_target() + " points out of " + dest_.string());
                std::filesystem::create_symlink(n.link_target(), to, ec);
                if (ec) problem(to.string(), ec.message());
                return;
            case tree::NodeType::file: return file(ino, n, to);
        }
    }

    int finish() {
        progress_.finish();
        return problems_ == 0 ? 0 : 1;
    }
    uint64_t problems() const { return problems_; }
    uint64_t files() const { return progress_.files(); }

private:
    bool inside_dest(const std::filesystem::path& p) const {
        const auto relative = p.lexically_normal().lexically_relative(dest_);
        return !relative.empty() && *relative.begin() != "..";
    }

    void file(uint64_t ino, const tree::Node& n, const std::filesystem::path& to) {
        // O_NOFOLLOW: a symlink put there meanwhile is not written through.
        const int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0) return problem(to.string(), std::strerror(errno));
        const std::string error = copy_out(n, fd, [&](uint64_t bytes) { progress_.bytes(bytes); });
        ::close(fd);
        if (!error.empty()) {
            std::filesystem::remove(to);  // never leave a half-written file behind
            return problem(disc_.tree.path_of(ino), error);
        }
        progress_.file_done();
    }

    void problem(const std::string& what, const std::string& why) {
        ++problems_;
        fmt::print(stderr, "{}gcfs extract: {}: {}\n", ::isatty(2) ? "\n" : "", what, why);
    }

    const tree::Disc& disc_;
    const std::filesystem::path dest_;
    Progress progress_;
    uint64_t problems_ = 0;
};

}  // namespace

void add_extract_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ExtractArgs>();
    CLI::App* cmd = app.add_subcommand("extract", "copy a file or folder of the tree out, without mounting");
    cmd->add_option("image", args->image, "disc image")->required();
    cmd->add_option("path", args->path, "file or folder inside the tree ('' or / for all of it)")->required();
    cmd->add_option("dest", args->dest, "folder to copy into (created if missing)")->required();
    cmd->callback([args, &exit_code] {
        auto disc = open_image(args->image, kExtractCacheBytes, exit_code);
        if (!disc) return;
        const auto ino = find_in_tree(*disc, args->path, "extract", false, exit_code);
        if (!ino) return;
        std::error_code ec;
        std::filesystem::create_directories(args->dest, ec);
        if (ec) {
            fmt::print(stderr, "gcfs extract: {}: {}\n", args->dest, ec.message());
            exit_code = 1;
            return;
        }
        // Like cp -r: the named file or folder lands inside DEST under its own name.
        const std::string name = *ino == tree::Tree::kRootIno ? "" : disc->tree.node(*ino)->name;
        Extractor extractor(*disc, std::filesystem::absolute(args->dest));
        extractor.node(*ino, std::filesystem::absolute(args->dest) / name);
        exit_code = extractor.finish();
        if (exit_code != 0)
            fmt::print(stderr, "gcfs extract: {} files copied, {} could not be read\n", extractor.files(),
                       extractor.problems());
    });
}

}  // namespace gcfs::tools
