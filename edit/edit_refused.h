// The one error an edit raises: a file whose bytes gcfs will not encode,
// with the reason a user reads in the status.
#pragma once

#include <stdexcept>

namespace gcfs::edit {

// An edit that cannot be encoded: `what` is the reason, naming the line and
// column, the pixel or the size at fault.
class EditRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace gcfs::edit
