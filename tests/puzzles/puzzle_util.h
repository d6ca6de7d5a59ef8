#pragma once
// Helpers shared by the tests that read ../shared/puzzles: locating and reading files, loading a
// game with the reader's strict or lenient options, walking the positions of its main line, and
// the time budgets of the fast and slow test groups.
//
// Every test that needs ../shared calls shared_present() first and skips when it is false, so a
// clone without ../shared builds and passes.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "movegen/multiverse.h"
#include "notation/game.h"

namespace fived::testutil {

namespace fs = std::filesystem;

// ../shared (the compile definition FIVED_SHARED_DIR) and its puzzle folder.
fs::path shared_dir();
fs::path puzzles_dir();
bool     shared_present();

std::string read_file(const fs::path& p);

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
