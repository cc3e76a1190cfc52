// Names that come from disc data become exactly one path step, whatever
// bytes they hold: an image is untrusted input (a record named "../../X" must
// not climb out of its folder, nor two records with one name hide each other).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace gcfs::tree {

// NAME_MAX of Linux: the longest name cp, tar or `gcfs extract` can create.
constexpr size_t kNameMax = 255;

// '%', '/', NUL, control bytes, DEL and bytes past ASCII become %XX; the
// names "." and ".." become "%2E" and "%2E%2E", and an empty name "%".
// Unescaping %XX gives the recorded bytes back, but for a name that would
// pass kNameMax bytes: it is cut (never inside a %XX) and ends in "~h" and
// eight hex digits of a hash (FNV-1a, 32 bits) of the recorded bytes, so
// names that differ only past the cut stay apart.
std::string safe_name(std::string_view raw);

// Names of one folder made distinct in the order they are met: the second
// "A" becomes "A~2", the third "A~3" (skipping any "A~N" already taken); a
// name the suffix would push past kNameMax is cut to make room.
class FolderNames {
public:
    std::string claim(const std::string& name);

private:
    std::set<std::string> taken_;
    std::map<std::string, int> last_suffix_;  // per name, so many copies cost no rescans
};

}  // namespace gcfs::tree
