// Synthetic collision (formats.md §8.3) cut from the terrain's own surface,
// so collision.obj lies on terrain.obj in any viewer.
#pragma once

#include "formats/collision/collision.h"
#include "mkdisc/random.h"
#include "mkdisc/terrain.h"

namespace gcfs::mkdisc {

// Square cells of `cell` world units over the terrain, each a quad or two
// triangles, filed in every octant their height span touches (the copies a
// real level stores so that one octant answers a query), and two hero groups.
formats::Collision make_collision(const Terrain& terrain, double cell, Random& random);

}  // namespace gcfs::mkdisc
