// libFuzzer: the level.glb edit decoder (formats/gltf/scene_read.h through
// TinyGLTF, then level_import.h): a saved scene read back against a level's
// gameplay. Input: a u32 length, that many bytes of gameplay.bin, then the
// saved file (binary .glb or text .gltf; tests/fuzz/run.sh seeds a built
// disc's level.glb, a text copy and a save with nodes moved and copied).
#include <cstring>

#include "formats/gameplay/gameplay.h"
#include "formats/gltf/level_import.h"
#include "formats/gltf/scene_read.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 4) return 0;
    uint32_t length;
    std::memcpy(&length, data, 4);
    if (length > size - 4) return 0;
    const gameplay::Gameplay g = gameplay::read_gameplay(ByteSpan(data + 4, length));
    const auto scene = gltf::read_saved_scene(ByteSpan(data + 4 + length, size - 4 - length));
    if (scene.ok()) (void)gltf::level_save(g, *scene);
    return 0;
}
