// libFuzzer: ISO9660 primary volume and directory records (formats.md §2.2).
#include "formats/disc/iso9660.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan input(data, size);
    (void)iso9660::parse_primary_volume(input);
    (void)iso9660::parse_directory(input);
    return 0;
}
