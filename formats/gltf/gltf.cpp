#include "formats/gltf/gltf.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace gcfs::formats::gltf {
namespace {

// glTF 2.0 §3.6.2, §4.4 and §5: the constants this writer uses.
constexpr uint32_t kGlbMagic = 0x46546c67, kGlbVersion = 2, kJsonChunk = 0x4e4f534a, kBinChunk = 0x004e4942;
constexpr int kFloat = 5126, kUnsignedByte = 5121, kUnsignedInt = 5125;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr int kLinear = 9729, kLinearMipmapLinear = 9987, kRepeat = 10497;

uint64_t align4(uint64_t n) { return (n + 3) & ~uint64_t{3}; }

// Where every buffer view sits in the BIN chunk, in the order write_glb fills it.
struct View {
    uint64_t offset = 0, length = 0;
    int target = 0;  // 0: none (images)
};
struct Layout {
    std::vector<View> views;
    struct MeshViews {
        int positions = -1, uvs = -1, colours = -1, joints = -1, weights = -1;
        std::vector<int> indices;  // per primitive, -1: not indexed
    };
    std::vector<MeshViews> meshes;
    std::vector<int> skins;  // each skin's inverse bind matrices
    std::vector<int> images;
    uint64_t bin_size = 0;

    int add(uint64_t length, int target) {
        views.push_back({bin_size, length, target});
        bin_size += align4(length);
        return static_cast<int>(views.size()) - 1;
    }
};

Layout layout_of(const Scene& scene) {
    Layout l;
    for (const Mesh& m : scene.meshes) {
        Layout::MeshViews v;
        const uint64_t n = m.positions.size();
        v.positions = l.add(12 * n, kArrayBuffer);
        if (!m.uvs.empty()) v.uvs = l.add(8 * n, kArrayBuffer);
        if (!m.colours.empty()) v.colours = l.add(4 * n, kArrayBuffer);
        if (!m.joints.empty()) v.joints = l.add(4 * n, kArrayBuffer);
        if (!m.weights.empty()) v.weights = l.add(16 * n, kArrayBuffer);
        for (const Primitive& p : m.primitives) v.indices.push_back(p.indices.empty() ? -1 : l.add(4 * p.indices.size(), kElementArrayBuffer));
        l.meshes.push_back(std::move(v));
    }
    for (const Skin& skin : scene.skins) l.skins.push_back(l.add(64 * skin.inverse_bind.size(), 0));
    for (const Image& image : scene.images) l.images.push_back(image.uri.empty() ? l.add(image.size, 0) : -1);
    return l;
}

std::pair<std::array<float, 3>, std::array<float, 3>> bounds(const std::vector<std::array<float, 3>>& points) {
    std::array<float, 3> lo{}, hi{};
    for (int k = 0; k < 3; ++k) {
        lo[k] = std::numeric_limits<float>::infinity();
        hi[k] = -std::numeric_limits<float>::infinity();
    }
    for (const auto& p : points)
        for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
    return {lo, hi};
}

Json floats(std::span<const float> values) {
    Json out = Json::array();
    for (float v : values) out.push_back(static_cast<double>(v));
    return out;
}

Json make_json(const Scene& scene, const Layout& layout) {
    Json j;
    j["asset"] = {{"version", "2.0"}, {"generator", "gcfs"}};
    std::vector<std::string> used;
    const bool lights = !scene.lights.empty();
    const bool unlit = std::any_of(scene.materials.begin(), scene.materials.end(), [](const Material& m) { return m.unlit; });
    if (lights) used.emplace_back("KHR_lights_punctual");
    if (unlit) used.emplace_back("KHR_materials_unlit");
    if (!used.empty()) j["extensionsUsed"] = used;
    j["scene"] = 0;
    Json s = {{"name", scene.name}, {"nodes", scene.roots}};
    if (!scene.extras.is_null()) s["extras"] = scene.extras;
    j["scenes"] = Json::array({s});

    Json nodes = Json::array();
    for (const Node& n : scene.nodes) {
        Json o = {{"name", n.name}};
        if (n.mesh >= 0) o["mesh"] = n.mesh;
        if (n.camera >= 0) o["camera"] = n.camera;
        if (n.skin >= 0) o["skin"] = n.skin;
        if (n.matrix) o["matrix"] = floats(*n.matrix);
        if (!n.children.empty()) o["children"] = n.children;
        if (n.light >= 0) o["extensions"]["KHR_lights_punctual"] = {{"light", n.light}};
        if (!n.extras.is_null()) o["extras"] = n.extras;
        nodes.push_back(std::move(o));
    }
    j["nodes"] = std::move(nodes);

    Json accessors = Json::array(), meshes = Json::array();
    auto accessor = [&](int view, int component, size_t count, const char* type, bool normalized = false) {
        Json a = {{"bufferView", view}, {"componentType", component}, {"count", count}, {"type", type}};
        if (normalized) a["normalized"] = true;
        accessors.push_back(std::move(a));
        return static_cast<int>(accessors.size()) - 1;
    };
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        const Mesh& m = scene.meshes[i];
        const Layout::MeshViews& v = layout.meshes[i];
        Json attributes;
        attributes["POSITION"] = accessor(v.positions, kFloat, m.positions.size(), "VEC3");
        const auto [lo, hi] = bounds(m.positions);
        accessors.back()["min"] = floats(lo);
        accessors.back()["max"] = floats(hi);
        if (v.uvs >= 0) attributes["TEXCOORD_0"] = accessor(v.uvs, kFloat, m.uvs.size(), "VEC2");
        if (v.colours >= 0) attributes["COLOR_0"] = accessor(v.colours, kUnsignedByte, m.colours.size(), "VEC4", true);
        if (v.joints >= 0) attributes["JOINTS_0"] = accessor(v.joints, kUnsignedByte, m.joints.size(), "VEC4");
        if (v.weights >= 0) attributes["WEIGHTS_0"] = accessor(v.weights, kFloat, m.weights.size(), "VEC4");
        Json primitives = Json::array();
        for (size_t p = 0; p < m.primitives.size(); ++p) {
            const Primitive& prim = m.primitives[p];
            Json o = {{"attributes", attributes}, {"mode", static_cast<int>(prim.mode)}};
            if (v.indices[p] >= 0) o["indices"] = accessor(v.indices[p], kUnsignedInt, prim.indices.size(), "SCALAR");
            if (prim.material >= 0) o["material"] = prim.material;
            primitives.push_back(std::move(o));
        }
        meshes.push_back({{"name", m.name}, {"primitives", std::move(primitives)}});
    }
    if (!scene.skins.empty()) {
        Json skins = Json::array();
        for (size_t i = 0; i < scene.skins.size(); ++i) {
            const Skin& s = scene.skins[i];
            Json o = {{"name", s.name}, {"inverseBindMatrices", accessor(layout.skins[i], kFloat, s.inverse_bind.size(), "MAT4")},
                      {"joints", s.joints}};
            if (s.skeleton >= 0) o["skeleton"] = s.skeleton;
            skins.push_back(std::move(o));
        }
        j["skins"] = std::move(skins);
    }
    if (!scene.meshes.empty()) j["meshes"] = std::move(meshes);
    if (!accessors.empty()) j["accessors"] = std::move(accessors);

    if (!scene.materials.empty()) {
        Json materials = Json::array();
        for (const Material& m : scene.materials) {
            Json pbr = {{"baseColorFactor", floats(m.colour)}, {"metallicFactor", 0.0}, {"roughnessFactor", 1.0}};
            if (m.image >= 0) pbr["baseColorTexture"] = {{"index", m.image}};  // texture i shows image i
            Json o = {{"name", m.name}, {"pbrMetallicRoughness", std::move(pbr)}};
            if (m.alpha == Material::Alpha::mask) o["alphaMode"] = "MASK", o["alphaCutoff"] = 0.5;
            if (m.alpha == Material::Alpha::blend) o["alphaMode"] = "BLEND";
            if (m.double_sided) o["doubleSided"] = true;
            if (m.unlit) o["extensions"]["KHR_materials_unlit"] = Json::object();
            materials.push_back(std::move(o));
        }
        j["materials"] = std::move(materials);
    }
    if (!scene.images.empty()) {
        Json images = Json::array(), textures = Json::array();
        for (size_t i = 0; i < scene.images.size(); ++i) {
            if (scene.images[i].uri.empty())
                images.push_back({{"name", scene.images[i].name}, {"bufferView", layout.images[i]}, {"mimeType", "image/png"}});
            else
                images.push_back({{"name", scene.images[i].name}, {"uri", scene.images[i].uri}});
            textures.push_back({{"sampler", 0}, {"source", i}});
        }
        j["images"] = std::move(images);
        j["textures"] = std::move(textures);
        j["samplers"] = Json::array({{{"magFilter", kLinear}, {"minFilter", kLinearMipmapLinear}, {"wrapS", kRepeat}, {"wrapT", kRepeat}}});
    }
    if (!scene.cameras.empty()) {
        Json cameras = Json::array();
        for (const Camera& c : scene.cameras)
            cameras.push_back({{"name", c.name}, {"type", "perspective"},
                               {"perspective", {{"yfov", static_cast<double>(c.yfov)}, {"znear", static_cast<double>(c.znear)}}}});
        j["cameras"] = std::move(cameras);
    }
    if (lights) {
        Json list = Json::array();
        for (const Light& l : scene.lights) {
            Json o = {{"name", l.name}, {"type", l.directional ? "directional" : "point"}, {"color", floats(l.colour)},
                      {"intensity", static_cast<double>(l.intensity)}};
            if (l.range) o["range"] = static_cast<double>(*l.range);
            list.push_back(std::move(o));
        }
        j["extensions"]["KHR_lights_punctual"] = {{"lights", std::move(list)}};
    }
    if (!layout.views.empty()) {
        Json views = Json::array();
        for (const View& v : layout.views) {
            Json o = {{"buffer", 0}, {"byteOffset", v.offset}, {"byteLength", v.length}};
            if (v.target) o["target"] = v.target;
            views.push_back(std::move(o));
        }
        j["bufferViews"] = std::move(views);
        j["buffers"] = Json::array({{{"byteLength", layout.bin_size}}});
    }
    return j;
}

// The JSON chunk is padded with spaces to 4 (§4.4.3.1).
std::string padded_json(const Scene& scene, const Layout& layout) {
    std::string text = make_json(scene, layout).dump();
    text.resize(align4(text.size()), ' ');
    return text;
}

uint64_t total_size(uint64_t json_size, uint64_t bin_size) { return 12 + 8 + json_size + (bin_size ? 8 + bin_size : 0); }

template <class T>
void append_raw(Bytes& out, const std::vector<T>& values) {
    const size_t at = out.size();
    out.resize(at + values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(out.data() + at, values.data(), values.size() * sizeof(T));
}

void append_u32(Bytes& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

// The checks a reader of the file would make: per-vertex arrays agree in
// length, indices stay inside their mesh and fill whole primitives, every
// position is finite (glTF accessors may not hold NaN or infinity).
std::string mesh_problem(const Mesh& m) {
    if (m.positions.empty()) return "no vertices";
    if (!m.uvs.empty() && m.uvs.size() != m.positions.size()) return fmt::format("{} uvs for {} positions", m.uvs.size(), m.positions.size());
    if (!m.colours.empty() && m.colours.size() != m.positions.size())
        return fmt::format("{} colours for {} positions", m.colours.size(), m.positions.size());
    if (m.joints.size() != m.weights.size() || (!m.joints.empty() && m.joints.size() != m.positions.size()))
        return fmt::format("{} joints and {} weights for {} positions", m.joints.size(), m.weights.size(), m.positions.size());
    for (const auto& w : m.weights)
        if (!std::all_of(w.begin(), w.end(), [](float x) { return std::isfinite(x) && x >= 0; })) return "a weight is negative or not finite";
    for (const auto& p : m.positions)
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return "a position is not finite";
    for (const auto& uv : m.uvs)
        if (!std::isfinite(uv[0]) || !std::isfinite(uv[1])) return "a texture coordinate is not finite";
    if (m.primitives.empty()) return "no primitives";
    for (const Primitive& p : m.primitives) {
        const size_t drawn = p.indices.empty() ? m.positions.size() : p.indices.size();
        if (p.mode == Mode::triangles && (drawn == 0 || drawn % 3 != 0)) return fmt::format("{} triangle corners", drawn);
        if (p.mode == Mode::line_strip && drawn < 2) return fmt::format("a line strip of {} vertices", drawn);
        for (uint32_t i : p.indices)
            if (i >= m.positions.size()) return fmt::format("index {} past its {} vertices", i, m.positions.size());
    }
    return {};
}

std::string scene_json(const Scene& scene) { return make_json(scene, layout_of(scene)).dump(); }

uint64_t glb_size(const Scene& scene) {
    const Layout layout = layout_of(scene);
    return total_size(padded_json(scene, layout).size(), layout.bin_size);
}

Result<Bytes> write_glb(const Scene& scene, const ImageBytes& image_bytes) {
    for (size_t i = 0; i < scene.meshes.size(); ++i)
        if (const std::string problem = mesh_problem(scene.meshes[i]); !problem.empty())
            return FormatError{Errc::bad_value, i, fmt::format("mesh {} ({}): {}", i, scene.meshes[i].name, problem)};
    const Layout layout = layout_of(scene);
    const std::string json = padded_json(scene, layout);
    const uint64_t size = total_size(json.size(), layout.bin_size);
    if (size > std::numeric_limits<uint32_t>::max())
        return FormatError{Errc::too_large, 0, fmt::format("the scene needs {} bytes; a .glb holds at most 4 GiB", size)};
    Bytes out;
    out.reserve(size);
    append_u32(out, kGlbMagic);
    append_u32(out, kGlbVersion);
    append_u32(out, static_cast<uint32_t>(size));
    append_u32(out, static_cast<uint32_t>(json.size()));
    append_u32(out, kJsonChunk);
    out.insert(out.end(), json.begin(), json.end());
    if (layout.bin_size) {
        append_u32(out, static_cast<uint32_t>(layout.bin_size));
        append_u32(out, kBinChunk);
        const size_t bin = out.size();
        auto pad = [&] { out.resize(bin + align4(out.size() - bin), 0); };
        for (const Mesh& m : scene.meshes) {
            append_raw(out, m.positions), pad();
            append_raw(out, m.uvs), pad();
            append_raw(out, m.colours), pad();
            append_raw(out, m.joints), pad();
            append_raw(out, m.weights), pad();
            for (const Primitive& p : m.primitives) append_raw(out, p.indices), pad();
        }
        for (const Skin& s : scene.skins) append_raw(out, s.inverse_bind), pad();
        for (size_t i = 0; i < scene.images.size(); ++i) {
            if (!scene.images[i].uri.empty()) continue;
            auto png = image_bytes(i);
            if (!png.ok()) return png.error();
            if (png->size() != scene.images[i].size)
                return FormatError{Errc::size_mismatch, 0, fmt::format("image {} ({}) is {} bytes, {} were listed", i, scene.images[i].name,
                                                                        png->size(), scene.images[i].size)};
            out.insert(out.end(), png->begin(), png->end());
            pad();
        }
    }
    if (out.size() != size)
        return FormatError{Errc::size_mismatch, 0, fmt::format("the .glb came to {} bytes, its layout said {}", out.size(), size)};
    return out;
}

bool trs_decomposable(const Matrix& m) {
    for (float v : m)
        if (!std::isfinite(v)) return false;
    if (m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1) return false;
    std::array<double, 3> length{};
    for (int c = 0; c < 3; ++c) {
        length[c] = std::sqrt(double{m[4 * c]} * m[4 * c] + double{m[4 * c + 1]} * m[4 * c + 1] + double{m[4 * c + 2]} * m[4 * c + 2]);
        if (length[c] < 1e-12) return false;
    }
    // Columns pairwise orthogonal, relative to their lengths: no shear.
    for (int a = 0; a < 3; ++a)
        for (int b = a + 1; b < 3; ++b) {
            const double dot = double{m[4 * a]} * m[4 * b] + double{m[4 * a + 1]} * m[4 * b + 1] + double{m[4 * a + 2]} * m[4 * b + 2];
            if (std::abs(dot) > 1e-4 * length[a] * length[b]) return false;
        }
    return true;
}

}  // namespace gcfs::formats::gltf
