// A level's tie, shrub or moby classes as models (formats-tie-sky.md Part A,
// formats-shrub.md, formats-moby.md): a per-level index built on the first
// stat inside ties/, shrubs/ or mobies/ (decode the core up to the last
// class, read each class once, keep counts, OBJ sizes and CSV text), and each
// OBJ rendered on first read through the cache. A class that fails is
// rejected whole; the rest decode.
#pragma once

#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cache/lru_cache.h"
#include "formats/core/level_core.h"
#include "formats/export/class_mesh.h"
#include "formats/gltf/gltf.h"
#include "formats/shrub/shrub.h"
#include "tree/level/class_decode.h"
#include "tree/node/image.h"
#include "tree/node/node.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

// The decoded core from the first class of any table to the end of the last
// (A.1 extents): one prefix decode per level serves ties/ and shrubs/ alike.
struct ClassWindow {
    uint64_t from = 0, to = 0;
    uint64_t key = 0;  // its cache key
};
// Built from every class table of the level (moby, tie, shrub).
ClassWindow class_window(const std::array<std::vector<formats::ClassEntry>, 3>& tables, const std::set<uint64_t>& boundaries,
                         uint64_t dat_size);

struct ClassModel {
    int32_t o_class = 0;
    formats::CoreRegion extent;  // in core_data.bin
    std::string error;           // "" when the class decoded and its textures bind
    std::vector<std::string> notes;
    int lods = 1;                                 // 3 for ties, 2 for mobies
    std::array<uint64_t, 3> obj_size{};           // per LOD
    std::array<formats::ClassObjCounts, 3> counts{};
    std::array<int, 3> packets{}, strips{};
    std::array<int, 3> variant_strips{};          // DecodedClass::variant_strips
    std::array<int, 3> region_packets{};          // DecodedClass::region_packets
    std::array<uint64_t, 3> extra{};              // DecodedClass::extra
    std::vector<std::string> materials;           // MTL names the class uses
    int metal_packets = 0, joints = 0;            // mobies
    int bangles = 0;                              // mobies (formats-moby.md 12)
    std::array<int, 3> bangle_packets{}, bangle_strips{};  // mobies: DecodedClass's
    std::array<uint64_t, 3> bangle_duplicates{};
    formats::moby::Sections sections;             // mobies (formats-moby.md 4)
    std::string skeleton;                         // mobies with joints: skeleton.json
    bool declares_skeleton = false;               // mobies: the header points at joints (so skeleton.json is listed)
    std::string rig_error;                        // mobies: why skeleton.json and the .glb read as EIO ("" when they do not)
    std::array<uint64_t, 2> glb_size{};           // mobies: moby_<class>.glb and low/moby_<class>.glb (0: none)
    std::array<double, 6> bbox{};                 // LOD 0, class space
    float scale = 0;
    std::optional<formats::shrub::Billboard> billboard;
    uint32_t billboard_width = 0, billboard_height = 0;  // the GS-RAM image (§1.11 (b)); 0: none
    std::string billboard_error;
};

struct ClassModelIndex {
    std::vector<ClassModel> classes;  // the table's classes that have a model (offset != 0)
    std::string csv;
};

class LevelClassModels {
public:
    struct Source {
        std::string level;                        // "LEVEL03", for the OBJ comments
        CoreStream stream;
        std::vector<formats::ClassEntry> entries; // the kind's class table
        std::set<uint64_t> boundaries;            // §6.2
        uint64_t dat_size = 0;
        uint64_t texture_rows = 0;                // rows of the kind's texture table
        std::shared_ptr<const tree::Source> gs_ram;  // billboard images (shrubs)
        // The kind's textures/<prefix>_NNN.png by file name: mobies embed them in their .glb.
        std::map<std::string, std::shared_ptr<const tree::Source>> textures;
        std::shared_ptr<const ClassWindow> window;
    };
    LevelClassModels(const Image& image, cache::LruCache& cache, ClassKind kind, Source source);

    ClassKind kind() const { return kind_; }
    const char* prefix() const { return kind_ == ClassKind::tie ? "tie" : kind_ == ClassKind::shrub ? "shrub" : "moby"; }
    const char* folder() const { return kind_ == ClassKind::tie ? "ties" : kind_ == ClassKind::shrub ? "shrubs" : "mobies"; }
    // Entries of the class table that have a model, known without decoding.
    const std::vector<int32_t>& listed() const { return listed_; }
    const ClassModelIndex& index() const;
    // Each class's extent in core_data.bin, known from the table alone.
    std::vector<formats::CoreRegion> extents() const;
    cache::Loaded obj(size_t cls, int lod) const;
    // Class `cls` (a position in listed()) decoded again from the window: its
    // LOD 0 mesh for level.glb, and the texture-table row a slot names (-1: none).
    formats::Result<formats::ClassMesh> mesh(size_t cls) const;
    int texture_row(size_t cls, int slot) const;
    std::optional<size_t> find(int32_t o_class) const;  // the position in listed()
    cache::Loaded billboard_png(size_t cls) const;
    // Class `cls` (a mobies/ position) at `lod` as one skinned glTF model
    // (formats/gltf/rig.h), its textures embedded.
    cache::Loaded glb(size_t cls, int lod) const;
    std::string mtl() const;  // a material per row of the kind's texture table, mapped to ../textures/

private:
    cache::Loaded window() const;
    formats::Result<DecodedClass> decode(size_t cls) const;
    std::string preamble(const ClassModel& model, int lod) const;
    // The MTL name of a class slot; sets `error` for an unbound one where that is an error.
    std::string material(const formats::ClassEntry& entry, int slot, std::string* error) const;
    void index_class(ClassModel& model, std::span<const uint8_t> bytes, const formats::ClassEntry& entry) const;
    std::string csv() const;
    void index_billboard(ClassModel& model, const formats::ClassEntry& entry) const;
    // A .glb's scene, and per image the textures/ PNG whose bytes it embeds.
    struct GlbScene {
        formats::gltf::Scene scene;
        std::vector<std::shared_ptr<const tree::Source>> images;
    };
    GlbScene glb_scene(const ClassModel& model, const DecodedClass& decoded, const formats::ClassEntry& entry, int lod) const;

    const Image& image_;
    cache::LruCache& cache_;
    ClassKind kind_;
    Source source_;
    std::vector<int32_t> listed_;
    std::vector<size_t> entry_of_;  // listed class -> table entry
    std::vector<uint64_t> keys_;  // per class: 3 OBJ keys, a billboard key and two .glb keys
    mutable std::once_flag indexed_;
    mutable ClassModelIndex index_;
};

// A class's OBJ (`lod`), its billboard PNG or skeleton, or the kind's MTL / CSV.
class ClassModelFile final : public tree::Source {
public:
    enum class Kind { obj, billboard, skeleton, glb, mtl, csv };
    ClassModelFile(std::shared_ptr<const LevelClassModels> models, Kind kind, size_t cls = 0, int lod = 0)
        : models_(std::move(models)), kind_(kind), cls_(cls), lod_(lod) {}
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;

private:
    std::shared_ptr<const LevelClassModels> models_;
    Kind kind_;
    size_t cls_;
    int lod_;
};

// Files a class has or not, which is known once the class index is built:
// mobies/moby_<class>.skeleton.json (classes with joints) and moby_<class>.glb
// (classes with a high-LOD triangle), one run for both (a second run in a
// folder would make the tree list the first to check their names); mobies/low/
// (.obj and .glb) and ties/lod1/, lod2/ (.obj) for the classes whose LOD has triangles. Only those are listed;
// a class that failed to decode is not (its LOD 0 OBJ reads as EIO and the
// CSV says why). Inodes for every class are reserved.
class ClassFileRun final : public FileRun {
public:
    enum class What { rigs, lod };  // rigs: skeleton.json and .glb files
    // `origin`: the OBJs' or skeleton.json's; `glb_origin`: the .glb files' (mobies).
    ClassFileRun(std::shared_ptr<const LevelClassModels> models, What what, int lod, Provenance origin, Provenance glb_origin = {})
        : models_(std::move(models)), what_(what), lod_(lod), origin_(std::move(origin)), glb_origin_(std::move(glb_origin)) {}
    uint64_t count() const override { return present().size(); }
    uint64_t capacity() const override { return (what_ == What::rigs || models_->kind() == ClassKind::moby ? 2 : 1) * models_->listed().size(); }
    std::string name(uint64_t position) const override { return present().at(position).name; }
    std::optional<uint64_t> position(std::string_view name) const override;
    std::shared_ptr<const tree::Source> source(uint64_t position) const override;
    std::shared_ptr<const Provenance> provenance(uint64_t position) const override;

private:
    struct File {
        size_t cls;
        std::string name;
        ClassModelFile::Kind kind;
    };
    // Each listed class's files, in table order.
    const std::vector<File>& present() const;
    bool may_be_ours(std::string_view name) const;
    std::shared_ptr<const LevelClassModels> models_;
    What what_;
    int lod_;
    Provenance origin_, glb_origin_;  // their details gain the class
    mutable std::once_flag made_;
    mutable std::vector<File> present_;
};

}  // namespace gcfs::tree
