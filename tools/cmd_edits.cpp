#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "edit/edit_store.h"
#include "edit/image_out.h"
#include "edit/mods/stack_diff.h"
#include "edit/session.h"
#include "tools/commands.h"
#include "tools/open_image.h"

namespace gcfs::tools {
namespace {

constexpr uint64_t kCacheBytes = 64ull << 20;

std::string absolute(const std::string& path) {
    std::error_code error;
    const auto made = std::filesystem::absolute(path, error);
    return error ? path : made.lexically_normal().string();
}

std::vector<std::string> absolute_all(std::vector<std::string> paths) {
    for (auto& p : paths) p = absolute(p);
    return paths;
}

}  // namespace

void add_edit_commands(CLI::App& app, int& exit_code) {
    struct PackArgs {
        std::vector<std::string> words;  // IMAGE FOLDER… OUT
        bool vcdiff = false;
    };
    auto pack_args = std::make_shared<PackArgs>();
    CLI::App* pack = app.add_subcommand("pack", "write IMAGE with the edits of FOLDER… applied, stacked in order (what edited.iso shows), to OUT; "
                                                "--vcdiff writes the VCDIFF patch from IMAGE to it instead (xdelta3 -d -s IMAGE OUT modded.iso)");
    pack->add_option("image folders out", pack_args->words, "IMAGE (only read), one edits folder or several stacked in order, OUT")->required()->expected(3, -1);
    pack->add_flag("--vcdiff", pack_args->vcdiff, "write a VCDIFF (RFC 3284) patch from IMAGE, not the image");
    pack->callback([pack_args, &exit_code] {
        const auto& w = pack_args->words;
        const std::string image = absolute(w.front()), out = w.back();
        const std::vector<std::string> folders = absolute_all({w.begin() + 1, w.end() - 1});
        try {
            if (folders.size() == 1 && !pack_args->vcdiff) {
                // One folder: its own session (locked; a save a crash cut short finished first).
                auto session = open_edit_session(image, folders[0], kCacheBytes, exit_code);
                if (session) edit::write_image(*session->disc(), out);
                return;
            }
            auto stacked = open_stacked_image(image, folders, kCacheBytes, exit_code);
            if (!stacked) return;
            if (!pack_args->vcdiff) return edit::write_image(*stacked->disc, out);
            const auto written = edit::write_image_delta(*stacked->original, *stacked->disc, stacked->stack->containers(), out);
            fmt::print(stderr, "gcfs pack: {} bytes of VCDIFF in {} windows; {} bytes carried as new data\n", written.bytes, written.windows, written.added);
        } catch (const std::exception& e) {
            fmt::print(stderr, "gcfs pack: {}\n", e.what());
            exit_code = 1;
        }
    });

    struct DiffArgs {
        std::vector<std::string> words;  // IMAGE FOLDER…
        bool json = false;
    };
    auto diff_args = std::make_shared<DiffArgs>();
    CLI::App* diff = app.add_subcommand("diff", "print what the edits folders FOLDER…, stacked in order, change in IMAGE, in words per file");
    diff->add_option("image folders", diff_args->words, "IMAGE (only read) and one or more edits folders")->required()->expected(2, -1);
    diff->add_flag("--json", diff_args->json, "JSON for tools: [{path, kind, changes: [{text, …}]}]");
    diff->callback([diff_args, &exit_code] {
        const auto& w = diff_args->words;
        auto stacked = open_stacked_image(absolute(w.front()), absolute_all({w.begin() + 1, w.end()}), kCacheBytes, exit_code);
        if (!stacked) return;
        const auto diffs = edit::mods::diff_files(*stacked->original, *stacked->disc, stacked->stack->paths());
        if (diff_args->json) fmt::print("{}\n", edit::mods::diff_json(diffs).dump(2));
        else fmt::print("{}", edit::mods::diff_text(diffs));
    });

    auto dir = std::make_shared<std::string>();
    CLI::App* edits = app.add_subcommand("edits", "print the edits of DIR, their state and the image they belong to, without mounting");
    edits->add_option("edits", *dir, "an edits folder")->required();
    edits->callback([dir, &exit_code] {
        try {
            fmt::print("{}", edit::EditStore::inspect(absolute(*dir)).render());
        } catch (const edit::EditStoreError& e) {
            fmt::print(stderr, "gcfs edits: {}\n", e.what());
            exit_code = 9;
        }
    });
}

}  // namespace gcfs::tools
