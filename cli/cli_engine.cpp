// The rules-engine subcommands: status, moves, actions, count, perft.
#include <algorithm>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "cli/cli.h"
#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "report/engine_json.h"

namespace fived::cli {

namespace {

using movegen::Multiverse;

int cmd_status(const InputOptions& in, bool json) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse             mv      = final_position(*g);
    const int              present = mv.present_v();
    const bool             check   = movegen::in_check_at_turn_start(mv);
    const movegen::Verdict v       = movegen::verdict(mv);
    const char*            side    = mv.to_move() == movegen::WHITE ? "white" : "black";
    if (json) {
        std::cout << report::status_json({side, present / 2, check, movegen::verdict_name(v),
            mv.timeline_count(), g->mainLine.size()})
                  << '\n';
    } else {
        std::cout << "to move:   " << side << '\n'
                  << "present:   T" << present / 2 << '\n'
                  << "in check:  " << (check ? "yes" : "no") << '\n'
                  << "verdict:   " << movegen::verdict_name(v) << '\n'
                  << "timelines: " << mv.timeline_count() << '\n';
    }
    return ExitOk;
}

int cmd_moves(const InputOptions& in, bool json) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse                 mv = final_position(*g);
    std::vector<movegen::Move> moves;
    movegen::generate_moves(mv, mv.to_move(), moves);
    if (json) {
        std::vector<std::string> list;
        for (const movegen::Move& m : moves)
            list.push_back(notation::format_move(mv, m));
        std::cout << report::moves_json(list) << '\n';
        return ExitOk;
    }
    for (const movegen::Move& m : moves)
        std::cout << notation::format_move(mv, m) << '\n';
    return ExitOk;
}

// With --json: one JSON object per line for each action ({"action": ...}), so a listing of
// millions streams, then {"count": N, "complete": bool, "exit_code": 0}.
int cmd_actions(const InputOptions& in, std::uint64_t max, bool json) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    Multiverse mv      = final_position(*g);
    Multiverse printer = mv.fork(); // formats each action from the start-of-turn state
    notation::ActionFormatter formatter(printer);
    std::uint64_t             n   = 0;
    bool                      all = true;
    if (max > 0) {
        movegen::ActionPicker picker; // the one legal-action policy (movegen/picker.h)
        picker.reset(mv);
        all = picker.for_each([&](std::span<const movegen::Move> a) {
            const std::string_view text = formatter.format(a);
            if (json) {
                std::cout << report::action_json(text) << '\n';
            } else {
                std::cout.write(text.data(), std::streamsize(text.size())).put('\n');
            }
            return ++n < max && std::cout.good(); // stop at a write error (main reports it)
        });
    } else {
        all = !movegen::exists_legal_action(mv);
    }
    if (json) std::cout << report::actions_end_json(n, all) << '\n';
    return ExitOk;
}

// --engine picks one exact engine alone (ActionPicker::Engine) to cross-check the two.
int cmd_count(const InputOptions& in, std::uint64_t cap, bool each, bool json,
    movegen::ActionPicker::Engine engine) {
    auto g = load(in);
    if (!g) return ExitBadInput;
    movegen::ActionPicker picker; // the one legal-action policy (movegen/picker.h)
    picker.set_engine(engine);
    auto count = [&](Multiverse& m) {
        picker.reset(m);
        return picker.count(cap);
    };
    if (!each) {
        Multiverse          mv = final_position(*g);
        const std::uint64_t n  = count(mv);
        if (json)
            std::cout << report::count_json(n, n >= cap) << '\n';
        else
            std::cout << n << '\n';
        return ExitOk;
    }
    Multiverse                     mv = g->start.fork();
    std::vector<movegen::MoveUndo> undo;
    std::vector<std::uint64_t>     counts;
    for (std::size_t k = 0; k <= g->mainLine.size(); ++k) {
        if (k) movegen::do_action(mv, g->mainLine[k - 1], undo);
        const std::uint64_t n = count(mv);
        if (json) {
            counts.push_back(n);
            continue;
        }
        std::cout << (k ? " " : "") << n;
        std::cout.flush();
    }
    if (json)
        std::cout << report::counts_json(counts) << '\n';
    else
        std::cout << '\n';
    return ExitOk;
}

struct PerftOptions {
    int  depth    = 1;
    bool divide   = false; // one count per first action
    int  threads  = 1;
    bool json     = false;
    bool progress = false; // a progress line on stderr (default: on a terminal)
};

// perft: the number of action sequences of length depth. With --divide, or on several threads
// (one task per first action, each on its own fork of the position), the count below each
// first action; --divide prints them sorted by the action's full notation, the standard tool
// for finding where two move generators differ.
int cmd_perft(const InputOptions& in, const PerftOptions& o) {
    const auto threadCap = allow_threads(o.threads); // no raw TBB warning
    auto       g         = load(in);
    if (!g) return ExitBadInput;
    Multiverse                                         mv = final_position(*g);
    std::vector<std::pair<std::string, std::uint64_t>> rows; // (first action, count)
    std::uint64_t                                      total = 0;
    if (o.depth == 0 || (!o.divide && o.threads <= 1)) {
        total = movegen::perft(mv, o.depth);
    } else {
        std::vector<std::vector<movegen::Move>> firsts;
        movegen::ActionPicker                   picker;
        picker.reset(mv);
        picker.for_each([&](std::span<const movegen::Move> a) {
            firsts.emplace_back(a.begin(), a.end());
            return true;
        });
        std::vector<std::uint64_t> counts(firsts.size(), 0);
        tbb::task_arena            arena(std::max(o.threads, 1));
        const bool                 bar = o.progress || isatty(2);
        std::atomic<std::size_t>   finished{0};
        std::mutex                 barMutex;
        arena.execute([&] {
            tbb::parallel_for(std::size_t(0), firsts.size(), [&](std::size_t i) {
                Multiverse                     m = mv.fork();
                std::vector<movegen::MoveUndo> u;
                movegen::do_action(m, firsts[i], u);
                counts[i] = movegen::perft(m, o.depth - 1);
                if (bar) {
                    std::lock_guard hold(barMutex);
                    std::fprintf(
                        stderr, "\rperft: %zu of %zu first actions", ++finished, firsts.size());
                }
            });
        });
        if (bar) std::fprintf(stderr, "\n");
        Multiverse printer = mv.fork();
        for (std::size_t i = 0; i < firsts.size(); ++i) {
            total += counts[i];
            rows.emplace_back(notation::format_action(printer, firsts[i]), counts[i]);
        }
        std::sort(rows.begin(), rows.end());
    }
    if (o.json) {
        std::cout << report::perft_json(o.depth, total, o.divide ? &rows : nullptr) << '\n';
        return ExitOk;
    }
    if (o.divide)
        for (const auto& [a, n] : rows)
            std::cout << a << ": " << n << '\n';
    std::cout << (o.divide ? "total: " : "") << total << '\n';
    return ExitOk;
}

} // namespace

void register_engine_commands(const Commands& commands, int& exitCode) {
    auto in   = std::make_shared<InputOptions>();
    auto json = std::make_shared<bool>(false);
    if (auto* status = commands.add(
            "status", "side to move, present, check and verdict of the final position")) {
        add_position_input(status, *in, "use");
        status->add_flag("--json", *json, "print one JSON object");
        status->callback([&exitCode, in, json] { exitCode = cmd_status(*in, *json); });
    }

    if (auto* moves = commands.add(
            "moves", "every pseudo-legal single move of the side to move, full notation")) {
        add_position_input(moves, *in, "use");
        moves->add_flag("--json", *json, "print one JSON object");
        moves->callback([&exitCode, in, json] { exitCode = cmd_moves(*in, *json); });
    }

    auto max = std::make_shared<std::uint64_t>(UINT64_MAX);
    if (auto* actions = commands.add("actions", "legal actions, one a line, standard order")) {
        add_position_input(actions, *in, "use");
        actions->add_option("--max", *max, "print at most N actions")->check(digits());
        actions->add_flag(
            "--json", *json, "one JSON object per line for each action, then one with the count");
        actions->callback([&exitCode, in, max, json] { exitCode = cmd_actions(*in, *max, *json); });
    }

    auto cap  = std::make_shared<std::uint64_t>(UINT64_MAX);
    auto each = std::make_shared<bool>(false);
    if (auto* count = commands.add("count", "number of legal actions of the final position")) {
        add_position_input(count, *in, "use");
        count->add_option("--cap", *cap, "stop counting at N")->check(digits());
        count->add_flag("--each", *each, "one count per position of the main line, from the start");
        count->add_flag("--json", *json, "print one JSON object");
        auto engine = std::make_shared<std::string>("auto");
        count
            ->add_option("--engine", *engine,
                "auto (the policy of movegen/picker.h), or one exact engine alone to cross-check "
                "the two: depth-first or hypercuboid")
            ->check(CLI::IsMember({"auto", "depth-first", "hypercuboid"}));
        count->callback([&exitCode, in, cap, each, json, engine] {
            using Engine = movegen::ActionPicker::Engine;
            exitCode     = cmd_count(*in, *cap, *each, *json,
                *engine == "depth-first"       ? Engine::DEPTH_FIRST
                        : *engine == "hypercuboid" ? Engine::HYPERCUBOID
                                                   : Engine::AUTO);
        });
    }

    auto po = std::make_shared<PerftOptions>();
    if (auto* perft = commands.add("perft", "number of action sequences of length DEPTH")) {
        add_position_input(perft, *in, "use");
        perft->add_option("DEPTH", po->depth, "number of actions")
            ->required()
            ->check(CLI::Range(0, 16));
        perft->add_flag("--divide", po->divide,
            "the count below each first action, sorted by its full notation, then the total");
        perft->add_option("--threads", po->threads, "threads (one task per first action)")
            ->check(CLI::Range(1, 1024));
        perft->add_flag("--json", po->json, "print one JSON object");
        perft->add_flag("--progress", po->progress,
            "with --divide or --threads: first actions done, on stderr (default: on a terminal)");
        perft->callback([&exitCode, in, po] { exitCode = cmd_perft(*in, *po); });
    }
}

} // namespace fived::cli
