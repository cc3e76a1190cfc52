#include "formats/vif/vif.h"

#include <fmt/format.h>

#include <algorithm>

namespace gcfs::formats::vif {

uint64_t packet_size(Code c) {
    if (c.is_unpack()) return 4 + align_up(static_cast<uint64_t>(c.count()) * c.element_size(), 4);
    switch (c.cmd()) {
        case STROW:
        case STCOL: return 20;
        case STMASK: return 8;
        case MPG: return 4 + static_cast<uint64_t>(c.count()) * 8;
        case DIRECT:
        case DIRECTHL: return 4 + (c.imm() == 0 ? 65536ull : c.imm()) * 16;
        case NOP: case STCYCL: case OFFSET: case BASE: case ITOP: case STMOD: case MSKPATH3: case MARK:
        case FLUSHE: case FLUSH: case FLUSHA: case MSCAL: case MSCALF: case MSCNT: return 4;
        default: return 0;
    }
}

Result<std::vector<Packet>> walk(ByteSpan list, PacketSizer sizer) {
    return capture([&] {
        std::vector<Packet> packets;
        uint64_t at = 0;
        while (at + 4 <= list.size()) {
            const Code c{u32_at(list, at)};
            const uint64_t size = sizer(c);
            if (size < 4) fail(Errc::desync, at, fmt::format("unknown VIF command 0x{:02x} (code 0x{:08x})", c.cmd(), c.raw));
            if (size > list.size() - at)
                fail(Errc::truncated, at,
                     fmt::format("VIF code 0x{:08x} needs {} bytes, the list has {} left", c.raw, size, list.size() - at));
            const uint64_t payload =
                c.is_unpack() ? std::min<uint64_t>(static_cast<uint64_t>(c.count()) * c.element_size(), size - 4) : size - 4;
            if (c.cmd() != NOP) packets.push_back({at, c, list.subspan(at + 4, payload)});
            at += size;
        }
        if (at != list.size())
            fail(Errc::desync, at, fmt::format("VIF list ends {} bytes into a code word", list.size() - at));
        return packets;
    });
}

uint32_t unpack(Format format, uint32_t count, uint32_t addr, bool usn) {
    const uint32_t cmd = 0x60 | static_cast<uint32_t>(format);
    const uint32_t imm = (addr & 0x3ff) | (usn ? 1u << 14 : 0) | 1u << 15;  // flg: Wrench always sets it
    return cmd << 24 | (count & 0xff) << 16 | imm;
}

uint32_t code(Cmd cmd, uint32_t num, uint32_t imm) { return static_cast<uint32_t>(cmd) << 24 | (num & 0xff) << 16 | (imm & 0xffff); }

}  // namespace gcfs::formats::vif
