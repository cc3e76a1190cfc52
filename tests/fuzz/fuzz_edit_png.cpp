// libFuzzer: the picture edit decoder (edit/ textures): any bytes as a PNG
// of a 16x16 or 32x32 texture, then placed on a palette shared or its own.
#include <array>

#include "formats/core/texture_encode.h"
#include "formats/export/png_read.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Palette palette{};
    for (size_t i = 0; i < palette.size(); ++i) palette[i] = {uint8_t(i), uint8_t(255 - i), uint8_t(i * 7), uint8_t(i < 128 ? 255 : i)};
    for (const uint32_t side : {16u, 32u}) {
        const auto picture = png::read_rgba(ByteSpan(data, size), side, side);
        if (!picture.ok()) continue;
        const Bytes old(side * side, 3);
        for (const bool own : {false, true}) {
            const IndexedPicture encoded = encode_indexed(*picture, old, palette, own);
            if (encoded.texels.size() != side * side) __builtin_trap();
            (void)ps2_palette_bytes(encoded.palette);
        }
    }
    return 0;
}
