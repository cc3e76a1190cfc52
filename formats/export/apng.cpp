#include "formats/export/apng.h"

#include <stdexcept>

#include "formats/export/png_chunks.h"

namespace gcfs::formats::png {
namespace {

constexpr uint64_t kActlBytes = 8, kFctlBytes = 26, kSequenceBytes = 4;

uint64_t frame_zlib_size(uint32_t width, uint32_t height) {
    return stored_zlib_size(static_cast<uint64_t>(height) * (1 + 4 * static_cast<uint64_t>(width)));
}

}  // namespace

uint64_t apng_size(uint32_t width, uint32_t height, uint64_t frames) {
    if (frames == 0) return 0;
    const uint64_t z = frame_zlib_size(width, height);
    // IHDR, acTL, a fcTL per frame, IDAT for the first, fdAT for the others, IEND.
    return sizeof kSignature + (kChunkOverhead + 13) + (kChunkOverhead + kActlBytes) + frames * (kChunkOverhead + kFctlBytes) +
           (kChunkOverhead + z) + (frames - 1) * (kChunkOverhead + kSequenceBytes + z) + kChunkOverhead;
}

Bytes write_apng(uint32_t width, uint32_t height, const std::vector<std::vector<Rgba>>& frames, uint16_t delay_num, uint16_t delay_den) {
    if (frames.empty()) throw std::invalid_argument("APNG: no frames");
    Bytes out = signature_and_header(width, height, 6);
    Bytes actl;
    be32(actl, static_cast<uint32_t>(frames.size()));
    be32(actl, 0);  // loop forever
    chunk(out, "acTL", actl);
    uint32_t sequence = 0;  // fcTL and fdAT share one sequence, from 0
    for (size_t f = 0; f < frames.size(); ++f) {
        if (frames[f].size() != static_cast<uint64_t>(width) * height) throw std::invalid_argument("APNG: pixel count");
        Bytes fctl;
        be32(fctl, sequence++);
        be32(fctl, width);
        be32(fctl, height);
        be32(fctl, 0);  // x offset
        be32(fctl, 0);  // y offset
        be16(fctl, delay_num);
        be16(fctl, delay_den);
        fctl.push_back(0);  // dispose: none (the next frame covers it whole)
        fctl.push_back(0);  // blend: source (replace, alpha included)
        chunk(out, "fcTL", fctl);
        Bytes z = stored_zlib(reinterpret_cast<const uint8_t*>(frames[f].data()), height, 4 * static_cast<uint64_t>(width));
        if (f == 0) {
            chunk(out, "IDAT", z);  // the default image is the first frame
            continue;
        }
        Bytes fdat;
        be32(fdat, sequence++);
        fdat.insert(fdat.end(), z.begin(), z.end());
        chunk(out, "fdAT", fdat);
    }
    chunk(out, "IEND", {});
    return out;
}

}  // namespace gcfs::formats::png
