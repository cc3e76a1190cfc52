// libFuzzer: the LEVEL WAD header (§3) and the data-lump header (§4.1).
#include "formats/disc/data_lump.h"
#include "formats/disc/level_wad.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan input(data, size);
    auto header = parse_level_header(input);
    if (header.ok()) {
        (void)level_extents(*header);
        (void)claimed_sectors(*header);
        (void)extent_problems(*header, size / kSectorSize);
    }
    auto lump = parse_data_lump_header(input, size);
    if (lump.ok()) (void)data_lump_sections(*lump);
    return 0;
}
