// formats-gameplay.md §5: the blocks are read in write order (§2.2), each cut
// at the next present block (§6.2), then the links between blocks are checked
// (§6). A block that fails any check loses its value and keeps the error.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "formats/gameplay/block_readers.h"

namespace gcfs::formats::gameplay {
namespace {

class Reader {
public:
    explicit Reader(ByteSpan file, Gameplay& g) : file_(file), g_(g) {}

    void run() {
        if (file_.size() < kHeaderSize) {
            g_.file_error = fmt::format("the file has {} bytes; its block table needs 0x{:x} (formats-gameplay.md 2)",
                                        file_.size(), kHeaderSize);
            return;
        }
        for (size_t i = 0; i < kBlockCount; ++i) g_.slots[i] = s32_at(file_, 4 * i);
        for (size_t k = 0; k < kBlockCount; ++k) read_block(k);
        check_links();
    }

private:
    int32_t slot(Block b) const { return g_.slots[static_cast<size_t>(b)]; }

    // The offset of the next present block in write order, or the file's end
    // (also when that block's slot points past the end: its own read fails).
    uint64_t next_block(size_t k) const {
        for (size_t j = k + 1; j < kBlockCount; ++j)
            if (slot(kWriteOrder[j].block) != 0)
                return std::min<uint64_t>(static_cast<uint32_t>(slot(kWriteOrder[j].block)), file_.size());
        return file_.size();
    }

    template <class T, class Parse>
    void decode(size_t k, Decoded<T>& d, Parse parse) {
        const BlockInfo& block = kWriteOrder[k];
        const int32_t at = slot(block.block);
        if (at == 0) return;
        d.offset = static_cast<uint32_t>(at);
        const uint64_t header_slot = slot_offset(block.block);
        const uint64_t next = next_block(k);
        if (at < static_cast<int32_t>(kHeaderSize) || static_cast<uint64_t>(at) > file_.size())
            return set_error(d, FormatError{Errc::out_of_range, header_slot,
                                            fmt::format("{} at 0x{:x} is outside [0x9c, 0x{:x}]", block.name, at, file_.size())});
        if (at % block.align != 0)
            return set_error(d, FormatError{Errc::bad_value, header_slot,
                                            fmt::format("{} at 0x{:x} is not {}-aligned (2.2)", block.name, at, block.align)});
        if (next < static_cast<uint64_t>(at))
            return set_error(d, FormatError{Errc::out_of_range, header_slot,
                                            fmt::format("{} at 0x{:x} comes after the next block in write order (0x{:x})",
                                                        block.name, at, next)});
        auto result = capture([&] {
            uint64_t length = 0;
            T value = parse(file_.first(next), static_cast<uint64_t>(at), length);
            return std::pair{std::move(value), length};
        });
        if (!result) return set_error(d, result.error());
        d.length = result->second;
        d.bytes.assign(file_.begin() + at, file_.begin() + at + static_cast<int64_t>(d.length));
        d.value = std::move(result->first);
    }

    template <class T>
    void set_error(Decoded<T>& d, const FormatError& error) {
        d.value.reset();
        d.error = error.describe();
    }

    void read_block(size_t k) {
        auto table = [&](Decoded<RecordTable>& d, const RecordSchema& schema) {
            decode(k, d, [&](ByteSpan f, uint64_t at, uint64_t& n) { return read_table(f, at, schema, n); });
        };
        switch (const Block b = kWriteOrder[k].block) {
            case Block::env_samples: return table(g_.env_samples, kEnvSampleSchema);
            case Block::level_settings: return decode(k, g_.level_settings, read_settings);
            case Block::dir_lights: return table(g_.dir_lights, kDirLightSchema);
            case Block::env_transitions: return decode(k, g_.env_transitions, read_env_transitions);
            case Block::cameras: return table(g_.cameras, kCameraSchema);
            case Block::sounds: return table(g_.sounds, kSoundSchema);
            case Block::moby_classes: return decode(k, g_.moby_classes, read_class_list);
            case Block::mobies: return table(g_.mobies, kMobySchema);
            case Block::pvar_table: return decode(k, g_.pvar_table, [&](ByteSpan f, uint64_t at, uint64_t& n) {
                return read_pvar_table(f, at, n);
            });
            case Block::pvar_data: return decode(k, g_.pvar_data, [&](ByteSpan f, uint64_t at, uint64_t& n) {
                return read_pvar_data(f, at, n);
            });
            case Block::moby_link_fixups: return decode(k, g_.moby_link_fixups, read_fixups);
            case Block::pointer_fixups: return decode(k, g_.pointer_fixups, read_fixups);
            case Block::moby_groups: return decode(k, g_.moby_groups, read_groups);
            case Block::shared_data: return decode(k, g_.shared_data, read_shared);
            case Block::tie_classes: return decode(k, g_.tie_classes, read_class_list);
            case Block::ties: return table(g_.ties, kTieSchema);
            case Block::tie_ambient: return decode(k, g_.tie_ambient, read_tie_ambient);
            case Block::tie_groups: return decode(k, g_.tie_groups, read_groups);
            case Block::shrub_classes: return decode(k, g_.shrub_classes, read_class_list);
            case Block::shrubs: return table(g_.shrubs, kShrubSchema);
            case Block::shrub_groups: return decode(k, g_.shrub_groups, read_groups);
            case Block::paths: return decode(k, g_.paths, [](ByteSpan f, uint64_t at, uint64_t& n) { return read_paths(f, at, false, n); });
            case Block::cuboids: return table(g_.cuboids, kVolumeSchema);
            case Block::spheres: return table(g_.spheres, kVolumeSchema);
            case Block::cylinders: return table(g_.cylinders, kVolumeSchema);
            case Block::pills: return table(g_.pills, kVolumeSchema);
            case Block::cam_coll_grid: return decode(k, g_.cam_coll_grid, read_cam_coll_grid);
            case Block::point_lights: return decode(k, g_.point_lights, read_point_lights);
            case Block::grind_paths: return decode(k, g_.grind_paths, [](ByteSpan f, uint64_t at, uint64_t& n) { return read_paths(f, at, true, n); });
            case Block::areas: return decode(k, g_.areas, read_areas);
            case Block::occlusion: return decode(k, g_.occlusion, read_occlusion);
            default: return decode(k, g_.help[static_cast<int>(b) - static_cast<int>(Block::help_us)], read_help);
        }
    }

    // §3.13: the pvar table has no count: 1 + the largest pvar index of the
    // mobies, cameras and sounds, which are read before it.
    std::vector<PvarEntry> read_pvar_table(ByteSpan f, uint64_t at, uint64_t& length) {
        int64_t largest = -1;
        auto scan = [&](const Decoded<RecordTable>& d, uint16_t field, const char* what) {
            if (!d.present()) return;
            if (!d.ok()) fail(Errc::bad_value, at, fmt::format("its length follows from the {}, which failed", what));
            for (size_t i = 0; i < d.value->count(); ++i) largest = std::max<int64_t>(largest, d.value->s32(i, field));
        };
        scan(g_.mobies, 0x68, "moby instances");
        scan(g_.cameras, 0x1c, "cameras");
        scan(g_.sounds, 0x08, "sound instances");
        const uint64_t count = static_cast<uint64_t>(largest + 1);
        require(f, at, 8 * count, "pvar table");
        std::vector<PvarEntry> entries(count);
        for (uint64_t i = 0; i < count; ++i) {
            entries[i] = {s32_at(f, at + 8 * i), s32_at(f, at + 8 * i + 4)};
            if (entries[i].offset < 0 || entries[i].size < 0)
                fail(Errc::bad_value, at + 8 * i, fmt::format("pvar {} has offset {} size {}", i, entries[i].offset, entries[i].size));
        }
        length = 8 * count;
        return entries;
    }

    // §3.13: pvar data runs to the furthest end the table names.
    Bytes read_pvar_data(ByteSpan f, uint64_t at, uint64_t& length) {
        if (g_.pvar_table.present() && !g_.pvar_table.ok())
            fail(Errc::bad_value, at, "its length follows from the pvar table, which failed");
        length = 0;
        if (g_.pvar_table.ok())
            for (const auto& e : *g_.pvar_table.value)
                length = std::max<uint64_t>(length, static_cast<uint64_t>(e.offset) + static_cast<uint64_t>(e.size));
        require(f, at, length, "pvar data");
        return Bytes(f.begin() + at, f.begin() + at + length);
    }

    template <class T>
    void reject(Decoded<T>& d, uint64_t at, Errc code, std::string message) {
        if (d.ok()) set_error(d, FormatError{code, at, std::move(message)});
    }
    // Where record i of a table block sits in the file.
    static uint64_t record_at(const Decoded<RecordTable>& d, size_t i, uint16_t field) {
        return d.offset + 0x10 + i * d.value->schema->size + field;
    }
    // A link into a block that failed is not checked: that block's error
    // already says it is damaged, and this one still decodes (§6).
    static std::optional<size_t> count_of(const Decoded<RecordTable>& d) {
        return d.ok() ? std::optional<size_t>(d.value->count()) : std::nullopt;
    }

    void check_links() {
        check_instances();
        check_groups(g_.moby_groups, g_.mobies, "moby");
        check_groups(g_.tie_groups, g_.ties, "tie");
        check_groups(g_.shrub_groups, g_.shrubs, "shrub");
        check_moby_group_fields();
        check_pvars();
        check_class_pvars();
        check_settings();
        check_tie_ambient();
        check_areas();
        check_cam_coll_grid();
        check_occlusion();
    }

    // §6.3, §6.5, §6.8, §6.9
    void check_instances() {
        auto& mobies = g_.mobies;
        if (mobies.ok())
            for (size_t i = 0; i < mobies.value->count(); ++i) {
                if (mobies.value->s32(i, 0) != 0x88)
                    return reject(mobies, record_at(mobies, i, 0), Errc::bad_value,
                                  fmt::format("moby {} record size is {}, not 0x88", i, mobies.value->s32(i, 0)));
            }
        check_pvar_fields(g_.mobies, 0x68, "moby");
        check_pvar_fields(g_.cameras, 0x1c, "camera");
        check_pvar_fields(g_.sounds, 0x08, "sound");
        check_classes(g_.mobies, 0x28, g_.moby_classes, "moby");
        check_classes(g_.ties, 0x00, g_.tie_classes, "tie");
        check_classes(g_.shrubs, 0x00, g_.shrub_classes, "shrub");
    }

    void check_pvar_fields(Decoded<RecordTable>& d, uint16_t field, const char* what) {
        if (!d.ok()) return;
        for (size_t i = 0; i < d.value->count(); ++i)
            if (d.value->s32(i, field) < -1)
                return reject(d, record_at(d, i, field), Errc::bad_value,
                              fmt::format("{} {} pvar index {} (-1 or an index)", what, i, d.value->s32(i, field)));
    }

    void check_classes(Decoded<RecordTable>& d, uint16_t field, const Decoded<std::vector<int32_t>>& list, const char* what) {
        if (!d.ok() || !list.ok()) return;
        const std::set<int32_t> known(list.value->begin(), list.value->end());
        for (size_t i = 0; i < d.value->count(); ++i)
            if (!known.count(d.value->s32(i, field)))
                return reject(d, record_at(d, i, field), Errc::bad_value,
                              fmt::format("{} {} has class {}, which the {} class list (0x{:x}) does not name", what, i,
                                          d.value->s32(i, field), what, list.offset));
    }

    // §6.10
    void check_groups(Decoded<Groups>& groups, const Decoded<RecordTable>& instances, const char* what) {
        const auto count = count_of(instances);
        if (!groups.ok() || !count) return;
        for (size_t i = 0; i < groups.value->groups.size(); ++i)
            for (uint16_t member : groups.value->groups[i].members)
                if (member >= *count)
                    return reject(groups, groups.offset + 0x10 + 4 * i, Errc::out_of_range,
                                  fmt::format("{} group {} lists {} {} of {}", what, i, what, member, *count));
    }

    // §6.4: a moby's group field names the one group that lists it.
    void check_moby_group_fields() {
        auto& mobies = g_.mobies;
        if (!mobies.ok() || !g_.moby_groups.ok()) return;
        std::vector<int32_t> listed(mobies.value->count(), -1);
        const auto& groups = g_.moby_groups.value->groups;
        for (size_t i = 0; i < groups.size(); ++i)
            for (uint16_t m : groups[i].members) {
                if (listed[m] != -1)
                    return reject(g_.moby_groups, g_.moby_groups.offset + 0x10 + 4 * i, Errc::bad_value,
                                  fmt::format("moby {} is in groups {} and {}", m, listed[m], i));
                listed[m] = static_cast<int32_t>(i);
            }
        for (size_t m = 0; m < listed.size(); ++m)
            if (mobies.value->s32(m, 0x58) != listed[m])
                return reject(mobies, record_at(mobies, m, 0x58), Errc::bad_value,
                              fmt::format("moby {} group field is {}, the moby groups say {}", m,
                                          mobies.value->s32(m, 0x58), listed[m]));
    }

    // §6.7. The moby index a moby-link fixup points at is not checked:
    // Wrench's reader does not, and example_gc_rich.bin holds a4 a5 a6 a7 there.
    void check_pvars() {
        if (!g_.pvar_table.ok()) return;
        const auto& table = *g_.pvar_table.value;
        auto in_pvar = [&](int64_t pvar, uint64_t offset) {
            return pvar >= 0 && static_cast<uint64_t>(pvar) < table.size() &&
                   offset + 4 <= static_cast<uint64_t>(table[pvar].size);
        };
        for (auto* fixups : {&g_.moby_link_fixups, &g_.pointer_fixups}) {
            if (!fixups->ok()) continue;
            for (size_t i = 0; i < fixups->value->size(); ++i) {
                const Fixup& f = (*fixups->value)[i];
                if (!in_pvar(f.pvar_index, f.offset)) {
                    reject(*fixups, fixups->offset + 8 * i, Errc::out_of_range,
                           fmt::format("fixup {} names pvar {} byte 0x{:x}, outside the {} pvars", i, f.pvar_index, f.offset,
                                       table.size()));
                    break;
                }
            }
        }
        if (g_.shared_data.ok())
            for (size_t i = 0; i < g_.shared_data.value->pointers.size(); ++i) {
                const SharedPointer& p = g_.shared_data.value->pointers[i];
                if (!in_pvar(p.pvar_index, p.pointer_offset))
                    return reject(g_.shared_data, g_.shared_data.offset + 0x10 + g_.shared_data.value->data.size() + 8 * i,
                                  Errc::out_of_range,
                                  fmt::format("shared pointer {} names pvar {} byte 0x{:x}, outside the {} pvars", i,
                                              p.pvar_index, p.pointer_offset, table.size()));
            }
    }

    // §3.13 (Wrench's pvar.cpp :: recover_pvars, which refuses to unpack
    // otherwise): the pvars of one moby class have one size and, when any of
    // its mobies has mode bit 0x20, one 0x20-byte sub-vars header. An empty
    // pvar counts as none, as there.
    void check_class_pvars() {
        const auto& mobies = g_.mobies;
        if (!mobies.ok() || !g_.pvar_table.ok() || !g_.pvar_data.ok()) return;
        const auto& table = *g_.pvar_table.value;
        const Bytes& data = *g_.pvar_data.value;
        struct ClassPvars {
            std::vector<size_t> mobies;  // those with a non-empty pvar
            bool sub_vars = false;
        };
        std::map<int32_t, ClassPvars> classes;
        for (size_t m = 0; m < mobies.value->count(); ++m) {
            const int32_t pvar = mobies.value->s32(m, 0x68);
            if (pvar < 0 || static_cast<size_t>(pvar) >= table.size() || table[pvar].size == 0) continue;
            ClassPvars& c = classes[mobies.value->s32(m, 0x28)];
            c.mobies.push_back(m);
            c.sub_vars |= (mobies.value->s32(m, 0x70) & kSubVarsBit) != 0;
        }
        auto pvar_of = [&](size_t m) { return static_cast<size_t>(mobies.value->s32(m, 0x68)); };
        for (const auto& [cls, c] : classes) {
            const size_t first = c.mobies.front();
            const PvarEntry& model = table[pvar_of(first)];
            for (size_t m : c.mobies) {
                const PvarEntry& e = table[pvar_of(m)];
                const uint64_t entry_at = g_.pvar_table.offset + 8 * pvar_of(m);
                if (e.size != model.size)
                    return reject(g_.pvar_table, entry_at + 4, Errc::bad_value,
                                  fmt::format("moby class {}: moby {} has {} bytes of pvars, moby {} {}; a class has one size",
                                              cls, m, e.size, first, model.size));
                if (!c.sub_vars) continue;
                if (e.size < kSubVarsHeader)
                    return reject(g_.pvar_table, entry_at + 4, Errc::bad_value,
                                  fmt::format("moby class {} has sub-vars (mode bit 0x20), moby {} only {} bytes of pvars, "
                                              "under the 0x{:x}-byte header", cls, m, e.size, kSubVarsHeader));
                if (!std::equal(data.begin() + e.offset, data.begin() + e.offset + kSubVarsHeader, data.begin() + model.offset))
                    return reject(g_.pvar_data, g_.pvar_data.offset + static_cast<uint64_t>(e.offset), Errc::bad_value,
                                  fmt::format("moby class {}: moby {}'s sub-vars header differs from moby {}'s; a class has one",
                                              cls, m, first));
            }
        }
    }

    // §6.12
    void check_settings() {
        auto& s = g_.level_settings;
        if (!s.ok()) return;
        const int32_t path = s.value->first.s32(0, 0x4c);
        const int32_t cuboid_start = s.value->first.s32(0, 0x50), cuboid_end = s.value->first.s32(0, 0x54);
        const auto paths = g_.paths.ok() ? std::optional<size_t>(g_.paths.value->splines.size()) : std::nullopt;
        if (path < -1 || (paths && path >= 0 && static_cast<size_t>(path) >= *paths))
            return reject(s, s.offset + 0x4c, Errc::out_of_range, fmt::format("ship path {} is not a path", path));
        const auto cuboids = count_of(g_.cuboids);
        if (path >= 0 && cuboids)
            for (int32_t c : {cuboid_start, cuboid_end})
                if (c < 0 || static_cast<size_t>(c) >= *cuboids)
                    return reject(s, s.offset + 0x50, Errc::out_of_range,
                                  fmt::format("ship camera cuboid {} of {}", c, *cuboids));
    }

    // §6.17
    void check_tie_ambient() {
        const auto ties = count_of(g_.ties);
        if (!g_.tie_ambient.ok() || !ties) return;
        for (const auto& a : *g_.tie_ambient.value)
            if (static_cast<size_t>(a.tie_index) >= *ties)
                return reject(g_.tie_ambient, g_.tie_ambient.offset, Errc::out_of_range,
                              fmt::format("ambient colours for tie {} of {}", a.tie_index, *ties));
    }

    // §6.14
    void check_areas() {
        if (!g_.areas.ok()) return;
        const std::optional<size_t> targets[kAreaParts] = {
            g_.paths.ok() ? std::optional<size_t>(g_.paths.value->splines.size()) : std::nullopt,
            count_of(g_.cuboids), count_of(g_.spheres), count_of(g_.cylinders), count_of(g_.cuboids)};
        const auto& links = g_.areas.value->links;
        for (size_t a = 0; a < links.size(); ++a)
            for (int p = 0; p < kAreaParts; ++p)
                for (int32_t link : links[a][p])
                    if (targets[p] && (link < 0 || static_cast<size_t>(link) >= *targets[p]))
                        return reject(g_.areas, g_.areas.offset + 0x24 + 0x30 * a, Errc::out_of_range,
                                      fmt::format("area {} links {} {} of {}", a, kAreaPartNames[p], link, *targets[p]));
    }

    // §6.15: primitive type 3, 5, 6, 7 = cuboid, sphere, cylinder, pill.
    void check_cam_coll_grid() {
        if (!g_.cam_coll_grid.ok()) return;
        for (const auto& cell : g_.cam_coll_grid.value->cells)
            for (size_t i = 0; i < cell.prims.count(); ++i) {
                const int32_t type = cell.prims.s32(i, 0x10), index = cell.prims.s32(i, 0x14);
                const int kind = type == 3 ? 0 : type == 5 ? 1 : type == 6 ? 2 : 3;
                const auto count = count_of(g_.volumes(kind));
                if (count && (index < 0 || static_cast<size_t>(index) >= *count))
                    return reject(g_.cam_coll_grid, g_.cam_coll_grid.offset + 0x10 + cell.offset + 0x10 + 0x30 * i + 0x14,
                                  Errc::out_of_range, fmt::format("cell {} primitive {} names volume {} of {}", cell.cell, i, index, *count));
            }
    }

    // §6.18
    void check_occlusion() {
        if (!g_.occlusion.ok()) return;
        const auto& kinds = g_.occlusion.value->kinds;
        auto ids = [](const Decoded<RecordTable>& d, uint16_t field, bool mobies) {
            std::set<int32_t> out;
            for (size_t i = 0; i < d.value->count(); ++i)
                if (!mobies || d.value->s32(i, 0x6c) == 0) out.insert(d.value->s32(i, field));
            return out;
        };
        const struct { int kind; const Decoded<RecordTable>* d; uint16_t field; const char* what; } sets[] = {
            {1, &g_.ties, 0x0c, "tie occlusion index"}, {2, &g_.mobies, 0x10, "uid of a moby with occlusion 0"}};
        for (const auto& s : sets) {
            if (!s.d->ok()) continue;
            const auto known = ids(*s.d, s.field, s.kind == 2);
            for (const auto& m : kinds[s.kind])
                if (!known.count(m.id))
                    return reject(g_.occlusion, g_.occlusion.offset, Errc::bad_value,
                                  fmt::format("occlusion mapping id {} is no {}", m.id, s.what));
        }
    }

    ByteSpan file_;
    Gameplay& g_;
};

}  // namespace

Gameplay read_gameplay(ByteSpan file) {
    Gameplay g;
    Reader(file, g).run();
    return g;
}

}  // namespace gcfs::formats::gameplay
