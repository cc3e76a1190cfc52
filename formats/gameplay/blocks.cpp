#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

// formats-gameplay.md §2.2: write order; 16-byte padding before every block
// but US English help (none) and occlusion (64).
const std::array<BlockInfo, kBlockCount> kWriteOrder = {{
    {Block::env_samples, "env sample points", 16},
    {Block::level_settings, "level settings", 16},
    {Block::help_us, "us english help messages", 1},
    {Block::help_uk, "uk english help messages", 16},
    {Block::help_fr, "french help messages", 16},
    {Block::help_de, "german help messages", 16},
    {Block::help_es, "spanish help messages", 16},
    {Block::help_it, "italian help messages", 16},
    {Block::help_jp, "japanese help messages", 16},
    {Block::help_kr, "korean help messages", 16},
    {Block::dir_lights, "directional lights", 16},
    {Block::env_transitions, "env transitions", 16},
    {Block::cameras, "cameras", 16},
    {Block::sounds, "sound instances", 16},
    {Block::moby_classes, "moby classes", 16},
    {Block::mobies, "moby instances", 16},
    {Block::pvar_table, "pvar table", 16},
    {Block::pvar_data, "pvar data", 16},
    {Block::moby_link_fixups, "moby link fixup table", 16},
    {Block::pointer_fixups, "relative pvar pointers", 16},
    {Block::moby_groups, "moby groups", 16},
    {Block::shared_data, "shared data", 16},
    {Block::tie_classes, "tie classes", 16},
    {Block::ties, "tie instances", 16},
    {Block::tie_ambient, "tie ambient rgbas", 16},
    {Block::tie_groups, "tie groups", 16},
    {Block::shrub_classes, "shrub classes", 16},
    {Block::shrubs, "shrub instances", 16},
    {Block::shrub_groups, "shrub groups", 16},
    {Block::paths, "paths", 16},
    {Block::cuboids, "cuboids", 16},
    {Block::spheres, "spheres", 16},
    {Block::cylinders, "cylinders", 16},
    {Block::pills, "pills", 16},
    {Block::cam_coll_grid, "cam coll grid", 16},
    {Block::point_lights, "point lights", 16},
    {Block::grind_paths, "grind paths", 16},
    {Block::areas, "areas", 16},
    {Block::occlusion, "occlusion", 64},
}};

// §2.1 slots 0x10-0x2c, in slot order.
const std::array<const char*, kLanguageCount> kLanguages = {"us_english", "uk_english", "french",   "german",
                                                            "spanish",    "italian",    "japanese", "korean"};

const std::array<const char*, kAreaParts> kAreaPartNames = {"paths", "cuboids", "spheres", "cylinders",
                                                            "negative_cuboids"};

const BlockInfo& info(Block block) {
    for (const auto& entry : kWriteOrder)
        if (entry.block == block) return entry;
    return kWriteOrder.front();  // unreachable: every block is in the table
}

const Decoded<RecordTable>& Gameplay::volumes(int kind) const {
    const Decoded<RecordTable>* all[4] = {&cuboids, &spheres, &cylinders, &pills};
    return *all[kind & 3];
}

namespace {

size_t records_in(const RecordTable& t) { return t.count(); }
size_t records_in(const LevelSettings&) { return 1; }
size_t records_in(const HelpMessages& h) { return h.messages.size(); }
size_t records_in(const Groups& g) { return g.groups.size(); }
size_t records_in(const SharedData& s) { return s.pointers.size(); }
size_t records_in(const Paths& p) { return p.splines.size(); }
size_t records_in(const PointLights& p) { return p.lights.count(); }
size_t records_in(const EnvTransitions& e) { return e.transitions.count(); }
size_t records_in(const CamCollGrid& g) { return g.cells.size(); }
size_t records_in(const OcclusionMappings& o) { return o.kinds[0].size() + o.kinds[1].size() + o.kinds[2].size(); }
size_t records_in(const Areas& a) { return a.records.count(); }
template <class T>
size_t records_in(const std::vector<T>& v) { return v.size(); }

template <class T>
Gameplay::Status status_of(const Decoded<T>& d) {
    return {d.offset, d.length, d.present(), d.error, d.ok() ? records_in(*d.value) : 0};
}

}  // namespace

Gameplay::Status Gameplay::status(Block block) const {
    switch (block) {
        case Block::level_settings: return status_of(level_settings);
        case Block::dir_lights: return status_of(dir_lights);
        case Block::cameras: return status_of(cameras);
        case Block::sounds: return status_of(sounds);
        case Block::tie_classes: return status_of(tie_classes);
        case Block::ties: return status_of(ties);
        case Block::tie_groups: return status_of(tie_groups);
        case Block::shrub_classes: return status_of(shrub_classes);
        case Block::shrubs: return status_of(shrubs);
        case Block::shrub_groups: return status_of(shrub_groups);
        case Block::moby_classes: return status_of(moby_classes);
        case Block::mobies: return status_of(mobies);
        case Block::moby_groups: return status_of(moby_groups);
        case Block::shared_data: return status_of(shared_data);
        case Block::moby_link_fixups: return status_of(moby_link_fixups);
        case Block::pvar_table: return status_of(pvar_table);
        case Block::pvar_data: return status_of(pvar_data);
        case Block::pointer_fixups: return status_of(pointer_fixups);
        case Block::cuboids: return status_of(cuboids);
        case Block::spheres: return status_of(spheres);
        case Block::cylinders: return status_of(cylinders);
        case Block::pills: return status_of(pills);
        case Block::paths: return status_of(paths);
        case Block::grind_paths: return status_of(grind_paths);
        case Block::point_lights: return status_of(point_lights);
        case Block::env_transitions: return status_of(env_transitions);
        case Block::cam_coll_grid: return status_of(cam_coll_grid);
        case Block::env_samples: return status_of(env_samples);
        case Block::occlusion: return status_of(occlusion);
        case Block::tie_ambient: return status_of(tie_ambient);
        case Block::areas: return status_of(areas);
        default: return status_of(help[static_cast<int>(block) - static_cast<int>(Block::help_us)]);
    }
}

}  // namespace gcfs::formats::gameplay
