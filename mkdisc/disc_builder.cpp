#include "mkdisc/disc_builder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "formats/disc/iso9660.h"
#include "formats/disc/toc.h"
#include "formats/disc/level_names.h"
#include "mkdisc/audio.h"
#include "mkdisc/global_wads.h"
#include "mkdisc/mpeg.h"
#include "mkdisc/random.h"

namespace gcfs::mkdisc {
namespace {

using namespace formats;

constexpr int kMaxLevels = 85;  // §2.3: the 0xB-sector resident TOC holds 85 entries after the globals
constexpr const char* kBootElf = "SCUS_972.68";  // §2.2: GC US

class ImageWriter {
public:
    explicit ImageWriter(const std::string& path) : path_(path) {
        fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot create " + path);
    }
    ~ImageWriter() {
        if (fd_ >= 0) ::close(fd_);
    }
    ImageWriter(const ImageWriter&) = delete;
    ImageWriter& operator=(const ImageWriter&) = delete;

    void write_at(uint64_t lba, const Bytes& bytes) {
        uint64_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done,
                                       static_cast<off_t>(lba * kSectorSize + done));
            if (n < 0) throw std::system_error(errno, std::generic_category(), "cannot write " + path_);
            done += static_cast<uint64_t>(n);
        }
    }
    void finish(uint64_t sectors) {
        if (::ftruncate(fd_, static_cast<off_t>(sectors * kSectorSize)) != 0 || ::fsync(fd_) != 0)
            throw std::system_error(errno, std::generic_category(), "cannot finish " + path_);
    }

private:
    std::string path_;
    int fd_ = -1;
};

Bytes global_wad(const GlobalKind& kind, Random& random) {
    ByteWriter out;
    out.s32(kind.header_size);
    out.s32(0);
    // GADGET is identified as GC only if +8 is in 0…0x586 (§2.3).
    for (int32_t at = 8; at + 8 <= kind.header_size; at += 8) {
        out.s32(static_cast<int32_t>(1 + random.below(3)));  // sector offsets into the file
        out.s32(static_cast<int32_t>(random.below(0x800)));
    }
    out.bytes().resize(static_cast<size_t>(kind.header_size), 0);
    out.pad_to(kSectorSize);
    for (int s = 0; s < 3; ++s)
        for (uint64_t i = 0; i < kSectorSize; ++i) out.u8(static_cast<uint8_t>(random.below(256)));
    return std::move(out.bytes());
}

Bytes boot_elf() {
    ByteWriter out;
    const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0};  // §2.2: found by its ELF magic
    out.append(ident);
    out.u16(2);     // ET_EXEC
    out.u16(8);     // EM_MIPS
    out.u32(1);
    out.zeros(0x400);
    return std::move(out.bytes());
}

Bytes text_bytes(const std::string& text) { return Bytes(text.begin(), text.end()); }

}  // namespace

std::vector<int> level_ids(int level_count) {
    std::vector<int> ids;
    for (int i = 0; i < level_count; ++i) ids.push_back(i == 21 ? 30 : i < 27 ? i : 100 + i);
    if (level_count < 22) ids.back() = 30;
    return ids;
}

const char* level_name(int id) { return formats::gc_level_name(id); }

DiscManifest build_disc(const DiscSpec& spec, const std::string& path,
                        const std::function<void(const LevelSpec&, const LevelImage&)>& on_level) {
    for (const DamageSpec& d : spec.damage)
        if (d.level < 0 || d.level >= spec.levels)
            throw std::invalid_argument(fmt::format("damage names level {}, the disc has {}", d.level, spec.levels));
    if (spec.levels < 2 || spec.levels > kMaxLevels)
        throw std::invalid_argument(fmt::format("--levels must be 2…{} (the first two table entries need all parts, §2.3)", kMaxLevels));
    Random random(spec.seed);
    ImageWriter image(path);
    DiscManifest manifest;

    // Header sizes are fixed, so the TOC's size is known before any level exists.
    std::vector<TocGlobalInput> globals;
    std::vector<Bytes> global_files;
    std::vector<Damage> global_damage;
    for (const DamageSpec& d : spec.damage) global_damage.push_back(d.kind);
    for (const auto& kind : gc_global_kinds()) {
        const std::string name = kind.name;
        global_files.push_back(name == "audio"   ? global_audio_wad(spec.scale, global_damage)
                               : name == "mpeg"  ? mpeg_wad(global_damage)
                               : name == "armor" ? armor_wad(global_damage)
                               : name == "bonus" ? bonus_wad(global_damage)
                               : name == "misc"  ? misc_wad(global_damage)
                               : name == "hud"   ? hud_wad(global_damage)
                                                 : global_wad(kind, random));
        globals.push_back({wad_header_prefix(global_files.back(), kind.header_size), 0});
    }
    std::vector<TocLevelInput> toc_levels(spec.levels);
    for (auto& l : toc_levels) {
        l.level.header.assign(kLevelHeaderSize, 0);
        l.audio.header.assign(kLevelAudioHeaderSize, 0);
        l.scene.header.assign(kLevelSceneHeaderSize, 0);
    }
    const uint32_t toc_sectors = static_cast<uint32_t>(toc_size_sectors(globals, toc_levels));

    std::vector<iso9660::FileToWrite> files;
    uint32_t next_lba = kTocLba + toc_sectors;
    auto place = [&](const std::string& iso_path, const Bytes& bytes) {
        const uint32_t lba = next_lba;
        image.write_at(lba, bytes);
        files.push_back({iso_path, lba, static_cast<uint32_t>(bytes.size())});
        next_lba += static_cast<uint32_t>(sectors_for(bytes.size()));
        return lba;
    };

    // §2.5 order: boot ELF, globals, then each level's LEVEL, AUDIO, SCENE.
    place(kBootElf, boot_elf());
    for (size_t g = 0; g < global_files.size(); ++g) {
        globals[g].file_lba = place(fmt::format("GLOBALS/{}.WAD", gc_global_kinds()[g].name), global_files[g]);
        for (auto& c : files.back().path) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }

    const std::vector<int> ids = level_ids(spec.levels);
    uint32_t cut_at = 0;  // damage "truncated": the image ends at this sector
    for (int i = 0; i < spec.levels; ++i) {
        LevelSpec level_spec{i, ids[i], spec.seed, spec.scale, {}};
        for (const DamageSpec& d : spec.damage)
            if (d.level == i) level_spec.damage.push_back(d.kind);
        const LevelImage level = build_level(level_spec);
        TocLevelInput& entry = toc_levels[i];
        entry.level = {wad_header_prefix(level.level_wad, kLevelHeaderSize), place(fmt::format("LEVELS/LEVEL{:02d}.WAD", i), level.level_wad),
                       static_cast<uint32_t>(sectors_for(level.level_wad.size()))};
        entry.audio = {wad_header_prefix(level.audio_wad, kLevelAudioHeaderSize), place(fmt::format("AUDIO/AUDIO{:02d}.WAD", i), level.audio_wad),
                       static_cast<uint32_t>(sectors_for(level.audio_wad.size()))};
        entry.scene = {wad_header_prefix(level.scene_wad, kLevelSceneHeaderSize), place(fmt::format("SCENES/SCENE{:02d}.WAD", i), level.scene_wad),
                       static_cast<uint32_t>(sectors_for(level.scene_wad.size()))};
        manifest.levels.push_back({i, ids[i], level_name(ids[i]), level.marker, entry.level.file_lba,
                                   entry.level.file_sectors, level.patch_count});
        for (const DamageSpec& d : spec.damage) {
            if (d.level != i) continue;
            // §2.3: the header copy's +4 locates the file; point it past the image.
            if (d.kind == Damage::toc_past_end) entry.level.file_lba = 0x7FFFF000;
            if (d.kind == Damage::truncated) cut_at = entry.level.file_lba + entry.level.file_sectors / 2;
        }
        if (on_level) on_level(level_spec, level);
    }

    const Bytes toc = write_toc(globals, toc_levels);
    if (toc.size() != toc_sectors * kSectorSize) throw std::logic_error("TOC size changed after layout");
    image.write_at(kTocLba, toc);
    files.push_back({"RC2.HDR", kTocLba, static_cast<uint32_t>(toc.size())});
    const Bytes system_cnf = text_bytes(fmt::format("BOOT2 = cdrom0:\\{};1 \r\nVER = 1.00 \r\nVMODE = NTSC \r\n", kBootElf));
    image.write_at(kSystemCnfLba, system_cnf);
    files.push_back({"SYSTEM.CNF", kSystemCnfLba, static_cast<uint32_t>(system_cnf.size())});

    iso9660::VolumeToWrite volume;
    volume.volume_id = fmt::format("GCFS_SYNTHETIC_{}", spec.seed);
    volume.creation = 1037059200;  // 2002-11-12 00:00 UTC, Going Commando's US release week
    volume.volume_sectors = next_lba;
    volume.files = files;
    image.write_at(iso9660::kPvdLba, iso9660::write_volume(volume, kSystemCnfLba));
    image.finish(cut_at ? cut_at : next_lba);  // the PVD still declares the whole volume
    manifest.image_bytes = static_cast<uint64_t>(cut_at ? cut_at : next_lba) * kSectorSize;
    return manifest;
}

}  // namespace gcfs::mkdisc
