// The shared discs of disc_fixture.h: built once per run (the small disc) or
// per test (damaged ones), under /tmp, and removed when the run ends.
#include "disc_fixture.h"

#include <unistd.h>

#include <cstdlib>

const BuiltDisc& small_disc() {
    static BuiltDisc disc = [] {
        BuiltDisc d;
        d.path = "/tmp/gcfs-unit-" + std::to_string(::getpid()) + ".iso";
        d.manifest = gcfs::mkdisc::build_disc({5, 42, gcfs::mkdisc::Scale::small, {}}, d.path,
                                              [&](const gcfs::mkdisc::LevelSpec& spec, const gcfs::mkdisc::LevelImage& image) {
                                                  d.levels.emplace(spec.index, image);
                                              });
        std::atexit([] { ::unlink(("/tmp/gcfs-unit-" + std::to_string(::getpid()) + ".iso").c_str()); });
        return d;
    }();
    return disc;
}

DamagedDisc::DamagedDisc(std::vector<gcfs::mkdisc::DamageSpec> damage, uint64_t seed) {
    static int made = 0;
    path = "/tmp/gcfs-unit-damaged-" + std::to_string(::getpid()) + "-" + std::to_string(made++) + ".iso";
    gcfs::mkdisc::build_disc({4, seed, gcfs::mkdisc::Scale::small, std::move(damage)}, path);
}

DamagedDisc::~DamagedDisc() { ::unlink(path.c_str()); }
