#include <fmt/format.h>

#include "formats/armor/armor.h"
#include "formats/export/csv.h"
#include "formats/moby/moby.h"
#include "tree/globals/armor_models.h"
#include "tree/node/derived_file.h"
#include "tree/globals/global_images.h"
#include "tree/globals/globals.h"

namespace gcfs::tree::globals {
namespace {

using namespace formats;
using Json = GlobalFolder::Json;

// An armor's OBJ at `lod` (0 high, 1 low) or its glb.
std::shared_ptr<const Source> model_file(cache::LruCache& cache, std::shared_ptr<const ArmorModel> model, int lod, bool glb,
                                         const std::string& where) {
    return std::make_shared<DerivedFile>(
        cache,
        [model, lod, glb]() -> Result<uint64_t> {
            const auto& i = model->index();
            if (i.failure) return *i.failure;
            if (glb && i.textures_failure) return *i.textures_failure;  // the glb embeds the textures; the OBJ only names them
            return (glb ? i.glb_size : i.obj_size)[static_cast<size_t>(lod)];
        },
        [model, lod, glb]() -> Result<Bytes> {
            if (glb) return model->glb(lod);
            const std::string text = model->obj(lod);
            return Bytes(text.begin(), text.end());
        },
        where);
}

std::string csv(const std::vector<std::shared_ptr<const ArmorModel>>& models) {
    std::string out = "model,kind,index,mesh_sectors,texture_sectors,high_packets,high_vertices,high_triangles,low_packets,low_vertices,"
                      "low_triangles,metal_packets,textures,status,error\n";
    for (const auto& m : models) {
        const auto& i = m->index();
        const auto& a = m->model();
        const bool ok = i.error.empty() && i.textures_error.empty() && a.error.empty();
        auto n = [&](auto v) { return i.error.empty() ? std::to_string(v) : std::string(); };
        csv::row(out, {m->name(), a.wrench ? "wrench" : "armor", std::to_string(a.index), std::to_string(a.mesh.size), std::to_string(a.textures.size),
                       n(i.packets[0]), n(i.counts[0].vertices), n(i.counts[0].triangles), n(i.packets[1]), n(i.counts[1].vertices),
                       n(i.counts[1].triangles), n(i.metal_packets), std::to_string(i.textures.size()), ok ? "ok" : "failed",
                       !a.error.empty() ? a.error : !i.error.empty() ? i.error : i.textures_error});
    }
    return out;
}

}  // namespace

// global/armor/ (formats-globals.md §6): each armor set and wrench as OBJ
// (high LOD; low/ for the low one, where the class has one), as a textured
// glb, its textures as PNG under textures/, armor.mtl, armor.csv, info.json.
void armor(GlobalFolder& f) {
    auto parsed = f.parsed(armor::parse_armor_wad(f.header, f.size));
    if (!parsed) return;
    auto models = std::make_shared<std::vector<std::shared_ptr<const ArmorModel>>>();
    std::string mtl;
    for (const armor::Model& a : *parsed) {
        const std::string name = a.name();
        const WadItem mesh{&f.image(), f.offset + a.mesh.byte_offset(), a.error.empty() ? a.mesh.byte_size() : 0, false, f.label + " " + name + " mesh"};
        const WadItem textures{&f.image(), f.offset + a.textures.byte_offset(), a.error.empty() ? a.textures.byte_size() : 0, false,
                               f.label + " " + name + " textures"};
        auto model = std::make_shared<const ArmorModel>(a, mesh, textures);
        models->push_back(model);
        if (!a.error.empty()) {
            for (const std::string& path : {name + ".obj", name + ".glb"})
                f.file(path, std::make_shared<Unreadable>(a.error), f.from_wad(0, 0, "none", a.error));
            continue;
        }
        const std::string detail = fmt::format("{}: mesh sectors [{}, {}), texture list sectors [{}, {}) of {} (formats-globals.md 6)", name,
                                               a.mesh.offset, a.mesh.end(), a.textures.offset, a.textures.end(), f.label);
        f.file(name + ".obj", model_file(f.cache(), model, 0, false, mesh.where()),
               f.from_wad(a.mesh.byte_offset(), a.mesh.byte_size(), "mesh-only moby class (formats-moby.md, formats-globals.md 6), then OBJ", detail));
        // The header's low-LOD packet count (byte 1), read now: only a class with a low LOD lists one.
        const auto head = mesh.head(moby::kMeshOnlyHeaderSize);
        if (head.ok() && head->size() > 1 && (*head)[1] > 0) {
            f.file("low/" + name + ".obj", model_file(f.cache(), model, 1, false, mesh.where()),
                   f.from_wad(a.mesh.byte_offset(), a.mesh.byte_size(), "mesh-only moby class, low LOD, then OBJ", detail));
            f.file("low/" + name + ".glb", model_file(f.cache(), model, 1, true, mesh.where()),
                   f.from_wad(a.mesh.byte_offset(), a.mesh.byte_size(), "mesh-only moby class, low LOD, and its PIF textures, then glTF 2.0",
                              detail));
        }
        f.file(name + ".glb", model_file(f.cache(), model, 0, true, mesh.where()),
               f.from_wad(a.mesh.byte_offset(), a.mesh.byte_size(), "mesh-only moby class and its PIF textures, then glTF 2.0", detail));
        // The texture list's count (§5) names the PNGs; the list is read whole now (a few KiB).
        const auto& index = model->index();
        for (size_t k = 0; k < index.textures.size(); ++k) {
            const std::string png = fmt::format("{}_{}", name, k);
            f.file("textures/" + png + ".png", pif_png(f.cache(), model->texture(k)),
                   f.from_wad(a.textures.byte_offset(), a.textures.byte_size(), "PIF (formats-globals.md 5), then PNG",
                              fmt::format("{} texture {} of its texture list", name, k)));
            mtl += fmt::format("newmtl {}\nKd 1.000 1.000 1.000\nmap_Kd textures/{}.png\n", png, png);
        }
    }
    mtl += "newmtl untextured\nKd 0.700 0.700 0.700\n";
    f.file("armor.mtl", std::make_shared<StaticText>(std::move(mtl)),
           f.from_wad(0, f.size, "MTL written by gcfs", "a material per texture of every model's texture list (formats-globals.md 6)"));
    f.file("armor.csv", std::make_shared<GeneratedText>([models] { return csv(*models); }),
           f.from_wad(0, f.size, "CSV written by gcfs", "every armor and wrench: packets, vertices, triangles, textures (formats-globals.md 6)"));
    f.info_json([models](Json& j) {
        Json list = Json::array(), failures = Json::array();
        for (const auto& m : *models) {
            const auto& a = m->model();
            const auto& i = m->index();
            Json e = {{"model", m->name()}, {"header_byte", a.header_at}, {"mesh_sectors", {a.mesh.offset, a.mesh.size}},
                      {"texture_sectors", {a.textures.offset, a.textures.size}}, {"scale", a.scale()}};
            const std::string error = !a.error.empty() ? a.error : !i.error.empty() ? i.error : i.textures_error;
            if (error.empty()) {
                e["high_lod"] = {{"packets", i.packets[0]}, {"vertices", i.counts[0].vertices}, {"triangles", i.counts[0].triangles}};
                e["low_lod"] = {{"packets", i.packets[1]}, {"vertices", i.counts[1].vertices}, {"triangles", i.counts[1].triangles}};
                e["metal_packets"] = i.metal_packets;
                e["textures"] = i.textures.size();
            } else {
                e["error"] = error;
                failures.push_back({{"model", m->name()}, {"error", error}});
            }
            list.push_back(std::move(e));
        }
        j["models"] = list;
        j["failures"] = failures;
        j["ok"] = failures.empty();
    });
}

}  // namespace gcfs::tree::globals
