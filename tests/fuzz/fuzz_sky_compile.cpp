// libFuzzer: the sky compiler (formats/sky/sky_compile.h), what a saved
// sky.obj is built into: any bytes as up to 9 shells (corners at 1/256 sky
// units up to ±128, UVs up to ±8, alpha any, faces naming any index). Shells
// the compiler takes must write and read back through the reader's checks
// with as many faces as were given.
#include "formats/sky/sky_compile.h"
#include "formats/sky/sky_mesh.h"
#include "fuzz_bytes.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    FuzzBytes in{data, size};
    std::vector<SkyShellIn> shells(in.byte() % 10);
    size_t faces = 0;
    for (auto& shell : shells) {
        shell.textured = in.byte() & 1;
        const size_t positions = in.byte() % 200;
        for (size_t i = 0; i < positions; ++i) {
            shell.positions.push_back({in.s16() / 256.0, in.s16() / 256.0, in.s16() / 256.0});
            shell.uvs.push_back({static_cast<int8_t>(in.byte()) / 16.0, static_cast<int8_t>(in.byte()) / 16.0});
            shell.alpha.push_back(in.byte());
        }
        const size_t count = in.byte();
        for (size_t f = 0; f < count && in.left() > 0; ++f) {
            SkyShellIn::Face face;
            for (auto& c : face.corners) c = in.byte() % (positions + 2);  // now and then past the positions
            face.texture = shell.textured ? in.byte() % 4 : 0xff;
            shell.faces.push_back(face);
        }
        faces += shell.faces.size();
    }
    const auto clusters = compile_sky_shells(shells);
    if (!clusters.ok()) return 0;
    SkyContent content;
    content.textures.resize(4);
    for (auto& t : content.textures) t.width = t.height = 4, t.texels.assign(16, 0);
    content.shells = *clusters;
    for (const auto& shell : shells) content.shell_flags.push_back(shell.textured ? 0 : 1);
    const Bytes block = write_sky(content);
    const auto sky = parse_sky(block);
    if (!sky.ok()) __builtin_trap();  // the compiler's output fails the reader's checks
    const auto meshes = sky_meshes(block, *sky);
    if (!meshes.ok()) __builtin_trap();
    size_t read = 0;
    for (const auto& m : *meshes) read += m.faces.size();
    if (read != faces) __builtin_trap();
    return 0;
}
