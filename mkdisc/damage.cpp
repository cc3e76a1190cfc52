#include "mkdisc/damage.h"

#include <algorithm>
#include <stdexcept>

#include "formats/gameplay/gameplay.h"
#include "formats/particles/particle_defs.h"
#include "formats/tfrag/tfrag_read.h"
#include "formats/wad_lz/wad_lz.h"

namespace gcfs::mkdisc {
namespace {

struct Named {
    const char* name;
    Damage kind;
};
constexpr Named kNames[] = {{"tfrag-count", Damage::tfrag_count},
                            {"vif-desync", Damage::vif_desync},
                            {"core-lookback", Damage::core_lookback},
                            {"gameplay-double-literal", Damage::gameplay_double_literal},
                            {"gameplay-size", Damage::gameplay_size},
                            {"extents-in-bytes", Damage::extents_in_bytes},
                            {"extents-overlap", Damage::extents_overlap},
                            {"toc-past-end", Damage::toc_past_end},
                            {"truncated", Damage::truncated},
                            {"collision-size", Damage::collision_size},
                            {"sky-shells", Damage::sky_shells},
                            {"sky-face-index", Damage::sky_face_index},
                            {"tie-strip-slot", Damage::tie_strip_slot},
                            {"shrub-packet-size", Damage::shrub_packet_size},
                            {"moby-cache-index", Damage::moby_cache_index},
                            {"moby-packet-count", Damage::moby_packet_count},
                            {"moby-joint-parent", Damage::moby_joint_parent},
                            {"gameplay-moby-count", Damage::gameplay_moby_count},
                            {"gameplay-help-offset", Damage::gameplay_help_offset},
                            {"gameplay-path-count", Damage::gameplay_path_count},
                            {"vag-size", Damage::vag_size},
                            {"vag-predictor", Damage::vag_predictor},
                            {"audio-extent", Damage::audio_extent},
                            {"subtitle-offset", Damage::subtitle_offset},
                            {"video-extent", Damage::video_extent},
                            {"pif-magic", Damage::pif_magic},
                            {"pif-size", Damage::pif_size},
                            {"texlist-count", Damage::texlist_count},
                            {"armor-packets", Damage::armor_packets},
                            {"exe-block", Damage::exe_block},
                            {"particle-frame-row", Damage::particle_frame_row},
                            {"sound-remap-end", Damage::sound_remap_end},
                            {"stash-row-unlisted", Damage::stash_row_unlisted}};

}  // namespace

std::optional<DamageSpec> parse_damage(const std::string& text) {
    const size_t colon = text.find(':');
    const std::string name = text.substr(0, colon);
    for (const auto& n : kNames) {
        if (name != n.name) continue;
        DamageSpec spec{n.kind};
        if (colon != std::string::npos) {
            try {
                spec.level = std::stoi(text.substr(colon + 1));
            } catch (const std::exception&) {
                return std::nullopt;
            }
        }
        return spec;
    }
    return std::nullopt;
}

std::vector<std::string> damage_names() {
    std::vector<std::string> names;
    for (const auto& n : kNames) names.emplace_back(n.name);
    return names;
}

void damage_collision(formats::Bytes& block, Damage kind) {
    using namespace formats;
    if (kind != Damage::collision_size) return;
    // §8.3: follow the first non-empty offset at each level of the tree.
    const uint64_t mesh = u32_at(block, 0);
    auto first_nonzero = [&](uint64_t at, uint64_t count, uint64_t width) {
        for (uint64_t i = 0; i < count; ++i)
            if ((width == 2 ? u16_at(block, at + 2 * i) : u32_at(block, at + 4 * i)) != 0) return at + width * i;
        throw std::invalid_argument("collision damage needs a non-empty tree");
    };
    const uint64_t z_node = mesh + 4ull * u16_at(block, first_nonzero(mesh + 4, u16_at(block, mesh + 2), 2));
    const uint64_t y_node = mesh + u32_at(block, first_nonzero(z_node + 4, u16_at(block, z_node + 2), 4));
    block.at(first_nonzero(y_node + 4, u16_at(block, y_node + 2), 4)) += 1;  // the entry's low byte: qwords
}

void damage_tie_class(formats::Bytes& tie, Damage kind) {
    using namespace formats;
    if (kind != Damage::tie_strip_slot) return;
    // A.2 packets[0] -> A.3 packet header 0 -> its data; strip 0's gif_tag_offset is byte 2 of +0x2c.
    const uint64_t table = u32_at(tie, 0);
    tie.at(table + u32_at(tie, table) + 0x2c + 2) = 0xff;
}

void damage_shrub_class(formats::Bytes& shrub, Damage kind) {
    using namespace formats;
    if (kind != Damage::shrub_packet_size) return;
    // §1.3: packet 0's {offset, size} at 0x40; the size now runs 1 MiB past the class.
    const uint32_t size = static_cast<uint32_t>(shrub.size()) + (1u << 20);
    for (int b = 0; b < 4; ++b) shrub.at(0x44 + b) = static_cast<uint8_t>(size >> (8 * b));
}

void damage_moby_class(formats::Bytes& moby, int32_t o_class, Damage kind) {
    using namespace formats;
    if (kind == Damage::moby_joint_parent && o_class == 101) {
        // §11: common_trans (@0x18) holds 16 bytes a joint, parent_offset a u16 at +12; joint 2's
        // becomes 0x80, itself, where an earlier joint must stand.
        const uint64_t entry = u32_at(moby, 0x18) + 16 * 2 + 12;
        moby.at(entry) = 0x80, moby.at(entry + 1) = 0;
    }
    if (o_class != 100) return;
    if (kind == Damage::moby_packet_count) moby.at(4) = 0xf0;  // §2 0x04: 240 high-LOD packets
    if (kind != Damage::moby_cache_index) return;
    // §5 packet 0's VIF list: the ST UNPACK (4 + 4T bytes), then the index UNPACK's code and
    // 4-byte header; its second index byte becomes 0x7f | 0x80, vertex 126 of T.
    const uint64_t list = u32_at(moby, u32_at(moby, 0));
    const uint64_t st_bytes = 4ull * ((u32_at(moby, list) >> 16) & 0xff);
    moby.at(list + 4 + st_bytes + 4 + 4 + 1) = 0xff;
}

void damage_sky(formats::Bytes& block, Damage kind) {
    using namespace formats;
    if (kind == Damage::sky_shells) block.at(0x06) = 9;  // §8.2 s16 shell_count, at most 8
    if (kind == Damage::sky_face_index) {
        // formats-tie-sky.md B.3: shell 0's first cluster header sits at shell + 0x10; its
        // first face's first index becomes vertex_count, one past the cluster's vertices.
        const uint64_t cluster = u32_at(block, 0x20) + 0x10;
        const uint64_t face = u32_at(block, cluster + 0x10) + u16_at(block, cluster + 0x1C);
        block.at(face) = static_cast<uint8_t>(u16_at(block, cluster + 0x14));
    }
}

void damage_tfrags(formats::Bytes& block, Damage kind) {
    using namespace formats;
    const TfragsHeader header = parse_tfrags_header(block).value();
    if (header.tfrag_count < 3) throw std::invalid_argument("tfrag damage needs at least 3 patches");
    switch (kind) {
        case Damage::tfrag_count:
            block.at(tfrag_patch_header_offset(header, 1) + 0x3C) += 1;  // vert_count
            return;
        case Damage::vif_desync: {
            const TfragPatchHeader patch = parse_tfrag_patch_header(block, header, 2).value();
            const TfragListSpans spans = tfrag_list_spans(block, header, patch).value();
            const auto packets = vif::walk(spans.lists[kListCommon]).value();
            // packets[2] is the vi1 STROW (§7.3 common list order); cmd 0x5F is no VIF command.
            block.at(spans.begin[kListCommon] + packets.at(2).offset + 3) = 0x5F;
            return;
        }
        default: return;
    }
}

void damage_core_stream(formats::Bytes& stream, Damage kind) {
    if (kind != Damage::core_lookback) return;
    // §5.2: flag 0x20 with E = 0x10 is a big match of 49 bytes; B1 = 0, B2 = 0x7F
    // puts its source 8129 bytes back, before anything has been decoded.
    const uint8_t match[] = {0x20, 0x10, 0x00, 0x7F};
    std::copy(std::begin(match), std::end(match), stream.begin() + formats::wad_lz::kHeaderSize);
}

void damage_particle_defs(formats::Bytes& defs, Damage kind) {
    if (kind != Damage::particle_frame_row) return;
    // §13: offsets[10] at 0x10 + 4 × 10 points at the particle's first index byte.
    const auto first = static_cast<uint64_t>(formats::s32_at(defs, formats::particles::kDefsHeaderSize + 4 * 10));
    defs.at(first + 2) = 200;
}

void damage_sound_remap(formats::Bytes& remap, Damage kind) {
    if (kind != Damage::sound_remap_end) return;
    // §13: the last element sits at second_part_ofs − 4; its size (words) is its second s16.
    const auto last = static_cast<uint64_t>(formats::s16_at(remap, 0)) - 4;
    remap.at(last + 2) = 0x00;
    remap.at(last + 3) = 0x70;  // 0x7000 words: 112 KiB past the element's offset
}

void damage_gameplay(formats::Bytes& file, Damage kind) {
    using namespace formats;
    using namespace formats::gameplay;
    if (kind != Damage::gameplay_moby_count && kind != Damage::gameplay_help_offset && kind != Damage::gameplay_path_count)
        return;
    const Gameplay g = read_gameplay(file);
    auto put = [&](uint64_t at, int32_t v) {
        for (int i = 0; i < 4; ++i) file.at(at + i) = static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * i));
    };
    if (kind == Damage::gameplay_moby_count) {
        put(g.mobies.offset, static_cast<int32_t>(g.mobies.value->count() + 64));
    } else if (kind == Damage::gameplay_help_offset) {
        const auto& french = g.help[2];  // slot 0x18
        put(french.offset + 8 + 16, french.value->size + 0x100);  // message 1's string offset
    } else {
        const uint64_t spline = g.paths.offset + static_cast<uint64_t>(g.paths.value->data_offset) +
                                static_cast<uint64_t>(g.paths.value->splines[0].offset);
        put(spline, g.paths.value->data_size);  // 16 bytes a point: far past the data
    }
}

void damage_gameplay_stream(formats::Bytes& stream, Damage kind) {
    using formats::wad_lz::kHeaderSize;
    if (kind == Damage::gameplay_size) {
        // §5.1: the s32 at +3 is the whole stream's size; claim three sectors more than the extent holds.
        const uint32_t claimed = static_cast<uint32_t>(formats::align_up(stream.size(), formats::kSectorSize) + 3 * formats::kSectorSize);
        for (int i = 0; i < 4; ++i) stream.at(3 + i) = static_cast<uint8_t>(claimed >> (8 * i));
    } else if (kind == Damage::gameplay_double_literal) {
        // The gameplay table opens with unrepeated bytes, so the stream opens
        // with a literal packet (§5.2); the flag after its run becomes 0x01.
        const uint8_t flag = stream.at(kHeaderSize);
        if (flag >= 0x10) throw std::logic_error("gameplay stream does not open with a literal packet");
        const uint64_t run = flag == 0 ? stream.at(kHeaderSize + 1) + 18ull : flag + 3ull;
        stream.at(kHeaderSize + (flag == 0 ? 2 : 1) + run) = 0x01;
    }
}

void damage_level_header(formats::LevelHeader& header, Damage kind) {
    if (kind == Damage::extents_overlap) header.gameplay.offset = header.data.offset;
    if (kind != Damage::extents_in_bytes) return;
    for (formats::SectorRange* r : {&header.data, &header.sound_bank, &header.gameplay, &header.occlusion})
        r->size = static_cast<int32_t>(r->byte_size());  // bytes where sectors belong
}

}  // namespace gcfs::mkdisc
