// A small synthetic disc built once per test run, with its originals.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "mkdisc/disc_builder.h"
#include "tree/tree_builder.h"

struct BuiltDisc {
    std::string path;
    gcfs::mkdisc::DiscManifest manifest;
    std::map<int, gcfs::mkdisc::LevelImage> levels;  // by table index
};

const BuiltDisc& small_disc();

// A 4-level disc built with `damage` from `seed` under /tmp, removed when it goes.
struct DamagedDisc {
    std::string path;
    DamagedDisc(std::vector<gcfs::mkdisc::DamageSpec> damage, uint64_t seed);
    ~DamagedDisc();
    DamagedDisc(const DamagedDisc&) = delete;
    DamagedDisc& operator=(const DamagedDisc&) = delete;
};

// Level `level`'s container as the image records it, whole sectors.
inline gcfs::formats::Bytes level_container(gcfs::tree::Disc& disc, size_t level) {
    const auto& scan = disc.level(level);
    return disc.image->read_clamped(scan.file_offset, scan.file_size);
}

// The node at `path` of an opened disc's tree, held; fails the test when absent.
inline gcfs::tree::NodeRef node_at(const gcfs::tree::Disc& disc, const std::string& path) {
    const auto ino = disc.tree.resolve(path);
    REQUIRE_MESSAGE(ino, path);
    return disc.tree.node(*ino);
}

// The whole file at `path`, read through its source at the size stat gives;
// fails the test when it cannot be read.
inline std::string file_text(const gcfs::tree::Disc& disc, const std::string& path) {
    const gcfs::tree::NodeRef n_held = node_at(disc, path);
    const gcfs::tree::Node& n = *n_held;
    std::string out(n.source->size(), '\0');
    const auto got = n.source->read(0, {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    const std::string why = path + ": " + got.error;
    REQUIRE_MESSAGE(got.ok(), why);
    REQUIRE(got.bytes == out.size());
    return out;
}

// Every file under `folder` ("LEVEL00"), by its path inside it, read whole as file_text reads it.
inline std::map<std::string, std::string> folder_files(const gcfs::tree::Disc& disc, const std::string& folder) {
    std::map<std::string, std::string> out;
    std::function<void(uint64_t, const std::string&)> walk = [&](uint64_t dir, const std::string& prefix) {
        disc.tree.for_each_child(dir, 0, [&](const std::string& name, uint64_t ino, gcfs::tree::NodeType type) {
            if (type == gcfs::tree::NodeType::directory)
                walk(ino, prefix + name + "/");
            else
                out.emplace(prefix + name, file_text(disc, folder + "/" + prefix + name));
            return true;
        });
    };
    walk(node_at(disc, folder)->ino, "");
    return out;
}
