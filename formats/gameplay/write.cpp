// The writer side of formats-gameplay.md: one encoder per block following
// the writer checklist (§8), and the file assembled in write order (§2.2).
#include <cfloat>
#include <cmath>

#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {
namespace {

void table_header(ByteWriter& w, size_t count, const std::array<int32_t, 3>& words) {
    w.s32(static_cast<int32_t>(count));
    for (int32_t word : words) w.s32(word);
}

void vec4(ByteWriter& w, const Vec4& v) {
    w.f32(v.x);
    w.f32(v.y);
    w.f32(v.z);
    w.f32(v.w);
}

// §3.6: the PathBlockHeader, any per-path records (grind paths), the
// offsets array padded to 16, then each spline 16-aligned with its
// {count, 0, 0, 0} header; offsets are from the data start, data_offset
// from the block start.
Bytes path_block(ByteSpan records, const std::vector<std::vector<Vec4>>& all) {
    ByteWriter w;
    w.zeros(0x10);
    w.append(records);
    const uint64_t offsets_at = w.size();
    w.zeros(4 * all.size());
    w.pad_to(16);
    const uint64_t data = w.size();
    for (size_t i = 0; i < all.size(); ++i) {
        w.pad_to(16);
        w.patch_u32(offsets_at + 4 * i, static_cast<uint32_t>(w.size() - data));
        table_header(w, all[i].size(), {});
        for (const Vec4& v : all[i]) vec4(w, v);
    }
    w.patch_u32(0, static_cast<uint32_t>(all.size()));
    w.patch_u32(4, static_cast<uint32_t>(data));
    w.patch_u32(8, static_cast<uint32_t>(w.size() - data));
    return w.bytes();
}

}  // namespace

Bytes encode_table(const RecordTable& table) {
    ByteWriter w;
    table_header(w, table.count(), table.header);
    w.append(table.bytes);
    return w.bytes();
}

Bytes encode_level_settings(const LevelSettings& s) {
    ByteWriter w;
    w.append(s.first.bytes);
    if (s.planes.count() == 0)
        w.zeros(0x20);  // §8.8: the zero terminator
    else
        w.append(s.planes.bytes);
    w.s32(s.core_sounds_count);
    return w.bytes();
}

Bytes encode_help(const std::vector<HelpMessage>& messages) {
    ByteWriter w;
    w.s32(static_cast<int32_t>(messages.size()));
    w.s32(0);  // size, patched below
    for (const auto& m : messages) {
        w.s32(0);  // offset, patched when the string is written
        for (int16_t id : m.ids) w.s16(id);
    }
    for (size_t i = 0; i < messages.size(); ++i) {
        if (messages[i].text.empty()) continue;  // §3.4: offset 0 = no string
        w.patch_u32(8 + 16 * i, static_cast<uint32_t>(w.size()));
        w.append(messages[i].text);
        w.u8(0);
        w.pad_to(4);  // GC pads each string to 4 (§8.7)
    }
    w.patch_u32(4, static_cast<uint32_t>(w.size()));
    return w.bytes();
}

Bytes encode_class_list(const std::vector<int32_t>& classes) {
    ByteWriter w;
    w.s32(static_cast<int32_t>(classes.size()));
    for (int32_t c : classes) w.s32(c);
    return w.bytes();
}

std::vector<int32_t> first_appearance_classes(const RecordTable& instances) {
    std::vector<int32_t> out;
    for (size_t i = 0; i < instances.count(); ++i)
        if (std::find(out.begin(), out.end(), instances.s32(i, 0)) == out.end()) out.push_back(instances.s32(i, 0));
    return out;
}

Bytes encode_groups(const std::vector<std::vector<uint16_t>>& members) {
    ByteWriter w;
    w.s32(static_cast<int32_t>(members.size()));
    w.s32(0);  // data_size, patched below
    w.zeros(8);
    const uint64_t pointers = w.size();
    w.zeros(4 * members.size());
    w.pad_to(16);
    const uint64_t area = w.size();
    for (size_t i = 0; i < members.size(); ++i) {
        if (members[i].empty()) {
            w.patch_u32(pointers + 4 * i, 0xffffffffu);  // §3.11: -1 for an empty group
            continue;
        }
        w.patch_u32(pointers + 4 * i, static_cast<uint32_t>(w.size() - area));
        for (size_t k = 0; k < members[i].size(); ++k)
            w.u16(static_cast<uint16_t>(members[i][k] | (k + 1 == members[i].size() ? 0x8000 : 0)));
    }
    w.pad_to(16);
    w.patch_u32(4, static_cast<uint32_t>(w.size() - area));
    return w.bytes();
}

Bytes encode_pvar_table(const std::vector<PvarEntry>& entries) {
    ByteWriter w;
    for (const auto& e : entries) {
        w.s32(e.offset);
        w.s32(e.size);
    }
    return w.bytes();
}

Bytes encode_fixups(const std::vector<Fixup>& fixups) {
    ByteWriter w;
    for (const auto& f : fixups) {
        w.s32(f.pvar_index);
        w.u32(f.offset);
    }
    w.s32(-1);  // §8.11: terminated by {-1, -1}
    w.s32(-1);
    return w.bytes();
}

Bytes encode_shared_data(const SharedData& s) {
    ByteWriter w;
    w.s32(s.data_size);
    w.s32(static_cast<int32_t>(s.pointers.size()));
    for (int32_t u : s.unused) w.s32(u);
    w.append(s.data);
    w.zeros(static_cast<uint64_t>(s.data_size) - s.data.size());
    for (const auto& p : s.pointers) {
        w.u16(p.pvar_index);
        w.u16(p.pointer_offset);
        w.s32(p.shared_offset);
    }
    return w.bytes();
}

Bytes encode_paths(const std::vector<std::vector<Vec4>>& all) { return path_block({}, all); }

Bytes encode_grind_paths(const RecordTable& grind, const std::vector<std::vector<Vec4>>& all) {
    return path_block(grind.bytes, all);
}

// §3.10: bit i of column x is set iff light i's [x - r, x + r] overlaps
// (16x, 16x + 16), strictly; likewise rows on y. Positions are 1/64 units.
Bytes encode_point_lights(const RecordTable& lights) {
    ByteWriter w;
    table_header(w, lights.count(), lights.header);
    Bytes masks(0x800, 0);
    for (size_t i = 0; i < lights.count(); ++i) {
        const ByteSpan r = lights.record(i);
        const double radius = u16_at(r, 6) / 64.0;
        for (int axis = 0; axis < 2; ++axis) {
            const double centre = u16_at(r, 2 * axis) / 64.0;
            for (int cell = 0; cell < 64; ++cell)
                if (centre - radius < 16.0 * cell + 16 && centre + radius > 16.0 * cell)
                    masks[0x400 * axis + 16 * cell + i / 8] |= static_cast<uint8_t>(1 << (i % 8));
        }
    }
    w.append(masks);
    w.append(lights.bytes);
    return w.bytes();
}

Bytes encode_env_transitions(const EnvTransitions& e) {
    ByteWriter w;
    table_header(w, e.transitions.count(), e.spheres.header);
    w.append(e.spheres.bytes);
    w.append(e.transitions.bytes);
    return w.bytes();
}

// §3.16: the count word holds the block length - 4; lists 16-aligned.
Bytes encode_cam_coll_grid(const std::vector<CamCollCell>& cells) {
    ByteWriter w;
    w.zeros(0x10 + 0x4000);
    for (const auto& cell : cells) {
        w.pad_to(16);
        w.patch_u32(0x10 + 4 * static_cast<uint64_t>(cell.cell), static_cast<uint32_t>(w.size() - 0x10));
        table_header(w, cell.prims.count(), cell.prims.header);
        w.append(cell.prims.bytes);
    }
    w.patch_u32(0, static_cast<uint32_t>(w.size() - 4));
    return w.bytes();
}

Bytes encode_occlusion(const OcclusionMappings& o) {
    ByteWriter w;
    for (const auto& kind : o.kinds) w.s32(static_cast<int32_t>(kind.size()));
    w.s32(o.pad);
    for (const auto& kind : o.kinds)
        for (const auto& m : kind) {
            w.s32(m.bit_index);
            w.s32(m.id);
        }
    return w.bytes();
}

Bytes encode_tie_ambient(const std::vector<TieAmbient>& ambient) {
    ByteWriter w;
    for (const auto& a : ambient) {
        w.s16(a.tie_index);
        w.s16(static_cast<int16_t>(a.data.size() / 2));
        w.append(a.data);
    }
    w.s16(-1);  // §3.18: terminated by -1
    return w.bytes();
}

// §3.14: each part's links of every area back to back, parts in order; a
// part no area uses has offset 0. Counts and relative offsets are set here.
Bytes encode_areas(const Areas& areas) {
    ByteWriter w;
    w.zeros(4 + 0x20);
    RecordTable records = areas.records;
    Bytes links;
    std::array<int32_t, kAreaParts> part_offsets{};
    const uint64_t links_start = 0x20 + records.bytes.size();  // relative to the AreasHeader
    for (int p = 0; p < kAreaParts; ++p) {
        const uint64_t part_start = links.size();
        for (size_t a = 0; a < areas.links.size(); ++a) {
            const auto& list = areas.links[a][p];
            uint8_t* rec = records.bytes.data() + 0x30 * a;
            const auto n = static_cast<uint16_t>(list.size());
            rec[0x10 + 2 * p] = static_cast<uint8_t>(n);
            rec[0x11 + 2 * p] = static_cast<uint8_t>(n >> 8);
            const auto relative = static_cast<uint32_t>(list.empty() ? 0 : links.size() - part_start);
            for (int b = 0; b < 4; ++b) rec[0x1c + 4 * p + b] = static_cast<uint8_t>(relative >> (8 * b));
            for (int32_t link : list)
                for (int b = 0; b < 4; ++b) links.push_back(static_cast<uint8_t>(static_cast<uint32_t>(link) >> (8 * b)));
        }
        if (links.size() > part_start) part_offsets[p] = static_cast<int32_t>(links_start + part_start);
    }
    w.append(records.bytes);
    w.append(links);
    w.patch_u32(0, static_cast<uint32_t>(w.size() - 4));
    w.patch_u32(4, static_cast<uint32_t>(records.count()));
    for (int p = 0; p < kAreaParts; ++p) w.patch_u32(8 + 4 * p, static_cast<uint32_t>(part_offsets[p]));
    w.patch_u32(0x1c, static_cast<uint32_t>(areas.unused[0]));
    w.patch_u32(0x20, static_cast<uint32_t>(areas.unused[1]));
    return w.bytes();
}

Bytes assemble(const std::array<std::optional<Bytes>, kBlockCount>& blocks) {
    ByteWriter w;
    w.zeros(kHeaderSize);
    w.pad_to(16);
    for (const BlockInfo& b : kWriteOrder) {
        const auto& block = blocks[static_cast<size_t>(b.block)];
        // §2.2: Wrench pads before every block, present or not, except the
        // occlusion block, padded (to 64) only when present.
        if (b.block != Block::occlusion || block) w.pad_to(b.align);
        if (!block) continue;
        w.patch_u32(slot_offset(b.block), static_cast<uint32_t>(w.size()));
        w.append(*block);
    }
    return w.bytes();
}

std::array<std::optional<Bytes>, kBlockCount> raw_blocks(const Gameplay& g) {
    std::array<std::optional<Bytes>, kBlockCount> out;
    auto keep = [&](Block b, const auto& d) {
        if (d.present()) out[static_cast<size_t>(b)] = d.bytes;
    };
    keep(Block::level_settings, g.level_settings);
    for (int l = 0; l < kLanguageCount; ++l) keep(help_block(l), g.help[l]);
    keep(Block::dir_lights, g.dir_lights);
    keep(Block::cameras, g.cameras);
    keep(Block::sounds, g.sounds);
    keep(Block::tie_classes, g.tie_classes);
    keep(Block::ties, g.ties);
    keep(Block::tie_groups, g.tie_groups);
    keep(Block::shrub_classes, g.shrub_classes);
    keep(Block::shrubs, g.shrubs);
    keep(Block::shrub_groups, g.shrub_groups);
    keep(Block::moby_classes, g.moby_classes);
    keep(Block::mobies, g.mobies);
    keep(Block::moby_groups, g.moby_groups);
    keep(Block::shared_data, g.shared_data);
    keep(Block::moby_link_fixups, g.moby_link_fixups);
    keep(Block::pvar_table, g.pvar_table);
    keep(Block::pvar_data, g.pvar_data);
    keep(Block::pointer_fixups, g.pointer_fixups);
    keep(Block::cuboids, g.cuboids);
    keep(Block::spheres, g.spheres);
    keep(Block::cylinders, g.cylinders);
    keep(Block::pills, g.pills);
    keep(Block::paths, g.paths);
    keep(Block::grind_paths, g.grind_paths);
    keep(Block::point_lights, g.point_lights);
    keep(Block::env_transitions, g.env_transitions);
    keep(Block::cam_coll_grid, g.cam_coll_grid);
    keep(Block::env_samples, g.env_samples);
    keep(Block::occlusion, g.occlusion);
    keep(Block::tie_ambient, g.tie_ambient);
    keep(Block::areas, g.areas);
    return out;
}

// §3.6: centre = the middle of the points' bounding box, whose running
// maximum starts at FLT_MIN as Wrench's does; radius = farthest point.
Vec4 bounding_sphere(std::span<const Vec4> points) {
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {FLT_MIN, FLT_MIN, FLT_MIN};
    for (const Vec4& p : points) {
        const float c[3] = {p.x, p.y, p.z};
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], c[k]);
            hi[k] = std::max(hi[k], c[k]);
        }
    }
    Vec4 s{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2, 0};
    for (const Vec4& p : points)
        s.w = std::max(s.w, std::sqrt((p.x - s.x) * (p.x - s.x) + (p.y - s.y) * (p.y - s.y) + (p.z - s.z) * (p.z - s.z)));
    return s;
}

std::array<Vec4, 8> unit_cube_corners(std::span<const float, 16> m) {
    std::array<Vec4, 8> out;
    for (int i = 0; i < 8; ++i) {
        const float u[3] = {i & 1 ? 1.f : -1.f, i & 2 ? 1.f : -1.f, i & 4 ? 1.f : -1.f};
        float p[3];
        for (int r = 0; r < 3; ++r) p[r] = m[12 + r] + u[0] * m[r] + u[1] * m[4 + r] + u[2] * m[8 + r];
        out[i] = {p[0], p[1], p[2], 1};
    }
    return out;
}

}  // namespace gcfs::formats::gameplay
