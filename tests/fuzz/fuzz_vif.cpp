// libFuzzer: the VIF1 code walk (formats.md §7.4).
#include "formats/vif/vif.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto packets = vif::walk(ByteSpan(data, size));
    if (!packets.ok()) return 0;
    for (const auto& p : *packets)  // every payload lies inside the input
        if (p.payload.data() < data || p.payload.data() + p.payload.size() > data + size) __builtin_trap();
    return 0;
}
