// Opening a disc image for any subcommand, with one wording of its errors.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "edit/mods/stacked_image.h"
#include "edit/session.h"
#include "tree/tree_builder.h"

namespace gcfs::tools {

// The opened disc, or null after printing one line to stderr and setting
// exit_code: 2 when the file cannot be opened, 3 when it is not this game's disc.
std::unique_ptr<tree::Disc> open_image(const std::string& image, uint64_t cache_bytes, int& exit_code);

// The edit session over `image` and DIR, or null after one line on stderr:
// exit_code 2 or 3 as open_image, 9 when DIR cannot be used.
std::unique_ptr<edit::Session> open_edit_session(const std::string& image, const std::string& edits_dir, uint64_t cache_bytes,
                                                 int& exit_code, const std::vector<std::string>& mods = {});

// The image with the mod folders `mods` stacked over it, only read; null as above.
std::shared_ptr<edit::mods::StackedImage> open_stacked_image(const std::string& image, const std::vector<std::string>& mods, uint64_t cache_bytes,
                                                             int& exit_code);

// The node at `path` in an opened disc, or nullopt after "gcfs COMMAND: PATH:
// no such ..." on stderr and exit_code 1. `want_file` also refuses folders.
std::optional<uint64_t> find_in_tree(const tree::Disc& disc, const std::string& path, const char* command, bool want_file,
                                     int& exit_code);

}  // namespace gcfs::tools
