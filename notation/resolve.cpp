#include "notation/resolve.h"

#include <algorithm>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/rules.h"
#include "notation/format.h"

namespace fived::notation {

using namespace movegen;

// --- pattern matching ---------------------------------------------------------------------------

namespace {

// The largest half-step index v a board may have: Vec4 stores v in 14 bits.
constexpr int MaxHalfStep = 0x3FFF;

void to_candidates(const Multiverse& mv, const std::vector<movegen::Move>& moves,
    std::vector<MoveCandidate>& out) {
    out.clear();
    out.reserve(moves.size());
    for (const movegen::Move& m : moves)
        out.push_back({m, type_of(mv.board(m.from.l(), m.from.v()).piece_on(m.from.sq())),
            mv.is_branching(m)});
}

// The candidates of a pattern: when it names the source timeline only that board's moves can
// match, so only those are generated (the canonical full form always names it).
void collect_candidates_for(const Multiverse& mv, Color us, const MovePattern& p,
    std::vector<MoveCandidate>& out, std::vector<movegen::Move>& moves) {
    if (!p.fromL) {
        collect_candidates(mv, us, out, moves);
        return;
    }
    moves.clear();
    const int l = *p.fromL;
    if (mv.has_timeline(l) && Color(mv.end_v(l) & 1) == us) generate_board_moves(mv, l, moves);
    to_candidates(mv, moves, out);
}

} // namespace

void collect_candidates(const Multiverse& mv, Color us, std::vector<MoveCandidate>& out,
    std::vector<movegen::Move>& moves) {
    moves.clear();
    generate_moves(mv, us, moves);
    to_candidates(mv, moves, out);
}

namespace {

// Which checks of step 6 a match ignores: used to explain why nothing matched.
enum Relax : unsigned {
    RELAX_NONE      = 0,
    RELAX_JUMP      = 1, // the written `>`/`>>`
    RELAX_CAPTURE   = 2, // the written `x`
    RELAX_PROMOTION = 4, // the written `=X`
};

bool matches(const MovePattern& p, const MoveCandidate& c, const GameRules& rules,
    const ReadOptions& opt, unsigned relax) {
    const movegen::Move& m = c.move;
    if (p.fromL && *p.fromL != m.from.l()) return false;
    if (p.fromT && *p.fromT != m.from.t()) return false;
    if (p.kind == MoveKind::CASTLE) {
        if (!(m.flags & MF_CASTLE)) return false;
        return (m.to.x() > m.from.x()) == (p.castle == CastleSide::KING_SIDE);
    }
    if (p.piece != NO_PIECE_TYPE && p.piece != c.piece) return false;
    if (p.fromFile && *p.fromFile != m.from.x()) return false;
    if (p.fromRank && *p.fromRank != m.from.y()) return false;
    if (p.toFile != m.to.x() || p.toRank != m.to.y()) return false;
    if (p.kind == MoveKind::PHYSICAL) {
        if (!m.is_physical()) return false;
    } else if (m.is_physical()) {
        // Shad's export proposal writes a physical move with both boards and no indicator,
        // `(0T1)Pe2(0T1)e3`: accepted when the two written boards are the same board.
        const bool exportForm = p.jump == JumpIndicator::NONE && p.fromL && p.fromT && p.toL
            && p.toT && *p.fromL == *p.toL && *p.fromT == *p.toT;
        if (!exportForm) return false;
    }
    if (p.toL && *p.toL != m.to.l()) return false;
    if (p.toT && *p.toT != m.to.t()) return false;
    if (opt.checkJumpIndicator && !(relax & RELAX_JUMP) && p.jump != JumpIndicator::NONE
        && (p.jump == JumpIndicator::BRANCHING) != c.branching)
        return false;
    if (opt.checkCaptureMark && !(relax & RELAX_CAPTURE) && p.capture && !m.is_capture())
        return false;
    if (relax & RELAX_PROMOTION) return true;
    if (p.promotion != NO_PIECE_TYPE) return m.promotion == p.promotion;
    // An unwritten promotion is the first allowed piece (Q by default).
    return m.promotion == NO_PIECE_TYPE || m.promotion == rules.promotions[0];
}

} // namespace

namespace {

// Steps 3-5 with the step-6 checks of `opt`.
MatchResult match_once(const Multiverse& mv, const MovePattern& p,
    std::span<const MoveCandidate> candidates, const ReadOptions& opt, std::size_t& chosen,
    std::vector<std::size_t>& found) {
    found.clear();
    std::size_t pawnMatches = 0, pawn = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (!matches(p, candidates[i], mv.rules(), opt, RELAX_NONE)) continue;
        found.push_back(i);
        if (candidates[i].piece == PAWN) {
            ++pawnMatches;
            pawn = i;
        }
    }
    // Step 4, the pawn-first rule: `d3` is the pawn's move even when a bishop could go there.
    if (p.piece == NO_PIECE_TYPE && p.kind != MoveKind::CASTLE && pawnMatches == 1) {
        chosen = pawn;
        return MatchResult::UNIQUE;
    }
    if (found.size() == 1) {
        chosen = found.front();
        return MatchResult::UNIQUE;
    }
    return found.empty() ? MatchResult::NONE : MatchResult::AMBIGUOUS;
}

} // namespace

MatchResult match_pattern(const Multiverse& mv, const MovePattern& p,
    std::span<const MoveCandidate> candidates, const ReadOptions& opt, std::size_t& chosen,
    std::vector<std::size_t>& found) {
    // Leniency only widens what is accepted: the strict match decides whenever it finds
    // anything (a unique move, or an ambiguity among the moves that honour the written `x` and
    // `>`/`>>`), so a text that reads strictly reads the same with the checks off. Only a
    // pattern that no move matches strictly is matched again without the checks.
    ReadOptions strict        = opt;
    strict.checkCaptureMark   = true;
    strict.checkJumpIndicator = true;
    const MatchResult r       = match_once(mv, p, candidates, strict, chosen, found);
    if (r != MatchResult::NONE || (opt.checkCaptureMark && opt.checkJumpIndicator)) return r;
    return match_once(mv, p, candidates, opt, chosen, found);
}

namespace {

// Step 1: the written move as a pattern. Fails on a timeline label of the wrong parity and on
// squares outside the board.
bool make_pattern(
    const Multiverse& mv, const Move& w, std::string_view file, MovePattern& p, Diagnostic& err) {
    const bool even = mv.even();
    p               = MovePattern{};
    p.kind          = w.kind;
    p.castle        = w.castle;
    p.jump          = w.jump;
    p.piece         = w.piece;
    p.fromFile      = w.fromFile;
    p.fromRank      = w.fromRank;
    p.capture       = w.capture;
    p.promotion     = w.promotion;

    auto board_ref = [&](const std::optional<BoardRef>& ref, std::optional<int>& l,
                         std::optional<int>& t) {
        if (!ref) return true;
        if (ref->line) {
            l = line_index(*ref->line, even);
            if (!l) {
                std::string label = ref->line->sign ? std::string(1, ref->line->sign) : "";
                label += std::to_string(ref->line->magnitude);
                err = Diagnostic::at(file, ref->pos,
                    "timeline `" + label + "` does not exist in a game with "
                        + (even ? "even timelines (write `-0` or `+0`)"
                                : "odd timelines (`-0` and `+0` are for even ones)")
                        + " in `" + w.text + "`");
                return false;
            }
        }
        t = ref->turn;
        return true;
    };
    if (!board_ref(w.from, p.fromL, p.fromT) || !board_ref(w.to, p.toL, p.toT)) return false;
    if (w.kind == MoveKind::CASTLE) return true;
    p.toFile = *w.toFile;
    p.toRank = *w.toRank;
    auto off = [&](std::optional<int> f, std::optional<int> r) {
        return (f && *f >= mv.width()) || (r && *r >= mv.height());
    };
    if (off(p.toFile, p.toRank) || off(p.fromFile, p.fromRank)) {
        const bool  dest = off(p.toFile, p.toRank);
        const auto  f    = dest ? std::optional<int>(p.toFile) : p.fromFile;
        const auto  r    = dest ? std::optional<int>(p.toRank) : p.fromRank;
        std::string sq;
        if (f) sq += char('a' + *f);
        if (r) sq += std::to_string(*r + 1);
        err = Diagnostic::at(file, w.pos,
            "square `" + sq + "` is off the " + std::to_string(mv.width()) + "x"
                + std::to_string(mv.height()) + " board (files a.." + char('a' + mv.width() - 1)
                + ", ranks 1.." + std::to_string(mv.height()) + ") in `" + w.text + "`");
        return false;
    }
    return true;
}

// "(0T3)" or "(0T3), (1T3)": where the written move could have been played from.
std::string playable_boards_text(const Multiverse& mv, Color us, const MovePattern& p) {
    std::vector<Vec4> boards;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l) {
        if (Color(mv.end_v(l) & 1) != us) continue;
        if (p.fromL && *p.fromL != l) continue;
        if (p.fromT && *p.fromT != mv.end_v(l) / 2) continue;
        boards.push_back(Vec4(l, mv.end_v(l), 0));
    }
    if (boards.empty() && p.fromL && p.fromT) // not a playable board at all
        return "(" + canonical_line_label(*p.fromL, mv.even()) + "T" + std::to_string(*p.fromT)
            + ")";
    std::string           s;
    constexpr std::size_t Shown = 4;
    for (std::size_t i = 0; i < boards.size() && i < Shown; ++i)
        s += (i ? ", " : "") + board_text(mv, boards[i]);
    if (boards.size() > Shown)
        s += " and " + std::to_string(boards.size() - Shown) + " more boards";
    if (boards.empty()) s = "any board";
    return s;
}

// Why nothing matched: the first relaxation of step 6 that finds the move names the fault.
Diagnostic explain_no_match(const Multiverse& mv, Color us, const Move& w, const MovePattern& p,
    std::span<const MoveCandidate> cands, const ReadOptions& opt, std::string_view file) {
    const GameRules& rules = mv.rules();
    if (p.promotion != NO_PIECE_TYPE) {
        bool        allowed = false;
        std::string list;
        for (int i = 0; i < rules.promotionCount; ++i) {
            allowed |= rules.promotions[std::size_t(i)] == p.promotion;
            list += (i ? "," : "");
            list += piece_letter(rules.promotions[std::size_t(i)]);
        }
        if (!allowed)
            return Diagnostic::at(file, w.pos,
                std::string("promotion to `") + piece_letter(p.promotion)
                    + "` is not allowed (Promotions: " + list + ") in `" + w.text + "`");
    }
    auto first_with = [&](unsigned relax) -> const MoveCandidate* {
        for (const MoveCandidate& c : cands)
            if (matches(p, c, rules, opt, relax)) return &c;
        return nullptr;
    };
    if (const MoveCandidate* c =
            p.promotion != NO_PIECE_TYPE ? first_with(RELAX_PROMOTION) : nullptr;
        c && c->move.promotion == NO_PIECE_TYPE)
        return Diagnostic::at(file, w.pos,
            "promotion `=" + std::string(1, piece_letter(p.promotion)) + "` written on "
                + format_move(mv, c->move) + ", which does not reach the last rank, in `" + w.text
                + "`");
    if (const MoveCandidate* c = first_with(RELAX_JUMP))
        return Diagnostic::at(file, w.pos,
            "jump indicator `" + std::string(p.jump == JumpIndicator::BRANCHING ? ">>" : ">")
                + "` in `" + w.text + "` does not fit " + format_move(mv, c->move) + ", which "
                + (c->branching ? "branches (`>>`)" : "does not branch (`>`)"));
    if (const MoveCandidate* c = first_with(RELAX_CAPTURE))
        return Diagnostic::at(file, w.pos,
            "`" + w.text + "` is written as a capture, but " + format_move(mv, c->move)
                + " captures nothing");
    return Diagnostic::at(file, w.pos,
        "no legal move matches `" + w.text + "` on " + playable_boards_text(mv, us, p));
}

} // namespace

std::optional<movegen::Move> resolve_move(const Multiverse& mv, Color us, const Move& w,
    const ReadOptions& opt, std::string_view file, ReplayScratch& scratch, Diagnostic& err) {
    MovePattern p;
    if (!make_pattern(mv, w, file, p, err)) return std::nullopt;
    collect_candidates_for(mv, us, p, scratch.candidates, scratch.moves);
    std::size_t chosen = 0;
    switch (match_pattern(mv, p, scratch.candidates, opt, chosen, scratch.matches)) {
        case MatchResult::UNIQUE: return scratch.candidates[chosen].move;
        case MatchResult::NONE:
            err = explain_no_match(mv, us, w, p, scratch.candidates, opt, file);
            return std::nullopt;
        case MatchResult::AMBIGUOUS: break;
    }
    constexpr std::size_t Shown = 6;
    const auto&           found = scratch.matches;
    std::string           list;
    for (std::size_t i = 0; i < found.size() && i < Shown; ++i)
        list += (i ? (i + 1 == found.size() ? " and " : ", ") : "")
            + format_move(mv, scratch.candidates[found[i]].move);
    if (found.size() > Shown) list += " and " + std::to_string(found.size() - Shown) + " more";
    err = Diagnostic::at(file, w.pos, "ambiguous: `" + w.text + "` matches " + list);
    return std::nullopt;
}

std::optional<movegen::Move> resolve_move(const Multiverse& mv, Color us, const Move& w,
    const ReadOptions& opt, std::string_view file, std::vector<movegen::Move>& candidates,
    Diagnostic& err) {
    ReplayScratch                      scratch;
    const std::optional<movegen::Move> m = resolve_move(mv, us, w, opt, file, scratch, err);
    candidates.clear();
    for (const MoveCandidate& c : scratch.candidates)
        candidates.push_back(c.move);
    return m;
}

bool replay_action(Multiverse& mv, const Action& action, const ReadOptions& opt,
    std::string_view file, std::vector<movegen::Move>& made, std::vector<MoveUndo>& undo,
    Diagnostic& err, ReplayScratch& scratch) {
    const Color       us       = mv.to_move();
    const std::size_t base     = undo.size();
    const std::size_t madeBase = made.size();
    auto              rollback = [&] {
        movegen::undo_action(mv, undo, base);
        made.resize(madeBase);
    };
    scratch.branching.clear();
    scratch.warning.reset();
    for (const Move& w : action.moves) {
        const std::optional<movegen::Move> m = resolve_move(mv, us, w, opt, file, scratch, err);
        if (!m) {
            rollback();
            return false;
        }
        // The engine's coordinates are bounded (RULES-independent limits of Vec4 and the
        // timeline table): refuse a move that would leave them rather than corrupt the state.
        const bool branching = mv.is_branching(*m);
        const int  newL      = mv.next_new_timeline(us);
        if (std::max(m->from.v(), m->to.v()) + 1 > MaxHalfStep
            || (branching && std::abs(newL) > MaxTimelineIndex)) {
            rollback();
            err = Diagnostic::at(file, w.pos,
                "`" + w.text + "` goes beyond the engine's limits (turn "
                    + std::to_string(MaxHalfStep / 2) + ", " + std::to_string(MaxTimelineIndex)
                    + " timelines each way)");
            return false;
        }
        scratch.branching.push_back(branching);
        undo.emplace_back();
        mv.make_move(*m, undo.back());
        made.push_back(*m);
    }
    const SourcePos pos = action.moves.empty() ? action.serial.pos : action.moves.front().pos;
    if (Color(mv.present_v() & 1) == us) {
        rollback();
        err = Diagnostic::at(file, pos,
            "action cannot be submitted: the present does not pass to the opponent (a mandatory "
            "board is not played)");
        return false;
    }
    if (royal_attacked(mv, us)) {
        if (opt.checkKingSafety) {
            rollback();
            err = Diagnostic::at(
                file, pos, "action cannot be submitted: it leaves a royal piece attacked");
            return false;
        }
        scratch.warning = Diagnostic::at(file, pos,
            "action leaves a royal piece attacked (RULES.md §5.3); accepted because the "
            "king-safety check is off");
    }
    return true;
}

bool replay_action(Multiverse& mv, const Action& action, const ReadOptions& opt,
    std::string_view file, std::vector<movegen::Move>& made, std::vector<MoveUndo>& undo,
    Diagnostic& err) {
    ReplayScratch scratch;
    return replay_action(mv, action, opt, file, made, undo, err, scratch);
}

void standard_order(
    std::vector<movegen::Move>& action, const std::vector<bool>& branching, Color us) {
    // Stable partition: non-branching moves first, then the branching ones in their order.
    std::vector<movegen::Move> others, branches;
    for (std::size_t i = 0; i < action.size(); ++i)
        (branching[i] ? branches : others).push_back(action[i]);
    movegen::sort_standard_order(others, us);
    action = std::move(others);
    action.insert(action.end(), branches.begin(), branches.end());
}

void standard_order(Multiverse& mv, std::vector<movegen::Move>& action) {
    if (action.size() < 2) return;
    const Color           us = mv.to_move();
    std::vector<bool>     branching(action.size());
    std::vector<MoveUndo> undo;
    for (std::size_t i = 0; i < action.size(); ++i) {
        branching[i] = mv.is_branching(action[i]);
        movegen::do_action(mv, std::span<const movegen::Move>(action).subspan(i, 1), undo);
    }
    movegen::undo_action(mv, undo);
    standard_order(action, branching, us);
}

} // namespace fived::notation
