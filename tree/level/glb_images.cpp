#include "tree/level/glb_images.h"

#include <fmt/format.h>

namespace gcfs::tree {

formats::gltf::ImageBytes glb_images(const formats::gltf::Scene& scene, const std::vector<std::shared_ptr<const Source>>& files) {
    return [&scene, &files](size_t i) -> formats::Result<formats::Bytes> {
        formats::Bytes png(scene.images[i].size);
        const ReadOutcome got = files[i]->read(0, png);
        if (!got.ok() || got.bytes != png.size())
            return formats::FormatError{formats::Errc::truncated, 0,
                                        fmt::format("image {}: {}", scene.images[i].name, got.ok() ? "short read" : got.error)};
        return png;
    };
}

}  // namespace gcfs::tree
