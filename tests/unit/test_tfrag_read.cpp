// The tfrag reader (formats.md §7) against the writer, the §7.10 example,
// damaged patches, and each of the seed's wrong turns.
#include <doctest/doctest.h>

#include <algorithm>

#include "formats/tfrag/tfrag_mesh.h"
#include "formats/tfrag/tfrag_read.h"
#include "tfrag_samples.h"

namespace test_tfrag_read {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;

namespace {

TfragsHeader header_of(ByteSpan block) { return parse_tfrags_header(block).value(); }

// Reads every patch with `sizer`; returns how many decode with counts that
// agree with their headers (read_tfrag_patch checks vert_count and tri_count).
int patches_matching(const Bytes& block, vif::PacketSizer sizer) {
    const TfragsHeader h = header_of(block);
    int ok = 0;
    for (int i = 0; i < h.tfrag_count; ++i) ok += read_tfrag_patch(block, h, static_cast<uint32_t>(i), sizer).ok();
    return ok;
}

uint64_t pad(uint64_t bytes, uint64_t to) { return (bytes + to - 1) / to * to; }

// --- The seed's wrong readings of the VIF code word (seed "The VIF1 code word").
uint64_t size_from_immediate(vif::Code c) {
    if (!c.is_unpack()) return vif::packet_size(c);
    const uint32_t vn = (c.imm() >> 2) & 3, vl = c.imm() & 3;  // the commonly quoted, wrong layout
    return 4 + pad(static_cast<uint64_t>(c.count()) * (((32u >> vl) * (vn + 1)) / 8), 4);
}
uint64_t two_byte_padding(vif::Code c) {
    if (!c.is_unpack()) return vif::packet_size(c);
    return 4 + pad(static_cast<uint64_t>(c.count()) * c.element_size(), 2);
}
uint64_t bare_non_unpacks(vif::Code c) {
    const uint64_t real = vif::packet_size(c);
    return c.is_unpack() || real == 0 ? real : 4;  // STROW/STCOL/STMASK/MPG/DIRECT payloads ignored
}

bool has_odd_position_tier(const TfragPatch& p) {
    return std::any_of(p.positions.begin(), p.positions.end(), [](const auto& tier) { return tier.size() % 2 == 1; });
}

void check_same_patch(const TfragPatch& got, const TfragPatch& want) {
    CHECK(got.base == want.base);
    CHECK(got.bsphere == want.bsphere);
    CHECK(got.occl_index == want.occl_index);
    CHECK(got.mip_dist == want.mip_dist);
    CHECK(got.textures == want.textures);
    for (int t = 0; t < 3; ++t) {
        REQUIRE(got.positions[t].size() == want.positions[t].size());
        for (size_t i = 0; i < want.positions[t].size(); ++i) {
            CHECK(got.positions[t][i].x == want.positions[t][i].x);
            CHECK(got.positions[t][i].y == want.positions[t][i].y);
            CHECK(got.positions[t][i].z == want.positions[t][i].z);
        }
        REQUIRE(got.vertex_info[t].size() == want.vertex_info[t].size());
        for (size_t i = 0; i < want.vertex_info[t].size(); ++i) {
            CHECK(got.vertex_info[t][i].vertex == want.vertex_info[t][i].vertex);
            CHECK(got.vertex_info[t][i].parent == want.vertex_info[t][i].parent);
            CHECK(got.vertex_info[t][i].s == want.vertex_info[t][i].s);
            CHECK(got.vertex_info[t][i].t == want.vertex_info[t][i].t);
        }
    }
    for (int lod = 0; lod < 3; ++lod) {
        const auto& g = got.lods[lod];
        const auto& w = want.lods[lod];
        REQUIRE(g.strips.size() == w.strips.size());
        for (size_t i = 0; i < w.strips.size(); ++i) {
            CHECK(g.strips[i].x == w.strips[i].x);
            CHECK(g.strips[i].z == w.strips[i].z);
        }
        // §7.5: index arrays are zero-padded to a multiple of 4 on the disc.
        CHECK(g.indices.size() == pad(w.indices.size(), 4));
        CHECK(std::equal(w.indices.begin(), w.indices.end(), g.indices.begin()));
    }
    CHECK(got.parent_indices == want.parent_indices);
    CHECK(got.unknown_indices_2 == want.unknown_indices_2);
    REQUIRE(got.rgba.size() == want.rgba.size());
    for (size_t i = 0; i < want.rgba.size(); ++i) CHECK(got.rgba[i].r == want.rgba[i].r);
    REQUIRE(got.lights.size() == want.lights.size());
    for (size_t i = 0; i < want.lights.size(); ++i) CHECK(got.lights[i].colour == want.lights[i].colour);
}

}  // namespace

TEST_CASE("tfrag reader decodes the §7.10 worked example") {
    const Bytes block = write_tfrags({samples::example_quad()});
    const TfragsHeader h = header_of(block);
    CHECK(h.table_offset == 0x40);
    CHECK(h.tfrag_count == 1);
    CHECK(h.thingy == 32.0f);
    auto patch = read_tfrag_patch(block, h, 0);
    REQUIRE_MESSAGE(patch.ok(), patch.error().describe());
    check_same_patch(*patch, samples::example_quad());
    CHECK(patch->vert_count == 4);
    CHECK(patch->tri_count == 2);
    auto mesh = tfrag_lod_mesh(*patch, 0);
    REQUIRE(mesh.ok());
    REQUIRE(mesh->positions.size() == 4);
    // §7.6: (1000 + 1024) / 1024 etc.
    CHECK(mesh->positions[1][0] == doctest::Approx(2024.0 / 1024));
    CHECK(mesh->positions[1][1] == doctest::Approx(2000.0 / 1024));
    CHECK(mesh->positions[1][2] == doctest::Approx(3000.0 / 1024));
    REQUIRE(mesh->triangles.size() == 2);
    CHECK(mesh->triangles[0] == std::array<uint32_t, 3>{0, 1, 2});
    CHECK(mesh->triangles[1] == std::array<uint32_t, 3>{2, 1, 3});  // odd strip triangle flipped
}

TEST_CASE("tfrag reader round-trips every patch of the builder's terrain") {
    const auto patches = samples::terrain(40);
    TfragWriteOptions options;
    options.exotic_vif_codes = true;  // STMASK STCOL MARK MPG DIRECT ITOP FLUSH in each LOD-1 list
    const Bytes block = write_tfrags(patches, options);
    const TfragsHeader h = header_of(block);
    REQUIRE(h.tfrag_count == 40);
    int with_unknown_2 = 0, with_lod01 = 0;
    for (uint32_t i = 0; i < patches.size(); ++i) {
        CAPTURE(i);
        auto got = read_tfrag_patch(block, h, i);
        REQUIRE_MESSAGE(got.ok(), got.error().describe());
        check_same_patch(*got, patches[i]);
        // §7.3: as on a real disc, every LOD01 and LOD0 position has a parent.
        CHECK(got->parent_indices[0].size() == got->positions[kLod01].size());
        CHECK(got->parent_indices[1].size() == got->positions[kLod0].size());
        with_unknown_2 += !got->unknown_indices_2[0].empty() || !got->unknown_indices_2[1].empty();
        with_lod01 += !got->positions[kLod01].empty();
    }
    CHECK(with_unknown_2 > 0);  // the optional "unknown indices 2" unpacks were met
    CHECK(with_unknown_2 < 40);
    CHECK(with_lod01 > 0);
}

TEST_CASE("a parent index past the vertex infos its LOD sees rejects the patch") {
    auto patches = samples::terrain(8);
    const auto with_lod0 = std::find_if(patches.begin(), patches.end(), [](const TfragPatch& p) { return !p.parent_indices[1].empty(); });
    REQUIRE(with_lod0 != patches.end());
    const size_t all = with_lod0->vertex_info[0].size() + with_lod0->vertex_info[1].size() + with_lod0->vertex_info[2].size();
    with_lod0->parent_indices[1].back() = static_cast<uint8_t>(all);  // one past the last vertex info
    const Bytes block = write_tfrags(patches);
    const auto got = read_tfrag_patch(block, header_of(block), static_cast<uint32_t>(with_lod0 - patches.begin()));
    REQUIRE(!got.ok());
    CHECK(got.error().code == Errc::out_of_range);
    CHECK(got.error().message.find("parent vertex info") != std::string::npos);
}

TEST_CASE("LOD meshes use their tiers and keep one winding across a height field") {
    const Bytes block = samples::terrain_block(30);
    const TfragsHeader h = header_of(block);
    for (uint32_t i = 0; i < 30; ++i) {
        const TfragPatch p = read_tfrag_patch(block, h, i).value();
        for (int lod = 0; lod < 3; ++lod) {
            CAPTURE(i);
            CAPTURE(lod);
            auto mesh = tfrag_lod_mesh(p, lod);
            REQUIRE_MESSAGE(mesh.ok(), mesh.error().describe());
            size_t tiers = 0;
            for (int t = 0; t < 3 - lod; ++t) tiers += p.positions[t].size();
            CHECK(mesh->positions.size() == tiers);  // §7.7
            CHECK(mesh->triangles.size() == strip_triangle_count(p.lods[lod].strips));
            // The terrain is a height field over x/y (z up): every face's normal
            // must point up once odd strip triangles are flipped.
            for (const auto& t : mesh->triangles) {
                const auto &a = mesh->positions[t[0]], &b = mesh->positions[t[1]], &c = mesh->positions[t[2]];
                const double nz = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
                CHECK(nz > 0);
            }
        }
    }
}

TEST_CASE("seed wrong turn: the vector format read from the immediate breaks the counts") {
    const Bytes block = samples::terrain_block(24);
    CHECK(patches_matching(block, vif::packet_size) == 24);
    CHECK(patches_matching(block, size_from_immediate) == 0);
}

TEST_CASE("seed wrong turn: 2-byte payload padding breaks every patch with an odd position run") {
    const auto patches = samples::terrain(24);
    const Bytes block = write_tfrags(patches);
    const TfragsHeader h = header_of(block);
    int odd = 0;
    for (uint32_t i = 0; i < patches.size(); ++i) {
        const bool breaks = !read_tfrag_patch(block, h, i, two_byte_padding).ok();
        CHECK(breaks == has_odd_position_tier(patches[i]));  // 6 × odd count is 2 mod 4
        odd += has_odd_position_tier(patches[i]);
    }
    CHECK(odd > 0);
}

TEST_CASE("seed wrong turn: ignoring non-unpack payloads desynchronises every list") {
    const Bytes block = samples::terrain_block(24);
    CHECK(patches_matching(block, bare_non_unpacks) == 0);
    auto first = read_tfrag_patch(block, header_of(block), 0, bare_non_unpacks);
    CHECK((first.error().code == Errc::desync || first.error().code == Errc::bad_value ||
           first.error().code == Errc::truncated));
}

TEST_CASE("seed wrong turn: banking strips by arrival order gives the wrong LOD-0 triangle count") {
    const Bytes block = samples::terrain_block(24);
    const TfragsHeader h = header_of(block);
    int wrong = 0;
    for (uint32_t i = 0; i < 24; ++i) {
        const TfragPatchHeader ph = parse_tfrag_patch_header(block, h, i).value();
        const TfragListSpans spans = tfrag_list_spans(block, h, ph).value();
        // Strip arrays in transfer order: the LOD-2 list comes first (§7.3).
        std::vector<std::vector<TfragStrip>> arrival;
        for (const auto& list : spans.lists) {
            const auto packets = vif::walk(list).value();
            for (const auto& packet : packets)
                if (packet.code.is_unpack() && packet.code.format() == vif::Format::V4_8 && !packet.code.usn()) {
                    std::vector<TfragStrip> strips;
                    for (size_t k = 0; k + 4 <= packet.payload.size(); k += 4)
                        strips.push_back({static_cast<int8_t>(packet.payload[k]), 0, static_cast<int8_t>(packet.payload[k + 2]), 0});
                    arrival.push_back(strips);
                }
        }
        REQUIRE(arrival.size() == 3);
        const uint32_t by_arrival = strip_triangle_count(arrival[0]);  // "LOD 0" = first found
        const uint32_t by_identity = strip_triangle_count(read_tfrag_patch(block, h, i).value().lods[0].strips);
        CHECK(by_identity == ph.tri_count);
        wrong += by_arrival != ph.tri_count;
    }
    CHECK(wrong == 24);
}

TEST_CASE("seed wrong turn: positions only from the common list miss the LOD tiers") {
    const Bytes block = samples::terrain_block(24);
    const TfragsHeader h = header_of(block);
    for (uint32_t i = 0; i < 24; ++i) {
        const TfragPatchHeader ph = parse_tfrag_patch_header(block, h, i).value();
        const TfragListSpans spans = tfrag_list_spans(block, h, ph).value();
        uint32_t common_only = 0;
        const auto packets = vif::walk(spans.lists[kListCommon]).value();
        for (const auto& packet : packets)
            if (packet.code.is_unpack() && packet.code.format() == vif::Format::V3_16) common_only += packet.code.count();
        CHECK(common_only != ph.vert_count);
        CHECK(read_tfrag_patch(block, h, i).ok());  // all three tiers: the count matches
    }
}

TEST_CASE("tfrag reader rejects a patch whose header disagrees with its lists") {
    const Bytes good = samples::terrain_block(4);
    const TfragsHeader h = header_of(good);
    const uint64_t at = tfrag_patch_header_offset(h, 2);

    Bytes vert = good;
    vert[at + 0x3C] += 1;
    auto e1 = read_tfrag_patch(vert, h, 2);
    REQUIRE_FALSE(e1.ok());
    CHECK(e1.error().code == Errc::size_mismatch);
    CHECK(e1.error().offset == at + 0x3C);

    Bytes tri = good;
    tri[at + 0x3D] -= 1;
    auto e2 = read_tfrag_patch(tri, h, 2);
    REQUIRE_FALSE(e2.ok());
    CHECK(e2.error().code == Errc::size_mismatch);
    CHECK(e2.error().offset == at + 0x3D);

    Bytes sizes = good;
    sizes[at + 0x20] += 1;  // common_size no longer meets lod_1_ofs
    CHECK(read_tfrag_patch(sizes, h, 2).error().code == Errc::size_mismatch);

    // An unknown VIF command inside the common list: desync at its offset.
    const TfragPatchHeader ph = parse_tfrag_patch_header(good, h, 2).value();
    const TfragListSpans spans = tfrag_list_spans(good, h, ph).value();
    const auto common = vif::walk(spans.lists[kListCommon]).value();
    REQUIRE(common.size() > 2);
    REQUIRE(common[2].code.cmd() == vif::STROW);  // vi1 row, after the header and ad-gif unpacks
    const uint64_t code_at = spans.begin[kListCommon] + common[2].offset;
    Bytes vif_bad = good;
    vif_bad[code_at + 3] = 0x5F;  // cmd 0x5F is no VIF command
    auto e3 = read_tfrag_patch(vif_bad, h, 2);
    REQUIRE_FALSE(e3.ok());
    CHECK(e3.error().code == Errc::desync);
    CHECK(e3.error().offset == code_at);

    for (uint32_t other : {0u, 1u, 3u}) {
        CHECK(read_tfrag_patch(vert, h, other).ok());  // the damage stays in patch 2
        CHECK(read_tfrag_patch(vif_bad, h, other).ok());
    }
}

TEST_CASE("a strip that names a vertex info out of range is an error, not a dropped triangle") {
    TfragPatch p = read_tfrag_patch(samples::terrain_block(1), header_of(samples::terrain_block(1)), 0).value();
    p.lods[0].indices[1] = 200;
    auto mesh = tfrag_lod_mesh(p, 0);
    REQUIRE_FALSE(mesh.ok());
    CHECK(mesh.error().code == Errc::out_of_range);
    p = samples::example_quad();
    p.lods[0].strips[0].x = 4;  // §7.8: the first record must be flagged (biased)
    CHECK(tfrag_lod_mesh(p, 0).error().code == Errc::bad_value);
    p = samples::example_quad();
    p.lods[0].strips[0].z = 5;  // ad-gif slot 1 of a one-texture patch
    CHECK(tfrag_lod_mesh(p, 0).error().code == Errc::out_of_range);
}

TEST_CASE("tfrags header: the seed's 12-byte reading loses a field; counts are bounded by the block") {
    Bytes block = write_tfrags({samples::example_quad()});
    block[12] = 0x2A;  // mysterious_second_thingy lives at +0xC: the header is 16 bytes (§7.1)
    CHECK(header_of(block).mysterious_second_thingy == 0x2A);
    block[4] = 0xFF;  // 255 patch headers cannot fit in 704 bytes
    CHECK(parse_tfrags_header(block).error().code == Errc::out_of_range);
}

TEST_CASE("texture coordinates: s / 4096, halved when negative; each triangle carries its strip's texture") {
    CHECK(tfrag_texture_coordinate(4096) == 1.0);
    CHECK(tfrag_texture_coordinate(2048) == 0.5);
    CHECK(tfrag_texture_coordinate(-4096) == -0.5);  // §7.6: 1/8192 below 2048.0's ulp boundary
    TfragPatch p = samples::example_quad();
    p.textures = {7};
    auto mesh = tfrag_lod_mesh(p, 0);
    REQUIRE(mesh.ok());
    REQUIRE(mesh->uvs.size() == 4);
    CHECK(mesh->uvs[3] == std::array<double, 2>{1.0, 1.0});  // vertex info (4096, 4096)
    CHECK(mesh->triangle_uvs[1] == std::array<uint32_t, 3>{2, 1, 3});  // flipped with its positions
    CHECK(mesh->triangle_texture == std::vector<int32_t>{7, 7});  // TEX0.data_lo of ad-gif 0 (§7.5)
    CHECK(mesh->colours[0].r == 0x80);
}

TEST_CASE("seed wrong reading: the '18 18 18 80' clusters in the tfrag region are vertex colours, not texels") {
    // The seed found runs of 18 18 18 80 inside the terrain data and took them
    // for texels stored inline. §7.3: they are the RGBA array, one entry per
    // position, read as colours; texels live in the pool at textures_base.
    auto patches = samples::terrain(3);
    for (auto& rgba : patches[1].rgba) rgba = {0x18, 0x18, 0x18, 0x80};
    const Bytes block = write_tfrags(patches);
    const TfragsHeader header = parse_tfrags_header(block).value();
    const TfragPatchHeader h = parse_tfrag_patch_header(block, header, 1).value();
    // §7.2: offsets are relative to the patch data, table_offset + data.
    const uint64_t at = static_cast<uint64_t>(header.table_offset) + static_cast<uint64_t>(h.data) + h.rgba_ofs;
    const uint64_t positions = patches[1].rgba.size();
    for (uint64_t i = 0; i < positions; ++i) {
        CAPTURE(i);
        CHECK(block[at + 4 * i] == 0x18);
        CHECK(block[at + 4 * i + 3] == 0x80);
    }
    auto patch = read_tfrag_patch(block, header, 1);
    REQUIRE(patch.ok());
    const auto mesh = tfrag_lod_mesh(*patch, 0);
    REQUIRE(mesh.ok());
    // One colour per position, exactly the header's vert_count of them: a
    // vertex attribute, not a width × height texture.
    CHECK(mesh->colours.size() == h.vert_count);
    CHECK(mesh->positions.size() == h.vert_count);
    for (const auto& c : mesh->colours) CHECK((c.r == 0x18 && c.g == 0x18 && c.b == 0x18 && c.a == 0x80));
}

}  // namespace test_tfrag_read
