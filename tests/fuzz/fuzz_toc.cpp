// libFuzzer: the table of contents at LBA 1001 (formats.md §2.3).
#include "formats/disc/toc.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    (void)parse_toc(ByteSpan(data, size));
    return 0;
}
