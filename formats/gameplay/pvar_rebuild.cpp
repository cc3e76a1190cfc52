#include "formats/gameplay/pvar_rebuild.h"

#include <fmt/format.h>

#include <set>

namespace gcfs::formats::gameplay {

Pvars pvars_of(const Gameplay& g) {
    auto need = [](const auto& d, const char* what) {
        if (d.present() && !d.ok()) fail(Errc::bad_value, 0, fmt::format("the {} block did not decode ({}), and the edit writes it again", what, d.error));
    };
    need(g.pvar_table, "pvar table");
    need(g.pvar_data, "pvar data");
    need(g.moby_link_fixups, "moby-link fixups");
    need(g.pointer_fixups, "pointer fixups");
    need(g.shared_data, "shared data");
    Pvars p;
    if (g.pvar_table.ok()) p.table = *g.pvar_table.value;
    if (g.pvar_data.ok()) p.data = *g.pvar_data.value;
    if (g.moby_link_fixups.ok()) p.links = *g.moby_link_fixups.value;
    if (g.pointer_fixups.ok()) p.pointers = *g.pointer_fixups.value;
    if (g.shared_data.ok()) p.shared = *g.shared_data.value;
    return p;
}

PvarPlan rebuild_pvars(Pvars& pvars, const std::vector<int32_t>& gone, const std::vector<int32_t>& others,
                       const std::vector<PvarOwner>& owners) {
    const auto count = static_cast<int32_t>(pvars.table.size());
    PvarPlan plan{std::vector<int32_t>(pvars.table.size(), -1), std::vector<int32_t>(owners.size(), -1), false};
    std::set<int32_t> named(others.begin(), others.end());
    size_t copies = 0;
    for (const PvarOwner& o : owners) {
        named.insert(o.keeps);
        copies += o.copy_of >= 0;
    }
    bool drops = false;
    for (int32_t k : gone) drops |= k >= 0 && !named.contains(k);
    if (!drops && copies == 0) {
        for (int32_t k = 0; k < count; ++k) plan.renumber[static_cast<size_t>(k)] = k;
        for (size_t i = 0; i < owners.size(); ++i) plan.given[i] = owners[i].keeps;
        return plan;
    }
    // Wrench's build_pvars writes the pvars of the instances there are, back
    // to back: an entry no record names goes too.
    plan.changed = true;
    Pvars out;
    auto add = [&](int32_t k) {
        const PvarEntry& e = pvars.table.at(static_cast<size_t>(k));
        if (out.data.size() + static_cast<uint64_t>(e.size) > INT32_MAX)
            fail(Errc::too_large, 0, "the pvar data would pass 2 GiB, the most its s32 offsets reach (formats-gameplay.md 3.13)");
        const auto index = static_cast<int32_t>(out.table.size());
        out.table.push_back({static_cast<int32_t>(out.data.size()), e.size});
        out.data.insert(out.data.end(), pvars.data.begin() + e.offset, pvars.data.begin() + e.offset + e.size);
        return index;
    };
    for (int32_t k = 0; k < count; ++k)
        if (named.contains(k)) plan.renumber[static_cast<size_t>(k)] = add(k);
    for (size_t i = 0; i < owners.size(); ++i)
        plan.given[i] = owners[i].copy_of >= 0 ? add(owners[i].copy_of) : owners[i].keeps < 0 ? -1 : plan.renumber[static_cast<size_t>(owners[i].keeps)];
    // Fixups and shared pointers keep their order; a copy's follow at the end.
    auto fixups = [&](const std::vector<Fixup>& in) {
        std::vector<Fixup> kept;
        for (const Fixup& f : in)
            if (f.pvar_index >= 0 && f.pvar_index < count && plan.renumber[static_cast<size_t>(f.pvar_index)] >= 0)
                kept.push_back({plan.renumber[static_cast<size_t>(f.pvar_index)], f.offset});
        for (size_t i = 0; i < owners.size(); ++i)
            if (owners[i].copy_of >= 0)
                for (const Fixup& f : in)
                    if (f.pvar_index == owners[i].copy_of) kept.push_back({plan.given[i], f.offset});
        return kept;
    };
    out.links = fixups(pvars.links);
    out.pointers = fixups(pvars.pointers);
    out.shared = pvars.shared;
    out.shared.pointers.clear();
    auto shared_index = [&](int32_t index) {
        if (index > 0xffff)
            fail(Errc::too_large, 0, fmt::format("pvar {} would hold a shared-data pointer, whose pvar index is a u16 (formats-gameplay.md 3.13): "
                                                 "at most 65535", index));
        return static_cast<uint16_t>(index);
    };
    for (const SharedPointer& p : pvars.shared.pointers)
        if (p.pvar_index < count && plan.renumber[p.pvar_index] >= 0)
            out.shared.pointers.push_back({shared_index(plan.renumber[p.pvar_index]), p.pointer_offset, p.shared_offset});
    for (size_t i = 0; i < owners.size(); ++i)
        if (owners[i].copy_of >= 0)
            for (const SharedPointer& p : pvars.shared.pointers)
                if (p.pvar_index == owners[i].copy_of) out.shared.pointers.push_back({shared_index(plan.given[i]), p.pointer_offset, p.shared_offset});
    pvars = std::move(out);
    return plan;
}

bool move_moby_links(Pvars& pvars, const std::vector<int64_t>& moby_of_old) {
    bool changed = false;
    for (const Fixup& f : pvars.links) {
        if (f.pvar_index < 0 || static_cast<size_t>(f.pvar_index) >= pvars.table.size()) continue;
        const PvarEntry& e = pvars.table[static_cast<size_t>(f.pvar_index)];
        if (uint64_t{f.offset} + 4 > static_cast<uint64_t>(e.size)) continue;  // the reader rejects it (§6.7)
        const uint64_t at = static_cast<uint64_t>(e.offset) + f.offset;
        const int32_t moby = s32_at(pvars.data, at);
        // §3.13: a moby index; other values are left as found (Wrench's reader does not check them).
        if (moby < 0 || static_cast<size_t>(moby) >= moby_of_old.size()) continue;
        const int64_t now = moby_of_old[static_cast<size_t>(moby)];
        if (now < 0)
            fail(Errc::bad_value, 0, fmt::format("moby {} is linked from pvar {} byte 0x{:x} (a moby-link fixup, formats-gameplay.md 3.13): "
                                                 "write that pvar without the link, or keep the moby",
                                                 moby, f.pvar_index, f.offset));
        if (now == moby) continue;
        for (int b = 0; b < 4; ++b) pvars.data[at + b] = static_cast<uint8_t>(static_cast<uint32_t>(now) >> (8 * b));
        changed = true;
    }
    return changed;
}

}  // namespace gcfs::formats::gameplay
