#include "cli/cli.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace fived::cli {

void add_input(CLI::App* cmd, InputOptions& in) {
    cmd->add_option("FILE", in.file, "5DPGN / Branched 5DPGN file ('-' for standard input)")
        ->required();
    cmd->add_flag("--lenient", in.lenient,
        "accept a wrong capture mark `x` or jump indicator `>`/`>>` (third-party files)");
}

std::optional<std::string> read_text(const std::string& file) {
    std::ostringstream ss;
    if (file == "-") {
        ss << std::cin.rdbuf();
        return ss.str();
    }
    std::ifstream f(file, std::ios::binary);
    if (!f) {
        std::cerr << file << ": cannot open file\n";
        return std::nullopt;
    }
    ss << f.rdbuf();
    return ss.str();
}

std::optional<notation::LoadedGame> load(const InputOptions& in) {
    const std::optional<std::string> text = read_text(in.file);
    if (!text) return std::nullopt;
    notation::ReadOptions opt;
    if (in.lenient) opt.checkCaptureMark = opt.checkJumpIndicator = false;
    notation::Diagnostic                err;
    std::optional<notation::LoadedGame> game =
        notation::load_game(*text, in.file == "-" ? "<stdin>" : in.file, opt, err);
    if (!game) std::cerr << err.to_string() << '\n';
    return game;
}

movegen::Multiverse final_position(const notation::LoadedGame& g) {
    movegen::Multiverse            mv = g.start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, g, g.mainLine.size(), undo);
    return mv;
}

} // namespace fived::cli
