// `gcfs verify IMAGE`: every invariant on every level, a table, exit 1 on any failure.
#include <fmt/format.h>

#include <memory>

#include "tools/commands.h"
#include "tools/open_image.h"
#include "tree/verify.h"

namespace gcfs::tools {

void add_verify_command(CLI::App& app, int& exit_code) {
    auto image = std::make_shared<std::string>();
    auto cache_mib = std::make_shared<uint64_t>(256);
    auto all_checks = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("verify", "decode every level and check every invariant; exit 1 on a failure");
    cmd->add_option("image", *image, "disc image")->required();
    cmd->add_option("--cache-mib", *cache_mib, "decode cache budget in MiB (default 256)");
    cmd->add_flag("--checks", *all_checks, "after the table, every check of every level with its detail");
    cmd->callback([image, cache_mib, all_checks, &exit_code] {
        auto disc = open_image(*image, *cache_mib << 20, exit_code);
        if (!disc) return;
        const tree::DiscVerdict verdict = tree::verify_disc(*disc);
        fmt::print("{}", tree::render_verdict(verdict));
        if (*all_checks) fmt::print("\n{}", tree::render_checks(verdict));
        exit_code = verdict.ok() ? 0 : 1;
    });
}

}  // namespace gcfs::tools
