// The Python module `fived` (FIVED_PYTHON): a thin pybind11 layer over the libraries' facades,
// the same calls the `fived` commands make (cli/): notation::load_game() for `load`,
// movegen::ActionPicker for actions and counts, movegen::perft(), notation::fen_of() /
// state_hash(), solver::solve() and the written solution tree (report/solution.h) for
// `solve`, report::verify_input() for `verify`. No rule, format or search lives here.
//
// Long work (counting, perft, solving, verifying) runs without the GIL. A solve or a verify runs
// on a thread of its own while the calling thread, holding the GIL every 20 ms, polls
// PyErr_CheckSignals(): a Ctrl-C (SIGINT) sets the solver's stop flag (SolveOptions::interrupt,
// as the CLI's signal handler does), the worker is joined, and the KeyboardInterrupt is raised.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/picker.h"
#include "notation/claim.h"
#include "notation/fen.h"
#include "notation/format.h"
#include "notation/game.h"
#include "notation/parser.h"
#include "notation/writer.h"
#include "python/module.h"
#include "report/solution.h"
#include "solver/solver.h"

namespace py = pybind11;

namespace fived::python {

using movegen::Move;
using movegen::Multiverse;

namespace {

py::object notationErrorType; // fived.NotationError
py::object errorType;         // fived.Error

struct Game {
    std::shared_ptr<const notation::LoadedGame> game;
    std::string                                 name; // the file, or "<string>"
};

// The position after `played` actions of a game's main line.
struct Position {
    std::shared_ptr<const notation::LoadedGame> game;
    std::size_t                                 played = 0;
    std::shared_ptr<const Multiverse>           mv;
    std::string                                 name;

    Multiverse fork() const { return mv->fork(); }
    // The game cut at this position, as `fived solve --at K` sees it.
    notation::LoadedGame cut() const {
        notation::LoadedGame g{game->doc, game->start.fork(), {}};
        g.mainLine.assign(game->mainLine.begin(), game->mainLine.begin() + long(played));
        return g;
    }
    bool final() const { return played == game->mainLine.size(); }
};

const char* side_name(movegen::Color c) { return c == movegen::WHITE ? "white" : "black"; }

// The bytes of a file; OSError (FileNotFoundError, IsADirectoryError, ...) when it cannot be
// read.
std::string read_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
        throw py::error_already_set();
    }
    std::string text;
    char        buf[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) // a directory fails here (EISDIR)
        text.append(buf, got);
    const bool failed = std::ferror(f);
    const int  err    = errno;
    std::fclose(f);
    if (failed) {
        errno = err;
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
        throw py::error_already_set();
    }
    return text;
}

Game load(const py::object& source, bool lenient) {
    const py::module_ os       = py::module_::import("os");
    const bool        pathLike = py::isinstance(source, os.attr("PathLike"));
    std::string       s        = pathLike ? py::str(os.attr("fspath")(source)).cast<std::string>()
                                          : source.cast<std::string>();
    // A str of one line without `[` names a file (a game's text has headers or several lines).
    const bool isPath = pathLike
        || (!s.empty() && s.find('\n') == std::string::npos && s.find('[') == std::string::npos);
    const std::string name = isPath ? s : "<string>";
    const std::string text = isPath ? read_file(s) : std::move(s);
    if (const std::optional<std::string> why = notation::not_a_game(text))
        raise_notation(name, *why);
    const notation::ReadOptions          opt = notation::read_options(lenient);
    absl::StatusOr<notation::LoadedGame> g;
    {
        py::gil_scoped_release nogil;
        g = notation::load_game(text, name, opt);
    }
    if (!g.ok()) {
        if (auto d = notation::diagnostic_of(g.status())) raise_notation(*d);
        throw py::value_error(std::string(g.status().message()));
    }
    return Game{std::make_shared<const notation::LoadedGame>(std::move(*g)), name};
}

Position position(const Game& g, std::optional<long long> k) {
    const long long n  = static_cast<long long>(g.game->mainLine.size());
    long long       at = k ? *k : n;
    if (at < 0) at += n;
    if (at < 0 || at > n)
        throw py::index_error("position " + std::to_string(*k) + ": the main line has "
            + std::to_string(n) + " actions");
    auto                           mv = std::make_shared<Multiverse>(g.game->start.fork());
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(*mv, *g.game, std::size_t(at), undo);
    return Position{g.game, std::size_t(at), std::move(mv), g.name};
}

struct Status {
    std::string side;
    int         present = 0;
    bool        inCheck = false;
    std::string verdict;
    int         timelines = 0;
    std::size_t played    = 0;
};

Status status(const Position& p) {
    Multiverse mv = p.fork();
    Status     s;
    {
        py::gil_scoped_release nogil;
        s.inCheck = movegen::in_check_at_turn_start(mv);
        s.verdict = movegen::verdict_name(movegen::verdict(mv));
    }
    s.side      = side_name(mv.to_move());
    s.present   = mv.present_v() / 2;
    s.timelines = mv.timeline_count();
    s.played    = p.played;
    return s;
}

// legal_actions(): the actions come from an enumeration on a thread of its own, through a
// buffer of at most Window texts, so a position with millions of actions is listed as it is
// read and never held in memory. Dropping the iterator stops the enumeration.
class ActionIterator {
public:
    static constexpr std::size_t Window = 4096;

    ActionIterator(const Position& p, std::optional<std::uint64_t> limit) :
        mv(p.fork()), printer(p.fork()), left(limit.value_or(UINT64_MAX)) {
        if (left == 0) {
            finished = true;
            return;
        }
        worker = std::thread([this] { produce(); });
    }
    ~ActionIterator() { close(); }
    ActionIterator(const ActionIterator&)            = delete;
    ActionIterator& operator=(const ActionIterator&) = delete;

    std::string next() {
        std::string out;
        {
            py::gil_scoped_release       nogil;
            std::unique_lock<std::mutex> lock(m);
            ready.wait(lock, [&] { return !queue.empty() || finished || stop; });
            if (queue.empty() || stop) {
                lock.unlock();
                join();
                throw py::stop_iteration();
            }
            out = std::move(queue.front());
            queue.pop_front();
            room.notify_one();
        }
        return out;
    }
    void close() {
        {
            std::lock_guard<std::mutex> lock(m);
            stop = true;
            room.notify_all();
        }
        py::gil_scoped_release nogil;
        join();
    }

private:
    void join() {
        if (worker.joinable()) worker.join();
    }
    void produce() {
        movegen::ActionPicker     picker; // the one legal-action policy (movegen/picker.h)
        notation::ActionFormatter formatter(printer);
        picker.reset(mv);
        std::uint64_t n = 0;
        picker.for_each([&](std::span<const Move> a) {
            std::string                  text(formatter.format(a));
            std::unique_lock<std::mutex> lock(m);
            room.wait(lock, [&] { return queue.size() < Window || stop; });
            if (stop) return false;
            queue.push_back(std::move(text));
            ready.notify_one();
            return ++n < left;
        });
        std::lock_guard<std::mutex> lock(m);
        finished = true;
        ready.notify_all();
    }

    Multiverse              mv, printer;
    std::uint64_t           left;
    std::mutex              m;
    std::condition_variable ready, room;
    std::deque<std::string> queue;
    bool                    finished = false, stop = false;
    std::thread             worker;
};

std::uint64_t count(const Position& p, std::optional<std::uint64_t> cap) {
    Multiverse             mv = p.fork();
    py::gil_scoped_release nogil;
    movegen::ActionPicker  picker; // as `fived count`
    picker.reset(mv);
    return picker.count(cap.value_or(UINT64_MAX));
}

std::uint64_t perft(const Position& p, int depth) {
    if (depth < 0 || depth > 16) throw py::value_error("perft depth: 0 to 16");
    Multiverse             mv = p.fork();
    py::gil_scoped_release nogil;
    return movegen::perft(mv, depth);
}

struct SolveResult {
    std::string                result; // "mate", "no-mate", "unknown"
    std::optional<int>         mateIn;
    int                        noMateUpTo = 0;
    int                        maxMate    = 0;
    std::vector<std::string>   keys;
    std::optional<std::string> tree; // the solution tree as Branched 5DPGN (as `fived solve`)
    std::uint64_t              nodes = 0;
    double                     time  = 0; // seconds
    std::string                limit;     // which limit ended an unknown result
};

SolveResult solve(const Position& p, std::optional<int> mate, int threads,
    std::optional<double> time, std::optional<std::uint64_t> nodes, std::size_t hashMb,
    bool allKeys) {
    int n = mate.value_or(0);
    if (!mate && p.final()) { // the claim of the final position, as `fived solve`
        if (const notation::Header* h = p.game->doc.find_header("Puzzle")) {
            std::string                          why;
            const std::optional<notation::Claim> c = notation::parse_claim(h->value, why);
            if (!c) raise_notation(notation::Diagnostic::at(p.name, h->valuePos, why));
            n = c->mateIn;
        }
    }
    if (mate && (*mate < 1 || *mate > 60)) throw py::value_error("mate: 1 to 60");
    if (n == 0) n = 3; // no claim, or a mate of unstated length
    if (threads < 1 || threads > 256) throw py::value_error("threads: 1 to 256");
    if (time && !(*time > 0)) throw py::value_error("time: a positive number of seconds");
    std::atomic<bool>    stop{false};
    solver::SolveOptions o;
    o.maxMate       = n;
    o.threads       = threads;
    o.hashMb        = hashMb;
    o.timeLimit     = time.value_or(0);
    o.nodeLimit     = nodes.value_or(0);
    o.allKeys       = allKeys;
    o.interrupt     = &stop;
    const auto game = std::make_shared<const notation::LoadedGame>(p.cut());
    auto       work = [&p, &o, game, n]() {
        SolveResult               out;
        const solver::SolveResult r = solver::solve(*p.mv, o);
        if (r.noMemory) throw std::bad_alloc();
        if (r.internal) throw std::runtime_error("internal error: " + r.error);
        out.result  = solver::result_name(r.result);
        out.maxMate = n;
        if (r.result == solver::Result::MATE) out.mateIn = r.mateIn;
        out.noMateUpTo = r.noMateUpTo;
        out.nodes      = r.nodes;
        out.time       = r.ms / 1000;
        if (r.limitHit) out.limit = r.error;
        Multiverse printer = p.fork();
        for (const auto& k : r.keys)
            out.keys.push_back(notation::format_action(printer, k));
        if (r.result == solver::Result::MATE && r.treeBuilt) {
            const notation::GameTree gt =
                report::written_solution(*game, *p.mv, r.tree, r.mateIn, 12);
            std::string       text = notation::write_tree(gt);
            const std::string bad  = report::read_back_problem(text, gt, r.mateIn);
            if (!bad.empty())
                throw std::runtime_error(
                          "internal error: the solution tree as written fails the self-check: " + bad);
            out.tree = std::move(text);
        }
        return out;
    };
    return run_interruptible<SolveResult>(stop, work);
}

} // namespace

void raise_notation(const notation::Diagnostic& d) {
    py::object e    = notationErrorType(d.to_string());
    e.attr("file")  = d.file;
    e.attr("line")  = d.pos.line;
    e.attr("col")   = d.pos.column;
    e.attr("cause") = d.cause;
    PyErr_SetObject(notationErrorType.ptr(), e.ptr());
    throw py::error_already_set();
}

void raise_notation(const std::string& file, const std::string& cause) {
    py::object e    = notationErrorType(file + ": " + cause);
    e.attr("file")  = file;
    e.attr("line")  = py::none();
    e.attr("col")   = py::none();
    e.attr("cause") = cause;
    PyErr_SetObject(notationErrorType.ptr(), e.ptr());
    throw py::error_already_set();
}

// Status, ActionIterator and Position.
void bind_positions(py::module_& m) {
    py::class_<Status>(m, "Status", "The state of a position, as `fived status` prints it.")
        .def_readonly("side", &Status::side, "the side to move: 'white' or 'black'")
        .def_readonly("present", &Status::present, "the turn number T of the present")
        .def_readonly("in_check", &Status::inCheck, "in check at the start of the turn")
        .def_readonly("verdict", &Status::verdict, "'checkmate', 'stalemate' or 'ongoing'")
        .def_readonly("timelines", &Status::timelines, "the number of timelines")
        .def_readonly("actions_played", &Status::played, "actions of the main line played")
        .def("__repr__", [](const Status& s) {
            return "Status(side='" + s.side + "', present=" + std::to_string(s.present)
                + ", in_check=" + (s.inCheck ? "True" : "False") + ", verdict='" + s.verdict
                + "', timelines=" + std::to_string(s.timelines) + ")";
        });

    py::class_<ActionIterator>(m, "ActionIterator",
        "The legal actions of a position, in full notation, listed as they are read.")
        .def("__iter__", [](ActionIterator& it) -> ActionIterator& { return it; })
        .def("__next__", &ActionIterator::next)
        .def("close", &ActionIterator::close, "Stop the enumeration (also on deletion).");

    py::class_<Position>(m, "Position", "A position of a game's main line (immutable).")
        .def_property_readonly(
            "actions_played", [](const Position& p) { return p.played; },
            "actions of the main line before this position")
        .def(
            "status", &status, "Side to move, present, check, verdict, timelines (`fived status`).")
        .def(
            "is_checkmate", [](const Position& p) { return status(p).verdict == "checkmate"; },
            "The side to move is checkmated.")
        .def(
            "is_stalemate", [](const Position& p) { return status(p).verdict == "stalemate"; },
            "The side to move is stalemated.")
        .def(
            "legal_actions",
            [](const Position& p, std::optional<std::uint64_t> limit) {
                return std::make_unique<ActionIterator>(p, limit);
            },
            py::arg("limit") = py::none(),
            "An iterator over the legal actions (strings, full notation, standard order as "
            "`fived actions`), at most `limit` of them; listed lazily.")
        .def("count", &count, py::arg("cap") = py::none(),
            "The number of legal actions (`fived count`); counting stops at `cap`.")
        .def("perft", &perft, py::arg("depth"),
            "The number of action sequences of length `depth` (0 to 16; `fived perft`).")
        .def(
            "fen",
            [](const Position& p) {
                return notation::fen_headers(*p.mv) + notation::fen_of(*p.mv);
            },
            "The 5DFEN of every board, after the headers needed to read it back (`fived fen`).")
        .def(
            "hash", [](const Position& p) { return notation::state_hash(*p.mv); },
            "Shad's MD5 state hash (`fived hash`).")
        .def("__repr__", [](const Position& p) {
            return "<fived.Position of " + p.name + " after " + std::to_string(p.played)
                + " actions>";
        });
}

} // namespace fived::python

PYBIND11_MODULE(fived, m) {
    using namespace fived::python;
    namespace notation = fived::notation;
    m.doc() = "fived: the rules, notation and mate solver of 5D Chess With Multiverse Time Travel";
    errorType       = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
              "fived.Error", "Base class of fived's errors.", nullptr, nullptr));
    m.attr("Error") = errorType;
    {
        py::tuple bases   = py::make_tuple(errorType, py::handle(PyExc_ValueError));
        notationErrorType = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
            "fived.NotationError",
            "A game that cannot be read: `file`, `line` and `col` (1-based; None when the error "
            "has no place in the text) and `cause`; str() is `FILE:LINE:COL: cause`.",
            bases.ptr(), nullptr));
    }
    m.attr("NotationError") = notationErrorType;

    bind_positions(m);

    py::class_<Game>(m, "Game", "A game read by fived.load(): its start and main line.")
        .def("position", &position, py::arg("k") = py::none(),
            "The position after the first k actions of the main line (negative: |k| before the "
            "end; None: the final position). IndexError when out of range.")
        .def(
            "__len__", [](const Game& g) { return g.game->mainLine.size(); },
            "The number of actions of the main line.")
        .def_property_readonly(
            "headers",
            [](const Game& g) {
                py::dict d;
                for (const notation::Header& h : g.game->doc.headers)
                    d[py::str(h.key)] = h.value;
                return d;
            },
            "The headers, {key: value} as written.")
        .def_property_readonly(
            "name", [](const Game& g) { return g.name; }, "The file read, or '<string>'.")
        .def("__repr__", [](const Game& g) {
            return "<fived.Game " + g.name + ", " + std::to_string(g.game->mainLine.size())
                + " actions>";
        });

    py::class_<SolveResult>(m, "SolveResult", "What fived.solve() found (`fived solve --json`).")
        .def_readonly("result", &SolveResult::result, "'mate', 'no-mate' or 'unknown'")
        .def_readonly("mate_in", &SolveResult::mateIn, "the shortest mate's length, or None")
        .def_readonly(
            "no_mate_up_to", &SolveResult::noMateUpTo, "the largest length proven to have no mate")
        .def_readonly("max_mate", &SolveResult::maxMate, "the longest mate searched")
        .def_readonly("keys", &SolveResult::keys, "the key actions, full notation")
        .def_readonly("tree", &SolveResult::tree,
            "the solution tree as Branched 5DPGN text, as `fived solve` prints it, or None")
        .def_readonly("nodes", &SolveResult::nodes, "nodes searched")
        .def_readonly("time", &SolveResult::time, "seconds")
        .def_readonly("limit", &SolveResult::limit, "the limit that ended an unknown result")
        .def("__repr__", [](const SolveResult& r) {
            return "SolveResult(result='" + r.result
                + "', mate_in=" + (r.mateIn ? std::to_string(*r.mateIn) : "None")
                + ", keys=" + py::repr(py::cast(r.keys)).cast<std::string>() + ")";
        });

    m.def("load", &load, py::arg("source"), py::arg("lenient") = false,
        "Read a 5DPGN / Branched 5DPGN game: `source` is a path (str or os.PathLike) or the text "
        "of a game (a str of one line without `[` is a path). Raises fived.NotationError (file, "
        "line, col, cause) on bad input.");
    m.def("solve", &solve, py::arg("position"), py::kw_only(), py::arg("mate") = py::none(),
        py::arg("threads") = 1, py::arg("time") = py::none(), py::arg("nodes") = py::none(),
        py::arg("hash_mb") = 16, py::arg("all_keys") = false,
        "The shortest forced mate of the side to move within `mate` (default: the position's "
        "Puzzle claim, else 3), as `fived solve`. Runs without the GIL; Ctrl-C stops it "
        "(KeyboardInterrupt).");
    bind_verify(m);
}
