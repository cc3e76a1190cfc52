#include "formats/export/png_read.h"

#include <png.h>

#include <fmt/format.h>

namespace gcfs::formats::png {

Result<RgbaImage> read_rgba(ByteSpan file, uint32_t width, uint32_t height) {
    // libpng's simplified API reads every colour type and bit depth, with
    // interlacing and transparency, to one format.
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, file.data(), file.size()))
        return FormatError{Errc::bad_magic, 0, fmt::format("not a PNG libpng can read ({})", image.message)};
    if (image.width != width || image.height != height) {
        png_image_free(&image);
        return FormatError{Errc::bad_value, 0,
                           fmt::format("the picture is {}x{}; this file must stay {}x{}", image.width, image.height, width, height)};
    }
    image.format = PNG_FORMAT_RGBA;
    RgbaImage out{width, height, Bytes(PNG_IMAGE_SIZE(image))};
    if (!png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr))
        return FormatError{Errc::bad_value, 0, fmt::format("the PNG does not decode ({})", image.message)};
    return out;
}

}  // namespace gcfs::formats::png
