// libFuzzer target of the verify walk (`fived verify`, cli/cli_solve.cpp cmd_verify) on trees of
// any depth and width. The input is a program that grows a tree of legal actions from one of a
// few small positions (its first byte picks the position and the writer's style); each later
// byte is an opcode:
//   0x00-0x9F descend: add the (b mod n)-th legal action not yet a child, and go to it;
//   0xA0-0xBF sibling: back up one level, then descend by the next byte;
//   0xC0-0xDF back up (b & 31) + 1 levels;
//   0xE0-0xEF wide: add every legal action not yet a child (up to MaxWidth) as leaves;
//   0xF0-0xFF chain: descend 16 * (next byte + 1) times, the choice driven by the bytes
//             (a line thousands of actions deep from a short input).
// A line stops growing past MaxTimelines timelines. Mate leaves get their mark, as a composer
// writes them. The tree is written as Branched 5DPGN by the project's writer, read back as verify
// reads it (no annotation), and must be the same tree; then it goes through verify's stages on the
// root as the puzzle position: check_proof() with limits, and, when the proof is short, the
// analysis and solve() with small node limits. Asserts, besides no crash and bounded memory
// (libFuzzer's -rss_limit_mb):
//   * the written text reads back, to the same tree;
//   * check_proof(): complete iff no problem, problems name nodes, every action legal (the tree
//     holds legal actions only), length at most the tree's; a walk that stopped names its limit;
//   * a complete proof of length L <= MaxMate: a decided solve() finds a mate in at most L, and a
//     complete analysis a shortest mate <= L.
// Work is bounded by node limits, never by time (reproducible).
//
// Build and run with scripts/fuzz.sh (clang, ASan + UBSan).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_options.h"
#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/multiverse.h"
#include "movegen/picker.h"
#include "notation/reader.h"
#include "notation/tree.h"
#include "notation/writer.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace {

using namespace fived;
using fuzzing::MaxMate;
using fuzzing::small_options;
using movegen::Move;
using movegen::Multiverse;
using Action = std::vector<Move>;

constexpr std::size_t MaxNodes     = 4000; // nodes of the tree grown
constexpr std::size_t MaxWidth     = 64;   // legal actions listed per node
constexpr int         MaxTimelines = 6;    // no descent from a position with more

// Small positions: mates in one and two, several boards, even timelines, fairy pieces, and the
// standard one (long games of knights going back and forth).
constexpr std::string_view Positions[] = {
    "[Board \"custom\"]\n[Mode \"5D\"]\n[Size \"6x6\"]\n[6/6/B1k3/1q4/6/1b1RK1:0:1:w]\n",
    "[Board \"Custom\"]\n[Size \"5x5\"]\n[Timeline \"Odd\"]\n[4r/5/5/2k2/K4:0:1:b]\n",
    "[Board \"Standard\"]\n",
    "[Board \"custom\"]\n[Size \"5x5\"]\n[Timeline \"even\"]\n"
    "[kqbnr/ppppp/5/PPPPP/KQBNR:-0:1:w]\n[kqbnr/ppppp/5/PPPPP/KQBNR:+0:1:w]\n",
    "[Board \"custom\"]\n[Size \"4x4\"]\n[nbuk/w*3/3W*/KUBN:0:1:b]\n",
    "[Board \"custom\"]\n[Size \"8x8\"]\n[4Q3/3K4/8/5n2/B1kr4/b7/1R6/8:0:1:w]\n",
    "[Board \"custom\"]\n[Size \"5x5\"]\n[4k/5/5/5/K1R2:0:1:w]\n",
};

[[noreturn]] void fail(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "verify_fuzz: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// Grows the tree the opcodes describe.
class Grower {
public:
    Grower(notation::GameTree& gt, std::string_view ops) :
        gt_(gt), ops_(ops), mv_(gt.start.fork()) { }

    void run() {
        while (at_ < ops_.size() && gt_.nodes.size() < MaxNodes) {
            const auto b = std::uint8_t(ops_[at_++]);
            if (b < 0xA0) {
                descend(b);
            } else if (b < 0xC0) {
                up(1);
                descend(next());
            } else if (b < 0xE0) {
                up((b & 31) + 1);
            } else if (b < 0xF0) {
                wide();
            } else {
                const int steps = 16 * (next() + 1);
                for (int i = 0; i < steps && gt_.nodes.size() < MaxNodes; ++i)
                    if (!descend(std::uint8_t(i * 7 + b))) break;
            }
        }
        up(int(path_.size()));
    }

private:
    std::uint8_t next() { return at_ < ops_.size() ? std::uint8_t(ops_[at_++]) : 0; }

    // The legal actions here (at most MaxWidth) that are not yet children of the node.
    std::vector<Action> fresh() {
        std::vector<Action> all;
        picker_.reset(mv_);
        picker_.for_each([&](std::span<const Move> a) {
            all.emplace_back(a.begin(), a.end());
            return all.size() < MaxWidth;
        });
        std::vector<Action> out;
        for (Action& a : all) {
            bool used = false;
            for (const int c : gt_.nodes[std::size_t(node_)].children)
                used = used || gt_.nodes[std::size_t(c)].action == a;
            if (!used) out.push_back(std::move(a));
        }
        return out;
    }

    bool descend(std::uint8_t choice) {
        // Past a few timelines the legal actions multiply (and each enumeration slows): the
        // line ends there. Depth comes from lines on few timelines (knights back and forth).
        if (mv_.timeline_count() > MaxTimelines) return false;
        std::vector<Action> actions = fresh();
        if (actions.empty()) return false;
        const Action& a     = actions[choice % actions.size()];
        const int     child = gt_.add(node_, a);
        path_.push_back({node_, undo_.size()});
        movegen::do_action(mv_, a, undo_);
        node_ = child;
        return true;
    }

    void up(int levels) {
        for (; levels > 0 && !path_.empty(); --levels) {
            movegen::undo_action(mv_, undo_, path_.back().undoBase);
            node_ = path_.back().node;
            path_.pop_back();
        }
    }

    void wide() {
        for (const Action& a : fresh()) {
            if (gt_.nodes.size() >= MaxNodes) return;
            gt_.add(node_, a);
        }
    }

    struct Step {
        int         node;
        std::size_t undoBase;
    };
    notation::GameTree&            gt_;
    std::string_view               ops_;
    std::size_t                    at_ = 0;
    Multiverse                     mv_;
    movegen::ActionPicker          picker_;
    std::vector<movegen::MoveUndo> undo_;
    std::vector<Step>              path_;
    int                            node_ = 0;
};

// verify's stages on the tree read back, with the puzzle at its root.
void verify_stages(const notation::GameTree& gt) {
    const Multiverse&          puzzle  = gt.start;
    const solver::SolutionTree tree    = *gt.subtree(0);
    Multiverse                 scratch = puzzle.fork();
    solver::ProofLimits        limits;
    limits.nodeLimit   = 200000;
    limits.actionLimit = 5000;
    const solver::ProofReport rep =
        solver::check_proof(scratch, tree, 20, &notation::format_action, limits);
    if (rep.complete != (rep.problems.empty() && rep.finished))
        fail("complete disagrees with the problems and the walk");
    if (!rep.finished && rep.problems.size() < 20 && rep.limit.empty())
        fail("a walk that stopped without a limit or a full list");
    for (const solver::ProofProblem& p : rep.problems) {
        if (p.node < 0 || std::size_t(p.node) >= tree.nodes.size())
            fail("a problem names no node of the tree", p.detail);
        if (p.kind == solver::ProofProblem::Kind::ILLEGAL_ACTION)
            fail("a legal action found illegal", p.detail);
    }
    if (rep.length > tree.length()) fail("proof longer than the tree");
    if (rep.complete && rep.length < 1) fail("complete proof without an attacker action");
    if (!rep.limit.empty() || rep.length > MaxMate) return;

    const solver::SolveResult r = solver::solve(puzzle, small_options());
    if (rep.complete
        && (r.result == solver::Result::NO_MATE
            || (r.result == solver::Result::MATE && r.mateIn > rep.length)))
        fail("a complete proof that solve does not find", std::to_string(rep.length));
    const int              n  = std::max(rep.length, 1);
    const solver::Analysis an = solver::analyse(
        puzzle, rep.complete ? tree : solver::SolutionTree{}, n, small_options(), true);
    if (an.complete) {
        if (an.shortest < 0 || an.shortest > n) fail("shortest mate out of range");
        if (rep.complete && an.shortest == 0) fail("analysis finds no mate in a complete proof");
        if (r.result == solver::Result::MATE && r.mateIn <= n && an.shortest != r.mateIn)
            fail("analysis and solve disagree on the shortest mate");
        if (r.result == solver::Result::NO_MATE && an.shortest != 0)
            fail("analysis finds a mate that solve refuted");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view            pos = Positions[data[0] % std::size(Positions)];
    std::vector<notation::Diagnostic> errors;
    std::optional<notation::GameTree> gt = notation::read_game_tree(pos, "start", {}, errors);
    if (!gt) fail("a start position does not read", std::string(pos));
    gt->nodes.resize(1);
    Grower(*gt, std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1)).run();
    {
        Multiverse mv = gt->start.fork();
        gt->walk(mv, [&](int node, Multiverse& here) {
            if (gt->nodes[std::size_t(node)].children.empty() && movegen::is_checkmate(here))
                gt->set_mate(node, here.to_move());
        });
    }
    const auto            style = (data[0] / std::size(Positions)) % 2 ? notation::MoveStyle::SHORT
                                                                       : notation::MoveStyle::FULL;
    const std::string     written = notation::write_tree(*gt, style);
    notation::ReadOptions opt;
    opt.annotate = false; // as verify reads
    errors.clear();
    const std::optional<notation::GameTree> back =
        notation::read_game_tree(written, "written", opt, errors);
    if (!back)
        fail("the written tree does not read back", errors.front().to_string() + "\n" + written);
    std::string why;
    if (!notation::same_tree(*gt, *back, &why))
        fail("the tree read back differs", why + "\n" + written);
    verify_stages(*back);
    return 0;
}
