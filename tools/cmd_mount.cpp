#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "fs/mount.h"
#include "tools/open_image.h"
#include "tools/commands.h"

namespace gcfs::tools {

void add_mount_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<fs::MountOptions>();
    auto o_lists = std::make_shared<std::vector<std::string>>();
    CLI::App* cmd = app.add_subcommand("mount", "mount IMAGE on MOUNTPOINT, read-only unless -o edits=DIR (unmount with fusermount3 -u); the image itself is only ever read");
    cmd->add_option("image", options->image, "disc image (.iso)")->required();
    cmd->add_option("mountpoint", options->mountpoint, "an empty directory")->required();
    cmd->add_flag("-f,--foreground", options->foreground, "stay in the foreground (SIGINT/SIGTERM unmount)");
    cmd->add_flag("-d,--debug", options->debug, "foreground with libfuse debug output");
    cmd->add_option("-o", *o_lists,
                    "mount options: cache_size=SIZE (default 512M), edits=DIR (writable for what gcfs encodes, the image untouched), "
                    "mods=A:B (edits folders stacked in order under DIR, only read), "
                    "log=FILE (every log line there too), noxattr, noindexahead, noindex, index_dir=DIR, allow_other, any other libfuse option")
        ->allow_extra_args(false);
    cmd->callback([options, o_lists, &exit_code] {
        for (const auto& list : *o_lists) {
            if (const std::string problem = fs::apply_o_option(list, *options); !problem.empty()) {
                fmt::print(stderr, "gcfs: {}\n", problem);
                exit_code = 1;
                return;
            }
        }
        if (options->debug) options->foreground = true;
        // The daemon leaves its working directory, and an edit session opens
        // the image again for each generation: the path is made absolute once.
        if (std::error_code error; !options->image.empty()) {
            const auto absolute = std::filesystem::absolute(options->image, error);
            if (!error) options->image = absolute.lexically_normal().string();
        }
        // Before anything is opened or made (the edits folder, the index): a mount
        // that cannot happen leaves nothing behind.
        if (const std::string problem = fs::mountpoint_problem(options->mountpoint); !problem.empty()) {
            fmt::print(stderr, "gcfs: {}\n", problem);
            exit_code = 4;
            return;
        }
        fs::Served served;
        std::unique_ptr<edit::Session> session;
        std::shared_ptr<edit::mods::StackedImage> stacked;
        if (!options->edits_dir.empty()) {
            session = open_edit_session(options->image, options->edits_dir, options->cache_bytes, exit_code, options->mods_dirs);
            if (!session) return;
            served.session = session.get();
        } else if (!options->mods_dirs.empty()) {
            stacked = open_stacked_image(options->image, options->mods_dirs, options->cache_bytes, exit_code);
            if (!stacked) return;
            served.fixed = stacked->disc;
        } else {
            served.fixed = open_image(options->image, options->cache_bytes, exit_code);
            if (!served.fixed) return;
        }
        exit_code = fs::run_mount(*options, served);
    });
}

}  // namespace gcfs::tools
