#include "formats/gltf/scene_read.h"

#include <fmt/format.h>
#include <tiny_gltf.h>

#include <cctype>
#include <cmath>
#include <functional>

namespace gcfs::formats::gltf {
namespace {

// TinyGLTF's file callbacks, all refusing: a saved scene is one file, and
// its bytes may name any path (glTF 2.0 §3.6.1.1 allows relative URIs).
// Every name "exists", so that the read is what refuses it, saying why.
bool no_file(const std::string&, void*) { return true; }
std::string no_expand(const std::string& path, void*) { return path; }
bool no_read(std::vector<unsigned char>*, std::string* err, const std::string& path, void*) {
    if (err) *err += fmt::format("it names the outside file {:?}; save it with its buffers embedded (.glb)", path.substr(0, 200));
    return false;
}
bool no_write(std::string*, const std::string&, const std::vector<unsigned char>&, void*) { return false; }
// Images are not read: the save's textures are not what gcfs takes from it.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) { return true; }

nlohmann::json extras_of(const std::string& text) {
    if (text.empty()) return nullptr;
    auto parsed = nlohmann::json::parse(text, nullptr, false);
    return parsed.is_discarded() ? nlohmann::json() : parsed;
}

WorldMatrix identity() {
    WorldMatrix m{};
    m[0] = m[5] = m[10] = m[15] = 1;
    return m;
}

WorldMatrix world_times(const WorldMatrix& a, const WorldMatrix& b) {
    WorldMatrix out{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            double v = 0;
            for (int k = 0; k < 4; ++k) v += a[static_cast<size_t>(4 * k + r)] * b[static_cast<size_t>(4 * c + k)];
            out[static_cast<size_t>(4 * c + r)] = v;
        }
    return out;
}

// §3.5.3: a node's matrix, or T · R · S from its translation, rotation
// (a unit quaternion x, y, z, w) and scale; empty when a value is not finite.
std::optional<WorldMatrix> local_matrix(const tinygltf::Node& n) {
    auto finite = [](const std::vector<double>& v) { return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }); };
    if (!finite(n.matrix) || !finite(n.translation) || !finite(n.rotation) || !finite(n.scale)) return std::nullopt;
    if (n.matrix.size() == 16) {
        WorldMatrix m;
        std::copy(n.matrix.begin(), n.matrix.end(), m.begin());
        return m;
    }
    WorldMatrix m = identity();
    if (n.rotation.size() == 4) {
        const double x = n.rotation[0], y = n.rotation[1], z = n.rotation[2], w = n.rotation[3];
        m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y + z * w), m[2] = 2 * (x * z - y * w);
        m[4] = 2 * (x * y - z * w), m[5] = 1 - 2 * (x * x + z * z), m[6] = 2 * (y * z + x * w);
        m[8] = 2 * (x * z + y * w), m[9] = 2 * (y * z - x * w), m[10] = 1 - 2 * (x * x + y * y);
    }
    if (n.scale.size() == 3)
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) m[static_cast<size_t>(4 * c + r)] *= n.scale[static_cast<size_t>(c)];
    if (n.translation.size() == 3) m[12] = n.translation[0], m[13] = n.translation[1], m[14] = n.translation[2];
    return m;
}

[[noreturn]] void refuse_scene(std::string why) { fail(Errc::bad_value, 0, std::move(why)); }

SavedScene read(ByteSpan bytes) {
    tinygltf::TinyGLTF loader;
    loader.SetFsCallbacks({&no_file, &no_expand, &no_read, &no_write, nullptr});
    loader.SetImageLoader(&skip_image, nullptr);
    loader.SetStoreOriginalJSONForExtrasAndExtensions(true);
    tinygltf::Model model;
    std::string err, warn;
    if (bytes.size() > 0xffffffffu) refuse_scene("the file is past 4 GiB, more than a glTF binary holds (glTF 2.0 §4.4.3)");
    const bool binary = bytes.size() >= 4 && bytes[0] == 'g' && bytes[1] == 'l' && bytes[2] == 'T' && bytes[3] == 'F';
    const auto size = static_cast<unsigned int>(bytes.size());
    const bool ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), size, "")
                           : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()), size, "");
    while (!err.empty() && std::isspace(static_cast<unsigned char>(err.back()))) err.pop_back();
    if (!ok) refuse_scene(fmt::format("not a glTF 2.0 file gcfs can read ({}): {}", binary ? "binary" : "text", err.substr(0, 400)));

    SavedScene out;
    out.generator = model.asset.generator;
    std::vector<int> roots;
    const int scene = model.defaultScene >= 0 ? model.defaultScene : model.scenes.empty() ? -1 : 0;
    if (scene >= static_cast<int>(model.scenes.size())) refuse_scene(fmt::format("the default scene {} is not in the file", scene));
    if (scene >= 0) {
        roots = model.scenes[static_cast<size_t>(scene)].nodes;
        out.extras = extras_of(model.scenes[static_cast<size_t>(scene)].extras_json_string);
    } else {
        std::vector<bool> child(model.nodes.size(), false);
        for (const auto& n : model.nodes)
            for (int c : n.children)
                if (c >= 0 && static_cast<size_t>(c) < child.size()) child[static_cast<size_t>(c)] = true;
        for (size_t i = 0; i < child.size(); ++i)
            if (!child[i]) roots.push_back(static_cast<int>(i));
    }
    // Parents before children, each node once (§3.5.1: the hierarchy is a set of disjoint trees).
    std::vector<bool> seen(model.nodes.size(), false);
    struct Pending {
        int index;
        WorldMatrix parent;
        int parent_at;  // in out.nodes
    };
    std::vector<Pending> stack;
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, identity(), -1});
    while (!stack.empty()) {
        const auto [index, parent, parent_at] = stack.back();
        stack.pop_back();
        if (index < 0 || static_cast<size_t>(index) >= model.nodes.size()) refuse_scene(fmt::format("a scene names node {}, which is not in the file", index));
        if (seen[static_cast<size_t>(index)]) refuse_scene(fmt::format("node {} is reached twice: the nodes are not trees (glTF 2.0 §3.5.1)", index));
        seen[static_cast<size_t>(index)] = true;
        const tinygltf::Node& n = model.nodes[static_cast<size_t>(index)];
        const auto local = local_matrix(n);
        if (!local) refuse_scene(fmt::format("node {} ({:?}): its transform is not finite", index, n.name.substr(0, 100)));
        SavedNode saved{n.name, extras_of(n.extras_json_string), world_times(parent, *local), parent_at, n.mesh >= 0, n.camera >= 0,
                        n.extensions.count("KHR_lights_punctual") > 0};
        const int at = static_cast<int>(out.nodes.size());
        for (auto c = n.children.rbegin(); c != n.children.rend(); ++c) stack.push_back({*c, saved.world, at});
        out.nodes.push_back(std::move(saved));
    }
    return out;
}

}  // namespace

Result<SavedScene> read_saved_scene(ByteSpan bytes) {
    return capture([&] { return read(bytes); });
}

}  // namespace gcfs::formats::gltf
