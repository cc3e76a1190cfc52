#include "edit/edit_kinds.h"

#include "edit/collision_edit.h"
#include "edit/gameplay_edit.h"
#include "edit/sky_edit.h"
#include "edit/shrub_class_edit.h"
#include "edit/tie_class_edit.h"
#include "edit/terrain_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <regex>

#include "formats/armor/armor.h"
#include "formats/audio/audio_wad.h"
#include "formats/audio/vag.h"
#include "formats/audio/wav_read.h"
#include "formats/core/core_tables.h"
#include "formats/core/texture_encode.h"
#include "formats/export/texture_png.h"
#include "formats/bonus/bonus.h"
#include "formats/gameplay/import.h"
#include "formats/gameplay/rebase.h"
#include "formats/gltf/level_import.h"
#include "formats/gltf/scene_read.h"
#include "formats/hud/hud.h"
#include "formats/misc/misc.h"
#include "formats/pif/pif.h"
#include "formats/wad_lz/wad_lz.h"
#include "formats/mpeg/mpeg_wad.h"
#include "formats/mpeg/subtitles.h"

namespace gcfs::edit {
namespace {

using formats::Bytes;
using formats::ByteSpan;

// A writer's result, or the edit refused with its reason.
Bytes accepted(formats::Result<Bytes> result) {
    if (!result.ok()) throw EditRefused(result.error().describe());
    return std::move(*result);
}

// The WAD-LZ streams a level folder shows decompressed (formats.md §3.1, §4.1).
std::optional<std::string> stream_part(const std::string& inside) {
    static const std::regex kStream(R"((core_data|gameplay|transition_textures|hud_bank_[0-4])\.bin)");
    std::smatch m;
    if (std::regex_match(inside, m, kStream)) return m[1].str();
    return std::nullopt;
}

struct TexturePath {
    std::string table;
    size_t row;
};
std::optional<TexturePath> texture_path(const std::string& inside) {
    static const std::regex kTexture(R"(textures/(tfrag|moby|tie|shrub|part|fx)_([0-9]{3,})\.png)");
    std::smatch m;
    if (!std::regex_match(inside, m, kTexture)) return std::nullopt;
    size_t row = 0;
    const std::string digits = m[2].str();
    if (std::from_chars(digits.data(), digits.data() + digits.size(), row).ec != std::errc()) return std::nullopt;
    return TexturePath{m[1].str(), row};
}

// `content`, a PNG of the PIF `old`'s size, as that PIF written again (formats/pif: encode_like).
Bytes pif_from_png(ByteSpan old, ByteSpan content, std::string& how) {
    auto header = formats::pif::read_header(old);
    if (!header.ok()) throw EditRefused(header.error().describe());
    auto picture = formats::png::read_rgba(content, static_cast<uint32_t>(header->width), static_cast<uint32_t>(header->height));
    if (!picture.ok()) throw EditRefused(picture.error().message);
    auto pif = formats::pif::encode_like(old, *picture, how);
    if (!pif.ok()) throw EditRefused(pif.error().describe());
    return std::move(*pif);
}

// Where a texture's texels and palette lie, and in which parts.
struct TextureBytes {
    std::string texel_part, palette_part;
    uint64_t texels = 0, palette = 0;
    uint32_t width = 0, height = 0;
    bool own_palette = false;
};

TextureBytes locate(const tree::LevelScan& level, const TexturePath& t, uint64_t core_size, uint64_t gs_ram_size) {
    if (!level.core) throw EditRefused("the level's core header did not read");
    TextureBytes at;
    if (t.table == "part" || t.table == "fx") {  // formats.md §6.1: both in their bank of the core
        const auto& table = t.table == "part" ? level.particle_textures : level.fx_textures;
        const int32_t bank = t.table == "part" ? level.core->part_bank_offset : level.core->fx_bank_offset;
        if (t.row >= table.size()) throw EditRefused("the level has no such texture");
        const formats::BankTexture& e = table[t.row];
        if (const auto problem = formats::bank_texture_problem(e, bank, core_size); !problem.empty()) throw EditRefused("texture " + problem);
        at = {"core_data", "core_data", static_cast<uint64_t>(int64_t{bank} + e.texels), static_cast<uint64_t>(int64_t{bank} + e.palette),
              static_cast<uint32_t>(e.width), static_cast<uint32_t>(e.height), true};
        for (auto [other, other_bank] : {std::pair{&level.particle_textures, level.core->part_bank_offset},
                                         std::pair{&level.fx_textures, level.core->fx_bank_offset}})
            for (const auto& o : *other)
                if (&o != &e && int64_t{other_bank} + o.palette == static_cast<int64_t>(at.palette)) at.own_palette = false;
        return at;
    }
    const auto& entries = level.texture_table(t.table);
    if (t.row >= entries.size()) throw EditRefused("the level has no such texture");
    const formats::TextureEntry& e = entries[t.row];
    const bool stashed = level.stashed_row(t.table, t.row);  // formats-moby.md §10.2: texels in gs_ram
    const std::optional<uint64_t> stash = stashed ? level.moby_stash_address : std::nullopt;
    if (const auto problem = formats::texture_problem(e, level.core->textures_base_offset, core_size, gs_ram_size, stash); !problem.empty())
        throw EditRefused("texture " + problem);
    at.texel_part = stashed ? "gs_ram" : "core_data";
    at.texels = stashed ? *stash + static_cast<uint64_t>(e.data_offset)
                        : static_cast<uint64_t>(int64_t{level.core->textures_base_offset} + e.data_offset);
    at.palette_part = "gs_ram";
    at.palette = static_cast<uint64_t>(e.palette) * formats::kPaletteUnit;  // formats.md §6.3
    at.width = static_cast<uint32_t>(e.width);
    at.height = static_cast<uint32_t>(e.height);
    at.own_palette = true;
    for (const char* table : {"tfrag", "moby", "tie", "shrub"}) {
        const auto& others = level.texture_table(table);
        for (size_t i = 0; i < others.size(); ++i)
            if (others[i].palette == e.palette && !(table == t.table && i == t.row)) at.own_palette = false;
    }
    return at;
}

std::string apply_texture(LevelParts& parts, const tree::LevelScan& level, const TexturePath& t, ByteSpan content) {
    Bytes core = level_part(parts, "core_data"), gs_ram = level_part(parts, "gs_ram");
    const TextureBytes at = locate(level, t, core.size(), gs_ram.size());
    auto picture = formats::png::read_rgba(content, at.width, at.height);
    if (!picture.ok()) throw EditRefused(picture.error().message);
    Bytes& texel_bytes = at.texel_part == "gs_ram" ? gs_ram : core;
    Bytes& palette_bytes = at.palette_part == "gs_ram" ? gs_ram : core;
    const uint64_t pixels = uint64_t{at.width} * at.height;
    const ByteSpan old_texels = ByteSpan(texel_bytes).subspan(at.texels, pixels);
    const formats::Palette palette = formats::ps2_palette(ByteSpan(palette_bytes).subspan(at.palette, formats::kPaletteBytes));
    const formats::IndexedPicture encoded = formats::encode_indexed(*picture, old_texels, palette, at.own_palette);
    std::copy(encoded.texels.begin(), encoded.texels.end(), texel_bytes.begin() + static_cast<int64_t>(at.texels));
    if (encoded.new_palette) {
        const Bytes stored = formats::ps2_palette_bytes(encoded.palette);
        std::copy(stored.begin(), stored.end(), palette_bytes.begin() + static_cast<int64_t>(at.palette));
    }
    parts.replace("core_data", std::move(core));
    parts.replace("gs_ram", std::move(gs_ram));
    return encoded.how;
}

// ---- sounds (formats-globals.md 1-3) ----

constexpr uint32_t kMaxRate = 48000;                 // the disc's highest rate (formats-globals.md 1)
constexpr uint64_t kMaxSoundSamples = 48000ull * 60 * 30;  // half an hour at 48 kHz: past any VAG the disc holds

// A sound written as .wav (any WAV libsndfile reads) or .vag (checked as the reader checks it) as VAG bytes.
Bytes sound_vag(const std::string& name, ByteSpan content, std::string& status) {
    if (name.ends_with(".vag")) {
        auto header = formats::audio::parse_vag_header(content, content.size());
        if (!header.ok()) throw EditRefused(header.error().describe());
        auto scan = formats::audio::scan_vag(content.subspan(formats::audio::kVagHeaderSize, header->data_size));
        if (!scan.ok()) throw EditRefused(scan.error().describe());
        if (!header->mono()) throw EditRefused("a stereo VAG: the disc's sounds are mono (formats-globals.md 1)");
        if (header->sample_rate > kMaxRate) throw EditRefused(fmt::format("a rate of {} Hz, past the disc's {} Hz", header->sample_rate, kMaxRate));
        status = fmt::format("the VAG as written: {} Hz, {} frames", header->sample_rate, header->frames());
        return Bytes(content.begin(), content.begin() + static_cast<int64_t>(formats::audio::kVagHeaderSize + header->data_size));
    }
    auto wav = formats::audio::read_wav(content, kMaxSoundSamples, kMaxRate);
    if (!wav.ok()) throw EditRefused(wav.error().message);
    formats::audio::VagEncodeOptions options;
    options.exhaustive = true;
    const uint64_t frames = (wav->samples.size() + formats::audio::kSamplesPerFrame - 1) / formats::audio::kSamplesPerFrame;
    if (wav->loop) {  // smpl loop points to frames: the inverse of the WAV writer's (tree/level/audio_files.cpp)
        const uint64_t start = wav->loop->first_sample / formats::audio::kSamplesPerFrame;
        const uint64_t end = wav->loop->last_sample / formats::audio::kSamplesPerFrame;
        if (start < end && end < frames) options.loop = formats::audio::VagLoop{start, end};
    }
    const Bytes adpcm = formats::audio::encode_adpcm(wav->samples, options);
    status = fmt::format("{} samples at {} Hz encoded as PS-ADPCM (every filter and shift tried per frame){}{}", wav->samples.size(),
                         wav->sample_rate, wav->channels > 1 ? fmt::format("; {} channels mixed down to mono", wav->channels) : "",
                         options.loop ? fmt::format("; loop frames {}-{}", options.loop->start_frame, options.loop->end_frame) : "");
    std::string stem = name.substr(name.rfind('/') + 1);
    stem = stem.substr(0, stem.rfind('.'));
    return formats::audio::write_vag(adpcm, wav->sample_rate, stem.substr(0, 16));
}

std::string apply_level_sound(WadFile& wad, const std::string& inside, ByteSpan content) {
    static const std::regex kSound(R"(audio/(sfx_[0-9]{3}|upgrade_sample|thermanator_freeze|thermanator_thaw)\.(wav|vag))");
    std::smatch m;
    if (!std::regex_match(inside, m, kSound)) throw EditRefused("gcfs does not encode this file");
    std::string status;
    const Bytes vag = sound_vag(inside, content, status);
    wad.replace(accepted(formats::audio::replace_level_audio(wad.bytes(), m[1].str(), vag)));
    return status;
}

std::string apply_global_sound(WadFile& wad, const std::string& inside, ByteSpan content) {
    static const std::regex kSound(R"((vendor|help/([a-z]+))/([0-9]{3})\.(wav|vag))");
    std::smatch m;
    if (!std::regex_match(inside, m, kSound)) throw EditRefused("gcfs does not encode this file");
    size_t table = formats::audio::kGlobalAudioTables.size();
    for (size_t t = 0; t < formats::audio::kGlobalAudioTables.size(); ++t) {
        const auto& info = formats::audio::kGlobalAudioTables[t];
        if (m[1].str() == "vendor" ? std::string(info.language).empty() : m[2].str() == info.language) table = t;
    }
    if (table == formats::audio::kGlobalAudioTables.size()) throw EditRefused("no such table");
    std::string status;
    const Bytes vag = sound_vag(inside, content, status);
    wad.replace(accepted(formats::audio::replace_global_audio(wad.bytes(), table, std::stoi(m[3].str()), vag)));
    return status;
}

// ---- subtitles (formats-globals.md 4) ----

std::string apply_subtitles(WadFile& wad, const tree::DiscScan& scan, const std::string& inside, ByteSpan content) {
    static const std::regex kSrt(R"(([0-9]{2})\.([a-z]{2})\.srt)");
    std::smatch m;
    if (!std::regex_match(inside, m, kSrt)) throw EditRefused("gcfs does not encode this file");
    const int slot = std::stoi(m[1].str());
    size_t language = formats::mpeg::kSubtitleLanguageCodes.size();
    for (size_t l = 0; l < formats::mpeg::kSubtitleLanguageCodes.size(); ++l)
        if (m[2].str() == formats::mpeg::kSubtitleLanguageCodes[l]) language = l;
    if (language == formats::mpeg::kSubtitleLanguageCodes.size()) throw EditRefused("no such language");
    auto slots = formats::mpeg::parse_mpeg_wad(wad.bytes(), wad.bytes().size());
    if (!slots.ok()) throw EditRefused(slots.error().describe());
    const formats::mpeg::MpegSlot* target = nullptr;
    for (const auto& s : *slots)
        if (s.index == slot) target = &s;
    if (!target || target->subtitles.empty() || !target->subtitles_error.empty()) throw EditRefused("the slot has no readable subtitles");
    const ByteSpan blob = ByteSpan(wad.bytes()).subspan(target->subtitles.byte_offset(), target->subtitles.byte_size());
    std::string note;
    auto encoded = formats::mpeg::import_subrip(blob, language, formats::as_text(content), tree::video_region(scan), note);
    if (!encoded.ok()) throw EditRefused(encoded.error().message);
    wad.replace(accepted(formats::mpeg::replace_subtitles(wad.bytes(), slot, *encoded)));
    return "the subtitle table encoded again" + (note.empty() ? std::string() : "; " + note);
}

// ---- pictures and sounds of the range-table WADs (formats-globals.md 5, 7-9) ----

// A global WAD whose header is tables of SectorRanges, and how its mount
// folder names the entries (tree/globals/bonus.cpp, misc.cpp, hud.cpp).
struct RangeWad {
    const char* name;  // the TOC's global name
    int32_t header_size;
    std::span<const formats::RangeTable> tables;
};
const RangeWad kRangeWads[] = {
    {"bonus", formats::bonus::kBonusHeaderSize, formats::bonus::kBonusTables},
    {"misc", formats::misc::kMiscHeaderSize, formats::misc::kMiscTables},
    {"hud", formats::hud::kHudHeaderSize, formats::hud::kHudTables},
};

const RangeWad* range_wad(const std::string& name) {
    for (const auto& w : kRangeWads)
        if (name == w.name) return &w;
    return nullptr;
}

// The range-table WAD `bytes` is, by its header_size (§2.3: how the TOC tells them).
const RangeWad* range_wad_of(ByteSpan bytes) {
    if (bytes.size() < 4) return nullptr;
    for (const auto& w : kRangeWads)
        if (formats::s32_at(bytes, 0) == w.header_size) return &w;
    return nullptr;
}

// The entry a file of the WAD's folder shows, as the folder names it:
// bonus <field>/NN.png, misc debug_font.png, hud <field>.png or <field>/NN.png
// (and .wav/.vag for a HUD sound). Its kind is decided by its bytes.
std::optional<std::pair<const formats::RangeTable*, int>> range_entry(const RangeWad& wad, const std::string& inside) {
    static const std::regex kEntry(R"(([a-z_0-9]+)(/([0-9]{2,}))?\.(png|wav|vag))");
    std::smatch m;
    if (!std::regex_match(inside, m, kEntry)) return std::nullopt;
    const std::string wad_name = wad.name;
    for (const auto& t : wad.tables) {
        if (m[1].str() != t.name) continue;
        if (wad_name == "bonus" && (formats::bonus::item_of(t) == formats::bonus::Item::credits_text || !m[2].matched || m[4].str() != "png"))
            return std::nullopt;
        if (wad_name == "misc" && (std::string(t.name) != "debug_font" || m[2].matched || m[4].str() != "png")) return std::nullopt;
        const bool indexed = wad_name == "bonus" || t.count > 1;
        if (indexed != m[2].matched) return std::nullopt;
        const int index = indexed ? std::stoi(m[3].str()) : 0;
        if (index >= t.count) return std::nullopt;
        return std::pair{&t, index};
    }
    return std::nullopt;
}

std::string apply_range_item(WadFile& wad, const RangeWad& spec, const std::string& inside, ByteSpan content) {
    const auto found = range_entry(spec, inside);
    if (!found) throw EditRefused("gcfs does not encode this file");
    const auto [table, index] = *found;
    auto entries = formats::read_range_tables(wad.bytes(), spec.header_size, spec.tables, wad.bytes().size(), "the WAD header");
    if (!entries.ok()) throw EditRefused(entries.error().describe());
    const formats::RangeEntry* entry = nullptr;
    for (const auto& e : *entries)
        if (e.table == table && e.index == index) entry = &e;
    if (!entry || !entry->error.empty()) throw EditRefused("the entry is empty or unreadable");
    const ByteSpan stored = ByteSpan(wad.bytes()).subspan(entry->byte_offset(), entry->byte_size());
    // Compressed or not by its bytes (formats.md 5.1: the "WAD" magic), as the folders read it.
    const bool compressed = stored.size() >= 3 && stored[0] == 'W' && stored[1] == 'A' && stored[2] == 'D';
    Bytes old(stored.begin(), stored.end());
    std::string tag = spec.name;
    if (compressed) {
        if (auto header = formats::wad_lz::read_header(stored); header.ok()) tag = header->tag;
        auto decoded = formats::wad_lz::decompress(stored);
        if (!decoded.ok()) throw EditRefused(decoded.error().describe());
        old = std::move(*decoded);
    }
    std::string how;
    Bytes encoded;
    if (inside.ends_with(".wav") || inside.ends_with(".vag")) {
        if (!formats::audio::parse_vag_header(old, old.size()).ok()) throw EditRefused("the entry is not a VAG");
        encoded = sound_vag(inside, content, how);
    } else if (std::string(spec.name) == "bonus" && formats::bonus::item_of(*table) == formats::bonus::Item::rgba_image) {
        auto header = formats::pif::read_rgba_header(old);
        if (!header.ok()) throw EditRefused(header.error().describe());
        auto picture = formats::png::read_rgba(content, static_cast<uint32_t>(header->width), static_cast<uint32_t>(header->height));
        if (!picture.ok()) throw EditRefused(picture.error().message);
        auto rgba = formats::pif::encode_rgba_like(old, *picture);
        if (!rgba.ok()) throw EditRefused(rgba.error().describe());
        encoded = std::move(*rgba);
        how = "the RGBA image's pixels replaced";
    } else {
        encoded = pif_from_png(old, content, how);
    }
    if (compressed) encoded = formats::wad_lz::compress(encoded, tag);
    wad.replace(accepted(formats::replace_range_item(wad.bytes(), spec.header_size, spec.tables, *table, index, encoded)));
    return how;
}

// ---- the ARMOR WAD's textures (formats-globals.md 5, 6) ----

// textures/<model>_<k>.png: texture k of the model's texture list of 8-bit
// PIFs. A PIF written again keeps its size, so it goes back in its place.
std::string apply_armor_texture(WadFile& wad, const std::string& inside, ByteSpan content) {
    static const std::regex kTexture(R"(textures/((armor|wrench)_[0-9]+)_([0-9]+)\.png)");
    std::smatch m;
    if (!std::regex_match(inside, m, kTexture)) throw EditRefused("gcfs does not encode this file");
    auto models = formats::armor::parse_armor_wad(wad.bytes(), wad.bytes().size());
    if (!models.ok()) throw EditRefused(models.error().describe());
    const formats::armor::Model* model = nullptr;
    for (const auto& candidate : *models)
        if (candidate.name() == m[1].str()) model = &candidate;
    if (!model || !model->error.empty() || model->textures.empty()) throw EditRefused("the model has no readable texture list");
    const uint64_t list_at = model->textures.byte_offset();
    const ByteSpan list = ByteSpan(wad.bytes()).subspan(list_at, model->textures.byte_size());
    auto textures = formats::pif::read_texture_list(list);
    if (!textures.ok()) throw EditRefused(textures.error().describe());
    const size_t k = std::stoul(m[3].str());
    if (k >= textures->size()) throw EditRefused("the list has no such texture");
    const formats::ByteRange r = (*textures)[k];
    const ByteSpan old = list.subspan(static_cast<uint64_t>(r.offset), static_cast<uint64_t>(r.size));
    std::string how;
    const Bytes pif = pif_from_png(old, content, how);
    if (pif.size() > old.size()) throw EditRefused("the PIF written again is larger than its place");  // cannot happen: same header
    Bytes bytes = wad.bytes();
    std::copy(pif.begin(), pif.end(), bytes.begin() + static_cast<int64_t>(list_at + static_cast<uint64_t>(r.offset)));
    wad.replace(std::move(bytes));
    return how;
}

}  // namespace

std::optional<EditTarget> edit_target(const tree::DiscScan& scan, const std::string& path) {
    const size_t slash = path.find('/');
    if (slash == std::string::npos) return std::nullopt;
    const std::string first = path.substr(0, slash), inside = path.substr(slash + 1);
    if (first == "global") {
        static const std::regex kArmorTexture(R"(armor/(textures/(armor|wrench)_[0-9]+_[0-9]+\.png))");
        std::smatch armor;
        if (std::regex_match(inside, armor, kArmorTexture)) {
            for (size_t g = 0; g < scan.toc.globals.size(); ++g)
                if (scan.toc.globals[g].name == "armor") return EditTarget{{ContainerKey::global, g}, "armor/" + armor[1].str()};
            return std::nullopt;
        }
        const size_t folder_end = inside.find('/');
        const std::string folder = inside.substr(0, folder_end);
        if (const RangeWad* wad = range_wad(folder); wad && folder_end != std::string::npos) {
            const std::string rest = inside.substr(folder_end + 1);
            if (!range_entry(*wad, rest)) return std::nullopt;
            for (size_t g = 0; g < scan.toc.globals.size(); ++g)
                if (scan.toc.globals[g].name == folder) return EditTarget{{ContainerKey::global, g}, folder + "/" + rest};
            return std::nullopt;
        }
        static const std::regex kGlobalFile(R"((audio|mpeg)/((vendor|help/[a-z]+)/[0-9]{3}\.(wav|vag)|[0-9]{2}\.[a-z]{2}\.srt))");
        std::smatch m;
        if (!std::regex_match(inside, m, kGlobalFile)) return std::nullopt;
        const bool sound = !m[4].str().empty();
        if ((m[1].str() == "audio") != sound) return std::nullopt;
        for (size_t g = 0; g < scan.toc.globals.size(); ++g)
            if (scan.toc.globals[g].name == m[1].str()) return EditTarget{{ContainerKey::global, g}, m[2].str()};
        return std::nullopt;
    }
    for (size_t i = 0; i < scan.levels.size(); ++i) {
        if (scan.levels[i].folder != first) continue;
        static const std::regex kLevelSound(R"(audio/[a-z_0-9]+\.(wav|vag))");
        if (std::regex_match(inside, kLevelSound)) return EditTarget{{ContainerKey::level_audio, i}, inside};
        if (inside == "level.glb") return EditTarget{{ContainerKey::level, i}, inside};
        const bool level_file = stream_part(inside) || texture_path(inside) || inside == kCollisionFile || inside == kTerrainFile || inside == kSkyFile || sky_texture_def(inside) || tie_class_file(inside) || shrub_class_file(inside) ||
                                (inside.starts_with("gameplay/") && formats::gameplay::importable(std::string_view(inside).substr(9)));
        if (level_file) return EditTarget{{ContainerKey::level, i}, inside};
        return std::nullopt;
    }
    return std::nullopt;
}

std::unique_ptr<ContainerParts> open_parts(ContainerKey key, Bytes container) {
    if (key.kind == ContainerKey::level) return std::make_unique<LevelParts>(std::move(container));
    return std::make_unique<WadFile>(std::move(container));
}

std::string container_problem(ContainerKey key, ByteSpan bytes) {
    if (key.kind == ContainerKey::level_audio) {
        auto entries = formats::audio::parse_level_audio(bytes, bytes.size());
        if (!entries.ok()) return entries.error().describe();
        for (const auto& e : *entries)
            if (!e.error.empty()) return e.error;
    } else if (key.kind == ContainerKey::global && formats::s32_at(bytes, 0) == formats::audio::kGlobalAudioHeaderSize) {
        auto parsed = formats::audio::parse_global_audio(bytes, bytes.size());
        if (!parsed.ok()) return parsed.error().describe();
        for (const auto& e : parsed->entries)
            if (!e.error.empty()) return e.error;
    } else if (key.kind == ContainerKey::global && bytes.size() >= 4 && formats::s32_at(bytes, 0) == formats::armor::kArmorHeaderSize) {
        auto models = formats::armor::parse_armor_wad(bytes, bytes.size());
        if (!models.ok()) return models.error().describe();
        for (const auto& model : *models)
            if (!model.error.empty()) return model.error;
    } else if (const RangeWad* wad = key.kind == ContainerKey::global ? range_wad_of(bytes) : nullptr) {
        auto entries = formats::read_range_tables(bytes, wad->header_size, wad->tables, bytes.size(), "the WAD header");
        if (!entries.ok()) return entries.error().describe();
        for (const auto& e : *entries)
            if (!e.error.empty()) return e.error;
    } else if (key.kind == ContainerKey::global && formats::s32_at(bytes, 0) == formats::mpeg::kMpegHeaderSize) {
        auto slots = formats::mpeg::parse_mpeg_wad(bytes, bytes.size());
        if (!slots.ok()) return slots.error().describe();
        for (const auto& s : *slots)
            if (!s.subtitles_error.empty() || !s.video_error.empty()) return s.subtitles_error + s.video_error;
    }
    return {};
}

std::string apply_edit(ContainerParts& container, tree::Disc& original, const EditTarget& target, ByteSpan content) {
    if (target.key.kind == ContainerKey::level_audio) return apply_level_sound(dynamic_cast<WadFile&>(container), target.inside, content);
    if (target.key.kind == ContainerKey::global && target.inside.starts_with("armor/"))
        return apply_armor_texture(dynamic_cast<WadFile&>(container), target.inside.substr(6), content);
    if (target.key.kind == ContainerKey::global)
        if (const RangeWad* wad = range_wad(target.inside.substr(0, target.inside.find('/'))))
            return apply_range_item(dynamic_cast<WadFile&>(container), *wad, target.inside.substr(target.inside.find('/') + 1), content);
    if (target.key.kind == ContainerKey::global && target.inside.ends_with(".srt"))
        return apply_subtitles(dynamic_cast<WadFile&>(container), original.scan, target.inside, content);
    if (target.key.kind == ContainerKey::global) return apply_global_sound(dynamic_cast<WadFile&>(container), target.inside, content);
    LevelParts& parts = dynamic_cast<LevelParts&>(container);
    // An earlier edit of the level may have grown its core (core_region.h):
    // offsets and regions are then read from the core as it is now.
    const tree::LevelScan& scanned = original.level(target.key.index);
    std::optional<tree::LevelScan> grown;
    if (const Bytes index = level_part(parts, "core_index"); index != scanned.core_index) {
        auto rescanned = tree::rescan_core(scanned, index);
        if (!rescanned.ok()) throw EditRefused("the level's core, as earlier edits left it, does not read: " + rescanned.error().describe());
        grown = std::move(*rescanned);
    }
    const tree::LevelScan& level = grown ? *grown : scanned;
    const std::string& inside = target.inside;
    if (const auto part = stream_part(inside)) {
        level_part(parts, *part);  // the level has it and it decodes
        if (content.empty() && *part == "core_data") throw EditRefused("core_data.bin cannot be empty (formats.md 6.1: its size is positive)");
        parts.replace(*part, Bytes(content.begin(), content.end()));
        return fmt::format("{} bytes, compressed again (formats.md 5)", content.size());
    }
    if (const auto texture = texture_path(inside)) return apply_texture(parts, level, *texture, content);
    if (inside == kCollisionFile) return apply_collision(parts, level, content);
    if (inside == kTerrainFile) return apply_terrain(parts, level, content);
    if (inside == kSkyFile) return apply_sky(parts, level, content);
    if (const auto def = sky_texture_def(inside)) return apply_sky_texture(parts, level, *def, content);
    if (const auto tie = tie_class_file(inside)) return apply_tie_class(parts, level, *tie, content);
    if (const auto shrub = shrub_class_file(inside)) return apply_shrub_class(parts, level, *shrub, content);
    if (inside.starts_with("gameplay/") && formats::gameplay::importable(std::string_view(inside).substr(9)))
        return apply_gameplay_file(parts, level, std::string_view(inside).substr(9), content);
    throw EditRefused("gcfs does not encode this file");
}

Bytes rebase_edit(ContainerParts& parts, tree::Disc& original, const EditTarget& target, ByteSpan earlier, ByteSpan content) {
    const std::string prefix = "gameplay/";
    if (target.key.kind != ContainerKey::level || !target.inside.starts_with(prefix)) return Bytes(content.begin(), content.end());
    return rebase_gameplay_file(dynamic_cast<LevelParts&>(parts), original.level(target.key.index), std::string_view(target.inside).substr(prefix.size()),
                                earlier, content);
}

Bytes before_followers(const EditTarget& target, ByteSpan shown, ByteSpan earlier, ByteSpan content, const std::vector<EditTarget>& followers) {
    const std::string prefix = "gameplay/";
    if (target.key.kind != ContainerKey::level || !target.inside.starts_with(prefix)) return Bytes(content.begin(), content.end());
    // The cells the followers number: groups.csv lists the groups, paths.csv and volumes.csv number what
    // areas and the level settings link (formats-gameplay.md 3.5, 3.11, 3.14).
    std::vector<std::string> followed;
    const bool settings = target.inside == prefix + "settings.json";
    for (const EditTarget& f : followers) {
        if (f.key != target.key) continue;
        if (f.inside == prefix + "groups.csv") followed.emplace_back("group");
        if (f.inside == prefix + "paths.csv") followed.emplace_back(settings ? "ship_path" : "paths_links");
        if (f.inside == prefix + "volumes.csv" && settings) followed.insert(followed.end(), {"ship_camera_cuboid_start", "ship_camera_cuboid_end"});
        if (f.inside == prefix + "volumes.csv" && !settings)
            followed.insert(followed.end(), {"cuboids_links", "spheres_links", "cylinders_links", "negative_cuboids_links"});
    }
    if (settings) {
        auto kept = formats::gameplay::settings_as_earlier(formats::as_text(shown), formats::as_text(earlier), formats::as_text(content),
                                                           followed);
        if (!kept.ok()) throw EditRefused(kept.error().message);
        return Bytes(kept->begin(), kept->end());
    }
    auto kept = formats::gameplay::cells_as_earlier(std::string_view(target.inside).substr(prefix.size()), formats::as_text(shown),
                                                    formats::as_text(earlier), formats::as_text(content), followed);
    if (!kept.ok()) throw EditRefused(kept.error().message);
    return Bytes(kept->begin(), kept->end());
}

std::optional<Bytes> follow_edit(const EditTarget& target, ByteSpan from, ByteSpan to, const EditTarget& follower, ByteSpan content) {
    const std::string prefix = "gameplay/";
    if (target.key.kind != ContainerKey::level || follower.key != target.key || !target.inside.starts_with(prefix) ||
        !follower.inside.starts_with(prefix))
        return std::nullopt;
    auto followed = formats::gameplay::follow_rows(std::string_view(target.inside).substr(prefix.size()), formats::as_text(from),
                                                   formats::as_text(to), std::string_view(follower.inside).substr(prefix.size()),
                                                   formats::as_text(content));
    if (!followed.ok()) throw EditRefused(followed.error().message);
    if (!*followed) return std::nullopt;
    return Bytes((*followed)->begin(), (*followed)->end());
}

Bytes prepare_edit(const EditTarget& target, ByteSpan content, const std::function<Bytes()>& shown) {
    const std::string prefix = "gameplay/";
    if (target.key.kind != ContainerKey::level || !(target.inside == prefix + "ties.csv" || target.inside == prefix + "shrubs.csv"))
        return Bytes(content.begin(), content.end());
    try {
        const Bytes before = shown();
        const std::string out =
            formats::gameplay::reconcile_positions(target.inside.substr(prefix.size()), formats::as_text(content), formats::as_text(before));
        return Bytes(out.begin(), out.end());
    } catch (const std::invalid_argument& e) {
        throw EditRefused(e.what());
    }
}

bool translated(const EditTarget& target) { return target.key.kind == ContainerKey::level && target.inside == "level.glb"; }

Translation translate_edit(const EditTarget& target, ByteSpan gameplay_bin, ByteSpan content) {
    if (!translated(target)) throw EditRefused("gcfs reads this file as an edit of its own");
    auto scene = formats::gltf::read_saved_scene(content);
    if (!scene.ok()) throw EditRefused(scene.error().message);
    const auto g = formats::gameplay::read_gameplay(gameplay_bin);
    if (!g.file_error.empty()) throw EditRefused("the level's gameplay.bin does not decode: " + g.file_error);
    auto save = formats::gltf::level_save(g, *scene);
    if (!save.ok()) throw EditRefused(save.error().message);
    Translation out{{}, save->status};
    for (const auto& [name, text] : save->files) out.files.emplace_back("gameplay/" + name, Bytes(text.begin(), text.end()));
    return out;
}

uint64_t edit_size_limit(const std::string& path, const tree::Source& shown) {
    constexpr uint64_t kMinutes = 10, kRate = 48000;
    if (path.ends_with(".wav")) return kMinutes * 60 * kRate * 2 * 4 + (1 << 20);
    if (path.ends_with(".vag")) return kMinutes * 60 * kRate / 28 * 16 + (64 << 10);  // 16 bytes per 28 samples (formats-globals.md 1)
    if (path.ends_with(".png")) {
        // The width and height of the shown picture: its IHDR, at bytes 16 and 20 (PNG 11.2.2).
        Bytes head(24);
        const auto got = shown.read(0, head);
        if (!got.ok() || got.bytes < head.size()) throw EditRefused(got.ok() ? "the shown picture is shorter than a PNG header" : got.error);
        auto be32 = [&](size_t at) { return uint64_t{head[at]} << 24 | uint64_t{head[at + 1]} << 16 | uint64_t{head[at + 2]} << 8 | head[at + 3]; };
        const uint64_t width = std::min<uint64_t>(be32(16), 1 << 16), height = std::min<uint64_t>(be32(20), 1 << 16);
        return 2 * height * (1 + width * 8) + (4 << 20);
    }
    // A saved scene: its textures as an exporter encodes them again (PNGs at
    // most twice their size) and a text .gltf's base64 (4/3) on top. A model
    // saved over collision.obj is a new mesh of any size, as any exporter
    // writes it (an OBJ of 500,000 faces is about 40 MB); terrain.obj and sky.obj likewise.
    if (path.ends_with(".glb") || path.ends_with(std::string("/") + kCollisionFile) || path.ends_with(std::string("/") + kTerrainFile) ||
        path.ends_with(std::string("/") + kSkyFile) || path.find("/ties/tie_") != std::string::npos || path.find("/shrubs/shrub_") != std::string::npos)
        return 8 * shown.size() + (64 << 20);
    // A table may grow by whole rows up to the formats' limits (32767 group
    // members, formats-gameplay.md 3.11): room for that many lines of text.
    if (path.ends_with(".csv") || path.ends_with(".txt")) return 4 * shown.size() + (32 << 20);
    return 4 * shown.size() + (64 << 10);
}

}  // namespace gcfs::edit
