#pragma once
// Pictures for the command line (cli_svg.cpp): render/svg.h with notation's timeline labels and
// move text.

#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "movegen/multiverse.h"
#include "render/svg.h"

namespace fived::cli {

// Writes text to `out` ('-' = standard output); prints `OUT: cannot write file` and returns false
// when it cannot.
bool write_output(const std::string& out, const std::string& text);
// The options of a picture (--max-timelines, --max-turns, --width, --height, --unmoved).
void add_picture_options(CLI::App* cmd, render::Options& opt);

// The picture of mv with the scene's arrows and captions, notation's timeline labels and the
// checks of the side to move, written to `out` ('-' = standard output). Prints the error and
// returns false when it cannot be written.
bool write_svg(const std::string& out, const movegen::Multiverse& mv, render::Scene scene,
    const render::Options& opt);
// The position to solve (root) with its key action(s) as arrows and `result` in the caption.
bool write_key_svg(const std::string& out, const std::string& file, const movegen::Multiverse& root,
    std::span<const std::vector<movegen::Move>> keys, const std::string& result);

} // namespace fived::cli
