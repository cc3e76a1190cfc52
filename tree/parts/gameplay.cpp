#include "formats/gameplay/export.h"
#include "tree/level/gameplay.h"
#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// gameplay/: the decoded gameplay file (formats-gameplay.md); its fixed
// files are named at mount, help/ and pvars/ list what the file holds.
void gameplay(LevelFolder& f) {
    if (!f.gameplay) return;
    auto decoded = std::make_shared<LevelGameplay>(f.gameplay, f.cache());
    f.decoders().gameplay_index = decoded;
    const uint64_t dir = f.directory(f.dir, "gameplay");
    auto origin = [&](const std::string& what) {
        return f.decoded(f.gameplay_offset, f.gameplay_length, LevelFolder::kWadLz + std::string(", then ") + what,
                         "gameplay.bin's blocks (formats-gameplay.md 2, 3)");
    };
    for (const std::string& name : formats::gameplay::kFixedFiles)
        f.file(dir, name, std::make_shared<GameplayFile>(decoded, name),
               origin(name.ends_with(".obj") ? "OBJ" : name.ends_with(".json") ? "JSON" : "CSV"));
    // One file per language slot at most; pvars: one per moby, and 65,536 is
    // far past any level's moby count (a larger table lists its first 65,536).
    f.tree.add_file_run(f.directory(dir, "help"),
                             std::make_shared<GameplayRun>(decoded, "help/", formats::gameplay::kLanguageCount,
                                                           origin("UTF-8 text (3.4)")));
    f.tree.add_file_run(f.directory(dir, "pvars"),
                             std::make_shared<GameplayRun>(decoded, "pvars/", 1u << 16, origin("raw pvar bytes (3.13)")));
}

}  // namespace gcfs::tree::parts
