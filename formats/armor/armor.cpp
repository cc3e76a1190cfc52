#include "formats/armor/armor.h"

#include <fmt/format.h>

namespace gcfs::formats::armor {

std::string Model::name() const { return fmt::format("{}_{}", wrench ? "wrench" : "armor", index); }

Result<std::vector<Model>> parse_armor_wad(ByteSpan header, uint64_t file_size) {
    return capture([&]() -> std::vector<Model> {
        require(header, 0, kArmorHeaderSize, "the ARMOR header");
        if (s32_at(header, 0) != kArmorHeaderSize)
            fail(Errc::bad_magic, 0, fmt::format("header_size 0x{:x}, the ARMOR header is 0x{:x}", s32_at(header, 0), kArmorHeaderSize));
        std::vector<Model> models;
        for (const bool wrench : {false, true})
            for (int i = 0; i < (wrench ? kWrenches : kArmors); ++i) {
                const uint64_t at = (wrench ? kWrenchesAt : kArmorsAt) + 16 * static_cast<uint64_t>(i);
                Model m{wrench, i, sector_range_at(header, at), sector_range_at(header, at + 8), at};
                if (m.mesh.empty()) continue;  // §6: present when mesh.size > 0
                for (const SectorRange& r : {m.mesh, m.textures})
                    if (!r.empty() && (r.offset < 0 || r.byte_offset() + r.byte_size() > file_size) && m.error.empty())
                        m.error = fmt::format("{} claims sectors [{}, {}) of a {}-byte WAD (header byte 0x{:x})", m.name(), r.offset, r.end(),
                                              file_size, at);
                models.push_back(m);
            }
        return models;
    });
}

Bytes write_armor_header(const std::vector<Model>& models) {
    ByteWriter out;
    out.s32(kArmorHeaderSize);
    out.s32(0);
    out.zeros(kArmorHeaderSize - 8);
    for (const Model& m : models) {
        const uint64_t at = (m.wrench ? kWrenchesAt : kArmorsAt) + 16 * static_cast<uint64_t>(m.index);
        out.patch_u32(at, static_cast<uint32_t>(m.mesh.offset));
        out.patch_u32(at + 4, static_cast<uint32_t>(m.mesh.size));
        out.patch_u32(at + 8, static_cast<uint32_t>(m.textures.offset));
        out.patch_u32(at + 12, static_cast<uint32_t>(m.textures.size));
    }
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::armor
