// Where edited level containers go in the image, and the few bytes that
// point at them (formats.md §2.2, §2.3): a container that still fits its
// sectors is written in place; one that grew moves to the image's end. The
// table of contents' entry and header copy, the ISO9660 record and, when the
// image grows, the volume size change with it. Nothing else is written.
#pragma once

#include <utility>
#include <vector>

#include "edit/containers.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"
#include "tree/image.h"

namespace gcfs::edit {

// `containers`: each container's place on the original image and its new
// bytes (whole sectors). Throws std::runtime_error on an image it cannot
// place them in.
using NewContainers = std::vector<std::pair<ContainerPlace, formats::Bytes>>;
tree::ImagePatch lay_out(const tree::Image& original, const tree::DiscScan& scan, const NewContainers& containers);

}  // namespace gcfs::edit
