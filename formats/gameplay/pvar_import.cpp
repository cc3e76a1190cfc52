#include "formats/gameplay/pvar_import.h"

#include <fmt/format.h>

#include <algorithm>

#include "formats/gameplay/export.h"
#include "formats/gameplay/pvar_rebuild.h"

namespace gcfs::formats::gameplay {
namespace {

// The moby whose pvar file the mount shows as `name`.
std::optional<size_t> moby_of(const Gameplay& g, std::string_view name) {
    for (const auto& [moby, shown] : pvar_files(*g.mobies.value))
        if (shown == name) return moby;
    return std::nullopt;
}

}  // namespace

bool pvar_file(std::string_view name) { return name.starts_with("pvars/moby_") && name.ends_with(".bin"); }

void import_pvar_file(const Gameplay& g, std::string_view name, ByteSpan bytes, BlockBytes& blocks) {
    if (!g.mobies.ok()) fail(Errc::bad_value, 0, fmt::format("the moby instances did not decode ({})", g.mobies.error));
    const auto moby = moby_of(g, name);
    if (!moby) fail(Errc::bad_value, 0, fmt::format("gameplay/{} names no moby with pvars", name));
    Pvars p = pvars_of(g);
    const RecordTable& t = *g.mobies.value;
    const auto k = static_cast<size_t>(t.s32(*moby, 0x68));
    if (k >= p.table.size()) fail(Errc::bad_value, 0, fmt::format("moby {}'s pvar index {} is past the pvar table", *moby, k));
    // §3.13: one size and one sub-vars header a class.
    const int32_t cls = t.s32(*moby, 0x28);
    for (size_t i = 0; i < t.count(); ++i) {
        const int32_t other = t.s32(i, 0x68);
        if (i == *moby || t.s32(i, 0x28) != cls || other < 0 || static_cast<size_t>(other) >= p.table.size() || p.table[other].size == 0) continue;
        const PvarEntry& e = p.table[static_cast<size_t>(other)];
        if (bytes.size() != static_cast<size_t>(e.size))
            fail(Errc::bad_value, 0, fmt::format("{} bytes, where moby class {} has {}-byte pvars (moby {}'s): a class has one layout "
                                                 "(formats-gameplay.md 3.13)",
                                                 bytes.size(), cls, e.size, i));
        const bool sub_vars = ((t.s32(i, 0x70) | t.s32(*moby, 0x70)) & kSubVarsBit) != 0;
        if (sub_vars && !std::equal(bytes.begin(), bytes.begin() + kSubVarsHeader, p.data.begin() + e.offset))
            fail(Errc::bad_value, 0, fmt::format("the first 0x{:x} bytes are moby class {}'s sub-vars header (mode bit 0x20), which its "
                                                 "other mobies' pvars give as they were; keep them",
                                                 kSubVarsHeader, cls));
        break;
    }
    if (bytes.size() > INT32_MAX) fail(Errc::too_large, 0, "pvars past 2 GiB");
    auto fits = [&](int32_t pvar, uint64_t offset, const char* what) {
        if (static_cast<size_t>(pvar) == k && offset + 4 > bytes.size())
            fail(Errc::bad_value, 0, fmt::format("a {} at pvar byte 0x{:x} needs {} bytes (formats-gameplay.md 3.13)", what, offset, offset + 4));
    };
    for (const Fixup& f : p.links) fits(f.pvar_index, f.offset, "moby-link fixup");
    for (const Fixup& f : p.pointers) fits(f.pvar_index, f.offset, "pointer fixup");
    for (const SharedPointer& s : p.shared.pointers) fits(s.pvar_index, s.pointer_offset, "shared-data pointer");
    PvarEntry& entry = p.table[k];
    if (bytes.size() == static_cast<size_t>(entry.size)) {
        std::copy(bytes.begin(), bytes.end(), p.data.begin() + entry.offset);
    } else {
        Bytes data;
        for (size_t i = 0; i < p.table.size(); ++i) {
            PvarEntry& e = p.table[i];
            const Bytes own = i == k ? Bytes(bytes.begin(), bytes.end()) : Bytes(p.data.begin() + e.offset, p.data.begin() + e.offset + e.size);
            e = {static_cast<int32_t>(data.size()), static_cast<int32_t>(own.size())};
            data.insert(data.end(), own.begin(), own.end());
        }
        p.data = std::move(data);
        blocks[static_cast<size_t>(Block::pvar_table)] = encode_pvar_table(p.table);
    }
    blocks[static_cast<size_t>(Block::pvar_data)] = p.data;
}

}  // namespace gcfs::formats::gameplay
