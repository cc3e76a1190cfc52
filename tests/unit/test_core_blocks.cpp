// The level-core blocks of formats-globals.md §13 (particle definitions, the
// sound remap, Ratchet's sequences), the APNG writer, and how a built disc
// shows them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "disc_fixture.h"
#include "formats/core/ratchet_seqs.h"
#include "formats/core/sound_remap.h"
#include "formats/export/apng.h"
#include "formats/particles/particle_defs.h"
#include "png_pixels.h"

using namespace gcfs;
using namespace gcfs::formats;

namespace {

// `block` placed at offset 0x40 of a core_index of `size` bytes.
Bytes index_with(const Bytes& block, uint64_t size) {
    Bytes idx(std::max<uint64_t>(size, 0x40 + block.size()), 0);
    std::copy(block.begin(), block.end(), idx.begin() + 0x40);
    return idx;
}

}  // namespace

TEST_CASE("particle definitions: what the writer packs, the reader gives back, slot by slot") {
    std::vector<std::vector<uint8_t>> slots(12);
    slots[0] = {0, 1, 2};
    slots[5] = {3};
    slots[11] = {1, 1, 4, 0};
    const Bytes block = particles::write_particle_defs(particles::kGcParticleSlots, slots);
    CHECK(s32_at(block, 0) == 0x6f);
    CHECK(s32_at(block, 8) % 0x10 == 0);  // the offsets padded to 0x10, as Wrench packs them
    CHECK(s32_at(block, 12) == 8);
    const Bytes idx = index_with(block, 0);
    auto defs = particles::parse_particle_defs(idx, 0x40, 5);
    REQUIRE(defs.ok());
    REQUIRE(defs->particles.size() == 3);
    CHECK(defs->particles[0].slot == 0);
    CHECK(defs->particles[0].frames == std::vector<uint8_t>{0, 1, 2});
    CHECK(defs->particles[1].slot == 5);
    CHECK(defs->particles[2].frames == std::vector<uint8_t>{1, 1, 4, 0});
    for (const auto& p : defs->particles) CHECK(p.error.empty());
    CHECK(defs->size == block.size());

    SUBCASE("a frame naming a row past part_textures fails that particle only") {
        auto short_table = particles::parse_particle_defs(idx, 0x40, 4);
        REQUIRE(short_table.ok());
        CHECK(short_table->particles[0].error.empty());
        CHECK(short_table->particles[1].error.empty());
        CHECK(short_table->particles[2].bad_frame == 2);
        CHECK(short_table->particles[2].error.find("names part_textures row 4 of 4") != std::string::npos);
    }
    SUBCASE("a count the index cannot hold fails before anything is sized by it") {
        Bytes bad = block;
        bad[3] = 0x40;  // 0x4000006f slots
        auto got = particles::parse_particle_defs(index_with(bad, 0), 0x40, 5);
        REQUIRE_FALSE(got.ok());
        CHECK(got.error().message.find("particle offsets") != std::string::npos);
    }
    SUBCASE("index bytes past the block, or overlapping its offsets, fail the block") {
        Bytes past = block;
        past[12] = 0xff;  // indices_size 255
        CHECK_FALSE(particles::parse_particle_defs(index_with(past, 0), 0x40, 5).ok());
        Bytes overlap = block;
        overlap[8] = 0x20;  // index bytes inside the offsets
        CHECK_FALSE(particles::parse_particle_defs(index_with(overlap, 0), 0x40, 5).ok());
    }
    SUBCASE("offsets that run backwards fail the particles they bound") {
        Bytes back = block;
        const int32_t first = s32_at(block, 0x10);
        back[0x10 + 4 * 5] = static_cast<uint8_t>(first - 1);  // slot 5 starts before slot 0's bytes
        auto got = particles::parse_particle_defs(index_with(back, 0), 0x40, 5);
        REQUIRE(got.ok());
        CHECK_FALSE(got->particles[0].error.empty());  // it would end before it starts
        CHECK_FALSE(got->particles[1].error.empty());  // it starts before the index bytes
        CHECK(got->particles[2].error.empty());
    }
    CHECK_FALSE(particles::parse_particle_defs(idx, 0, 5).ok());
    CHECK_FALSE(particles::parse_particle_defs(idx, static_cast<int32_t>(idx.size() - 8), 5).ok());
}

TEST_CASE("sound remap, GC layout: the block ends at its last element's end, and every element lies inside it") {
    const Bytes block = write_sound_remap({{1, 2}, {3}, {4, 5, 6}}, {7, 8});
    const Bytes idx = index_with(block, 0);
    auto remap = parse_sound_remap(idx, 0x40);
    REQUIRE(remap.ok());
    CHECK(remap->elements.size() == 4);
    CHECK(remap->second_part_ofs == 8 + 4 * 4);
    CHECK(remap->size == block.size());
    // The builder's last element is the third part: Wrench's DL rule gives the same size.
    CHECK(uint64_t(remap->third_part_ofs + 4 * remap->third_part_count) == remap->size);
    CHECK(sound_remap_csv(*remap) == "element,offset,words,bytes\n0,24,2,0x18-0x20\n1,32,1,0x20-0x24\n2,36,3,0x24-0x30\n3,48,2,0x30-0x38\n");

    SUBCASE("a last element running past core_index fails") {
        Bytes bad = block;
        bad[24 - 4 + 2] = 0x40;  // the last element's size: 64 words
        auto got = parse_sound_remap(index_with(bad, 0), 0x40);
        REQUIRE_FALSE(got.ok());
        CHECK(got.error().message.find("last element") != std::string::npos);
    }
    SUBCASE("an element running past the block fails") {
        Bytes bad = block;
        bad[8 + 2] = 9;  // element 0: 9 words from 24 pass the block's 56 bytes
        CHECK_FALSE(parse_sound_remap(index_with(bad, 0), 0x40).ok());
    }
    SUBCASE("a table that does not end on a whole element, or is empty, fails") {
        Bytes bad = block;
        bad[0] = 22;
        CHECK_FALSE(parse_sound_remap(index_with(bad, 0), 0x40).ok());
        bad[0] = 8;
        CHECK_FALSE(parse_sound_remap(index_with(bad, 0), 0x40).ok());
    }
}

TEST_CASE("Ratchet's sequences: each set slot runs to the next block boundary; one outside the core fails the table") {
    Bytes table(4 * kRatchetSeqSlots, 0);
    auto put = [&](size_t slot, int32_t v) {
        for (int b = 0; b < 4; ++b) table[4 * slot + b] = static_cast<uint8_t>(v >> (8 * b));
    };
    put(3, 0x100);
    put(40, 0x180);
    const Bytes idx = index_with(table, 0);
    const std::set<uint64_t> boundaries = {0, 0x80, 0x100, 0x180, 0x200};
    auto seqs = parse_ratchet_seqs(idx, 0x40, boundaries, 0x200);
    REQUIRE(seqs.ok());
    REQUIRE(seqs->size() == 2);
    CHECK((*seqs)[0].slot == 3);
    CHECK((*seqs)[0].extent.offset == 0x100);
    CHECK((*seqs)[0].extent.size == 0x80);
    CHECK((*seqs)[1].extent.name == "seq_040");
    CHECK((*seqs)[1].extent.size == 0x80);
    put(7, 0x200);  // at the core's end
    CHECK_FALSE(parse_ratchet_seqs(index_with(table, 0), 0x40, boundaries, 0x200).ok());
    CHECK_FALSE(parse_ratchet_seqs(idx, static_cast<int32_t>(idx.size() - 4), boundaries, 0x200).ok());
}

TEST_CASE("APNG: its size is arithmetic, and a plain PNG reader sees the first frame") {
    for (auto [w, h, n] : {std::tuple{1u, 1u, 1u}, {16u, 16u, 4u}, {300u, 200u, 3u}}) {
        std::vector<std::vector<png::Rgba>> frames;
        for (uint32_t f = 0; f < n; ++f) {
            frames.emplace_back(uint64_t{w} * h);
            for (size_t i = 0; i < frames.back().size(); ++i)
                frames.back()[i] = {static_cast<uint8_t>(i), static_cast<uint8_t>(f), static_cast<uint8_t>(i >> 8), 200};
        }
        const Bytes apng = png::write_apng(w, h, frames, 1, 15);
        CHECK(apng.size() == png::apng_size(w, h, n));
        const test::Pixels first = test::png_pixels(apng);
        CHECK(first.width == w);
        CHECK(first.rgba == Bytes(reinterpret_cast<const uint8_t*>(frames[0].data()),
                                  reinterpret_cast<const uint8_t*>(frames[0].data()) + 4 * frames[0].size()));
    }
}

TEST_CASE("a built level shows its particles, sound remap, sequences, overlay and transition textures") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const std::string csv = file_text(*disc, "LEVEL00/particles.csv");
    CHECK(csv.find("\n0,4,16,\"16 16 16 16\",\"0 1 2 3\",\"ok\"\n") != std::string::npos);
    CHECK(csv.find("\n20,2,32,\"32 8\",\"4 6\",\"ok\"\n") != std::string::npos);  // mixed sides: a 32 × 32 canvas
    // Frame k of particle 0 is part_textures row k: the same picture as textures/part_00k.png.
    for (int k = 0; k < 4; ++k)
        CHECK(file_text(*disc, fmt::format("LEVEL00/particles/000/frame_{:02d}.png", k)) ==
              file_text(*disc, fmt::format("LEVEL00/textures/part_{:03d}.png", k)));
    const std::string apng = file_text(*disc, "LEVEL00/particles/020.png");
    CHECK(apng.find("acTL") != std::string::npos);
    const test::Pixels first = test::png_pixels({reinterpret_cast<const uint8_t*>(apng.data()), apng.size()});
    CHECK(first.width == 32);
    CHECK(file_text(*disc, "LEVEL00/sound_remap.csv").starts_with("element,offset,words,bytes\n0,"));
    CHECK(node_at(*disc, "LEVEL00/ratchet_seqs/seq_000.bin")->source->size() > 0);
    CHECK(file_text(*disc, "LEVEL00/overlay.elf").starts_with("\x7f" "ELF"));
    CHECK(file_text(*disc, "LEVEL00/transition/02.png").size() > 0);
    CHECK_FALSE(disc->tree.resolve("LEVEL01/transition"));  // odd levels have none (formats.md 4.1: offset -1)
    CHECK(file_text(*disc, "LEVEL00/classes/mobies.csv").find(",102,") != std::string::npos);
    const auto info = nlohmann::json::parse(file_text(*disc, "LEVEL00/info.json"));
    CHECK(info["core"]["header"].size() == 47);  // every field of formats.md 6.1, a range's two words apart
    for (const char* block : {"particle_definitions", "sound_remap", "ratchet_seqs", "moby_gs_stash"})
        CHECK_MESSAGE(info["core"]["blocks"][block]["found"] == true, block);
    CHECK(info["core"]["blocks"]["moby_gs_stash"]["classes"] == nlohmann::json::array({102}));
}

TEST_CASE("a damaged particle definition or sound remap fails its own files, and nothing else") {
    const DamagedDisc damaged({{mkdisc::Damage::particle_frame_row, 1}, {mkdisc::Damage::sound_remap_end, 1}}, 7);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    for (const char* path : {"LEVEL01/particles/010.png", "LEVEL01/particles/010/frame_02.png", "LEVEL01/sound_remap.bin", "LEVEL01/sound_remap.csv"}) {
        const tree::NodeRef n_held = node_at(*disc, path);
    const tree::Node& n = *n_held;
        Bytes out(std::max<uint64_t>(n.source->size(), 1));
        CHECK_MESSAGE(!n.source->read(0, out).ok(), path);
    }
    for (const char* path : {"LEVEL01/particles/000.png", "LEVEL01/particles/010/frame_01.png", "LEVEL01/particles.csv",
                             "LEVEL00/sound_remap.bin", "LEVEL01/ratchet_seqs/seq_037.bin", "LEVEL01/level.glb"})
        file_text(*disc, path);
}
