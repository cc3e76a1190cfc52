#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "mkdisc/disc_builder.h"
#include "tools/commands.h"

namespace gcfs::tools {
namespace {

struct MkdiscArgs {
    std::string output;
    int levels = 4;
    uint64_t seed = 1;
    std::string scale = "small";
    std::string originals;
    std::vector<std::string> damage;
};

void save(const std::filesystem::path& path, const formats::Bytes& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

void add_mkdisc_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<MkdiscArgs>();
    CLI::App* cmd = app.add_subcommand("mkdisc", "write a synthetic, format-faithful Going Commando disc image");
    cmd->add_option("output", args->output, "image to create")->required();
    cmd->add_option("--levels", args->levels, "level containers (2…85; default 4, full scale 27)");
    cmd->add_option("--seed", args->seed, "seed: the same seed builds the same image");
    cmd->add_option("--scale", args->scale, "small (tests) or full (27 levels, tens of MB of core each)")
        ->check(CLI::IsMember({"small", "full"}));
    cmd->add_option("--originals", args->originals,
                    "directory to save each level's uncompressed core_data and gameplay into, for cmp");
    cmd->add_option("--damage", args->damage,
                    fmt::format("plant damage for the corrupt corpus, KIND[:LEVEL] (level 1 by default); kinds: {}",
                                fmt::join(mkdisc::damage_names(), ", ")));
    cmd->callback([args, cmd, &exit_code] {
        mkdisc::DiscSpec spec;
        for (const auto& text : args->damage) {
            const auto damage = mkdisc::parse_damage(text);
            if (!damage) {
                fmt::print(stderr, "gcfs mkdisc: unknown damage '{}'\n", text);
                exit_code = 1;
                return;
            }
            spec.damage.push_back(*damage);
        }
        spec.seed = args->seed;
        spec.scale = args->scale == "full" ? mkdisc::Scale::full : mkdisc::Scale::small;
        spec.levels = cmd->count("--levels") ? args->levels : spec.scale == mkdisc::Scale::full ? 27 : 4;
        try {
            if (!args->originals.empty()) std::filesystem::create_directories(args->originals);
            const auto manifest = mkdisc::build_disc(spec, args->output, [&](const mkdisc::LevelSpec& level,
                                                                               const mkdisc::LevelImage& image) {
                if (args->originals.empty()) return;
                const auto dir = std::filesystem::path(args->originals) / fmt::format("LEVEL{:02d}", level.index);
                std::filesystem::create_directories(dir);
                save(dir / "core_data.bin", image.core_data);
                save(dir / "gameplay.bin", image.gameplay);
                std::ofstream(dir / "marker.txt") << image.marker << "\n";
            });
            fmt::print("{}: {} bytes, {} levels\n", args->output, manifest.image_bytes, manifest.levels.size());
            for (const auto& l : manifest.levels)
                fmt::print("  LEVEL{:02d}  id {:>2}  {:<18} LBA {:>6}  {:>6} sectors  {} tfrag patches\n", l.index, l.id,
                           l.name, l.lba, l.sectors, l.patches);
        } catch (const std::exception& e) {
            fmt::print(stderr, "gcfs mkdisc: {}\n", e.what());
            exit_code = 1;
        }
    });
}

}  // namespace gcfs::tools
