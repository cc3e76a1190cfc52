#include "formats/misc/misc.h"

#include <fmt/format.h>

namespace gcfs::formats::misc {

Result<std::vector<IrxItem>> parse_irx_table(ByteSpan irx, uint64_t irx_size) {
    return capture([&]() -> std::vector<IrxItem> {
        require(irx, 0, kIrxTableSize, "the IRX table");
        std::vector<IrxItem> items;
        auto add = [&](std::string name, uint64_t at) {
            const ByteRange r = byte_range_at(irx, at);
            if (r.empty()) return;
            IrxItem item{std::move(name), r};
            if (r.offset < 0 || r.end() > static_cast<int64_t>(irx_size))
                item.error = fmt::format("IRX {} claims bytes [0x{:x}, +{}) of the {}-byte decompressed irx (table byte 0x{:x})", item.name, r.offset,
                                         r.size, irx_size, at);
            items.push_back(std::move(item));
        };
        add("image", 0x00);
        for (size_t m = 0; m < kIrxModules.size(); ++m) add(kIrxModules[m], 0x18 + 8 * m);
        return items;
    });
}

Bytes write_irx_table(const Bytes& image, const std::array<Bytes, 9>& modules) {
    ByteWriter out;
    out.zeros(kIrxTableSize);
    auto add = [&](const Bytes& item, uint64_t at) {
        if (item.empty()) return;
        out.pad_to(0x40);
        out.patch_u32(at, static_cast<uint32_t>(out.size()));
        out.patch_u32(at + 4, static_cast<uint32_t>(item.size()));
        out.append(item);
    };
    add(image, 0x00);
    for (size_t m = 0; m < modules.size(); ++m) add(modules[m], 0x18 + 8 * m);
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::misc
