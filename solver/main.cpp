// fived: the command line. It ties the notation reader to the rules engine and the solver.
//
// Every subcommand reads one 5DPGN / Branched 5DPGN file and works on the final position of its
// main line. Bad input prints FILE:LINE:COL: CAUSE on stderr and exits with status 2.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "notation/game.h"

namespace {

using namespace fived;
using movegen::Multiverse;

constexpr int ExitBadInput = 2;

struct InputOptions {
    std::string file;
    bool        lenient = false;
};

void add_input(CLI::App* cmd, InputOptions& in) {
    cmd->add_option("FILE", in.file, "5DPGN / Branched 5DPGN file ('-' for standard input)")
        ->required();
    cmd->add_flag("--lenient", in.lenient,
        "accept a wrong capture mark `x` or jump indicator `>`/`>>` (third-party files)");
}

// Reads and replays the file; on failure prints the diagnostic and returns nullopt.
std::optional<notation::LoadedGame> load(const InputOptions& in) {
    std::string text;
    if (in.file == "-") {
        std::ostringstream ss;
        ss << std::cin.rdbuf();
        text = ss.str();
    } else {
        std::ifstream f(in.file, std::ios::binary);
        if (!f) {
            std::cerr << in.file << ": cannot open file\n";
            return std::nullopt;
        }
        std::ostringstream ss;
        ss << f.rdbuf();
        text = ss.str();
    }
    notation::ReadOptions opt;
    if (in.lenient) opt.checkCaptureMark = opt.checkJumpIndicator = false;
    notation::Diagnostic                err;
    std::optional<notation::LoadedGame> game =
        notation::load_game(text, in.file == "-" ? "<stdin>" : in.file, opt, err);
    if (!game) std::cerr << err.to_string() << '\n';
    return game;
}

// The final position of the main line.
Multiverse final_position(const notation::LoadedGame& g) {
    Multiverse                     mv = g.start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, g, g.mainLine.size(), undo);
    return mv;
}

const char* verdict_name(movegen::Verdict v) {
    switch (v) {
        case movegen::Verdict::Checkmate: return "checkmate";
        case movegen::Verdict::Stalemate: return "stalemate";
        default: return "ongoing";
    }
}

int cmd_status(const InputOptions& in, bool json) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse             mv      = final_position(*g);
    const int              present = mv.present_v();
    const bool             check   = movegen::in_check_at_turn_start(mv);
    const movegen::Verdict v       = movegen::verdict(mv);
    const char*            side    = mv.to_move() == movegen::WHITE ? "white" : "black";
    if (json) {
        nlohmann::json j;
        j["to_move"]        = side;
        j["present"]        = present / 2;
        j["in_check"]       = check;
        j["verdict"]        = verdict_name(v);
        j["timelines"]      = mv.timeline_count();
        j["actions_played"] = g->mainLine.size();
        std::cout << j.dump() << '\n';
    } else {
        std::cout << "to move:   " << side << '\n'
                  << "present:   T" << present / 2 << '\n'
                  << "in check:  " << (check ? "yes" : "no") << '\n'
                  << "verdict:   " << verdict_name(v) << '\n'
                  << "timelines: " << mv.timeline_count() << '\n';
    }
    return 0;
}

int cmd_moves(const InputOptions& in) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse                 mv = final_position(*g);
    std::vector<movegen::Move> moves;
    movegen::generate_moves(mv, mv.to_move(), moves);
    for (const movegen::Move& m : moves)
        std::cout << notation::format_move(mv, m) << '\n';
    return 0;
}

int cmd_actions(const InputOptions& in, std::uint64_t max) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse            mv      = final_position(*g);
    Multiverse            printer = mv.fork(); // formats each action from the start-of-turn state
    movegen::ActionSearch search(mv);
    std::uint64_t         n = 0;
    search.for_each([&](std::span<const movegen::Move> a) {
        std::cout << notation::format_action(printer, a) << '\n';
        return ++n < max;
    });
    return 0;
}

int cmd_count(const InputOptions& in, std::uint64_t cap, bool each) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    if (!each) {
        Multiverse mv = final_position(*g);
        std::cout << movegen::count_legal_actions(mv, cap) << '\n';
        return 0;
    }
    Multiverse                     mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    for (std::size_t k = 0; k <= g->mainLine.size(); ++k) {
        if (k)
            for (const movegen::Move& m : g->mainLine[k - 1]) {
                undo.emplace_back();
                mv.make_move(m, undo.back());
            }
        std::cout << (k ? " " : "") << movegen::count_legal_actions(mv, cap);
        std::cout.flush();
    }
    std::cout << '\n';
    return 0;
}

int cmd_perft(const InputOptions& in, int depth) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse mv = final_position(*g);
    std::cout << movegen::perft(mv, depth) << '\n';
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"fived: a 5D chess mate-in-N solver and rules engine"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "fived 0.1.0");

    InputOptions in;
    bool         json   = false;
    auto*        status = app.add_subcommand(
               "status", "side to move, present, check and verdict of the final position");
    add_input(status, in);
    status->add_flag("--json", json, "print one JSON object");

    auto* moves = app.add_subcommand(
        "moves", "every pseudo-legal single move of the side to move, full notation");
    add_input(moves, in);

    std::uint64_t max = UINT64_MAX;
    auto* actions     = app.add_subcommand("actions", "legal actions, one a line, standard order");
    add_input(actions, in);
    actions->add_option("--max", max, "print at most N actions");

    std::uint64_t cap  = UINT64_MAX;
    bool          each = false;
    auto* count = app.add_subcommand("count", "number of legal actions of the final position");
    add_input(count, in);
    count->add_option("--cap", cap, "stop counting at N");
    count->add_flag("--each", each, "one count per position of the main line, from the start");

    int   depth = 1;
    auto* perft = app.add_subcommand("perft", "number of action sequences of length DEPTH");
    add_input(perft, in);
    perft->add_option("DEPTH", depth, "number of actions")->required()->check(CLI::Range(0, 16));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : ExitBadInput;
    }
    if (*status) return cmd_status(in, json);
    if (*moves) return cmd_moves(in);
    if (*actions) return cmd_actions(in, max);
    if (*count) return cmd_count(in, cap, each);
    if (*perft) return cmd_perft(in, depth);
    return ExitBadInput;
}
