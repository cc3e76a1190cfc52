// libFuzzer: ISO9660 primary volume and directory records (formats.md §2.2).
// The directory parser never fails; what it returns must hold what the walk
// relies on: at most 1000 entries, each problem at a byte of the extent.
#include <cstdlib>

#include "formats/disc/iso9660.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan input(data, size);
    (void)iso9660::parse_primary_volume(input);
    const auto directory = iso9660::parse_directory(input);
    if (directory.entries.size() > iso9660::kMaxRecordsPerDirectory) std::abort();
    for (const auto& p : directory.problems)
        if (p.offset >= size) std::abort();
    for (const auto& e : directory.entries)
        if (e.name.size() > 222) std::abort();  // one record: 255 bytes less its 33 fixed ones
    return 0;
}
