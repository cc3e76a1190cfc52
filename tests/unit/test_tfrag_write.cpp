// The tfrag writer against the worked example of formats.md §7.10.
#include <doctest/doctest.h>

#include "formats/tfrag/tfrag.h"
#include "tfrag_samples.h"

namespace test_tfrag_write {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;

using samples::example_quad;

TEST_CASE("tfrag writer reproduces the §7.10 worked example") {
    const Bytes block = write_tfrags({example_quad()});
    CHECK(block.size() == 704);
    CHECK(u32_at(block, 0x00) == 0x40);        // table_offset
    CHECK(u32_at(block, 0x04) == 1);           // tfrag_count
    CHECK(u32_at(block, 0x08) == 0x42000000);  // 32.0f
    const ByteSpan h = ByteSpan(block).subspan(0x40, 0x40);
    CHECK(s32_at(h, 0x10) == 0x40);  // data, relative to table_offset
    CHECK(u16_at(h, 0x14) == 0);
    CHECK(u16_at(h, 0x16) == 0x30);   // shared
    CHECK(u16_at(h, 0x18) == 0x130);  // lod_1
    CHECK(u16_at(h, 0x1A) == 0x160);  // lod_0
    CHECK(u16_at(h, 0x1C) == 0x60);   // tex
    CHECK(u16_at(h, 0x1E) == 0x1C0);  // rgba
    CHECK(h[0x20] == 0x10);
    CHECK(h[0x21] == 0x13);
    CHECK(h[0x22] == 0x15);
    CHECK(h[0x23] == 0x06);
    CHECK(h[0x28] == 1);
    CHECK(h[0x29] == 1);
    CHECK(u16_at(h, 0x2E) == 0x200);  // msphere
    CHECK(u16_at(h, 0x30) == 0x1D0);  // light
    CHECK(u16_at(h, 0x38) == 0x200);  // cube
    CHECK(h[0x3C] == 4);              // vert_count
    CHECK(h[0x3D] == 2);              // tri_count
    // List contents at the example's offsets (data starts at block 0x80).
    CHECK(u32_at(block, 0x80) == 0x30000000);
    CHECK(u32_at(block, 0x84) == 0x16);             // STROW idx row = vi_common_addr
    CHECK(u32_at(block, 0x98) == 0x6E01C01A);       // indices @0x1A
    CHECK(u32_at(block, 0x9C) == 0x03020100);
    CHECK(u32_at(block, 0xA4) == 0x6E02801B);       // strips @0x1B
    CHECK(u32_at(block, 0xA8) == 0x84);             // x = -124
    CHECK(u32_at(block, 0xB0) == 0x6D05C000);       // VU header unpack
    CHECK(u16_at(block, 0xB4 + 2 * 6) == 0x0E);     // positions_common_addr
    CHECK(u16_at(block, 0xB4 + 2 * 18) == 0x1B);    // strips_addr
    CHECK(u32_at(block, 0xDC) == 0x6C058009);       // ad-gifs
    CHECK(u32_at(block, 0x148) == 0x6D048016);      // vertex info
    CHECK(u32_at(block, 0x16C) == 0x30000000);      // STROW base
    CHECK(u32_at(block, 0x170) == 1000);
    CHECK(u32_at(block, 0x180) == 0x01000102);
    CHECK(u32_at(block, 0x184) == 0x6904800E);      // positions
    CHECK(u32_at(block, 0x240) == 0x80808080);      // rgba
}

TEST_CASE("strip triangle count applies the -128 bias and stops at zero") {
    CHECK(strip_triangle_count({{-116, 0, 0, 0}, {5, 0, 0, 0}, {0, 0, 0, 0}, {9, 0, 0, 0}}) == 10 + 3);
}

TEST_CASE("tfrag writer refuses what the format cannot hold") {
    TfragPatch p = example_quad();
    p.textures.clear();
    CHECK_THROWS(write_tfrags({p}));
    TfragPatch big = example_quad();
    big.positions[kLod0].assign(200, {});
    CHECK_THROWS(write_tfrags({big}));  // 204 positions × 2 qwords pass the 0x148 VU limit
}

}  // namespace test_tfrag_write
