// Tfrag reader (formats.md §7): the block header, the patch table, and one
// patch's five VIF lists decoded back into the TfragPatch the writer takes.
// Every size a header declares is compared with what the lists hold; a patch
// that disagrees is an error, never a partial result.
#pragma once

#include <array>
#include <cstdint>

#include "formats/tfrag/tfrag.h"
#include "formats/vif/vif.h"

namespace gcfs::formats {

// §7.1 TfragsHeader (16 bytes; the seed read only the first 12).
struct TfragsHeader {
    int32_t table_offset = 0;
    int32_t tfrag_count = 0;
    float thingy = 0;                   // the seed's "LOD distance", meaning open (§12 item 6)
    uint32_t mysterious_second_thingy = 0;
};

// Parses the header from the block's first 16 bytes (`head`) and checks the
// patch table fits inside a block of `block_size` bytes, so the count is safe
// to size a tree by before the rest of the block is decoded.
Result<TfragsHeader> parse_tfrags_header(ByteSpan head, uint64_t block_size);
inline Result<TfragsHeader> parse_tfrags_header(ByteSpan block) { return parse_tfrags_header(block, block.size()); }

// §7.2 TfragHeader: the fields a reader needs (offsets "rel" are relative to
// the patch's data start, table_offset + data).
struct TfragPatchHeader {
    std::array<float, 4> bsphere{};
    int32_t data = 0;
    uint16_t lod_2_ofs = 0, shared_ofs = 0, lod_1_ofs = 0, lod_0_ofs = 0, tex_ofs = 0, rgba_ofs = 0;
    uint8_t common_size = 0, lod_2_size = 0, lod_1_size = 0, lod_0_size = 0;
    uint8_t texture_count = 0, rgba_size = 0, msphere_count = 0;
    uint16_t msphere_ofs = 0, light_ofs = 0, light_end_ofs = 0, cube_ofs = 0, occl_index = 0;
    uint8_t vert_count = 0, tri_count = 0;
    uint16_t mip_dist = 0;
};

// Offset of patch `index`'s 0x40-byte header inside the block.
uint64_t tfrag_patch_header_offset(const TfragsHeader& header, uint32_t index);
Result<TfragPatchHeader> parse_tfrag_patch_header(ByteSpan block, const TfragsHeader& header, uint32_t index);

// The five VIF lists of §7.3, in transfer order, as windows of the block.
enum TfragList { kListLod2 = 0, kListCommon, kListLod1, kListLod01, kListLod0, kListCount };
const char* tfrag_list_name(int list);

struct TfragListSpans {
    uint64_t data_start = 0;  // block offset of the patch data, table_offset + data
    std::array<uint64_t, kListCount> begin{};  // block offsets
    std::array<ByteSpan, kListCount> lists;
};

// Checks the header's offsets and sizes against each other (§7.10 "checks a
// reader can apply") and against the block, then cuts out the lists.
Result<TfragListSpans> tfrag_list_spans(ByteSpan block, const TfragsHeader& header, const TfragPatchHeader& patch);

// Decodes patch `index`: walks every list with `sizer` (always the real
// vif::packet_size outside tests), classifies unpacks by format and VU address
// through the VU header, banks strips and indices by list identity, and checks
// vert_count against the positions found and tri_count against the LOD-0
// strips. Errors carry the block offset of the offending byte.
Result<TfragPatch> read_tfrag_patch(ByteSpan block, const TfragsHeader& header, uint32_t index,
                                    vif::PacketSizer sizer = vif::packet_size);

}  // namespace gcfs::formats
