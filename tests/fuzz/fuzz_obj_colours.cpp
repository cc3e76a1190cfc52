// libFuzzer: the OBJ colour padding model_read applies before assimp
// (formats/import/obj_colours.h), over any bytes. What it returns keeps
// every line of the input, in order, each either as it was or with
// " 1 1 1" added to a `v` line.
#include <string_view>

#include "formats/import/obj_colours.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string out = obj_colours_on_every_vertex(ByteSpan(data, size));
    if (out.empty()) return 0;
    const std::string_view in(reinterpret_cast<const char*>(data), size), shown(out);
    size_t a = 0, b = 0;
    while (a <= in.size() && b <= out.size()) {
        const size_t ea = std::min(in.find('\n', a), in.size()), eb = std::min(out.find('\n', b), out.size());
        std::string_view li = in.substr(a, ea - a), lo = shown.substr(b, eb - b);
        if (li != lo) {
            const bool cr = !li.empty() && li.back() == '\r';
            if (cr) li.remove_suffix(1);
            const std::string padded = std::string(li) + " 1 1 1" + (cr ? "\r" : "");
            if (lo != padded || li.empty() || li[0] != 'v') __builtin_trap();  // a line changed other than by the padding
        }
        if ((ea == in.size()) != (eb == out.size())) __builtin_trap();  // a line gained or lost
        if (ea == in.size()) break;
        a = ea + 1;
        b = eb + 1;
    }
    return 0;
}
