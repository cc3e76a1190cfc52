// Subcommands of the gcfs executable; each registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace gcfs::tools {

void add_mount_command(CLI::App& app, int& exit_code);
void add_mkdisc_command(CLI::App& app, int& exit_code);
void add_browse_commands(CLI::App& app, int& exit_code);  // ls, cat
void add_verify_command(CLI::App& app, int& exit_code);
void add_extract_command(CLI::App& app, int& exit_code);
void add_edit_commands(CLI::App& app, int& exit_code);  // pack, edits

}  // namespace gcfs::tools
