#include <fmt/format.h>

#include <memory>

#include "edit/edit_store.h"
#include "edit/session.h"
#include "tools/commands.h"
#include "tools/open_image.h"

namespace gcfs::tools {

void add_edit_commands(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<std::array<std::string, 3>>();
    CLI::App* pack = app.add_subcommand("pack", "write IMAGE with the edits of DIR applied to OUT (what edited.iso shows)");
    pack->add_option("image", (*args)[0], "disc image (.iso), only read")->required();
    pack->add_option("edits", (*args)[1], "an edits folder (-o edits=DIR of gcfs mount)")->required();
    pack->add_option("out", (*args)[2], "the image to write")->required();
    pack->callback([args, &exit_code] {
        auto session = open_edit_session((*args)[0], (*args)[1], 64ull << 20, exit_code);
        if (!session) return;
        try {
            edit::write_image(*session, (*args)[2]);
        } catch (const std::exception& e) {
            fmt::print(stderr, "gcfs pack: {}\n", e.what());
            exit_code = 1;
        }
    });

    auto dir = std::make_shared<std::string>();
    CLI::App* edits = app.add_subcommand("edits", "print the edits of DIR and their state, without mounting");
    edits->add_option("edits", *dir, "an edits folder")->required();
    edits->callback([dir, &exit_code] {
        try {
            fmt::print("{}", edit::EditStore::inspect(*dir).render());
        } catch (const edit::EditStoreError& e) {
            fmt::print(stderr, "gcfs edits: {}\n", e.what());
            exit_code = 9;
        }
    });
}

}  // namespace gcfs::tools
