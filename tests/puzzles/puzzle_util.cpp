#include "tests/puzzles/puzzle_util.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "notation/parser.h"

namespace fived::testutil {

fs::path puzzle_file(const std::string& id) { return testdata::locate("puzzles/" + id + ".5dpgn"); }

bool is_shared_only(const std::string& id) {
    return testdata::is_shared_only("puzzles/" + id + ".5dpgn");
}

std::optional<std::string> header_value(std::string_view text, std::string_view key) {
    const std::string open = "[" + std::string(key) + " \"";
    for (std::size_t at = text.find(open); at != std::string_view::npos;
         at             = text.find(open, at + 1)) {
        if (at != 0 && text[at - 1] != '\n') continue; // headers start a line
        const std::size_t begin = at + open.size();
        const std::size_t end   = text.find('"', begin);
        if (end == std::string_view::npos) return std::nullopt;
        return std::string(text.substr(begin, end - begin));
    }
    return std::nullopt;
}

using notation::read_options;

Loaded load_text(std::string_view text, std::string_view name, bool lenient) {
    Loaded                               r;
    absl::StatusOr<notation::LoadedGame> game =
        notation::load_game(text, name, read_options(lenient));
    if (game.ok())
        r.game = std::move(*game);
    else
        r.err = notation::diagnostic_of(game.status()).value();
    return r;
}

Prefix load_prefix(std::string_view text, std::string_view name, bool lenient, bool startCheck) {
    Prefix             r;
    notation::Document doc;
    if (!notation::parse_document(text, name, doc, r.err)) return r;
    auto fail = [&](std::string cause) {
        r.err.file  = std::string(name);
        r.err.cause = std::move(cause);
    };
    std::optional<movegen::Multiverse> start;
    if (startCheck) {
        absl::StatusOr<movegen::Multiverse> built = notation::build_start_position(doc, name);
        if (!built.ok()) {
            r.err = notation::diagnostic_of(built.status()).value();
            return r;
        }
        start = std::move(*built);
    } else {
        if (doc.boards.empty() || doc.find_header("Promotions")) {
            fail("load_prefix without the start check: needs 5DFEN boards and no "
                 "Promotions header");
            return r;
        }
        // The custom-board branch of notation::build_start_position(), minus its last check.
        movegen::GameRules rules;
        rules.width  = doc.width;
        rules.height = doc.height;
        rules.even   = doc.parity == notation::Parity::EVEN;
        start.emplace(rules);
        std::string msg;
        for (const notation::FenBoard& fb : doc.boards) {
            const std::optional<int> l = notation::line_index(fb.line, rules.even);
            if (!l) {
                fail("timeline label does not fit the parity");
                return r;
            }
            if (!start->add_initial_board(*l, movegen::to_v(fb.turn, fb.colour), fb.grid, msg)) {
                fail(msg);
                return r;
            }
        }
        if (!start->finish_setup(msg)) {
            fail(msg);
            return r;
        }
    }
    if (const absl::Status st = notation::check_turn_serials(doc, name, start->to_move());
        !st.ok()) {
        fail(std::string(st.message()));
        return r;
    }
    r.game.emplace(notation::LoadedGame{std::move(doc), std::move(*start), {}});
    notation::LoadedGame&          game = *r.game;
    movegen::Multiverse            cur  = game.start.fork();
    std::vector<movegen::Move>     made;
    std::vector<movegen::MoveUndo> undo;
    for (int node = 0; !game.doc.nodes[std::size_t(node)].children.empty();) {
        node = game.doc.nodes[std::size_t(node)].children.back();
        made.clear();
        if (!notation::replay_action(cur, game.doc.nodes[std::size_t(node)].action,
                read_options(lenient), name, made, undo, r.err))
            return r;
        game.mainLine.push_back(made);
    }
    r.complete = true;
    return r;
}

Walker::Walker(const notation::LoadedGame& g) : game(g), mv(g.start.fork()) { }

movegen::Multiverse& Walker::at(std::size_t k) {
    if (k < played) {
        while (!undo.empty()) {
            mv.unmake_move(undo.back());
            undo.pop_back();
        }
        played = 0;
    }
    for (; played < k && played < game.mainLine.size(); ++played)
        for (const movegen::Move& m : game.mainLine[played]) {
            undo.emplace_back();
            mv.make_move(m, undo.back());
        }
    return mv;
}

double time_scale() {
    if (const char* s = std::getenv("FIVED_TIME_SCALE")) {
        const double v = std::atof(s);
        if (v > 0) return v;
    }
#ifdef NDEBUG
    return 1.0;
#else
    return 20.0;
#endif
}

} // namespace fived::testutil
