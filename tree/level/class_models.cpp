#include "tree/level/class_models.h"

#include <fmt/format.h>

#include <algorithm>

#include "formats/core/core_tables.h"
#include "formats/export/csv.h"
#include "formats/export/png.h"
#include "formats/export/texture_png.h"
#include "formats/gltf/rig.h"
#include "tree/level/glb_images.h"
#include "tree/node/safe_name.h"

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

// The texture-table row a class's slot names (A.6, shrub 1.10, moby 10.1), -1 for none.
int row_of(const formats::ClassEntry& entry, int slot, uint64_t rows) {
    const uint8_t row = slot >= 0 && slot < 16 ? entry.textures[static_cast<size_t>(slot)] : 0xff;
    return row != 0xff && row < rows ? row : -1;
}

bool power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

constexpr size_t kKeysPerClass = 6;  // 3 OBJs, the billboard, a .glb per moby LOD
constexpr size_t kBillboardKey = 3, kGlbKey = 4;

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
    for (size_t i = 0; i < kKeysPerClass * listed_.size(); ++i) keys_.push_back(new_cache_key());
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
    static constexpr const char* kReference[] = {"formats-tie-sky.md A", "formats-shrub.md", "formats-moby.md"};
    static constexpr const char* kMobyLods[] = {"high LOD", "low LOD"};
    const std::string lod_name = kind_ == ClassKind::tie ? fmt::format(", LOD {}", lod) : kind_ == ClassKind::moby ? fmt::format(", {}", kMobyLods[lod]) : "";
    return fmt::format(
        "# gcfs: {} class {} of {}{}, from core_data.bin [0x{:x}, +0x{:x}) ({})\n"
        "# class space{}: s16 x scale {} / 1024, in the terrain OBJ's units; vt = (s, 1 - t)\n"
        "# {} vertices, {} triangles\nmtllib {}{}.mtl\no {}_{}\n",
        prefix(), m.o_class, source_.level, lod_name, m.extent.offset, m.extent.size, kReference[static_cast<int>(kind_)],
        kind_ == ClassKind::moby ? " (bind pose)" : "", m.scale, m.counts[lod].vertices, m.counts[lod].triangles, lod > 0 ? "../" : "",
        folder(), prefix(), m.o_class);
}

std::string LevelClassModels::material(const formats::ClassEntry& entry, int slot, std::string* error) const {
    const int row = row_of(entry, slot, source_.texture_rows);
    if (row >= 0) return fmt::format("{}_{:03d}", prefix(), row);
    // Moby slots past the class's textures do occur (formats-moby.md 10.1: Wrench draws them grey),
    // as does -1 (no texture); a tie or shrub slot must name a row (A.6, shrub 1.10).
    if (slot >= 0 && kind_ != ClassKind::moby && error)
        *error = fmt::format("texture slot {} of its class-table entry is 0x{:02x}, not a row of the {}-row {} texture table", slot,
                             slot < 16 ? entry.textures[static_cast<size_t>(slot)] : 0xff, source_.texture_rows, prefix());
    return "untextured";
}

void LevelClassModels::index_class(ClassModel& m, std::span<const uint8_t> bytes, const formats::ClassEntry& entry) const {
    auto decoded = decode_class(kind_, bytes);
    if (!decoded.ok()) return void(m.error = where(m.extent, decoded.error()));
    const DecodedClass& d = *decoded;
    m.lods = d.lods, m.notes = d.notes, m.scale = d.scale, m.packets = d.packets, m.strips = d.strips, m.extra = d.extra;
    m.variant_strips = d.variant_strips, m.region_packets = d.region_packets;
    m.billboard = d.billboard, m.metal_packets = d.metal_packets, m.bangles = d.bangles;
    m.bangle_packets = d.bangle_packets, m.bangle_strips = d.bangle_strips, m.bangle_duplicates = d.bangle_duplicates;
    m.sections = d.sections;
    // A.8 / shrub §2 item 3: the class header repeats the entry's o_class (low 16 bits).
    if (d.o_class && *d.o_class != static_cast<int16_t>(entry.o_class))
        return void(m.error = fmt::format("{} at core_data.bin 0x{:x}: bad_value at core_data.bin 0x{:x}: the header's o_class {} is not the "
                                          "class table's {}", m.extent.name, m.extent.offset, m.extent.offset + d.o_class_at, *d.o_class, entry.o_class));
    std::string binding_error;
    for (int slot : d.slots) m.materials.push_back(material(entry, slot, &binding_error));
    if (!binding_error.empty()) return void(m.error = fmt::format("{} at core_data.bin 0x{:x}: {}", m.extent.name, m.extent.offset, binding_error));
    const formats::MaterialName name = [&](int slot) { return material(entry, slot, nullptr); };
    for (int lod = 0; lod < m.lods; ++lod) {
        m.counts[lod] = formats::class_obj_counts(d.meshes[lod], name, d.parts[lod]);
        m.obj_size[lod] = formats::class_obj_size(preamble(m, lod).size(), m.counts[lod]);
    }
    m.bbox = bounds(d.meshes[0]);
    if (!d.joints.empty()) m.skeleton = skeleton_json(m.o_class, d.joints);
    if (kind_ != ClassKind::moby) return;
    m.declares_skeleton = d.declared_joints > 0;
    m.joints = d.declared_joints;  // what the header declares, whether or not its skeleton reads
    if (d.rig_error) return void(m.rig_error = fmt::format("its rig: {}", where(m.extent, *d.rig_error)));
    for (int lod = 0; lod < 2; ++lod)
        if (m.counts[lod].triangles > 0) m.glb_size[lod] = formats::gltf::glb_size(glb_scene(m, d, entry, lod).scene);
}

LevelClassModels::GlbScene LevelClassModels::glb_scene(const ClassModel& m, const DecodedClass& d, const formats::ClassEntry& entry,
                                                        int lod) const {
    namespace gltf = formats::gltf;
    GlbScene out;
    gltf::Scene& s = out.scene;
    s.name = fmt::format("moby_{}", m.o_class);
    std::vector<std::string> left_out;
    std::vector<int> material_of_slot;  // by position in d.slots
    for (int slot : d.slots) {
        const std::string name = material(entry, slot, nullptr);
        auto same = std::find_if(s.materials.begin(), s.materials.end(), [&](const gltf::Material& x) { return x.name == name; });
        if (same == s.materials.end()) {
            gltf::Material mat{.name = name, .alpha = gltf::Material::Alpha::mask};
            // The PNG textures/ shows, embedded so the file travels alone; its size is
            // arithmetic (texture_png_size), so the .glb's is known before a texel decodes.
            const auto png = source_.textures.find(name + ".png");
            if (name == "untextured") {
                mat.colour = {0.7f, 0.7f, 0.7f, 1};  // formats-moby.md 10.1: Wrench draws them grey
            } else if (png == source_.textures.end() || !png->second->open_error().empty()) {
                mat.colour = {0.5f, 0.5f, 0.5f, 1};
                left_out.push_back(fmt::format("textures/{}.png: {}", name, png == source_.textures.end() ? "not listed" : png->second->open_error()));
            } else {
                mat.image = static_cast<int>(s.images.size());
                s.images.push_back({.name = name + ".png", .size = png->second->size()});
                out.images.push_back(png->second);
            }
            s.materials.push_back(std::move(mat));
            same = s.materials.end() - 1;
        }
        material_of_slot.push_back(static_cast<int>(same - s.materials.begin()));
    }
    const gltf::MaterialOf material_of = [&](int slot) {
        const auto at = std::find(d.slots.begin(), d.slots.end(), slot);
        return at == d.slots.end() ? -1 : material_of_slot[static_cast<size_t>(at - d.slots.begin())];
    };
    // formats-moby.md 12: the bangles are parts of the class, in its space and on its joints,
    // so they share the main mesh's one skin: posing the armature moves them along.
    const std::string suffix = lod == 0 ? "_high_lod" : "_low_lod";
    std::vector<gltf::NamedMesh> parts = {{s.name + suffix, &d.meshes[static_cast<size_t>(lod)]}};
    for (const auto& part : d.parts[static_cast<size_t>(lod)]) parts.push_back({fmt::format("{}_{}{}", s.name, part.name, suffix), &part.mesh});
    gltf::add_rigged_parts(s, s.name, parts, gltf::moby_rig(d.joints, d.scale), material_of);
    s.extras = {{"source", fmt::format("{} class {} of {}, {}, core_data.bin [0x{:x}, +0x{:x}), formats-moby.md", prefix(), m.o_class,
                                       source_.level, lod == 0 ? "high LOD" : "low LOD", m.extent.offset, m.extent.size)},
                {"scale", d.scale},
                {"joints", d.joints.size()},
                {"rig", d.joints.empty() ? "none: a static class, a plain mesh"
                                         : "one skin for the mesh and its bangles; skeleton[j] read as joint j's inverse bind matrix, columns "
                                           "m_0..m_3, m_3.xyz x scale/1024 (formats-moby.md 11, convention unconfirmed); weights = blend bytes / "
                                           "their sum (8.7)"},
                {"textures", "embedded: the PNGs of ../textures/ (formats.md 6.3)"}};
    if (!left_out.empty()) s.extras["textures_left_out"] = left_out;
    return out;
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
        index_.csv = csv();
    });
    return index_;
}

// ties.csv / shrubs.csv / mobies.csv: a row per class, the figures verify prints.
std::string LevelClassModels::csv() const {
    std::string out;
    static constexpr std::array<const char*, 3> kLodNames[] = {{"lod0_", "lod1_", "lod2_"}, {"", "", ""}, {"high_", "low_", ""}};
    static constexpr const char* kExtra[] = {"degenerate", "raw_triangles", "duplicates"};
    const auto& lod_names = kLodNames[static_cast<int>(kind_)];
    const int lods = kind_ == ClassKind::tie ? 3 : kind_ == ClassKind::moby ? 2 : 1;
    std::vector<std::string> header = {"class", "core_offset", "extent", "status", "error", "notes", "scale"};
    // The rarer strip variant per LOD (DecodedClass::variant_strips): ties' flipped strips, shrubs' lists.
    static constexpr const char* kVariant[] = {"flipped_strips", "lists", nullptr};
    for (int lod = 0; lod < lods; ++lod) {
        for (const char* what : {"packets", "strips", "vertices", "triangles", kExtra[static_cast<int>(kind_)]})
            header.push_back(std::string(lod_names[lod]) + what);
        if (kVariant[static_cast<int>(kind_)]) header.push_back(std::string(lod_names[lod]) + kVariant[static_cast<int>(kind_)]);
        if (kind_ == ClassKind::tie) header.push_back(std::string(lod_names[lod]) + "region_packets");
    }
    if (kind_ == ClassKind::moby) {
        header.insert(header.end(), {"metal_packets", "joints", "rig_error", "bangles"});
        for (const char* lod : {"high_", "low_"})
            for (const char* what : {"bangle_packets", "bangle_strips", "bangle_vertices", "bangle_triangles", "bangle_duplicates"})
                header.push_back(std::string(lod) + what);
        header.insert(header.end(), {"collision_points", "sound_defs", "corncob_kernels", "corncob_vertices", "shadows"});
    }
    for (const char* b : {"materials", "min_x", "min_y", "min_z", "max_x", "max_y", "max_z"}) header.emplace_back(b);
    if (kind_ == ClassKind::shrub)
        for (const char* b : {"billboard_fade", "billboard_width", "billboard_height", "billboard_z_ofs", "billboard_image"}) header.emplace_back(b);
    formats::csv::row(out, header);
    // Rows in class-table order; a moby class whose table offset is 0 has no
    // model (formats.md 6.3) and gets a row that says so, as level.glb says it
    // per instance.
    size_t modelled = 0;
    for (const formats::ClassEntry& entry : source_.entries) {
        if (entry.offset_in_asset_wad == 0 && kind_ != ClassKind::moby) continue;
        if (entry.offset_in_asset_wad == 0) {
            std::vector<std::string> cells = {std::to_string(entry.o_class), "", "0", "no model", "",
                                              "its class-table offset is 0: the class has no model, its instances draw nothing"};
            cells.resize(header.size());
            formats::csv::row(out, cells);
            continue;
        }
        if (modelled >= index_.classes.size()) break;
        const ClassModel& m = index_.classes[modelled++];
        const bool ok = m.error.empty();
        auto cell = [&](auto v) { return ok ? fmt::format("{}", v) : std::string(); };
        std::vector<std::string> cells = {std::to_string(m.o_class), fmt::format("0x{:x}", m.extent.offset), std::to_string(m.extent.size),
                                          ok ? "ok" : "rejected", m.error, fmt::format("{}", fmt::join(m.notes, "; ")), cell(m.scale)};
        // Each column one rule: the main mesh alone; the bangles (formats-moby.md 12) have columns of their own.
        std::array<formats::ClassObjCounts::Part, 3> bangled{};
        for (int lod = 0; lod < lods; ++lod)
            for (const auto& part : m.counts[lod].parts) bangled[lod].vertices += part.vertices, bangled[lod].triangles += part.triangles;
        for (int lod = 0; lod < lods; ++lod) {
            for (uint64_t v : {uint64_t(m.packets[lod]), uint64_t(m.strips[lod]), m.counts[lod].vertices - bangled[lod].vertices,
                               m.counts[lod].triangles - bangled[lod].triangles, m.extra[lod]})
                cells.push_back(cell(v));
            if (kVariant[static_cast<int>(kind_)]) cells.push_back(cell(m.variant_strips[lod]));
            if (kind_ == ClassKind::tie) cells.push_back(cell(m.region_packets[lod]));
        }
        if (kind_ == ClassKind::moby) {
            cells.push_back(cell(m.metal_packets));
            cells.push_back(cell(m.joints));
            cells.push_back(m.rig_error);
            cells.push_back(cell(m.bangles));
            for (int lod = 0; lod < 2; ++lod)
                for (uint64_t v : {uint64_t(m.bangle_packets[lod]), uint64_t(m.bangle_strips[lod]), bangled[lod].vertices, bangled[lod].triangles,
                                   m.bangle_duplicates[lod]})
                    cells.push_back(cell(v));
            // formats-moby.md 4: the non-mesh sections; a collision block of no points still counts 0, an absent one is empty.
            const formats::moby::Sections& x = m.sections;
            cells.push_back(ok && x.collision ? std::to_string(x.collision_points) : std::string());
            for (int v : {x.sound_defs, x.corncob_kernels, x.corncob_vertices, x.shadows}) cells.push_back(cell(v));
        }
        cells.push_back(fmt::format("{}", fmt::join(m.materials, " ")));
        for (double b : m.bbox) cells.push_back(cell(b));
        if (kind_ == ClassKind::shrub) {
            const auto& bb = m.billboard;
            for (float f : {bb ? bb->fade_distance : 0.f, bb ? bb->width : 0.f, bb ? bb->height : 0.f, bb ? bb->z_ofs : 0.f})
                cells.push_back(bb ? fmt::format("{}", f) : "");
            cells.push_back(m.billboard_width ? fmt::format("{}x{}", m.billboard_width, m.billboard_height)
                                              : (m.billboard_error.empty() ? "none" : m.billboard_error));
        }
        formats::csv::row(out, cells);
    }
    return out;
}

formats::Result<DecodedClass> LevelClassModels::decode(size_t cls) const {
    const ClassModel& m = index().classes.at(cls);
    auto failed = [](std::string why) { return formats::FormatError{formats::Errc::bad_value, 0, std::move(why)}; };
    if (!m.error.empty()) return failed(m.error);
    const cache::Loaded core = window();
    if (!core.bytes) return failed(core.error);
    auto decoded = decode_class(kind_, core.bytes->bytes().subspan(m.extent.offset - source_.window->from, m.extent.size));
    if (!decoded.ok()) return failed(where(m.extent, decoded.error()));
    return decoded;
}

formats::Result<formats::ClassMesh> LevelClassModels::mesh(size_t cls) const {
    auto decoded = decode(cls);
    if (!decoded.ok()) return decoded.error();
    return std::move(decoded->meshes[0]);
}

int LevelClassModels::texture_row(size_t cls, int slot) const {
    return row_of(source_.entries[entry_of_.at(cls)], slot, source_.texture_rows);
}

std::optional<size_t> LevelClassModels::find(int32_t o_class) const {
    const auto it = std::find(listed_.begin(), listed_.end(), o_class);
    return it == listed_.end() ? std::nullopt : std::optional<size_t>(static_cast<size_t>(it - listed_.begin()));
}

cache::Loaded LevelClassModels::obj(size_t cls, int lod) const {
    const ClassModel& m = index().classes.at(cls);
    if (!m.error.empty()) return {nullptr, m.error};
    return cache_.get(keys_[kKeysPerClass * cls + static_cast<size_t>(lod)], [&]() -> cache::Loaded {
        auto decoded = decode(cls);
        if (!decoded.ok()) return {nullptr, decoded.error().message};
        const formats::ClassEntry& entry = source_.entries[entry_of_[cls]];
        const std::string text = formats::class_obj(decoded->meshes[static_cast<size_t>(lod)], preamble(m, lod),
                                                    [&](int slot) { return material(entry, slot, nullptr); }, decoded->parts[static_cast<size_t>(lod)]);
        if (text.size() != m.obj_size[lod])  // the size stat reported must be the size a read returns
            return {nullptr, fmt::format("{} OBJ rendered {} bytes, its index said {}", m.extent.name, text.size(), m.obj_size[lod])};
        return {cache::Blob::copy_of({reinterpret_cast<const uint8_t*>(text.data()), text.size()}), {}};
    });
}

cache::Loaded LevelClassModels::billboard_png(size_t cls) const {
    const ClassModel& m = index().classes.at(cls);
    if (!m.billboard_width) return {nullptr, m.billboard_error.empty() ? "no billboard image" : m.billboard_error};
    return cache_.get(keys_[kKeysPerClass * cls + kBillboardKey], [&]() -> cache::Loaded {
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

cache::Loaded LevelClassModels::glb(size_t cls, int lod) const {
    const ClassModel& m = index().classes.at(cls);
    if (!m.error.empty()) return {nullptr, m.error};
    if (!m.rig_error.empty()) return {nullptr, m.rig_error};
    const auto l = static_cast<size_t>(lod);
    return cache_.get(keys_[kKeysPerClass * cls + kGlbKey + l], [&]() -> cache::Loaded {
        auto decoded = decode(cls);
        if (!decoded.ok()) return {nullptr, decoded.error().message};
        const GlbScene made = glb_scene(m, *decoded, source_.entries[entry_of_[cls]], lod);
        // An embedded texture whose texels fail to decode fails the file: its size was said at stat.
        const auto glb = formats::gltf::write_glb(made.scene, glb_images(made.scene, made.images));
        if (!glb.ok()) return {nullptr, fmt::format("{} .glb: {}", m.extent.name, glb.error().describe())};
        if (glb->size() != m.glb_size[l])  // the size stat reported must be the size a read returns
            return {nullptr, fmt::format("{} .glb came to {} bytes, its index said {}", m.extent.name, glb->size(), m.glb_size[l])};
        return {cache::Blob::copy_of(*glb), {}};
    });
}

uint64_t ClassModelFile::size() const {
    switch (kind_) {
        case Kind::mtl: return models_->mtl().size();
        case Kind::csv: return models_->index().csv.size();
        case Kind::obj: return models_->index().classes.at(cls_).obj_size[lod_];
        case Kind::skeleton: return models_->index().classes.at(cls_).skeleton.size();
        case Kind::glb: return models_->index().classes.at(cls_).glb_size[static_cast<size_t>(lod_)];
        case Kind::billboard: {
            const ClassModel& m = models_->index().classes.at(cls_);
            return m.billboard_width ? formats::png::indexed_size(m.billboard_width, m.billboard_height) : 0;
        }
    }
    return 0;
}

std::string ClassModelFile::open_error() const {
    if (kind_ == Kind::obj) return models_->index().classes.at(cls_).error;
    if (kind_ == Kind::skeleton || kind_ == Kind::glb) return models_->index().classes.at(cls_).rig_error;
    if (kind_ == Kind::billboard) {
        const ClassModel& m = models_->index().classes.at(cls_);
        return m.billboard_width ? "" : m.billboard_error.empty() ? "no billboard image" : m.billboard_error;
    }
    return {};
}

ReadOutcome ClassModelFile::read(uint64_t offset, std::span<uint8_t> out) const {
    if (kind_ == Kind::mtl || kind_ == Kind::csv || kind_ == Kind::skeleton) {
        const std::string text = kind_ == Kind::mtl ? models_->mtl() : kind_ == Kind::csv ? models_->index().csv : models_->index().classes.at(cls_).skeleton;
        return copy_window({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, offset, out);
    }
    const cache::Loaded bytes = kind_ == Kind::obj ? models_->obj(cls_, lod_) : kind_ == Kind::glb ? models_->glb(cls_, lod_) : models_->billboard_png(cls_);
    if (!bytes.bytes) return {0, bytes.error};
    return copy_window(bytes.bytes->bytes(), offset, out);
}

}  // namespace gcfs::tree

namespace gcfs::tree {

const std::vector<ClassFileRun::File>& ClassFileRun::present() const {
    std::call_once(made_, [&] {
        using Kind = ClassModelFile::Kind;
        FolderNames names;  // two table entries of one class get distinct names, as at LOD 0
        const auto& classes = models_->index().classes;
        for (size_t c = 0; c < classes.size(); ++c) {
            const ClassModel& m = classes[c];
            if (!m.error.empty()) continue;
            const std::string stem = safe_name(fmt::format("{}_{}", models_->prefix(), m.o_class));
            if (what_ == What::lod) {
                if (m.counts[static_cast<size_t>(lod_)].triangles == 0) continue;
                present_.push_back({c, names.claim(stem + ".obj"), Kind::obj});
                if (models_->kind() == ClassKind::moby) present_.push_back({c, names.claim(stem + ".glb"), Kind::glb});
                continue;
            }
            if (m.declares_skeleton) present_.push_back({c, names.claim(stem + ".skeleton.json"), Kind::skeleton});
            if (m.counts[0].triangles > 0) present_.push_back({c, names.claim(stem + ".glb"), Kind::glb});
        }
    });
    return present_;
}

bool ClassFileRun::may_be_ours(std::string_view name) const {
    if (!name.starts_with(models_->prefix())) return false;
    if (name.ends_with(".glb")) return what_ == What::rigs || models_->kind() == ClassKind::moby;
    return what_ == What::lod ? name.ends_with(".obj") : name.ends_with(".skeleton.json");
}

std::optional<uint64_t> ClassFileRun::position(std::string_view name) const {
    if (!may_be_ours(name)) return std::nullopt;  // no index build for other names
    const auto& files = present();
    for (size_t p = 0; p < files.size(); ++p)
        if (files[p].name == name) return p;
    return std::nullopt;
}

std::shared_ptr<const tree::Source> ClassFileRun::source(uint64_t position) const {
    const File& f = present().at(position);
    return std::make_shared<ClassModelFile>(models_, f.kind, f.cls, lod_);
}

std::shared_ptr<const Provenance> ClassFileRun::provenance(uint64_t position) const {
    const File& f = present().at(position);
    auto out = std::make_shared<Provenance>(f.kind == ClassModelFile::Kind::glb ? glb_origin_ : origin_);
    out->detail = fmt::format("class {}: {}", models_->index().classes.at(f.cls).o_class, out->detail);
    return out;
}

}  // namespace gcfs::tree
