// The rules-engine subcommands: status, moves, actions, count, perft.
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"

namespace fived::cli {

namespace {

using movegen::Multiverse;

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
        j["exit_code"]      = ExitOk;
        std::cout << j.dump() << '\n';
    } else {
        std::cout << "to move:   " << side << '\n'
                  << "present:   T" << present / 2 << '\n'
                  << "in check:  " << (check ? "yes" : "no") << '\n'
                  << "verdict:   " << verdict_name(v) << '\n'
                  << "timelines: " << mv.timeline_count() << '\n';
    }
    return ExitOk;
}

int cmd_moves(const InputOptions& in) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse                 mv = final_position(*g);
    std::vector<movegen::Move> moves;
    movegen::generate_moves(mv, mv.to_move(), moves);
    for (const movegen::Move& m : moves)
        std::cout << notation::format_move(mv, m) << '\n';
    return ExitOk;
}

int cmd_actions(const InputOptions& in, std::uint64_t max) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse mv      = final_position(*g);
    Multiverse printer = mv.fork(); // formats each action from the start-of-turn state
    if (max == 0) return ExitOk;
    movegen::ActionPicker picker; // the one legal-action policy (movegen/picker.h)
    std::uint64_t         n = 0;
    picker.reset(mv);
    picker.for_each([&](std::span<const movegen::Move> a) {
        std::cout << notation::format_action(printer, a) << '\n';
        return ++n < max && std::cout.good(); // stop at a write error (main reports it)
    });
    return ExitOk;
}

int cmd_count(const InputOptions& in, std::uint64_t cap, bool each) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    if (!each) {
        Multiverse mv = final_position(*g);
        std::cout << movegen::count_legal_actions(mv, cap) << '\n';
        return ExitOk;
    }
    Multiverse                     mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    for (std::size_t k = 0; k <= g->mainLine.size(); ++k) {
        if (k) movegen::do_action(mv, g->mainLine[k - 1], undo);
        std::cout << (k ? " " : "") << movegen::count_legal_actions(mv, cap);
        std::cout.flush();
    }
    std::cout << '\n';
    return ExitOk;
}

int cmd_perft(const InputOptions& in, int depth) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse mv = final_position(*g);
    std::cout << movegen::perft(mv, depth) << '\n';
    return ExitOk;
}

} // namespace

void register_engine_commands(CLI::App& app, int& exitCode) {
    auto  in     = std::make_shared<InputOptions>();
    auto  json   = std::make_shared<bool>(false);
    auto* status = app.add_subcommand(
        "status", "side to move, present, check and verdict of the final position");
    add_input(status, *in);
    status->add_flag("--json", *json, "print one JSON object");
    status->callback([&exitCode, in, json] { exitCode = cmd_status(*in, *json); });

    auto* moves = app.add_subcommand(
        "moves", "every pseudo-legal single move of the side to move, full notation");
    add_input(moves, *in);
    moves->callback([&exitCode, in] { exitCode = cmd_moves(*in); });

    auto  max     = std::make_shared<std::uint64_t>(UINT64_MAX);
    auto* actions = app.add_subcommand("actions", "legal actions, one a line, standard order");
    add_input(actions, *in);
    actions->add_option("--max", *max, "print at most N actions")->check(digits());
    actions->callback([&exitCode, in, max] { exitCode = cmd_actions(*in, *max); });

    auto  cap   = std::make_shared<std::uint64_t>(UINT64_MAX);
    auto  each  = std::make_shared<bool>(false);
    auto* count = app.add_subcommand("count", "number of legal actions of the final position");
    add_input(count, *in);
    count->add_option("--cap", *cap, "stop counting at N")->check(digits());
    count->add_flag("--each", *each, "one count per position of the main line, from the start");
    count->callback([&exitCode, in, cap, each] { exitCode = cmd_count(*in, *cap, *each); });

    auto  depth = std::make_shared<int>(1);
    auto* perft = app.add_subcommand("perft", "number of action sequences of length DEPTH");
    add_input(perft, *in);
    perft->add_option("DEPTH", *depth, "number of actions")->required()->check(CLI::Range(0, 16));
    perft->callback([&exitCode, in, depth] { exitCode = cmd_perft(*in, *depth); });
}

} // namespace fived::cli
