#include "edit/mods/stack_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "edit/edited_disc.h"
#include "edit/mods/merge.h"
#include "formats/audio/wav_read.h"
#include "formats/export/png_read.h"
#include "tree/node/log_escape.h"

namespace gcfs::edit::mods {
namespace {

const Part* find_part(const std::vector<Part>& parts, const std::string& key) {
    for (const Part& p : parts)
        if (p.key == key) return &p;
    return nullptr;
}

// Parts removed, changed (each field, old and new) and added.
void diff_parts(const KeyedParts& k, FileDiff& out) {
    auto field = [&](size_t i) { return i < k.field_names.size() ? k.field_names[i] : fmt::format("field {}", i + 1); };
    for (const Part& b : k.base) {
        const Part* o = find_part(k.other, b.key);
        if (!o) {
            out.changes.push_back({{"text", fmt::format("{}: removed", k.describe(b.key))}, {"item", k.describe(b.key)}, {"change", "removed"}});
            continue;
        }
        for (size_t i = 0; i < std::max(b.fields.size(), o->fields.size()); ++i) {
            const std::string was = i < b.fields.size() ? b.fields[i] : "", is = i < o->fields.size() ? o->fields[i] : "";
            if (was == is) continue;
            out.changes.push_back({{"text", fmt::format("{}, {}: {:?} -> {:?}", k.describe(b.key), field(i), was, is)},
                                   {"item", k.describe(b.key)}, {"field", field(i)}, {"old", was}, {"new", is}, {"change", "changed"}});
        }
    }
    for (const Part& o : k.other)
        if (!find_part(k.base, o.key)) {
            std::string shown;
            for (size_t i = 0; i < o.fields.size(); ++i) shown += (i ? "," : "") + o.fields[i];
            out.changes.push_back({{"text", fmt::format("added: {}", shown)}, {"item", "added"}, {"new", shown}, {"change", "added"}});
        }
}

uint32_t big_endian(const formats::Bytes& b, size_t at) {
    return b.size() < at + 4 ? 0 : (uint32_t{b[at]} << 24) | (uint32_t{b[at + 1]} << 16) | (uint32_t{b[at + 2]} << 8) | b[at + 3];
}

// A PNG's changed pixels: how many, and the box around them.
void diff_picture(const formats::Bytes& was, const formats::Bytes& is, FileDiff& out) {
    const uint32_t w = big_endian(was, 16), h = big_endian(was, 20);  // IHDR, the first chunk
    const auto a = formats::png::read_rgba(was, w, h), b = formats::png::read_rgba(is, w, h);
    if (!a.ok() || !b.ok()) throw std::runtime_error("a version of the picture does not read");
    uint64_t changed = 0;
    uint32_t x0 = w, y0 = h, x1 = 0, y1 = 0;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            const size_t at = (size_t{y} * w + x) * 4;
            if (std::equal(a->rgba.begin() + at, a->rgba.begin() + at + 4, b->rgba.begin() + at)) continue;
            ++changed;
            x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
    if (!changed) return;
    out.changes.push_back({{"text", fmt::format("{} of {} pixels changed, within x {}-{}, y {}-{}", changed, uint64_t{w} * h, x0, x1, y0, y1)},
                           {"pixels_changed", changed}, {"pixels", uint64_t{w} * h}, {"box", {x0, y0, x1, y1}}, {"change", "changed"}});
}

void diff_sound(const formats::Bytes& was, const formats::Bytes& is, FileDiff& out) {
    const auto a = formats::audio::read_wav(was, UINT32_MAX, 192000), b = formats::audio::read_wav(is, UINT32_MAX, 192000);
    if (!a.ok() || !b.ok()) throw std::runtime_error("a version of the sound does not read");
    const double old_s = double(a->samples.size()) / a->sample_rate, new_s = double(b->samples.size()) / b->sample_rate;
    out.changes.push_back({{"text", fmt::format("{:.3f} s ({} samples at {} Hz) -> {:.3f} s ({} samples at {} Hz)", old_s, a->samples.size(), a->sample_rate,
                                                new_s, b->samples.size(), b->sample_rate)},
                           {"old_seconds", old_s}, {"new_seconds", new_s}, {"old_samples", a->samples.size()}, {"new_samples", b->samples.size()},
                           {"change", "changed"}});
}

void diff_bytes(const formats::Bytes& was, const formats::Bytes& is, FileDiff& out) {
    uint64_t differ = 0;
    for (size_t i = 0; i < std::min(was.size(), is.size()); ++i) differ += was[i] != is[i];
    out.changes.push_back({{"text", fmt::format("{} bytes -> {} bytes, {} of the common bytes differ", was.size(), is.size(), differ)},
                           {"old_bytes", was.size()}, {"new_bytes", is.size()}, {"bytes_differ", differ}, {"change", "changed"}});
}

}  // namespace

std::vector<FileDiff> diff_files(const tree::Disc& original, const tree::Disc& edited, const std::vector<std::string>& paths) {
    std::vector<FileDiff> out;
    for (const std::string& path : paths) {
        FileDiff d{path, "bytes", {}};
        try {
            const formats::Bytes was = file_bytes(original, path), is = file_bytes(edited, path);
            if (was == is) continue;
            const Grain grain = grain_of(path);
            if (grain != Grain::whole) {
                d.kind = grain == Grain::table_cells ? "table" : grain == Grain::help_messages ? "messages" : grain == Grain::subtitle_cues ? "cues" : "settings";
                diff_parts(keyed_parts(grain, formats::as_text(was), formats::as_text(is), true), d);
            } else if (path.ends_with(".png")) {
                d.kind = "picture";
                diff_picture(was, is, d);
            } else if (path.ends_with(".wav")) {
                d.kind = "sound";
                diff_sound(was, is, d);
            } else {
                diff_bytes(was, is, d);
            }
        } catch (const std::exception& e) {
            d.changes.push_back({{"text", fmt::format("cannot be compared: {}", tree::escape_log_text(e.what()))}, {"change", "unreadable"}});
        }
        out.push_back(std::move(d));
    }
    return out;
}

std::string diff_text(const std::vector<FileDiff>& diffs) {
    if (diffs.empty()) return "no changes\n";
    std::string out;
    for (const FileDiff& d : diffs) {
        out += fmt::format("{} ({})\n", d.path, d.kind);
        for (const auto& c : d.changes) out += "  " + c["text"].get<std::string>() + "\n";
    }
    return out;
}

nlohmann::json diff_json(const std::vector<FileDiff>& diffs) {
    nlohmann::json out = nlohmann::json::array();
    for (const FileDiff& d : diffs) out.push_back({{"path", d.path}, {"kind", d.kind}, {"changes", d.changes}});
    return out;
}

}  // namespace gcfs::edit::mods
