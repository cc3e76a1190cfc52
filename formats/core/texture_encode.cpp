#include "formats/core/texture_encode.h"

#include <libimagequant.h>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <unordered_map>

#include "formats/common/late_library.h"
#include "formats/export/texture_png.h"

namespace gcfs::formats {
namespace {

uint32_t key(const png::Rgba& c) { return uint32_t{c.r} | uint32_t{c.g} << 8 | uint32_t{c.b} << 16 | uint32_t{c.a} << 24; }
png::Rgba pixel(const Bytes& rgba, uint64_t i) { return {rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3]}; }

// libimagequant, opened when a picture first needs a palette made (Debian 12's libimagequant0).
struct Libimagequant {
    LateLibrary library{"libimagequant.so.0"};
    GCFS_LATE_FUNCTION(attr_create, liq_attr_create);
    GCFS_LATE_FUNCTION(attr_destroy, liq_attr_destroy);
    GCFS_LATE_FUNCTION(set_max_colors, liq_set_max_colors);
    GCFS_LATE_FUNCTION(image_create_rgba, liq_image_create_rgba);
    GCFS_LATE_FUNCTION(image_destroy, liq_image_destroy);
    GCFS_LATE_FUNCTION(image_quantize, liq_image_quantize);
    GCFS_LATE_FUNCTION(result_destroy, liq_result_destroy);
    GCFS_LATE_FUNCTION(write_remapped_image, liq_write_remapped_image);
    GCFS_LATE_FUNCTION(get_palette, liq_get_palette);
};

// Owners of libimagequant's objects.
struct LiqFree {
    void operator()(liq_attr* p) const { late_table<Libimagequant>().attr_destroy(p); }
    void operator()(liq_image* p) const { late_table<Libimagequant>().image_destroy(p); }
    void operator()(liq_result* p) const { late_table<Libimagequant>().result_destroy(p); }
};

uint32_t distance(const png::Rgba& a, const png::Rgba& b) {
    auto d = [](int x, int y) { return static_cast<uint32_t>((x - y) * (x - y)); };
    return d(a.r, b.r) + d(a.g, b.g) + d(a.b, b.b) + d(a.a, b.a);
}

// More than 256 colours: libimagequant's palette and remapping (dithered).
IndexedPicture quantised(const png::RgbaImage& picture, size_t colours) {
    const Libimagequant& liq = late_table<Libimagequant>();
    if (!liq.library.error().empty()) throw std::runtime_error("no palette can be made: " + liq.library.error());
    IndexedPicture out;
    out.texels.resize(uint64_t{picture.width} * picture.height);
    std::unique_ptr<liq_attr, LiqFree> attr(liq.attr_create());
    liq.set_max_colors(attr.get(), static_cast<int>(colours));
    std::unique_ptr<liq_image, LiqFree> image(
        liq.image_create_rgba(attr.get(), picture.rgba.data(), static_cast<int>(picture.width), static_cast<int>(picture.height), 0));
    liq_result* raw = nullptr;
    if (!image || liq.image_quantize(image.get(), attr.get(), &raw) != LIQ_OK) throw std::runtime_error("libimagequant could not quantise the picture");
    std::unique_ptr<liq_result, LiqFree> result(raw);
    liq.write_remapped_image(result.get(), image.get(), out.texels.data(), out.texels.size());
    const liq_palette* palette = liq.get_palette(result.get());
    for (unsigned i = 0; i < palette->count && i < 256; ++i)
        out.palette[i] = {palette->entries[i].r, palette->entries[i].g, palette->entries[i].b, palette->entries[i].a};
    out.new_palette = true;
    out.how = fmt::format("more than {} colours: quantised to a new palette of {} with libimagequant", colours, palette->count);
    return out;
}

}  // namespace

IndexedPicture encode_indexed(const png::RgbaImage& picture, ByteSpan old_texels, const Palette& palette, bool own_palette,
                              size_t colours) {
    const uint64_t pixels = uint64_t{picture.width} * picture.height;
    colours = std::clamp<size_t>(colours, 1, 256);
    std::unordered_map<uint32_t, uint8_t> index_of;
    for (size_t i = colours; i-- > 0;) index_of[key(palette[i])] = static_cast<uint8_t>(i);  // the first index wins
    IndexedPicture out{Bytes(pixels), palette, false, "every colour is in the texture's palette"};
    uint64_t missing = 0;
    for (uint64_t i = 0; i < pixels; ++i) {
        const png::Rgba c = pixel(picture.rgba, i);
        if (i < old_texels.size() && old_texels[i] < colours && key(palette[old_texels[i]]) == key(c)) {
            out.texels[i] = old_texels[i];
        } else if (const auto found = index_of.find(key(c)); found != index_of.end()) {
            out.texels[i] = found->second;
        } else {
            ++missing;
        }
    }
    if (!missing) return out;

    if (own_palette) {
        std::unordered_map<uint32_t, uint8_t> seen;
        for (uint64_t i = 0; i < pixels; ++i) {
            const png::Rgba c = pixel(picture.rgba, i);
            if (seen.contains(key(c))) continue;
            if (seen.size() == colours) return quantised(picture, colours);
            out.palette[seen.size()] = c;
            seen.emplace(key(c), static_cast<uint8_t>(seen.size()));
        }
        for (size_t i = seen.size(); i < 256; ++i) out.palette[i] = {};
        for (uint64_t i = 0; i < pixels; ++i) out.texels[i] = seen.at(key(pixel(picture.rgba, i)));
        out.new_palette = true;
        out.how = fmt::format("{} pixels of colours not in the palette, which serves this picture alone: a new palette of the picture's {} colours",
                              missing, seen.size());
        return out;
    }
    for (uint64_t i = 0; i < pixels; ++i) {
        const png::Rgba c = pixel(picture.rgba, i);
        if (index_of.contains(key(c)) && out.texels[i] < colours && key(palette[out.texels[i]]) == key(c)) continue;
        uint32_t best = std::numeric_limits<uint32_t>::max();
        for (size_t k = 0; k < colours; ++k)
            if (const uint32_t d = distance(c, palette[k]); d < best) {
                best = d;
                out.texels[i] = static_cast<uint8_t>(k);
            }
    }
    out.how = fmt::format("{} pixels of colours not in the palette, which other textures share: each took the nearest colour of the "
                          "shared palette",
                          missing);
    return out;
}

Bytes ps2_palette_bytes(const Palette& palette) {
    Bytes out(1024);
    for (size_t i = 0; i < 256; ++i) {
        const png::Rgba& c = palette[i];
        const uint64_t at = 4ull * ps2_palette_slot(static_cast<uint8_t>(i));
        out[at] = c.r;
        out[at + 1] = c.g;
        out[at + 2] = c.b;
        out[at + 3] = c.a == 255 ? 0x80 : static_cast<uint8_t>(c.a / 2);  // texture_png.h: 0x80 is opaque, else × 2
    }
    return out;
}

}  // namespace gcfs::formats
