#include "formats/export/png_read.h"

#include <png.h>

#include <fmt/format.h>

#include <string>

#include "formats/common/late_library.h"

namespace gcfs::formats::png {
namespace {

// libpng, opened when a user's PNG is first read (Debian 12's libpng16-16).
struct Libpng {
    LateLibrary library{"libpng16.so.16"};
    GCFS_LATE_FUNCTION(begin_read, png_image_begin_read_from_memory);
    GCFS_LATE_FUNCTION(finish_read, png_image_finish_read);
    GCFS_LATE_FUNCTION(free, png_image_free);
};

}  // namespace

namespace {

// Reads the PNG when `fits` accepts its size (else its refusal, "" to go on).
template <typename Fits>
Result<RgbaImage> read_checked(ByteSpan file, Fits fits) {
    const Libpng& api = late_table<Libpng>();
    if (!api.library.error().empty()) return FormatError{Errc::unavailable, 0, "PNGs cannot be read: " + api.library.error()};
    // libpng's simplified API reads every colour type and bit depth, with
    // interlacing and transparency, to one format.
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    if (!api.begin_read(&image, file.data(), file.size()))
        return FormatError{Errc::bad_magic, 0, fmt::format("not a PNG libpng can read ({})", image.message)};
    if (const std::string refused = fits(image.width, image.height); !refused.empty()) {
        api.free(&image);
        return FormatError{Errc::bad_value, 0, refused};
    }
    image.format = PNG_FORMAT_RGBA;
    RgbaImage out{image.width, image.height, Bytes(PNG_IMAGE_SIZE(image))};
    if (!api.finish_read(&image, nullptr, out.rgba.data(), 0, nullptr))
        return FormatError{Errc::bad_value, 0, fmt::format("the PNG does not decode ({})", image.message)};
    return out;
}

}  // namespace

Result<RgbaImage> read_rgba(ByteSpan file, uint32_t width, uint32_t height) {
    return read_checked(file, [&](uint32_t w, uint32_t h) {
        return w == width && h == height ? std::string() : fmt::format("the picture is {}x{}; this file must stay {}x{}", w, h, width, height);
    });
}

Result<RgbaImage> read_rgba_within(ByteSpan file, uint32_t max_side) {
    return read_checked(file, [&](uint32_t w, uint32_t h) {
        return w <= max_side && h <= max_side ? std::string() : fmt::format("the picture is {}x{}; at most {} a side is taken", w, h, max_side);
    });
}

}  // namespace gcfs::formats::png
