// libFuzzer target of 5DFEN at the engine's limits: the input bytes describe a position (size up
// to 8x8 and past it, odd or even timelines, from one up to past MaxTimelineIndex (movegen/
// types.h) timelines each way, boards of every piece letter with and without the unmoved mark,
// turns and colours, with or without the history of a turn before, so that pieces jump into
// the past); its 5DFEN text is read as every command reads a file, and what reads goes
// through (up to MaxWorkedTimelines timelines) `status`- and `count`-like work: the verdict, the
// legal actions counted with a cap, one action made and unmade. Asserts: no crash, no sanitizer
// report, bounded memory; a position that does not read carries a diagnostic with a position; a
// timeline beyond the limit never reads. A position whose actions could create a timeline beyond
// the limit is worked on in a child process, which must end normally or with the engine's
// documented stop (exit 3, multiverse.cpp beyond_timeline_limit), never by a signal.
//
// Build and run with scripts/fuzz.sh (clang, ASan + UBSan).

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/multiverse.h"
#include "movegen/picker.h"
#include "movegen/types.h"
#include "notation/reader.h"
#include "notation/tree.h"

namespace {

using namespace fived;
using movegen::MaxTimelineIndex;
using movegen::Move;
using movegen::Multiverse;

constexpr std::uint64_t CountCap           = 200;
constexpr int           MaxWorkedTimelines = 64;

[[noreturn]] void fail(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fen_fuzz: %s\n%s\n", what, detail.substr(0, 4000).c_str());
    std::abort();
}

class Bytes {
public:
    Bytes(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) { }
    std::uint8_t next() { return at_ < n_ ? d_[at_++] : 0; }
    bool         empty() const { return at_ >= n_; }

private:
    const std::uint8_t* d_;
    std::size_t         n_, at_ = 0;
};

// One board's rows, width x height, from the bytes: pieces of every letter, empty runs,
// unmoved marks, and now and then a malformed row.
std::string board_rows(Bytes& in, int width, int height) {
    static constexpr std::string_view Letters = "PWKCQYSNRBUDpwkcqysnrbud";
    std::string                       rows;
    for (int y = 0; y < height; ++y) {
        if (y) rows += '/';
        for (int x = 0; x < width;) {
            const std::uint8_t b = in.next();
            if (b < 0x90) { // empty squares
                const int run = std::min(width - x, 1 + b % 8);
                rows += std::to_string(run);
                x += run;
            } else if (b < 0xF8) {
                rows += Letters[b % Letters.size()];
                if (b & 1) rows += '*';
                ++x;
            } else { // a malformed square: extra text or a wrong count
                rows += "1x9*0"[b % 5];
                ++x;
            }
        }
    }
    return rows;
}

// The 5DFEN text the bytes describe.
std::string fen_text(Bytes& in) {
    const std::uint8_t sizeByte = in.next(), flags = in.next();
    const int          width = 1 + sizeByte % 8, height = 1 + (sizeByte / 8) % 8;
    const bool         even  = flags & 1;
    const bool         black = flags & 2;
    // With history, each timeline has the boards of the half-turns before its last one (from 1w),
    // so that pieces can jump into a timeline's past: branching jumps, which an action defers.
    const bool history = flags & 8;
    // Timelines: around 0, up to a bit past the limit each way.
    const int   hi   = int(in.next()) << 4 | (in.next() & 15);
    const int   lo   = flags & 4 ? hi : int(in.next()) << 4 | (in.next() & 15);
    const int   span = MaxTimelineIndex + 3;
    const int   up = hi % (span + 1), down = lo % (span + 1);
    std::string text = "[Board \"custom\"]\n[Mode \"5D\"]\n[Size \"" + std::to_string(width) + "x"
        + std::to_string(height) + "\"]\n[Timeline \"" + (even ? "even" : "odd") + "\"]\n";
    // A few board templates, then one board per timeline.
    std::vector<std::string> templates;
    for (int t = 1 + (flags >> 4) % 4; t > 0; --t)
        templates.push_back(board_rows(in, width, height));
    auto line_label = [&](int l) {
        if (!even) return (l > 0 ? "+" : "") + std::to_string(l);
        return l < 0 ? "-" + std::to_string(-l - 1) : "+" + std::to_string(l);
    };
    // Half-turn h is turn 1 + h / 2, white on even h; the last board of each timeline is last.
    const int last  = (history ? 2 : 0) + (black ? 1 : 0);
    auto      board = [&](int l, int h) {
        const std::uint8_t pick = in.empty() ? std::uint8_t(l & 0xFF) : in.next();
        return "[" + templates[pick % templates.size()] + ":" + line_label(l) + ":"
            + std::to_string(1 + h / 2) + ":" + (h % 2 ? "b" : "w") + "]\n";
    };
    for (int l = -down; l <= up; ++l)
        for (int h = history ? 0 : last; h <= last; ++h)
            text += board(l, h);
    return text;
}

// status/count-like work on a position that reads.
void work(const Multiverse& start) {
    Multiverse mv = start.fork();
    (void)movegen::verdict(mv);
    const std::uint64_t n = movegen::count_legal_actions(mv, CountCap);
    if (n > CountCap) fail("count above its cap");
    // (With none, the enumeration would prove again what the count did: slow under ASan on a
    // thousand timelines, a libFuzzer timeout and no finding.)
    if (n == 0) return;
    movegen::ActionPicker picker;
    picker.reset(mv);
    std::vector<Move> first;
    picker.for_each([&](std::span<const Move> a) {
        first.assign(a.begin(), a.end());
        return false;
    });
    if (first.empty()) fail("count and the enumeration disagree on any action");
    {
        std::vector<movegen::MoveUndo> undo;
        movegen::do_action(mv, first, undo);
        (void)movegen::count_legal_actions(mv, 64);
        movegen::undo_action(mv, undo);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes             in(data, size);
    const std::string text = fen_text(in);
    if (std::getenv("FEN_FUZZ_PRINT")) { // the text, to reproduce with fived
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
    }
    std::vector<notation::Diagnostic>       errors;
    const std::optional<notation::GameTree> gt =
        notation::read_game_tree(text, "fuzz.5dpgn", {}, errors);
    if (!gt) {
        if (errors.empty()) fail("rejected without a diagnostic", text);
        for (const notation::Diagnostic& d : errors)
            if (d.pos.line < 1 || d.pos.column < 1 || d.cause.empty())
                fail("diagnostic without a position or cause", d.to_string());
        return 0;
    }
    const Multiverse& mv = gt->start;
    if (mv.min_l() < -MaxTimelineIndex || mv.max_l() > MaxTimelineIndex)
        fail("a timeline beyond the limit was read", text);
    // The work on a position of more timelines takes seconds under ASan (fived count --cap 2000
    // needs 0.8 s without it on 176 timelines, 0.2 s on 1087): read only; the CLI test
    // timeline_limit counts the 2047-timeline position.
    if (mv.timeline_count() > MaxWorkedTimelines) return 0;
    // An action creates at most one timeline per board it moves on (one per timeline).
    const bool risky = std::max(-mv.min_l(), mv.max_l()) + mv.timeline_count() > MaxTimelineIndex;
    if (!risky) {
        work(mv);
        return 0;
    }
    const pid_t child = fork();
    if (child < 0) fail("fork failed");
    if (child == 0) {
        work(mv);
        std::_Exit(0);
    }
    int   status = 0;
    pid_t done   = -1;
    while ((done = waitpid(child, &status, 0)) < 0 && errno == EINTR) { }
    if (done != child) fail("waitpid failed", std::strerror(errno));
    if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3))
        fail("the work on a position at the limit ended abnormally",
            "status " + std::to_string(status) + "\n" + text);
    return 0;
}
