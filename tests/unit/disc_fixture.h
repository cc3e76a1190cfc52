// A small synthetic disc built once per test run, with its originals.
#pragma once

#include <map>
#include <string>

#include "mkdisc/disc_builder.h"

struct BuiltDisc {
    std::string path;
    gcfs::mkdisc::DiscManifest manifest;
    std::map<int, gcfs::mkdisc::LevelImage> levels;  // by table index
};

const BuiltDisc& small_disc();
