// libFuzzer: the global WADs' pictures (formats-globals.md §5, §7): a PIF to
// PNG (its size held to the header's arithmetic), a texture list with each of
// its textures, an RGBA image, and the BONUS credits table.
#include "formats/bonus/bonus.h"
#include "formats/pif/pif.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan bytes(data, size);
    if (const auto header = pif::read_header(bytes); header.ok()) {
        const auto png = pif::to_png(bytes);
        if (png.ok() && png->size() != pif::png_size(*header)) __builtin_trap();  // stat's size is the file's
    }
    if (const auto list = pif::read_texture_list(bytes); list.ok())
        for (const ByteRange& r : *list) (void)pif::to_png(bytes.subspan(static_cast<uint64_t>(r.offset), static_cast<uint64_t>(r.size)));
    if (const auto header = pif::read_rgba_header(bytes); header.ok()) {
        const auto png = pif::rgba_to_png(bytes);
        if (png.ok() && png->size() != pif::rgba_png_size(*header)) __builtin_trap();
    }
    (void)bonus::read_credits_text(bytes);
    return 0;
}
