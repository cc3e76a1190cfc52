#include "edit/mods/stacked_image.h"

#include "edit/edited_disc.h"

namespace gcfs::edit::mods {

std::shared_ptr<StackedImage> open_stacked(const std::string& image, const std::vector<std::string>& dirs, uint64_t cache_bytes) {
    auto out = std::make_shared<StackedImage>();
    auto cache = std::make_shared<cache::LruCache>(cache_bytes);
    out->original = tree::open_disc(image, tree::DiscSetup{nullptr, cache, {}});
    out->stack = std::make_unique<ModStack>(*out->original, dirs);
    const ModStack* stack = out->stack.get();
    out->disc = open_edited_disc(image, *out->original, stack->containers(), cache, [stack] { return stack->render(); });
    return out;
}

}  // namespace gcfs::edit::mods
