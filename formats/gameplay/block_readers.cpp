// One reader per gameplay block (formats-gameplay.md §3). Each gets the file
// cut at the next block, so no block reads into its neighbour, and reports
// file offsets.
#include "formats/gameplay/block_readers.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace gcfs::formats::gameplay {
namespace {

void check_finite(const RecordTable& table, uint64_t at) {
    for (size_t i = 0; i < table.count(); ++i)
        for (const Field& field : table.schema->fields)
            if (field.type == FieldType::f32 && !std::isfinite(table.f32(i, field.offset)))
                fail(Errc::bad_value, at + i * table.schema->size + field.offset,
                     fmt::format("{} {} field {} is not a finite float", table.schema->name, i, field.name));
}

// `count` records at `at`, checked against the bytes before any allocation.
RecordTable read_records(ByteSpan f, uint64_t at, int64_t count, const RecordSchema& schema) {
    if (count < 0) fail(Errc::bad_value, at, fmt::format("negative {} count {}", schema.name, count));
    const uint64_t bytes = static_cast<uint64_t>(count) * schema.size;
    require(f, at, bytes, schema.name.data());
    RecordTable table{&schema, {}, Bytes(f.begin() + at, f.begin() + at + bytes)};
    check_finite(table, at);
    return table;
}

Bytes read_bytes(ByteSpan f, uint64_t at, uint64_t length, const char* what) {
    require(f, at, length, what);
    return Bytes(f.begin() + at, f.begin() + at + length);
}

// §0 TableHeader words 1..3 (written 0; kept for a byte-exact re-write).
std::array<int32_t, 3> header_words(ByteSpan f, uint64_t at) {
    return {s32_at(f, at + 4), s32_at(f, at + 8), s32_at(f, at + 12)};
}

int32_t nonnegative(ByteSpan f, uint64_t at, const char* what) {
    const int32_t v = s32_at(f, at);
    if (v < 0) fail(Errc::bad_value, at, fmt::format("{} is negative ({})", what, v));
    return v;
}

}  // namespace

// §0 TableHeader {count, pad[3]} and its records.
RecordTable read_table(ByteSpan f, uint64_t at, const RecordSchema& schema, uint64_t& length) {
    const int32_t count = s32_at(f, at);
    RecordTable table = read_records(f, at + 0x10, count, schema);
    table.header = header_words(f, at);
    length = 0x10 + table.bytes.size();
    return table;
}

// §3.5
LevelSettings read_settings(ByteSpan f, uint64_t at, uint64_t& length) {
    LevelSettings s;
    s.first = read_records(f, at, 1, kSettingsSchema);
    const int32_t planes = s32_at(f, at + 0x68);
    if (planes <= 0) {
        s.terminator = read_bytes(f, at + 0x5c, 0x20, "chunk-plane terminator");
    } else {
        s.planes = read_records(f, at + 0x5c, planes, kChunkPlaneSchema);
        for (size_t i = 0; i < s.planes.count(); ++i)
            if (s.planes.s32(i, 0xc) != planes)
                fail(Errc::bad_value, at + 0x5c + 0x20 * i + 0xc,
                     fmt::format("chunk plane {} says {} planes, the first says {}", i, s.planes.s32(i, 0xc), planes));
    }
    const uint64_t end = at + 0x5c + 0x20 * static_cast<uint64_t>(std::max(1, planes));
    s.core_sounds_count = s32_at(f, end);
    length = end + 4 - at;
    return s;
}

// §3.4 (GC: offsets and size from the block start, size includes the header)
HelpMessages read_help(ByteSpan f, uint64_t at, uint64_t& length) {
    HelpMessages h;
    const int32_t count = nonnegative(f, at, "help message count");
    h.size = s32_at(f, at + 4);
    const uint64_t table_end = 8 + 16 * static_cast<uint64_t>(count);
    if (h.size < 0 || static_cast<uint64_t>(h.size) < table_end)
        fail(Errc::size_mismatch, at + 4,
             fmt::format("help block size {} is smaller than its {}-message table ({} bytes)", h.size, count, table_end));
    require(f, at, static_cast<uint64_t>(h.size), "help block");
    const ByteSpan block = f.subspan(at, static_cast<uint64_t>(h.size));
    h.messages.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) {
        const uint64_t e = 8 + 16 * static_cast<uint64_t>(i);
        HelpMessage m;
        m.offset = s32_at(block, e);
        for (int k = 0; k < 6; ++k) m.ids[k] = s16_at(block, e + 4 + 2 * k);
        if (m.offset != 0) {
            if (m.offset < 0 || static_cast<uint64_t>(m.offset) < table_end || m.offset >= h.size)
                fail(Errc::out_of_range, at + e,
                     fmt::format("help message {} string offset 0x{:x} is outside the strings [0x{:x}, 0x{:x})", i,
                                 m.offset, table_end, h.size));
            const auto begin = block.begin() + m.offset;
            const auto nul = std::find(begin, block.end(), uint8_t{0});
            if (nul == block.end())
                fail(Errc::truncated, at + static_cast<uint64_t>(m.offset),
                     fmt::format("help message {} has no NUL before the block's end", i));
            m.text.assign(begin, nul);
        }
        h.messages.push_back(std::move(m));
    }
    length = static_cast<uint64_t>(h.size);
    return h;
}

// §3.12
std::vector<int32_t> read_class_list(ByteSpan f, uint64_t at, uint64_t& length) {
    const int32_t count = nonnegative(f, at, "class count");
    require(f, at + 4, 4 * static_cast<uint64_t>(count), "class list");
    std::vector<int32_t> ids(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) ids[i] = s32_at(f, at + 4 + 4 * static_cast<uint64_t>(i));
    length = 4 + 4 * static_cast<uint64_t>(count);
    return ids;
}

// §3.11
Groups read_groups(ByteSpan f, uint64_t at, uint64_t& length) {
    Groups g;
    const int32_t count = nonnegative(f, at, "group count");
    g.data_size = nonnegative(f, at + 4, "group member area size");
    const uint64_t area = align_up(0x10 + 4 * static_cast<uint64_t>(count), 16);
    require(f, at, area + static_cast<uint64_t>(g.data_size), "group block");
    g.groups.resize(static_cast<size_t>(count));
    uint64_t words = 0;  // each member word belongs to one group (Wrench writes them back to back)
    for (int32_t i = 0; i < count; ++i) {
        Group& group = g.groups[i];
        const uint64_t slot = at + 0x10 + 4 * static_cast<uint64_t>(i);
        group.pointer = s32_at(f, slot);
        if (group.pointer == -1) continue;
        if (group.pointer < 0 || group.pointer % 2 != 0 || group.pointer >= g.data_size)
            fail(Errc::out_of_range, slot,
                 fmt::format("group {} member offset {} is not an even offset inside its {}-byte area", i, group.pointer,
                             g.data_size));
        for (uint64_t m = static_cast<uint64_t>(group.pointer);; m += 2) {
            if (m + 2 > static_cast<uint64_t>(g.data_size))
                fail(Errc::truncated, at + area + m, fmt::format("group {} runs past its member area", i));
            if (++words > static_cast<uint64_t>(g.data_size) / 2)
                fail(Errc::bad_value, slot, fmt::format("group {} shares member words with another group", i));
            const uint16_t word = u16_at(f, at + area + m);
            group.members.push_back(word & 0x7fff);
            if (word & 0x8000) break;
        }
    }
    length = area + static_cast<uint64_t>(g.data_size);
    return g;
}

// §3.13
std::vector<Fixup> read_fixups(ByteSpan f, uint64_t at, uint64_t& length) {
    std::vector<Fixup> fixups;
    for (uint64_t e = at;; e += 8) {
        const int32_t pvar = s32_at(f, e);
        const uint32_t offset = u32_at(f, e + 4);
        if (pvar < 0) {
            length = e + 8 - at;
            return fixups;
        }
        fixups.push_back({pvar, offset});
    }
}

SharedData read_shared(ByteSpan f, uint64_t at, uint64_t& length) {
    SharedData s;
    s.data_size = nonnegative(f, at, "shared data size");
    const int32_t pointers = nonnegative(f, at + 4, "shared data pointer count");
    s.unused = {s32_at(f, at + 8), s32_at(f, at + 12)};
    length = 0x10 + static_cast<uint64_t>(s.data_size) + 8 * static_cast<uint64_t>(pointers);
    require(f, at, length, "shared data block");
    s.data = read_bytes(f, at + 0x10, static_cast<uint64_t>(s.data_size), "shared data");
    const uint64_t table = at + 0x10 + static_cast<uint64_t>(s.data_size);
    for (int32_t i = 0; i < pointers; ++i) {
        const uint64_t e = table + 8 * static_cast<uint64_t>(i);
        SharedPointer p{u16_at(f, e), u16_at(f, e + 2), s32_at(f, e + 4)};
        if (p.shared_offset < 0 || p.shared_offset >= s.data_size)
            fail(Errc::out_of_range, e + 4,
                 fmt::format("shared pointer {} targets 0x{:x}, outside {} bytes of shared data", i, p.shared_offset,
                             s.data_size));
        s.pointers.push_back(p);
    }
    return s;
}

// §3.18
std::vector<TieAmbient> read_tie_ambient(ByteSpan f, uint64_t at, uint64_t& length) {
    std::vector<TieAmbient> all;
    uint64_t e = at;
    for (int previous = -1;;) {
        const int16_t tie = s16_at(f, e);
        if (tie == -1) break;
        const int16_t halfwords = s16_at(f, e + 2);
        if (tie <= previous)
            fail(Errc::bad_value, e, fmt::format("tie ambient entry for tie {} follows tie {}", tie, previous));
        if (halfwords < 0) fail(Errc::bad_value, e + 2, fmt::format("tie {} ambient size {} is negative", tie, halfwords));
        all.push_back({tie, read_bytes(f, e + 4, 2 * static_cast<uint64_t>(halfwords), "tie ambient data")});
        e += 4 + 2 * static_cast<uint64_t>(halfwords);
        previous = tie;
    }
    length = e + 2 - at;
    return all;
}

// §3.6: both spline lists; grind paths have 0x20-byte records before the offsets.
Paths read_paths(ByteSpan f, uint64_t at, bool grind, uint64_t& length) {
    Paths p;
    const int32_t count = nonnegative(f, at, "path count");
    p.data_offset = s32_at(f, at + 4);
    p.data_size = nonnegative(f, at + 8, "path data size");
    p.pad = s32_at(f, at + 12);
    const uint64_t n = static_cast<uint64_t>(count);
    if (grind) p.grind = read_records(f, at + 0x10, count, kGrindDataSchema);
    const uint64_t offsets = at + 0x10 + (grind ? 0x20 * n : 0);
    if (p.data_offset < 0 || static_cast<uint64_t>(p.data_offset) < offsets + 4 * n - at)
        fail(Errc::out_of_range, at + 4,
             fmt::format("path data offset 0x{:x} overlaps the {}-path header", p.data_offset, count));
    length = static_cast<uint64_t>(p.data_offset) + static_cast<uint64_t>(p.data_size);
    require(f, at, length, "path block");
    const uint64_t data = at + static_cast<uint64_t>(p.data_offset);
    p.splines.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
        Spline s;
        s.offset = s32_at(f, offsets + 4 * i);
        if (s.offset < 0 || s.offset % 16 != 0 || static_cast<uint64_t>(s.offset) + 0x10 > static_cast<uint64_t>(p.data_size))
            fail(Errc::out_of_range, offsets + 4 * i,
                 fmt::format("path {} offset 0x{:x} is not a 16-aligned header inside {} data bytes", i, s.offset,
                             p.data_size));
        const uint64_t head = data + static_cast<uint64_t>(s.offset);
        const int32_t vertices = nonnegative(f, head, "path vertex count");
        s.header = header_words(f, head);
        if (static_cast<uint64_t>(s.offset) + 0x10 + 16 * static_cast<uint64_t>(vertices) > static_cast<uint64_t>(p.data_size))
            fail(Errc::size_mismatch, head,
                 fmt::format("path {} declares {} points, past the block's {} data bytes", i, vertices, p.data_size));
        s.vertices.resize(static_cast<size_t>(vertices));
        for (int32_t v = 0; v < vertices; ++v) {
            const uint64_t point = head + 0x10 + 16 * static_cast<uint64_t>(v);
            float* xyzw[4] = {&s.vertices[v].x, &s.vertices[v].y, &s.vertices[v].z, &s.vertices[v].w};
            for (int k = 0; k < 4; ++k) {
                *xyzw[k] = f32_at(f, point + 4 * k);
                if (!std::isfinite(*xyzw[k]))
                    fail(Errc::bad_value, point + 4 * k, fmt::format("path {} point {} is not finite", i, v));
            }
        }
        p.splines.push_back(std::move(s));
    }
    return p;
}

// §3.10
PointLights read_point_lights(ByteSpan f, uint64_t at, uint64_t& length) {
    PointLights p;
    const int32_t count = s32_at(f, at);
    if (count < 0 || count >= 128)
        fail(Errc::bad_value, at, fmt::format("{} point lights: the masks hold 127 at most", count));
    p.masks = read_bytes(f, at + 0x10, 0x800, "point-light masks");
    p.lights = read_records(f, at + 0x810, count, kPointLightSchema);
    p.lights.header = header_words(f, at);
    for (size_t byte = 0; byte < p.masks.size(); ++byte)
        for (int bit = 0; bit < 8; ++bit)
            if ((p.masks[byte] >> bit & 1) && static_cast<int>((byte % 16) * 8 + bit) >= count)
                fail(Errc::bad_value, at + 0x10 + byte,
                     fmt::format("a point-light mask names light {} of {}", (byte % 16) * 8 + bit, count));
    length = 0x810 + p.lights.bytes.size();
    return p;
}

// §3.15
EnvTransitions read_env_transitions(ByteSpan f, uint64_t at, uint64_t& length) {
    EnvTransitions e;
    const int32_t count = s32_at(f, at);
    e.spheres = read_records(f, at + 0x10, count, kSphereSchema);
    e.spheres.header = header_words(f, at);
    e.transitions = read_records(f, at + 0x10 + e.spheres.bytes.size(), count, kEnvTransitionSchema);
    length = 0x10 + e.spheres.bytes.size() + e.transitions.bytes.size();
    return e;
}

// §3.16
CamCollGrid read_cam_coll_grid(ByteSpan f, uint64_t at, uint64_t& length) {
    CamCollGrid g;
    g.length_field = s32_at(f, at);
    if (g.length_field < 0x400c)
        fail(Errc::size_mismatch, at, fmt::format("cam coll grid length {} is below the 64x64 cell table", g.length_field + 4));
    length = 4 + static_cast<uint64_t>(g.length_field);
    require(f, at, length, "cam coll grid");
    const ByteSpan block = f.subspan(0, at + length);
    uint64_t listed = 0;  // bytes of cell lists: each list has its own bytes, so no more than the block holds
    for (int cell = 0; cell < 64 * 64; ++cell) {
        const uint64_t slot = at + 0x10 + 4 * static_cast<uint64_t>(cell);
        const int32_t offset = s32_at(f, slot);
        if (offset == 0) continue;
        if (offset < 0 || offset % 16 != 0)
            fail(Errc::out_of_range, slot, fmt::format("cell {} list offset 0x{:x} is not 16-aligned", cell, offset));
        const uint64_t list = at + 0x10 + static_cast<uint64_t>(offset);
        CamCollCell c{cell, offset, {}};
        const int32_t prims = s32_at(block, list);
        listed += 0x10 + 0x30 * static_cast<uint64_t>(std::max(prims, 0));
        if (listed > length - 0x4010)
            fail(Errc::bad_value, slot, fmt::format("cell {} list at 0x{:x} overlaps another cell's", cell, offset));
        c.prims = read_records(block, list + 0x10, prims, kCamCollPrimSchema);
        c.prims.header = header_words(block, list);
        for (size_t i = 0; i < c.prims.count(); ++i) {
            const int32_t type = c.prims.s32(i, 0x10);
            if (type != 3 && type != 5 && type != 6 && type != 7)
                fail(Errc::bad_value, list + 0x10 + 0x30 * i + 0x10,
                     fmt::format("cell {} primitive {} has type {} (3, 5, 6 or 7)", cell, i, type));
        }
        g.cells.push_back(std::move(c));
    }
    return g;
}

// §3.17
OcclusionMappings read_occlusion(ByteSpan f, uint64_t at, uint64_t& length) {
    OcclusionMappings o;
    uint64_t total = 0;
    for (int k = 0; k < 3; ++k) total += static_cast<uint64_t>(nonnegative(f, at + 4 * k, "occlusion mapping count"));
    o.pad = s32_at(f, at + 12);
    require(f, at + 0x10, 8 * total, "occlusion mappings");
    uint64_t e = at + 0x10;
    for (int k = 0; k < 3; ++k)
        for (int32_t i = 0; i < s32_at(f, at + 4 * k); ++i, e += 8) o.kinds[k].push_back({s32_at(f, e), s32_at(f, e + 4)});
    length = 0x10 + 8 * total;
    return o;
}

// §3.14
Areas read_areas(ByteSpan f, uint64_t at, uint64_t& length) {
    Areas a;
    const int32_t size = nonnegative(f, at, "areas size");
    length = 4 + static_cast<uint64_t>(size);
    require(f, at, length, "areas block");
    const ByteSpan block = f.subspan(0, at + length);
    const uint64_t head = at + 4;
    const int32_t count = s32_at(block, head);
    for (int p = 0; p < kAreaParts; ++p) a.part_offsets[p] = s32_at(block, head + 4 + 4 * p);
    a.unused = {s32_at(block, head + 0x18), s32_at(block, head + 0x1c)};
    a.records = read_records(block, head + 0x20, count, kAreaSchema);
    for (size_t i = 0; i < a.records.count(); ++i) {
        auto& links = a.links.emplace_back();
        const ByteSpan r = a.records.record(i);
        for (int p = 0; p < kAreaParts; ++p) {
            const int16_t n = s16_at(r, 0x10 + 2 * p);
            const int32_t relative = s32_at(r, 0x1c + 4 * p);
            if (n == 0) continue;
            const int64_t start = static_cast<int64_t>(a.part_offsets[p]) + relative;
            if (n < 0 || start < 0 || static_cast<uint64_t>(start) + 4 * static_cast<uint64_t>(n) > static_cast<uint64_t>(size))
                fail(Errc::out_of_range, head + 0x20 + 0x30 * i + 0x10 + 2 * p,
                     fmt::format("area {} lists {} {} at 0x{:x}, outside the {}-byte block", i, n, kAreaPartNames[p],
                                 start, size));
            for (int16_t k = 0; k < n; ++k) links[p].push_back(s32_at(block, head + static_cast<uint64_t>(start) + 4 * k));
        }
    }
    return a;
}

}  // namespace gcfs::formats::gameplay
