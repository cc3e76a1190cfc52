#include "formats/gameplay/instance_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "formats/gameplay/cells.h"
#include "formats/gameplay/pvar_rebuild.h"

namespace gcfs::formats::gameplay {
namespace {

constexpr size_t kMaxAmbientTie = 0x7fff;   // §3.18: s16 tie_index

struct Edit {
    const Gameplay& g;
    const TableSpec& t;
    const EditedTable& edited;
    BlockBytes& blocks;
    std::vector<int64_t> new_of_old;  // old record → its row (-1: removed)
    RecordTable records;              // the rows' records, written on as derived fields change

    void set(Block b, Bytes bytes) { blocks[static_cast<size_t>(b)] = std::move(bytes); }

    // §3.11: members keep their order; a row that names a group joins its end.
    void groups(Block block, const Decoded<Groups>& d) {
        const bool named = std::any_of(edited.rows.begin(), edited.rows.end(), [](const EditedRow& r) { return r.group && *r.group >= 0; });
        if (edited.same_rows && !std::any_of(edited.rows.begin(), edited.rows.end(), [](const EditedRow& r) { return r.group.has_value(); })) return;
        if (!d.ok()) {
            if (!d.present() && !named) return;
            fail(Errc::bad_value, 0, fmt::format("the groups block did not decode ({}), and the edit writes it again", d.error));
        }
        std::vector<std::vector<uint16_t>> before, after;
        for (const Group& group : d.value->groups) {
            before.push_back(group.members);
            auto& members = after.emplace_back();
            for (uint16_t m : group.members) {
                const int64_t row = m < new_of_old.size() ? new_of_old[m] : -1;
                if (row >= 0 && !edited.rows[static_cast<size_t>(row)].group) members.push_back(member(static_cast<size_t>(row)));
            }
        }
        for (size_t i = 0; i < edited.rows.size(); ++i)
            if (const auto& group = edited.rows[i].group; group && *group >= 0) after.at(static_cast<size_t>(*group)).push_back(member(i));
        if (after != before) set(block, encode_groups(after));
    }

    uint16_t member(size_t row) const {
        if (row > kMaxGroupMember)
            fail(Errc::too_large, 0, fmt::format("line {}: row {} cannot be in a group: members are 15-bit indices, at most {} "
                                                 "(formats-gameplay.md 3.11)",
                                                 edited.rows[row].line, row, kMaxGroupMember));
        return static_cast<uint16_t>(row);
    }

    // §3.12: the tie and shrub lists as Wrench's writer makes them, written when they change.
    void class_list(Block block) {
        const auto now = first_appearance_classes(records);
        if (now != first_appearance_classes(*table_of(g, t.block).value)) set(block, encode_class_list(now));
    }

    // §3.18: a kept tie keeps its bytes, a copy takes its source's, a new
    // tie with an empty cell its class's first tie's.
    void tie_ambient() {
        const auto& d = g.tie_ambient;
        const bool given = std::any_of(edited.rows.begin(), edited.rows.end(), [](const EditedRow& r) { return r.ambient_given; });
        if (edited.same_rows && !given) return;
        if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the tie ambient block did not decode ({}), and the edit writes it again", d.error));
        std::map<size_t, const Bytes*> old;
        for (const TieAmbient& a : *d.value) old[static_cast<size_t>(a.tie_index)] = &a.data;
        const RecordTable& before = *g.ties.value;
        auto class_first = [&](int32_t cls) -> Bytes {
            for (size_t i = 0; i < before.count(); ++i)
                if (before.s32(i, 0) == cls) return old.contains(i) ? *old[i] : Bytes{};
            return {};
        };
        std::vector<TieAmbient> after;
        for (size_t i = 0; i < edited.rows.size(); ++i) {
            const EditedRow& row = edited.rows[i];
            Bytes data;
            if (!row.ambient_given) data = old.contains(static_cast<size_t>(row.source)) ? *old[static_cast<size_t>(row.source)] : Bytes{};
            else if (row.ambient.empty() && row.source < 0) data = class_first(records.s32(i, 0));
            else data = row.ambient;
            if (data.empty()) continue;
            if (i > kMaxAmbientTie)
                fail(Errc::too_large, 0, fmt::format("line {}: tie {} cannot have ambient bytes: their tie_index is an s16, at most {} "
                                                     "(formats-gameplay.md 3.18)",
                                                     row.line, i, kMaxAmbientTie));
            after.push_back({static_cast<int16_t>(i), std::move(data)});
        }
        if (after.size() != d.value->size() ||
            !std::equal(after.begin(), after.end(), d.value->begin(), [](const TieAmbient& a, const TieAmbient& b) {
                return a.tie_index == b.tie_index && a.data == b.data;
            }))
            set(Block::tie_ambient, encode_tie_ambient(after));
    }

    // §3.13: pvars of removed rows go, copies and new mobies take copies,
    // and every record that numbers a pvar is numbered again.
    void pvars() {
        Pvars p = pvars_of(g);
        std::vector<int32_t> gone, others;
        struct Owner { Block block; uint16_t field; const Decoded<RecordTable>* d; };
        const Owner owners[] = {{Block::mobies, 0x68, &g.mobies}, {Block::cameras, 0x1c, &g.cameras}, {Block::sounds, 0x08, &g.sounds}};
        for (const Owner& o : owners) {
            if (o.block == t.block || !o.d->ok()) continue;
            for (size_t i = 0; i < o.d->value->count(); ++i) others.push_back(o.d->value->s32(i, o.field));
        }
        const RecordTable& before = *table_of(g, t.block).value;
        for (size_t k = 0; k < new_of_old.size(); ++k)
            if (new_of_old[k] < 0) gone.push_back(before.s32(k, t.pvar_field));
        std::vector<PvarOwner> rows;
        for (size_t i = 0; i < edited.rows.size(); ++i) {
            const EditedRow& row = edited.rows[i];
            if (row.source >= 0 && !row.copy) rows.push_back({before.s32(static_cast<size_t>(row.source), t.pvar_field), -1});
            else if (row.source >= 0) rows.push_back({-1, before.s32(static_cast<size_t>(row.source), t.pvar_field)});
            else rows.push_back({-1, t.block == Block::mobies ? class_pvars(records.s32(i, 0x28)) : -1});
        }
        const PvarPlan plan = rebuild_pvars(p, gone, others, rows);
        for (size_t i = 0; i < rows.size(); ++i) put_le(records.bytes, i * t.schema->size + t.pvar_field, static_cast<uint32_t>(plan.given[i]), 4);
        bool data_changed = plan.changed;
        if (t.block == Block::mobies && !edited.same_rows) data_changed |= move_moby_links(p, new_of_old);
        if (!data_changed) return;
        set(Block::pvar_data, p.data);
        if (!plan.changed) return;
        set(Block::pvar_table, encode_pvar_table(p.table));
        set(Block::moby_link_fixups, encode_fixups(p.links));
        set(Block::pointer_fixups, encode_fixups(p.pointers));
        set(Block::shared_data, encode_shared_data(p.shared));
        for (const Owner& o : owners) {
            if (o.block == t.block || !o.d->ok()) continue;
            RecordTable other = *o.d->value;
            for (size_t i = 0; i < other.count(); ++i) {
                const int32_t k = other.s32(i, o.field);
                if (k >= 0) put_le(other.bytes, i * other.schema->size + o.field, static_cast<uint32_t>(plan.renumber.at(static_cast<size_t>(k))), 4);
            }
            if (other.bytes != o.d->value->bytes) set(o.block, encode_table(other));
        }
    }

    // §3.17: moby mappings name uids of mobies with occlusion 0, tie mappings
    // tie occlusion_index values. A mapping whose instance is gone goes; one
    // whose instance's id changed follows it; a copied or new instance gets
    // one with a free bit; a moved or new instance's bit is shown everywhere
    // (visibility.h).
    void occlusion(Visibility* vis) {
        const auto& d = g.occlusion;
        if (d.present() && !d.ok())
            fail(Errc::bad_value, 0, fmt::format("the occlusion mappings did not decode ({}), and the edit writes them again", d.error));
        const std::optional<OcclusionMappings> found = d.present() ? d.value : vis ? vis->mappings : std::nullopt;
        if (!found) return;
        const bool mobies = t.block == Block::mobies;
        const uint16_t field = mobies ? 0x10 : 0x0c;
        auto id_of = [&](const RecordTable& r, size_t i) -> std::optional<int32_t> {
            if (mobies && r.s32(i, 0x6c) != 0) return std::nullopt;
            return r.s32(i, field);
        };
        const RecordTable& before = *table_of(g, t.block).value;
        std::map<int32_t, size_t> owner;  // id → the old instance it named
        for (size_t k = 0; k < before.count(); ++k)
            if (const auto id = id_of(before, k)) owner.try_emplace(*id, k);
        OcclusionMappings after = *found;
        auto& list = after.kinds[mobies ? 2 : 1];
        std::vector<OcclusionMapping> kept;
        std::set<size_t> mapped_rows;
        std::set<int32_t> shown;
        for (OcclusionMapping m : list) {
            if (const auto it = owner.find(m.id); it != owner.end()) {
                const int64_t row = new_of_old[it->second];
                const auto id = row >= 0 ? id_of(records, static_cast<size_t>(row)) : std::nullopt;
                if (!id) continue;  // the instance is gone, or no longer occluded
                m.id = *id;
                mapped_rows.insert(static_cast<size_t>(row));
                if (moved(static_cast<size_t>(row), it->second)) shown.insert(m.bit_index);
            }
            kept.push_back(m);  // (a mapping that named no instance is left as found)
        }
        list = std::move(kept);
        // The bits every other mapping leaves free, lowest first.
        std::set<int32_t> used;
        for (const auto& kind : after.kinds)
            for (const auto& m : kind) used.insert(m.bit_index);
        int32_t next_bit = 0;
        const auto& mapped_before = found->kinds[mobies ? 2 : 1];
        auto was_mapped = [&](size_t k) {
            const auto id = id_of(before, k);
            return id && std::any_of(mapped_before.begin(), mapped_before.end(), [&](const auto& m) { return m.id == *id; });
        };
        // A copy is mapped when its source was; a new row when the level maps
        // any instance of its kind; a kept row keeps what it had.
        for (size_t i = 0; i < records.count(); ++i) {
            const EditedRow& row = edited.rows[i];
            const auto id = id_of(records, i);
            if (mapped_rows.contains(i) || !id || (row.source >= 0 && !row.copy)) continue;
            if (row.source >= 0 ? !was_mapped(static_cast<size_t>(row.source)) : mapped_before.empty()) continue;
            while (used.contains(next_bit)) ++next_bit;
            if (next_bit >= kVisibilityBits)
                fail(Errc::too_large, 0, fmt::format("line {}: no visibility bit is free for the new {}: the masks have {} (formats.md 8.1) and "
                                                     "every one is some instance's",
                                                     row.line, mobies ? "moby" : "tie", kVisibilityBits));
            list.push_back({next_bit, *id});
            used.insert(next_bit);
            shown.insert(next_bit);
        }
        std::set<int32_t> before_bits;
        for (const auto& kind : found->kinds)
            for (const auto& m : kind) before_bits.insert(m.bit_index);
        const bool changed = !same_mappings(after, *found);
        if (changed && d.present()) set(Block::occlusion, encode_occlusion(after));
        if (!vis) return;
        vis->mappings = after;
        vis->mappings_changed = changed;
        vis->shown_everywhere = shown;
        for (int32_t b : before_bits)
            if (!used.contains(b)) vis->freed.insert(b);
    }

    static bool same_mappings(const OcclusionMappings& a, const OcclusionMappings& b) {
        for (size_t k = 0; k < 3; ++k)
            if (a.kinds[k].size() != b.kinds[k].size() ||
                !std::equal(a.kinds[k].begin(), a.kinds[k].end(), b.kinds[k].begin(),
                            [](const auto& x, const auto& y) { return x.id == y.id && x.bit_index == y.bit_index; }))
                return false;
        return true;
    }

    // Whether old tie k had a mapping (§3.17: by its occlusion_index).
    static bool source_mapped(const OcclusionMappings& m, const RecordTable& before, size_t k) {
        const int32_t id = before.s32(k, 0x0c);
        return std::any_of(m.kinds[1].begin(), m.kinds[1].end(), [&](const auto& x) { return x.id == id; });
    }

    // Whether row i stands elsewhere than old record k: a moby's position
    // (§3.1 0x40), a tie's matrix (§3.2 0x10-0x4f).
    bool moved(size_t i, size_t k) const {
        const ByteSpan now = records.record(i), was = table_of(g, t.block).value->record(k);
        const size_t from = t.block == Block::mobies ? 0x40 : 0x10, to = t.block == Block::mobies ? 0x4c : 0x50;
        return !std::equal(now.begin() + from, now.begin() + to, was.begin() + from);
    }

    // A new moby's pvars: the first moby of its class that has any (§3.13:
    // a class has one layout).
    int32_t class_pvars(int32_t cls) const {
        const RecordTable& before = *g.mobies.value;
        for (size_t i = 0; i < before.count(); ++i)
            if (before.s32(i, 0x28) == cls && before.s32(i, 0x68) >= 0) return before.s32(i, 0x68);
        return -1;
    }

};

}  // namespace

void write_instances(const Gameplay& g, const TableSpec& t, const EditedTable& edited, BlockBytes& blocks, Visibility* visibility) {
    Edit e{g, t, edited, blocks, {}, edited.records};
    const RecordTable& before = *table_of(g, t.block).value;
    e.new_of_old.assign(before.count(), -1);
    for (size_t i = 0; i < edited.rows.size(); ++i)
        if (edited.rows[i].source >= 0 && !edited.rows[i].copy) e.new_of_old[static_cast<size_t>(edited.rows[i].source)] = static_cast<int64_t>(i);
    switch (t.block) {
        case Block::mobies:
            e.groups(Block::moby_groups, g.moby_groups);
            e.occlusion(visibility);
            break;
        case Block::ties:
            e.groups(Block::tie_groups, g.tie_groups);
            e.class_list(Block::tie_classes);
            e.tie_ambient();
            e.occlusion(visibility);
            break;
        case Block::shrubs: e.groups(Block::shrub_groups, g.shrub_groups); e.class_list(Block::shrub_classes); break;
        default: break;
    }
    if (t.pvar_field) e.pvars();
    e.set(t.block, encode_table(e.records));
}

}  // namespace gcfs::formats::gameplay
