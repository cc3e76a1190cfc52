// Synthetic sky (formats.md §8.2): shells of dome clusters and a few textures.
#pragma once

#include "formats/sky/sky.h"
#include "mkdisc/random.h"

namespace gcfs::mkdisc {

formats::SkyContent make_sky(Random& random);

}  // namespace gcfs::mkdisc
