#include "mkdisc/gameplay.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "formats/gameplay/gameplay.h"
#include "formats/gameplay/cam_coll.h"
#include "formats/gameplay/spheres.h"

namespace gcfs::mkdisc {
namespace {

using namespace formats;
using namespace formats::gameplay;
using Matrix = std::array<float, 16>;  // column-major, column 3 = translation (formats-gameplay.md §0)

// §0: M = T(pos) · S(scale) · Rz · Ry · Rx, column vectors.
Matrix compose(const std::array<float, 3>& pos, const std::array<float, 3>& rot, const std::array<float, 3>& scale) {
    const double cx = std::cos(rot[0]), sx = std::sin(rot[0]), cy = std::cos(rot[1]), sy = std::sin(rot[1]),
                 cz = std::cos(rot[2]), sz = std::sin(rot[2]);
    const double r[3][3] = {// r[col][row] of Rz·Ry·Rx
                            {cz * cy, sz * cy, -sy},
                            {cz * sy * sx - sz * cx, sz * sy * sx + cz * cx, cy * sx},
                            {cz * sy * cx + sz * sx, sz * sy * cx - cz * sx, cy * cx}};
    Matrix m{};
    for (int c = 0; c < 3; ++c)
        for (int row = 0; row < 3; ++row) m[4 * c + row] = static_cast<float>(r[c][row] * scale[c]);
    m[12] = pos[0];
    m[13] = pos[1];
    m[14] = pos[2];
    m[15] = 1;
    return m;
}

// §8.5: instance matrices are written with column 3's w = 0.01.
Matrix stored(Matrix m) {
    m[15] = 0.01f;
    return m;
}

class Builder {
public:
    Builder(const GameplaySpec& spec, Random& random) : spec_(spec), random_(random) {}
    const Bytes& mappings() const { return mappings_; }

    Bytes build() {
        std::array<std::optional<Bytes>, kBlockCount> blocks;
        auto set = [&](Block b, Bytes bytes) { blocks[static_cast<size_t>(b)] = std::move(bytes); };
        place_instances();
        set(Block::env_samples, encode_table(env_samples()));
        set(Block::level_settings, encode_level_settings(settings()));
        for (int l = 0; l < kLanguageCount; ++l) set(help_block(l), encode_help(help(l)));
        set(Block::dir_lights, encode_table(dir_lights()));
        set(Block::env_transitions, encode_env_transitions(env_transitions()));
        set(Block::cameras, encode_table(cameras_));
        set(Block::sounds, encode_table(sounds_));
        set(Block::moby_classes, encode_class_list(spec_.moby_classes));
        set(Block::mobies, encode_table(mobies_));
        set(Block::pvar_table, encode_pvar_table(pvar_table_));
        set(Block::pvar_data, pvar_data_);
        set(Block::moby_link_fixups, encode_fixups(moby_links_));
        set(Block::pointer_fixups, encode_fixups(pointer_fixups_));
        set(Block::moby_groups, encode_groups(moby_groups_));
        set(Block::shared_data, encode_shared_data(shared_));
        set(Block::tie_classes, encode_class_list(first_appearance_classes(ties_)));
        set(Block::ties, encode_table(ties_));
        set(Block::tie_ambient, encode_tie_ambient(tie_ambient_));
        set(Block::tie_groups, encode_groups({{0, 1}, {}, {2}}));
        set(Block::shrub_classes, encode_class_list(first_appearance_classes(shrubs_)));
        set(Block::shrubs, encode_table(shrubs_));
        set(Block::shrub_groups, encode_groups({{1, 0}}));
        set(Block::paths, encode_paths(paths_));
        for (int kind = 0; kind < 4; ++kind) set(static_cast<Block>(static_cast<int>(Block::cuboids) + kind), encode_table(volumes_[kind]));
        set(Block::cam_coll_grid, encode_cam_coll_grid(cam_coll_cells()));
        set(Block::point_lights, encode_point_lights(point_lights()));
        set(Block::grind_paths, encode_grind_paths(grind_data(), grind_paths_));
        set(Block::areas, encode_areas(areas()));
        mappings_ = encode_occlusion(occlusion());
        if (spec_.level % 2 == 0) set(Block::occlusion, mappings_);
        return assemble(blocks);
    }

private:
    float coord() { return static_cast<float>(spec_.extent * (0.1 + 0.8 * random_.unit())); }
    float angle() { return static_cast<float>((random_.unit() * 2 - 1) * std::numbers::pi); }
    // z is up (formats-gameplay.md §0: the grids span x and y).
    std::array<float, 3> on_ground(float x, float y, float lift = 0) {
        return {x, y, static_cast<float>(spec_.height(x, y)) + lift};
    }

    void place_instances() {
        const int mobies = spec_.full_scale ? 240 : 14, ties = spec_.full_scale ? 120 : 6, shrubs = spec_.full_scale ? 300 : 8;
        mobies_ = {&kMobySchema, {spec_.full_scale ? 400 : 64, 0, 0}, {}};
        moby_groups_ = {{0, 2, 4}, {}, {static_cast<uint16_t>(mobies - 1)}};  // group 1 empty: pointer -1 (§3.11)
        for (int i = 0; i < mobies; ++i) moby(i);
        cameras_ = {&kCameraSchema, {}, {}};
        sounds_ = {&kSoundSchema, {}, {}};
        for (int i = 0; i < 3; ++i) camera_and_sound(i);
        ties_ = {&kTieSchema, {}, {}};
        for (int i = 0; i < ties; ++i) instance(ties_, spec_.tie_classes, i);
        shrubs_ = {&kShrubSchema, {}, {}};
        for (int i = 0; i < shrubs; ++i) instance(shrubs_, spec_.shrub_classes, i);
        for (int i = 0; i < 3; ++i) path(paths_, 6 + 4 * i);
        path(grind_paths_, 12);
        for (int kind = 0; kind < 4; ++kind) {
            volumes_[kind] = {&kVolumeSchema, {}, {}};
            for (int i = 0; i < (kind == 0 ? 3 : 1 + spec_.level % 2); ++i) volume(kind);
        }
    }

    // §3.1: a moby's group field is the one group listing it, -1 if none.
    int32_t group_of(int moby) const {
        for (size_t g = 0; g < moby_groups_.size(); ++g)
            if (std::find(moby_groups_[g].begin(), moby_groups_[g].end(), moby) != moby_groups_[g].end())
                return static_cast<int32_t>(g);
        return -1;
    }

    // §3.13 (Wrench's pvar.cpp :: recover_pvars): every pvar of one moby class has
    // one size, and with the sub-vars bit one sub-vars header. Classes take the
    // two layouts in turn, in the order their first pvar-carrying moby comes.
    bool class_has_sub_vars(int32_t cls) {
        const auto [it, added] = class_sub_vars_.try_emplace(cls, class_sub_vars_.size() % 2 == 0);
        return it->second;
    }

    // §3.1: mobies stand on the terrain; every fourth carries pvars.
    void moby(int i) {
        const float x = coord(), y = coord();
        const int32_t cls = spec_.moby_classes[static_cast<size_t>(i) % spec_.moby_classes.size()];
        const int32_t pvar = i % 4 == 1 ? static_cast<int32_t>(pvar_table_.size()) : -1;
        const bool sub_vars = pvar >= 0 && class_has_sub_vars(cls);
        RecordBuilder r(kMobySchema);
        r.s32(0x00, 0x88).s32(0x04, i % 3 - 1).s32(0x10, 1000 + 7 * i).s32(0x14, i % 5 * 10)
            .s32(0x28, cls)
            .f32(0x2c, 0.5f + 0.25f * static_cast<float>(i % 4)).s32(0x30, 64 + i % 3 * 32).s32(0x34, 128)
            .s32(0x38, 32).s32(0x3c, 64).floats(0x40, on_ground(x, y)).f32(0x4c, 0).f32(0x50, 0).f32(0x54, angle())
            .s32(0x58, group_of(i)).s32(0x5c, i % 7 == 0).f32(0x60, i % 7 == 0 ? 12.5f : 0).s32(0x68, pvar)
            .s32(0x6c, i % 2).s32(0x70, sub_vars ? 0x20 : 0)
            .s32(0x74, 40 * (i % 6)).s32(0x78, 128).s32(0x7c, 255 - 20 * (i % 6)).s32(0x80, i % 2);
        r.append_to(mobies_);
        if (pvar >= 0) moby_pvars(i, pvar, sub_vars);
    }

    // §3.13: a 0x30-byte pvar; with mode bit 0x20 it opens with the eight
    // sub-var offsets (GC header, 0x20 bytes), the same for the whole class.
    void moby_pvars(int i, int32_t pvar, bool sub_vars) {
        ByteWriter w;
        for (int k = 0; k < 12; ++k) w.s32(sub_vars && k < 8 ? (k == 0 ? 0x20 : -1) : k * 3 + i);
        const auto offset = static_cast<int32_t>(pvar_data_.size());
        pvar_data_.insert(pvar_data_.end(), w.bytes().begin(), w.bytes().end());
        pvar_table_.push_back({offset, static_cast<int32_t>(w.size())});
        // 0x20: a moby link (to moby 0), 0x24: a pointer relative to the pvar, 0x28: into shared data.
        const int32_t link = 0;
        for (int b = 0; b < 4; ++b) pvar_data_[static_cast<size_t>(offset) + 0x20 + b] = static_cast<uint8_t>(link >> (8 * b));
        moby_links_.push_back({pvar, 0x20});
        pointer_fixups_.push_back({pvar, 0x24});
        if (shared_.pointers.empty()) {
            shared_.data = {'G', 'C', 'F', 'S', 0, 1, 2, 3};
            shared_.data_size = 16;  // §3.13: Wrench rounds the data up to 16
            shared_.pointers.push_back({static_cast<uint16_t>(pvar), 0x28, 4});
        }
    }

    void camera_and_sound(int i) {
        const auto pos = on_ground(coord(), coord(), 6);
        const int32_t pvar = i == 1 ? static_cast<int32_t>(pvar_table_.size()) : -1;
        if (pvar >= 0) {
            pvar_table_.push_back({static_cast<int32_t>(pvar_data_.size()), 8});
            for (int k = 0; k < 8; ++k) pvar_data_.push_back(static_cast<uint8_t>(0x40 + k));
        }
        RecordBuilder(kCameraSchema).s32(0, i).floats(4, pos).f32(0x10, -0.3f).f32(0x14, 0).f32(0x18, angle()).s32(0x1c, pvar).append_to(cameras_);
        const std::array<float, 3> rot{0, 0, angle()};
        const Matrix m = compose(pos, rot, {4, 4, 4}), inv = affine_inverse(m);
        RecordBuilder(kSoundSchema).s16(0, static_cast<int16_t>(10 + i)).s16(2, static_cast<int16_t>(i)).s32(8, -1).f32(0xc, 20.f + 5 * i)
            .floats(0x10, stored(m)).floats(0x50, std::span<const float>(inv.data(), 12)).floats(0x80, rot).append_to(sounds_);
    }

    // §3.2, §3.3: rotated, non-unit-scaled instances of the core's classes.
    void instance(RecordTable& table, const std::vector<int32_t>& classes, int i) {
        const float x = coord(), y = coord(), s = 0.75f + 0.25f * static_cast<float>(i % 4);
        const Matrix m = stored(compose(on_ground(x, y), {i % 3 == 0 ? 0.1f : 0.f, 0, angle()}, {s, s, s * (i % 2 ? 1.5f : 1.f)}));
        RecordBuilder r(*table.schema);
        r.s32(0, classes[static_cast<size_t>(i) % classes.size()]).floats(0x10, m);
        if (table.schema == &kTieSchema) {
            r.s32(4, 120 + 10 * (i % 4)).s32(0xc, i).s32(0x50, i % 3).s32(0x54, 5000 + i);
            if (i % 2 == 0) tie_ambient_.push_back({static_cast<int16_t>(i), {0x10, 0x20, 0x30, static_cast<uint8_t>(i), 0x50, 0x60}});
        } else {
            r.f32(4, 50.f + static_cast<float>(i % 5) * 10).s32(0x50, 255).s32(0x54, 100 + i % 100).s32(0x58, 30).s32(0x60, i % 2);
        }
        r.append_to(table);
    }

    // A path over the terrain: points a little above the surface, w = the point's index.
    void path(std::vector<std::vector<Vec4>>& out, int points) {
        float x = coord(), y = coord();
        const float heading = angle(), step = static_cast<float>(spec_.extent) / 40;
        std::vector<Vec4> spline;
        for (int i = 0; i < points; ++i) {
            x = std::clamp(x + step * std::cos(heading + 0.2f * i), 0.f, static_cast<float>(spec_.extent));
            y = std::clamp(y + step * std::sin(heading + 0.2f * i), 0.f, static_cast<float>(spec_.extent));
            const auto p = on_ground(x, y, 1);
            spline.push_back({p[0], p[1], p[2], static_cast<float>(i)});
        }
        out.push_back(std::move(spline));
    }

    // §3.7: matrix, the first three columns of its inverse, and the Euler rotation.
    void volume(int kind) {
        const std::array<float, 3> rot{0, 0, angle()};
        const Matrix m = compose(on_ground(coord(), coord(), 3), rot, {6, 6, 3 + static_cast<float>(kind)}), inv = affine_inverse(m);
        RecordBuilder(kVolumeSchema).floats(0, stored(m)).floats(0x40, std::span<const float>(inv.data(), 12)).floats(0x70, rot)
            .append_to(volumes_[kind]);
    }

    RecordTable env_samples() {
        RecordTable t{&kEnvSampleSchema, {}, {}};
        for (int i = 0; i < 3; ++i) {
            const auto p = on_ground(coord(), coord(), 2);
            RecordBuilder r(kEnvSampleSchema);
            r.s32(0, i).s16(4, static_cast<int16_t>(std::lround(p[0] * 4))).s16(6, static_cast<int16_t>(std::lround(p[1] * 4)))
                .s16(8, static_cast<int16_t>(std::lround(p[2] * 4))).s16(0xa, 2).s16(0xc, static_cast<int16_t>(i)).u8(0xe, 10).u8(0xf, 200)
                .u8(0x10, 255).u8(0x11, 200).u8(0x12, 150).u8(0x13, 1).u8(0x14, 2).u8(0x15, 3).u8(0x16, i == 0).u8(0x17, 90).u8(0x18, 90)
                .u8(0x19, 120).s16(0x1a, static_cast<int16_t>(i == 2 ? 0 : 50)).s16(0x1c, static_cast<int16_t>(i == 2 ? 0 : 400)).u16(0x1e, 0xffff);
            r.append_to(t);
        }
        return t;
    }

    // §3.5: two chunk planes on odd levels, the zero terminator on even ones;
    // odd levels also name a ship path and its camera cuboids.
    LevelSettings settings() {
        LevelSettings s{{&kSettingsSchema, {}, {}}, {&kChunkPlaneSchema, {}, {}}, {}, 3 + spec_.level};
        const bool odd = spec_.level % 2 == 1;
        RecordBuilder r(kSettingsSchema);
        r.s32(0, 20).s32(4, 40).s32(8, 90).s32(0xc, odd ? 100 : -1).s32(0x10, odd ? 110 : 0).s32(0x14, odd ? 120 : 0)
            .f32(0x18, 100).f32(0x1c, 900).f32(0x20, 0).f32(0x24, 1).f32(0x28, -50).floats(0x3c, on_ground(coord(), coord(), 10))
            .f32(0x48, 0.5f).s32(0x4c, odd ? 1 : -1).s32(0x50, odd ? 1 : 0).s32(0x54, odd ? 2 : 0);
        r.append_to(s.first);
        if (odd)
            for (int i = 0; i < 2; ++i)
                RecordBuilder(kChunkPlaneSchema).f32(0, i ? 0 : static_cast<float>(spec_.extent / 2)).f32(4, i ? static_cast<float>(spec_.extent / 2) : 0)
                    .s32(0xc, 2).f32(0x10, i ? 0.f : 1.f).f32(0x14, i ? 1.f : 0.f).append_to(s.planes);
        return s;
    }

    // §3.4: every language slot; one message without a string; bytes past
    // ASCII in the European ones, double-byte text in the Asian ones.
    std::vector<HelpMessage> help(int language) {
        auto bytes = [](const std::string& s) { return Bytes(s.begin(), s.end()); };
        std::vector<HelpMessage> out;
        const char* extra[kLanguageCount] = {"", "Colour", "Caf\xe9", "Stra\337e", "Ni\xf1o", "Citt\xe0", "\x83\x89\x83\x62", "\xb0\xa1"};
        out.push_back({0, {0x1001, -1, -1, -1, -1, 0}, bytes(language == 0 ? help_phrase(spec_.level) : std::string("Level ") + std::to_string(spec_.level))});
        out.push_back({0, {0x1002, 0x2002, 0x3002, 0x4002, 7, 1}, bytes(std::string("Press X \\ ") + extra[language])});
        out.push_back({0, {0x1003, -1, -1, -1, 3, 2}, {}});
        return out;
    }

    RecordTable dir_lights() {
        RecordTable t{&kDirLightSchema, {}, {}};
        const float a[16] = {1, 0.9f, 0.8f, 1, 0, -1, 0, 0, 0.2f, 0.2f, 0.3f, 1, 0.5f, -0.5f, 0, 0};
        RecordBuilder(kDirLightSchema).floats(0, a).append_to(t);
        const float b[16] = {0.5f, 0.5f, 0.6f, 1, 0, 0, -1, 0, 0.1f, 0.1f, 0.1f, 1, 1, 0, 0, 0};
        RecordBuilder(kDirLightSchema).floats(0, b).append_to(t);
        return t;
    }

    // §3.15: inverse matrices of transition volumes and their bounding spheres.
    EnvTransitions env_transitions() {
        EnvTransitions e{{&kSphereSchema, {}, {}}, {&kEnvTransitionSchema, {}, {}}};
        for (int i = 0; i < 2; ++i) {
            const Matrix m = compose(on_ground(coord(), coord(), 4), {0, 0, angle()}, {10, 10, 8});
            const auto corners = unit_cube_corners(m);
            const Vec4 s = bounding_sphere(corners);
            RecordBuilder(kSphereSchema).f32(0, s.x).f32(4, s.y).f32(8, s.z).f32(0xc, s.w).append_to(e.spheres);
            RecordBuilder(kEnvTransitionSchema).floats(0, affine_inverse(m)).u8(0x40, 200).u8(0x41, 180).u8(0x44, 90).s32(0x48, 1).s32(0x4c, 2)
                .s32(0x50, i == 0 ? 3 : 1).u8(0x54, 60).u8(0x58, 70).f32(0x5c, 10).f32(0x60, 0).f32(0x64, 200).f32(0x68, 1)
                .f32(0x6c, 20).f32(0x70, 0).f32(0x74, 300).f32(0x78, 1).append_to(e.transitions);
        }
        return e;
    }

    // §3.16: cuboid 0 and sphere 0 are camera-collision volumes, the grid
    // built as Wrench's writer builds it (formats/gameplay/cam_coll.h).
    std::vector<CamCollCell> cam_coll_cells() {
        const std::vector<CamCollVolume> flagged = {{0, 0, matrix_of(0, 0), 1, 2, 3.f}, {1, 0, matrix_of(1, 0), 1, 2, 3.f}};
        return formats::gameplay::cam_coll_cells(flagged);
    }

    // §3.10: u16 positions in 1/64 units (0 <= coordinate < 1024), radius truncated.
    RecordTable point_lights() {
        RecordTable t{&kPointLightSchema, {}, {}};
        for (int i = 0; i < 4; ++i) {
            const auto p = on_ground(coord(), coord(), 8);
            RecordBuilder r(kPointLightSchema);
            for (int k = 0; k < 3; ++k) r.u16(static_cast<uint16_t>(2 * k), static_cast<uint16_t>(std::lround(std::clamp(p[k], 0.f, 1023.f) * 64)));
            r.u16(6, static_cast<uint16_t>((20 + 5 * i) * 64)).u16(8, 0xffff).u16(10, static_cast<uint16_t>(0x8000 + i)).u16(12, 0x4000);
            r.append_to(t);
        }
        return t;
    }

    RecordTable grind_data() {
        RecordTable t{&kGrindDataSchema, {}, {}};
        for (const auto& spline : grind_paths_) {
            const Vec4 s = bounding_sphere(spline);
            RecordBuilder(kGrindDataSchema).f32(0, s.x).f32(4, s.y).f32(8, s.z).f32(0xc, s.w).s32(0x10, 5).s32(0x14, 1).append_to(t);
        }
        return t;
    }

    // A volume's world matrix (column 3's w back to 1) from its record.
    Matrix matrix_of(int kind, size_t i) const {
        Matrix m;
        for (int k = 0; k < 16; ++k) m[k] = volumes_[kind].f32(i, static_cast<uint16_t>(4 * k));
        m[15] = 1;
        return m;
    }

    // §3.14: two areas over paths, cuboids, spheres, cylinders and a negative
    // cuboid; each bounding sphere covers the member paths' points and the
    // member cuboids', spheres' and cylinders' unit-cube corners (not the
    // negative cuboids), as Wrench recomputes it.
    Areas areas() {
        Areas a;
        a.records = {&kAreaSchema, {}, {}};
        const std::array<std::vector<int32_t>, kAreaParts> links[2] = {{{{0, 1}, {0}, {0}, {}, {2}}}, {{{2}, {1, 2}, {}, {0}, {}}}};
        const std::array<const RecordTable*, 3> volumes = {&volumes_[0], &volumes_[1], &volumes_[2]};
        for (const auto& l : links) {
            RecordBuilder(kAreaSchema).floats(0, sphere_floats(area_sphere(paths_, volumes, l))).append_to(a.records);
            a.links.push_back(l);
        }
        return a;
    }

    // §3.17: tfrag, tie and moby mappings (mobies with occlusion 0, by uid).
    OcclusionMappings occlusion() {
        OcclusionMappings o;
        for (int i = 0; i < std::min(spec_.tfrag_count, 4); ++i) o.kinds[0].push_back({i, i});
        for (size_t i = 0; i < ties_.count(); i += 2) o.kinds[1].push_back({static_cast<int32_t>(i), ties_.s32(i, 0xc)});
        for (size_t i = 0; i < mobies_.count(); ++i)
            if (mobies_.s32(i, 0x6c) == 0) o.kinds[2].push_back({static_cast<int32_t>(i), mobies_.s32(i, 0x10)});
        return o;
    }

    const GameplaySpec& spec_;
    Random& random_;
    RecordTable mobies_, cameras_, sounds_, ties_, shrubs_;
    std::array<RecordTable, 4> volumes_;
    std::vector<std::vector<uint16_t>> moby_groups_;
    std::vector<PvarEntry> pvar_table_;
    std::map<int32_t, bool> class_sub_vars_;  // moby class: whether its pvars carry the sub-vars header
    Bytes pvar_data_;
    std::vector<Fixup> moby_links_, pointer_fixups_;
    SharedData shared_;
    std::vector<TieAmbient> tie_ambient_;
    std::vector<std::vector<Vec4>> paths_, grind_paths_;
    Bytes mappings_;
};

}  // namespace

std::string help_phrase(int level) { return fmt::format("GCFS help phrase for level {:02d}: press X to jump", level); }

Bytes build_gameplay(const GameplaySpec& spec, Random& random, Bytes* mappings) {
    Builder builder(spec, random);
    Bytes file = builder.build();
    if (mappings) *mappings = builder.mappings();
    return file;
}

}  // namespace gcfs::mkdisc
