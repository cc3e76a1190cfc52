#include "tree/class_models.h"

#include <fmt/format.h>

#include <algorithm>

#include "formats/core/core_tables.h"
#include "formats/export/csv.h"
#include "formats/export/png.h"
#include "formats/export/texture_png.h"
#include "formats/tie/tie.h"

namespace gcfs::tree {
namespace {

using formats::ClassMesh;

std::string where(const formats::CoreRegion& extent, const formats::FormatError& e) {
    return fmt::format("{} at core_data.bin 0x{:x}: {} at core_data.bin 0x{:x}: {}", extent.name, extent.offset, formats::errc_name(e.code),
                       extent.offset + e.offset, e.message);
}

std::array<double, 6> bounds(const ClassMesh& mesh) {
    if (mesh.positions.empty()) return {};
    std::array<double, 6> b = {mesh.positions[0][0], mesh.positions[0][1], mesh.positions[0][2],
                               mesh.positions[0][0], mesh.positions[0][1], mesh.positions[0][2]};
    for (const auto& p : mesh.positions)
        for (int k = 0; k < 3; ++k) b[k] = std::min(b[k], p[k]), b[3 + k] = std::max(b[3 + k], p[k]);
    return b;
}

bool power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

ClassWindow class_window(const std::array<std::vector<formats::ClassEntry>, 3>& tables, const std::set<uint64_t>& boundaries,
                         uint64_t dat_size) {
    ClassWindow w{dat_size, 0, new_cache_key()};
    for (const auto& table : tables)
        for (const formats::ClassEntry& entry : table) {
            const formats::CoreRegion extent = formats::class_extent(boundaries, entry.offset_in_asset_wad, dat_size, "");
            if (extent.size == 0) continue;
            w.from = std::min(w.from, extent.offset);
            w.to = std::max(w.to, extent.offset + extent.size);
        }
    return w;
}

LevelClassModels::LevelClassModels(const Image& image, cache::LruCache& cache, ClassKind kind, Source source)
    : image_(image), cache_(cache), kind_(kind), source_(std::move(source)) {
    // A.1 / shrub §1.1: offset 0 means "no model".
    for (size_t e = 0; e < source_.entries.size(); ++e) {
        if (source_.entries[e].offset_in_asset_wad == 0) continue;
        listed_.push_back(source_.entries[e].o_class);
        entry_of_.push_back(e);
    }
    for (size_t i = 0; i < 4 * listed_.size(); ++i) keys_.push_back(new_cache_key());
}

std::vector<formats::CoreRegion> LevelClassModels::extents() const {
    std::vector<formats::CoreRegion> out;
    for (size_t e : entry_of_) {
        const formats::ClassEntry& entry = source_.entries[e];
        out.push_back(formats::class_extent(source_.boundaries, entry.offset_in_asset_wad, source_.dat_size,
                                            fmt::format("{} class {}", prefix(), entry.o_class)));
    }
    return out;
}

cache::Loaded LevelClassModels::window() const {
    const ClassWindow& w = *source_.window;
    return cached_core_window(cache_, w.key, image_, source_.stream, w.from, w.to);
}

std::string LevelClassModels::mtl() const {
    std::string out = fmt::format("# gcfs: the {} texture table; maps are the PNGs in ../textures/\n", prefix());
    for (uint64_t row = 0; row < source_.texture_rows; ++row)
        fmt::format_to(std::back_inserter(out), "newmtl {0}_{1:03d}\nKd 1.000 1.000 1.000\nmap_Kd ../textures/{0}_{1:03d}.png\n", prefix(), row);
    return out + "newmtl untextured\nKd 1.000 1.000 1.000\n";
}

std::string LevelClassModels::preamble(const ClassModel& m, int lod) const {
    const bool tie = kind_ == ClassKind::tie;
    return fmt::format(
        "# gcfs: {} class {} of {}{}, from core_data.bin [0x{:x}, +0x{:x}) ({})\n"
        "# class space: s16 x scale {} / 1024, on the game's axes, in the terrain OBJ's units; vt = (s, 1 - t)\n"
        "# {} vertices, {} triangles\nmtllib {}{}s.mtl\no {}_{}\n",
        prefix(), m.o_class, source_.level, tie ? fmt::format(", LOD {}", lod) : "", m.extent.offset, m.extent.size,
        tie ? "formats-tie-sky.md A" : "formats-shrub.md", m.scale, m.counts[lod].vertices, m.counts[lod].triangles, lod > 0 ? "../" : "",
        prefix(), prefix(), m.o_class);
}

void LevelClassModels::index_class(ClassModel& m, std::span<const uint8_t> bytes, const formats::ClassEntry& entry) const {
    // A.6 / shrub §1.10: a class slot names a row of the kind's texture table.
    std::string binding_error;
    auto material = [&](int slot) -> std::string {
        if (slot < 0) return "untextured";
        const uint8_t row = entry.textures[static_cast<size_t>(slot)];
        if (row == 0xff || row >= source_.texture_rows)
            binding_error = fmt::format("texture slot {} of its class-table entry is 0x{:02x}, not a row of the {}-row {} texture table", slot,
                                        row, source_.texture_rows, prefix());
        return fmt::format("{}_{:03d}", prefix(), row);
    };
    std::array<ClassMesh, 3> meshes;
    int16_t o_class = 0;
    uint64_t o_class_at = 0;
    if (kind_ == ClassKind::tie) {
        auto cls = formats::tie::read_tie_class(bytes);
        if (!cls.ok()) return void(m.error = where(m.extent, cls.error()));
        m.lods = 3;
        m.notes = cls->notes;
        m.scale = cls->header.scale;
        o_class = cls->header.o_class, o_class_at = 0x44;
        for (int lod = 0; lod < 3; ++lod) {
            meshes[lod] = formats::tie::lod_mesh(*cls, lod);
            m.packets[lod] = cls->lods[lod].packets;
            m.strips[lod] = static_cast<int>(cls->lods[lod].strips.size());
            m.degenerate[lod] = formats::tie::degenerate_triangles(meshes[lod]);
        }
        for (int slot : cls->materials) m.materials.push_back(material(slot));
    } else {
        auto cls = formats::shrub::read_shrub_class(bytes);
        if (!cls.ok()) return void(m.error = where(m.extent, cls.error()));
        m.scale = cls->header.scale;
        o_class = cls->header.o_class, o_class_at = 0x24;
        meshes[0] = formats::shrub::shrub_mesh(*cls);
        m.packets[0] = static_cast<int>(cls->packet_starts.size());
        m.strips[0] = static_cast<int>(cls->primitives.size());
        m.raw_triangles = formats::shrub::raw_triangles(*cls);
        m.billboard = cls->billboard;
        for (int slot : cls->textures) m.materials.push_back(material(slot));
    }
    // A.8 / shrub §2 item 3: the class header repeats the entry's o_class (low 16 bits).
    if (o_class != static_cast<int16_t>(entry.o_class))
        return void(m.error = fmt::format("{} at core_data.bin 0x{:x}: bad_value at core_data.bin 0x{:x}: the header's o_class {} is not the "
                                          "class table's {}", m.extent.name, m.extent.offset, m.extent.offset + o_class_at, o_class, entry.o_class));
    if (!binding_error.empty()) return void(m.error = fmt::format("{} at core_data.bin 0x{:x}: {}", m.extent.name, m.extent.offset, binding_error));
    for (int lod = 0; lod < m.lods; ++lod) {
        m.counts[lod] = formats::class_obj_counts(meshes[lod], material);
        m.obj_size[lod] = formats::class_obj_size(preamble(m, lod).size(), m.counts[lod]);
    }
    m.bbox = bounds(meshes[0]);
}

void LevelClassModels::index_billboard(ClassModel& m, const formats::ClassEntry& entry) const {
    // shrub §1.11 (b): width, height, max mip, palette, texels (0x100 units of gs_ram).
    const auto w = static_cast<uint32_t>(static_cast<uint16_t>(entry.billboard[0]));
    const auto h = static_cast<uint32_t>(static_cast<uint16_t>(entry.billboard[1]));
    if (w == 0) return;
    const uint64_t gs_size = source_.gs_ram ? source_.gs_ram->size() : 0;
    const uint64_t palette = static_cast<uint64_t>(static_cast<uint16_t>(entry.billboard[3])) * formats::kPaletteUnit;
    const uint64_t texels = static_cast<uint64_t>(static_cast<uint16_t>(entry.billboard[4])) * formats::kPaletteUnit;
    if (!power_of_two(w) || !power_of_two(h) || w > 1024 || h > 1024)  // §2 item 19 (a GS rule, not checked by Wrench)
        m.billboard_error = fmt::format("billboard image {}x{} is not a power-of-two size up to 1024", w, h);
    else if (palette + formats::kPaletteBytes > gs_size || texels + uint64_t{w} * h > gs_size)
        m.billboard_error = fmt::format("billboard palette at gs_ram.bin 0x{:x} or texels at 0x{:x} ({}x{}) pass its {} bytes", palette, texels, w,
                                        h, gs_size);
    else
        m.billboard_width = w, m.billboard_height = h;
}

const ClassModelIndex& LevelClassModels::index() const {
    std::call_once(indexed_, [this] {
        const ClassWindow& w = *source_.window;
        const cache::Loaded decoded = w.to > w.from ? window() : cache::Loaded{};
        const std::vector<formats::CoreRegion> extents = this->extents();
        for (size_t i = 0; i < listed_.size(); ++i) {
            const formats::ClassEntry& entry = source_.entries[entry_of_[i]];
            ClassModel m;
            m.o_class = entry.o_class;
            m.extent = extents[i];
            if (m.extent.size == 0)
                m.error = fmt::format("{}: offset 0x{:x} has no extent in the {}-byte core (no block boundary above it, A.1)", m.extent.name,
                                      static_cast<uint32_t>(entry.offset_in_asset_wad), source_.dat_size);
            else if (!decoded.bytes)
                m.error = decoded.error;
            else
                index_class(m, decoded.bytes->bytes().subspan(m.extent.offset - w.from, m.extent.size), entry);
            if (kind_ == ClassKind::shrub) index_billboard(m, entry);
            index_.classes.push_back(std::move(m));
        }
        // ties.csv / shrubs.csv: a row per class, the figures verify prints.
        std::string& out = index_.csv;
        const bool tie = kind_ == ClassKind::tie;
        std::vector<std::string> header = {"class", "core_offset", "extent", "status", "error", "notes", "scale"};
        for (int lod = 0; lod < (tie ? 3 : 1); ++lod)
            for (const char* what : {"packets", "strips", "vertices", "triangles", tie ? "degenerate" : "raw_triangles"})
                header.push_back(tie ? fmt::format("lod{}_{}", lod, what) : std::string(what));
        for (const char* b : {"materials", "min_x", "min_y", "min_z", "max_x", "max_y", "max_z"}) header.emplace_back(b);
        if (!tie)
            for (const char* b : {"billboard_fade", "billboard_width", "billboard_height", "billboard_z_ofs", "billboard_image"}) header.emplace_back(b);
        formats::csv::row(out, header);
        for (const ClassModel& m : index_.classes) {
            const bool ok = m.error.empty();
            std::vector<std::string> cells = {std::to_string(m.o_class), fmt::format("0x{:x}", m.extent.offset), std::to_string(m.extent.size),
                                              ok ? "ok" : "rejected", m.error, fmt::format("{}", fmt::join(m.notes, "; ")),
                                              ok ? fmt::format("{}", m.scale) : ""};
            for (int lod = 0; lod < (tie ? 3 : 1); ++lod)
                for (uint64_t v : {uint64_t(m.packets[lod]), uint64_t(m.strips[lod]), m.counts[lod].vertices, m.counts[lod].triangles,
                                   tie ? m.degenerate[lod] : m.raw_triangles})
                    cells.push_back(ok ? std::to_string(v) : "");
            cells.push_back(fmt::format("{}", fmt::join(m.materials, " ")));
            for (double b : m.bbox) cells.push_back(ok ? fmt::format("{}", b) : "");
            if (!tie) {
                const auto& bb = m.billboard;
                for (float f : {bb ? bb->fade_distance : 0.f, bb ? bb->width : 0.f, bb ? bb->height : 0.f, bb ? bb->z_ofs : 0.f})
                    cells.push_back(bb ? fmt::format("{}", f) : "");
                cells.push_back(m.billboard_width ? fmt::format("{}x{}", m.billboard_width, m.billboard_height)
                                                  : (m.billboard_error.empty() ? "none" : m.billboard_error));
            }
            formats::csv::row(out, cells);
        }
    });
    return index_;
}

cache::Loaded LevelClassModels::obj(size_t cls, int lod) const {
    const ClassModel& m = index().classes.at(cls);
    if (!m.error.empty()) return {nullptr, m.error};
    return cache_.get(keys_[4 * cls + static_cast<size_t>(lod)], [&]() -> cache::Loaded {
        const cache::Loaded decoded = window();
        if (!decoded.bytes) return decoded;
        const auto bytes = decoded.bytes->bytes().subspan(m.extent.offset - source_.window->from, m.extent.size);
        const formats::ClassEntry& entry = source_.entries[entry_of_[cls]];
        ClassMesh mesh;
        if (kind_ == ClassKind::tie) {
            auto parsed = formats::tie::read_tie_class(bytes);
            if (!parsed.ok()) return {nullptr, where(m.extent, parsed.error())};
            mesh = formats::tie::lod_mesh(*parsed, lod);
        } else {
            auto parsed = formats::shrub::read_shrub_class(bytes);
            if (!parsed.ok()) return {nullptr, where(m.extent, parsed.error())};
            mesh = formats::shrub::shrub_mesh(*parsed);
        }
        const std::string text = formats::class_obj(mesh, preamble(m, lod), [&](int slot) {
            return slot < 0 ? std::string("untextured") : fmt::format("{}_{:03d}", prefix(), entry.textures[static_cast<size_t>(slot)]);
        });
        if (text.size() != m.obj_size[lod])  // the size stat reported must be the size a read returns
            return {nullptr, fmt::format("{} OBJ rendered {} bytes, its index said {}", m.extent.name, text.size(), m.obj_size[lod])};
        return {cache::Blob::copy_of({reinterpret_cast<const uint8_t*>(text.data()), text.size()}), {}};
    });
}

cache::Loaded LevelClassModels::billboard_png(size_t cls) const {
    const ClassModel& m = index().classes.at(cls);
    if (!m.billboard_width) return {nullptr, m.billboard_error.empty() ? "no billboard image" : m.billboard_error};
    return cache_.get(keys_[4 * cls + 3], [&]() -> cache::Loaded {
        const formats::ClassEntry& entry = source_.entries[entry_of_[cls]];
        formats::Bytes palette(formats::kPaletteBytes), texels(uint64_t{m.billboard_width} * m.billboard_height);
        for (auto [out, units] : {std::pair{&palette, entry.billboard[3]}, std::pair{&texels, entry.billboard[4]}}) {
            const ReadOutcome r = source_.gs_ram->read(static_cast<uint64_t>(static_cast<uint16_t>(units)) * formats::kPaletteUnit, *out);
            if (!r.ok()) return {nullptr, r.error};
        }
        const formats::Bytes png = formats::indexed_texture_png(m.billboard_width, m.billboard_height, texels, palette);
        return {cache::Blob::copy_of(png), {}};
    });
}

uint64_t ClassModelFile::size() const {
    switch (kind_) {
        case Kind::mtl: return models_->mtl().size();
        case Kind::csv: return models_->index().csv.size();
        case Kind::obj: return models_->index().classes.at(cls_).obj_size[lod_];
        case Kind::billboard: {
            const ClassModel& m = models_->index().classes.at(cls_);
            return m.billboard_width ? formats::png::indexed_size(m.billboard_width, m.billboard_height) : 0;
        }
    }
    return 0;
}

std::string ClassModelFile::open_error() const {
    if (kind_ == Kind::obj) return models_->index().classes.at(cls_).error;
    if (kind_ == Kind::billboard) {
        const ClassModel& m = models_->index().classes.at(cls_);
        return m.billboard_width ? "" : m.billboard_error.empty() ? "no billboard image" : m.billboard_error;
    }
    return {};
}

ReadOutcome ClassModelFile::read(uint64_t offset, std::span<uint8_t> out) const {
    if (kind_ == Kind::mtl || kind_ == Kind::csv) {
        const std::string text = kind_ == Kind::mtl ? models_->mtl() : models_->index().csv;
        return copy_window({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, offset, out);
    }
    const cache::Loaded bytes = kind_ == Kind::obj ? models_->obj(cls_, lod_) : models_->billboard_png(cls_);
    if (!bytes.bytes) return {0, bytes.error};
    return copy_window(bytes.bytes->bytes(), offset, out);
}

}  // namespace gcfs::tree
