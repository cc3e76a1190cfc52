#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "tools/commands.h"
#include "tree/node/log_escape.h"
#include "tree/node/log_tail.h"

int main(int argc, char** argv) {
    CLI::App app{"gcfs: browse a Ratchet & Clank 2: Going Commando disc image as a filesystem, read-only or editable through an edits folder"};
    app.set_version_flag("--version", std::string("gcfs ") + GCFS_VERSION);
    app.require_subcommand(1);
    // stderr (stdout carries data: cat), and the tail .gcfs/log shows.
    // Each escaping what it quotes (tree/node/log_escape.h).
    auto logger = std::make_shared<spdlog::logger>(
        "gcfs", spdlog::sinks_init_list{gcfs::tree::escaping_sink(std::make_shared<spdlog::sinks::stderr_color_sink_mt>()),
                                        gcfs::tree::escaping_sink(gcfs::tree::log_tail())});
    logger->sinks()[0]->set_pattern("gcfs: %l: %v");
    spdlog::set_default_logger(logger);
    int exit_code = 0;
    gcfs::tools::add_mount_command(app, exit_code);
    gcfs::tools::add_mkdisc_command(app, exit_code);
    gcfs::tools::add_browse_commands(app, exit_code);
    gcfs::tools::add_verify_command(app, exit_code);
    gcfs::tools::add_extract_command(app, exit_code);
    gcfs::tools::add_edit_commands(app, exit_code);
    // A first word that is no command is named as such (CLI11 would say only
    // that a subcommand is required).
    std::string commands;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
        commands += (commands.empty() ? "" : ", ") + sub->get_name();
        known = known || (argc > 1 && sub->get_name() == argv[1]);
    }
    if (argc > 1 && argv[1][0] != '-' && !known) {
        fmt::print(stderr, "gcfs: no command '{}'; the commands are: {} (gcfs --help)\n", argv[1], commands);
        return 1;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version print and succeed; every argument error exits 1, as gcfs(1) says.
        return app.exit(e) == 0 ? 0 : 1;
    }
    return exit_code;
}
