#pragma once
// Helpers shared by the tests of the puzzles: locating and reading files, loading a game with the
// reader's strict or lenient options, walking the positions of its main line, and the time
// budgets of the fast and slow test groups.
//
// The puzzle files are in tests/data/puzzles, except the GPL/AGPL ones that stay in
// ../shared/puzzles (tests/test_data.h): only the tests named Shared* read those (ctest label
// `shared`). A missing file fails the test that needs it.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "movegen/multiverse.h"
#include "notation/game.h"
#include "tests/test_data.h"

namespace fived::testutil {

namespace fs = std::filesystem;

// The file of puzzle `id` (tests/data/puzzles or ../shared/puzzles), and whether it stays in
// ../shared.
fs::path puzzle_file(const std::string& id);
bool     is_shared_only(const std::string& id);

using testdata::read_file;

// The value of header `key` in 5DPGN text (`[Key "value"]`), or nullopt.
std::optional<std::string> header_value(std::string_view text, std::string_view key);

// The outcome of reading a game: either a game or the reader's diagnostic.
struct Loaded {
    std::optional<notation::LoadedGame> game;
    notation::Diagnostic                err;
};

// Reads text with the strict reader, or with ReadOptions{false, false} when lenient.
Loaded load_text(std::string_view text, std::string_view name, bool lenient);

// The longest loadable prefix of a game's main line: `game` holds the start position and the
// actions that replay (nullopt if the start itself fails), `err` the first failure, and
// `complete` says whether the whole main line replayed. With startCheck = false, the reader's
// check that the side not to move is not attacked at the start (RULES.md §5.6, last sentence) is
// skipped; that variant supports custom 5DFEN starts without a Promotions header only. Used to
// look at the position where a file is rejected, and to show what fived answers for third-party
// files that the start check rejects (they keep their explicit "rejected" expectation).
struct Prefix {
    std::optional<notation::LoadedGame> game;
    notation::Diagnostic                err;
    bool                                complete = false;
};
Prefix load_prefix(std::string_view text, std::string_view name, bool lenient, bool startCheck);

// The positions of a game's main line, from k = 0 (the start) to k = mainLine.size().
// Moving forward replays actions; moving backward restarts from the start.
class Walker {
public:
    explicit Walker(const notation::LoadedGame& game);
    // The multiverse after the first k actions.
    movegen::Multiverse& at(std::size_t k);
    std::size_t          size() const { return game.mainLine.size() + 1; }

private:
    const notation::LoadedGame&    game;
    movegen::Multiverse            mv;
    std::size_t                    played = 0;
    std::vector<movegen::MoveUndo> undo;
};

// Multiplier for every time budget: 1 in optimised builds (NDEBUG), 20 otherwise (Debug and the
// sanitizer presets are 10-20x slower); the environment variable FIVED_TIME_SCALE overrides it.
double time_scale();

// Seconds since a start point.
class Stopwatch {
public:
    Stopwatch() : t0(std::chrono::steady_clock::now()) { }
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

private:
    std::chrono::steady_clock::time_point t0;
};

} // namespace fived::testutil
