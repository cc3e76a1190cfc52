// Which build of gcfs is running: what the persistent index keys its records
// by beside the image, since another build may size or name files otherwise
// (a record saved by one build and believed by another would make its files
// fail at read).
#pragma once

#include <string>

namespace gcfs::tree {

// The program's GNU build ID in hex (the linker's NT_GNU_BUILD_ID note), or
// the version string when the executable carries none.
const std::string& program_build();

}  // namespace gcfs::tree
