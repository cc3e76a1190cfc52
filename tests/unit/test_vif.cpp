// VIF1 code walk (formats.md §7.4).
#include <doctest/doctest.h>

#include "formats/vif/vif.h"

namespace test_vif {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;

TEST_CASE("VIF unpack element size comes from the command byte, not the immediate") {
    const vif::Code positions{0x694B8010};  // §7.4 example: UNPACK V3_16, num 75, addr 0x10
    CHECK(positions.is_unpack());
    CHECK(positions.element_size() == 6);
    CHECK(positions.count() == 75);
    CHECK(positions.addr() == 0x10);
    CHECK(vif::packet_size(positions) == 456);  // 450 bytes padded to 452, plus the code
    // The seed's first wrong turn read the format from the immediate's low nibble.
    const uint32_t wrong_vn = (positions.imm() >> 2) & 3, wrong_vl = positions.imm() & 3;
    CHECK(((32u >> wrong_vl) * (wrong_vn + 1)) / 8 != positions.element_size());
}

TEST_CASE("VIF walk steps over every inline payload kind") {
    ByteWriter w;
    w.u32(vif::code(vif::STROW));
    w.zeros(16);
    w.u32(vif::code(vif::STMASK));
    w.u32(0);
    w.u32(vif::code(vif::MPG, 2));
    w.zeros(16);
    w.u32(vif::code(vif::DIRECT, 0, 1));
    w.zeros(16);
    w.u32(vif::unpack(vif::Format::V3_16, 3, 0x20, false));
    w.zeros(18);
    w.zeros(2);  // pad to 4
    w.u32(vif::code(vif::STCYCL, 0, 0x0102));
    auto packets = vif::walk(w.bytes());
    REQUIRE_MESSAGE(packets.ok(), packets.error().describe());
    REQUIRE(packets->size() == 6);
    CHECK((*packets)[4].code.element_size() == 6);
    CHECK((*packets)[4].payload.size() == 18);
    CHECK((*packets)[5].code.cmd() == vif::STCYCL);
}

TEST_CASE("VIF walk reports desync and truncation") {
    ByteWriter unknown;
    unknown.u32(0x7f000000 & 0x5f000000);  // cmd 0x5f: not a VIF command
    CHECK(vif::walk(unknown.bytes()).error().code == Errc::desync);
    ByteWriter cut;
    cut.u32(vif::unpack(vif::Format::V4_16, 10, 0, false));
    cut.zeros(8);
    CHECK(vif::walk(cut.bytes()).error().code == Errc::truncated);
}

}  // namespace test_vif
