#include "formats/common/late_library.h"

#include <dlfcn.h>

#include <fmt/format.h>

namespace gcfs::formats {

LateLibrary::LateLibrary(const char* soname) {
    handle_ = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle_) error_ = fmt::format("{} could not be loaded ({})", soname, ::dlerror());
}

void* LateLibrary::symbol(const char* name) {
    if (!handle_) return nullptr;
    void* address = ::dlsym(handle_, name);
    if (!address && error_.empty()) error_ = fmt::format("the library has no {}", name);
    return address;
}

}  // namespace gcfs::formats
