// libFuzzer: the scene builder fed with damaged level parts, and the ISO9660
// walk fed with damaged directories (issue 33). A small disc is built once;
// each input overwrites bytes of LEVEL01 (its compressed core stream, or
// anywhere in its container: headers, gameplay, gs_ram) or of the ISO9660
// volume descriptors and directories (sectors 16 to the TOC at LBA 1001).
// Whatever the decoders then make of it, level.glb and collision.glb must
// read whole at the size their stat gave (a scene leaves out what it cannot
// decode and is never EIO; the levels are reached through the TOC, not the
// directories: README, "What damage costs"), and disc/ must list.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "formats/disc/toc.h"
#include "mkdisc/disc_builder.h"
#include "tree/tree_builder.h"

using namespace gcfs;

namespace {

struct Template {
    std::string clean_path, damaged_path;
    formats::Bytes clean;
    uint64_t core_at = 0, core_bytes = 0;    // LEVEL01's compressed core stream
    uint64_t level_at = 0, level_bytes = 0;  // LEVEL01's container
    // The ISO9660 volume descriptors and directories, up to the TOC.
    static constexpr uint64_t kIsoAt = 16 * formats::kSectorSize, kIsoBytes = (formats::kTocLba - 16) * formats::kSectorSize;
};

const Template& the_template();

Template make_template() {
    Template t;
    t.clean_path = "/tmp/gcfs-fuzz-scene-" + std::to_string(::getpid()) + ".iso";
    t.damaged_path = t.clean_path + ".damaged";
    mkdisc::build_disc({2, 5, mkdisc::Scale::small, {}}, t.clean_path);
    std::ifstream in(t.clean_path, std::ios::binary);
    t.clean.assign(std::istreambuf_iterator<char>(in), {});
    const auto disc = tree::open_disc(t.clean_path, 64 << 20);
    // Unlinked once opened (the disc reads through its descriptor): libFuzzer
    // ends a timed run with _Exit, which skips atexit handlers.
    ::unlink(t.clean_path.c_str());
    const tree::LevelScan& level = disc->level(1);
    t.core_at = level.data_offset + static_cast<uint64_t>(level.lump->core_data.offset);
    t.core_bytes = static_cast<uint64_t>(level.lump->core_data.size);
    t.level_at = level.file_offset;
    t.level_bytes = level.file_size;
    return t;
}

const Template& the_template() {
    static const Template t = make_template();
    return t;
}

// The whole file at `path`, which must read at its stat size.
void must_read_whole(const tree::Disc& disc, const char* path) {
    const auto ino = disc.tree.resolve(path);
    if (!ino) return;  // the level's headers did not allow a scene at all
    const tree::NodeRef node = disc.tree.node(*ino);
    formats::Bytes out(node->source->size());
    const tree::ReadOutcome got = node->source->read(0, out);
    if (!got.ok() || got.bytes != out.size()) {
        std::fprintf(stderr, "%s: %s (%zu of %zu bytes)\n", path, got.error.c_str(), static_cast<size_t>(got.bytes), out.size());
        std::abort();
    }
}

// Every name below `dir`, listed (names are escaped and cut as they are made).
void list_all(const tree::Disc& disc, uint64_t dir, int depth) {
    if (depth > 16) std::abort();  // the walk caps depth at 8
    disc.tree.for_each_child(dir, 0, [&](const std::string& name, uint64_t ino, tree::NodeType type) {
        if (name.empty() || name.size() > 255 || name.find('/') != std::string::npos) std::abort();
        if (type == tree::NodeType::directory) list_all(disc, ino, depth + 1);
        return true;
    });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 6) return 0;
    const Template& t = the_template();
    // Byte 0 picks the part, bytes 1-4 where in it; the rest is written there.
    uint32_t where = 0;
    std::memcpy(&where, data + 1, 4);
    const int part = data[0] % 3;
    const uint64_t part_at = part == 0 ? t.core_at : part == 1 ? t.level_at : Template::kIsoAt;
    const uint64_t part_bytes = part == 0 ? t.core_bytes : part == 1 ? t.level_bytes : Template::kIsoBytes;
    const uint64_t at = part_at + where % part_bytes;
    formats::Bytes image = t.clean;
    const size_t n = std::min<size_t>(size - 5, image.size() - at);
    std::memcpy(image.data() + at, data + 5, n);
    std::ofstream(t.damaged_path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(image.data()), static_cast<std::streamsize>(image.size()));
    std::unique_ptr<tree::Disc> disc;
    try {
        disc = tree::open_disc(t.damaged_path, 16 << 20);
        ::unlink(t.damaged_path.c_str());
    } catch (const std::exception&) {
        ::unlink(t.damaged_path.c_str());
        return 0;  // refused with a message (a volume descriptor gone): allowed
    }
    if (const auto folder = disc->tree.resolve("disc")) list_all(*disc, *folder, 0);
    must_read_whole(*disc, "LEVEL01/level.glb");
    must_read_whole(*disc, "LEVEL01/collision.glb");
    return 0;
}
