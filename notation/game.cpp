#include "notation/game.h"

#include <algorithm>
#include <cctype>

#include "movegen/actions.h"
#include "movegen/movegen.h"
#include "movegen/variants.h"
#include "notation/parser.h"

namespace fived::notation {

using namespace movegen;

namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x))
            == std::tolower(static_cast<unsigned char>(y));
    });
}

Diagnostic make_diag(std::string_view file, SourcePos pos, std::string cause) {
    return Diagnostic{std::string(file), pos, std::move(cause)};
}

std::string square_name(Square s) {
    std::string r(1, char('a' + file_of(s)));
    r += std::to_string(rank_of(s) + 1);
    return r;
}

// Parses a Promotions header value: letters separated by commas and/or spaces.
bool parse_promotions(std::string_view value, GameRules& rules) {
    int n = 0;
    for (char ch : value) {
        if (ch == ',' || ch == ' ' || ch == '\t') continue;
        const PieceType pt =
            piece_type_from_letter(char(std::toupper(static_cast<unsigned char>(ch))));
        if (pt == NO_PIECE_TYPE || pt == PAWN || pt == BRAWN || is_royal(pt) || n >= 8)
            return false;
        rules.promotions[std::size_t(n++)] = pt;
    }
    if (n == 0) return false;
    rules.promotionCount = n;
    return true;
}

} // namespace

std::string line_label(int l, bool even) {
    if (!even) return std::to_string(l);
    return l >= 0 ? "+" + std::to_string(l) : "-" + std::to_string(-l - 1);
}

std::optional<int> line_index(const LineLabel& label, bool even) {
    if (!even) {
        if (label.is_signed_zero()) return std::nullopt;
        return label.value();
    }
    if (label.magnitude == 0 && label.sign == 0) return std::nullopt;
    return label.sign == '-' ? -label.magnitude - 1 : label.magnitude;
}

std::optional<Multiverse> build_start_position(
    const Document& doc, std::string_view file, Diagnostic& err) {
    // 1. Which set-up: 5DFEN boards if any, else the variant named by Board or Variant.
    const Header*     boardH   = doc.find_header("Board");
    const Header*     variantH = doc.find_header("Variant");
    const VariantDef* variant  = nullptr;
    if (doc.boards.empty()) {
        for (const Header* h : {boardH, variantH}) {
            if (!h || variant) continue;
            if (iequals(h->value.substr(0, std::min<std::size_t>(h->value.size(), 6)), "custom"))
                continue;
            variant = find_variant(h->value);
            if (!variant) {
                err = make_diag(file, h->valuePos, "unknown variant `" + h->value + "`");
                return std::nullopt;
            }
        }
        if (!variant) {
            const Header* h = boardH ? boardH : variantH;
            if (h
                && !iequals(
                    h->value.substr(0, std::min<std::size_t>(h->value.size(), 6)), "custom")) {
                err = make_diag(file, h->valuePos, "unknown variant `" + h->value + "`");
                return std::nullopt;
            }
            if (h) {
                err = make_diag(file, h->valuePos, "a custom board needs 5DFEN boards");
                return std::nullopt;
            }
            variant = find_variant("Standard"); // Shad: Board defaults to Standard
        }
    }

    GameRules rules;
    if (variant) {
        rules = variant_rules(*variant);
    } else {
        rules.width  = doc.width;
        rules.height = doc.height;
        rules.even   = doc.parity == Parity::EVEN;
    }
    if (const Header* h = doc.find_header("Promotions")) {
        if (!parse_promotions(h->value, rules)) {
            err = make_diag(file, h->valuePos,
                "bad Promotions value `" + h->value + "` (expected letters like Q,R,B,N)");
            return std::nullopt;
        }
    }
    if (variant && doc.parity != Parity::UNKNOWN && (doc.parity == Parity::EVEN) != variant->even) {
        err = make_diag(file, boardH ? boardH->valuePos : SourcePos{1, 1},
            "the Timeline header contradicts the variant's timelines");
        return std::nullopt;
    }

    Multiverse  mv(rules);
    std::string msg;
    if (variant) {
        if (!setup_variant(*variant, mv, msg)) {
            err = make_diag(file, SourcePos{1, 1}, msg);
            return std::nullopt;
        }
        return mv;
    }
    for (const FenBoard& fb : doc.boards) {
        const std::optional<int> l = line_index(fb.line, rules.even);
        if (!l) {
            err = make_diag(file, fb.linePos,
                "timeline `" + std::string(fb.line.sign ? std::string(1, fb.line.sign) : "")
                    + std::to_string(fb.line.magnitude) + "` does not fit "
                    + (rules.even ? "even" : "odd") + " timelines");
            return std::nullopt;
        }
        if (!mv.add_initial_board(*l, to_v(fb.turn, fb.colour), fb.grid, msg)) {
            err = make_diag(file, fb.pos, "5DFEN board: " + msg);
            return std::nullopt;
        }
    }
    if (!mv.finish_setup(msg)) {
        err = make_diag(file, doc.boards.front().pos, "5DFEN: " + msg);
        return std::nullopt;
    }
    // A starting position in which the side not to move is attacked is invalid (RULES §5.6).
    if (royal_attacked(mv, ~mv.to_move())) {
        err = make_diag(file, doc.boards.front().pos, "5DFEN: the side not to move is in check");
        return std::nullopt;
    }
    return mv;
}

std::string format_move(const Multiverse& mv, const movegen::Move& m) {
    const bool even  = mv.even();
    auto       board = [&](Vec4 p) {
        return "(" + line_label(p.l(), even) + "T" + std::to_string(p.t()) + ")";
    };
    const Piece p = mv.board(m.from.l(), m.from.v()).piece_on(m.from.sq());
    std::string s = board(m.from);
    s += piece_letter(type_of(p));
    s += square_name(m.from.sq());
    if (!m.is_physical()) {
        s += mv.is_branching(m) ? ">>" : ">";
        if (m.is_capture()) s += 'x';
        s += board(m.to);
    } else if (m.is_capture()) {
        s += 'x';
    }
    s += square_name(m.to.sq());
    if (m.promotion != NO_PIECE_TYPE) {
        s += '=';
        s += piece_letter(m.promotion);
    }
    return s;
}

std::string format_action(Multiverse& mv, std::span<const movegen::Move> action) {
    std::string           s;
    std::vector<MoveUndo> undo(action.size());
    for (std::size_t i = 0; i < action.size(); ++i) {
        if (i) s += ' ';
        s += format_move(mv, action[i]);
        mv.make_move(action[i], undo[i]);
    }
    for (std::size_t i = action.size(); i-- > 0;)
        mv.unmake_move(undo[i]);
    return s;
}

std::optional<movegen::Move> resolve_move(const Multiverse& mv, Color us, const Move& w,
    const ReadOptions& opt, std::string_view file, std::vector<movegen::Move>& candidates,
    Diagnostic& err) {
    const bool even = mv.even();
    candidates.clear();
    generate_moves(mv, us, candidates);

    // Normalise the written board coordinates.
    std::optional<int> fromL, fromT, toL, toT;
    auto               board_ref = [&](const std::optional<BoardRef>& ref, std::optional<int>& l,
                         std::optional<int>& t) {
        if (!ref) return true;
        if (ref->line) {
            l = line_index(*ref->line, even);
            if (!l) {
                err = make_diag(file, ref->pos,
                                  std::string("timeline label does not fit ") + (even ? "even" : "odd")
                                      + " timelines in `" + w.text + "`");
                return false;
            }
        }
        t = ref->turn;
        return true;
    };
    if (!board_ref(w.from, fromL, fromT) || !board_ref(w.to, toL, toT)) return std::nullopt;

    std::vector<movegen::Move> matches, pawnMatches;
    for (const movegen::Move& m : candidates) {
        const Board&    src = mv.board(m.from.l(), m.from.v());
        const PieceType pt  = type_of(src.piece_on(m.from.sq()));
        if (fromL && *fromL != m.from.l()) continue;
        if (fromT && *fromT != m.from.t()) continue;
        if (w.kind == MoveKind::CASTLE) {
            if (!(m.flags & MF_CASTLE)) continue;
            const bool kingSide = m.to.x() > m.from.x();
            if (kingSide != (w.castle == CastleSide::KING_SIDE)) continue;
            matches.push_back(m);
            continue;
        }
        if (w.piece != NO_PIECE_TYPE && w.piece != pt) continue;
        if (w.fromFile && *w.fromFile != m.from.x()) continue;
        if (w.fromRank && *w.fromRank != m.from.y()) continue;
        if ((w.kind == MoveKind::JUMP) == m.is_physical()) continue;
        if (opt.checkJumpIndicator && w.jump != JumpIndicator::NONE
            && (w.jump == JumpIndicator::BRANCHING) != mv.is_branching(m))
            continue;
        if (opt.checkCaptureMark && w.capture && !m.is_capture()) continue;
        if (toL && *toL != m.to.l()) continue;
        if (toT && *toT != m.to.t()) continue;
        if (*w.toFile != m.to.x() || *w.toRank != m.to.y()) continue;
        if (w.promotion != NO_PIECE_TYPE) {
            if (m.promotion != w.promotion) continue;
        } else if (m.promotion != NO_PIECE_TYPE && m.promotion != mv.rules().promotions[0]) {
            continue; // an unwritten promotion is the first allowed piece (Q by default)
        }
        matches.push_back(m);
        if (pt == PAWN) pawnMatches.push_back(m);
    }
    if (w.piece == NO_PIECE_TYPE && w.kind != MoveKind::CASTLE && pawnMatches.size() == 1)
        return pawnMatches.front();
    if (matches.size() == 1) return matches.front();
    if (matches.empty()) {
        std::string where;
        if (w.promotion != NO_PIECE_TYPE) {
            bool allowed = false;
            for (int i = 0; i < mv.rules().promotionCount; ++i)
                allowed |= mv.rules().promotions[std::size_t(i)] == w.promotion;
            if (!allowed) {
                err = make_diag(file, w.pos,
                    std::string("promotion to `") + piece_letter(w.promotion)
                        + "` is not allowed by the Promotions header in `" + w.text + "`");
                return std::nullopt;
            }
        }
        err = make_diag(file, w.pos, "no legal move matches `" + w.text + "`");
        return std::nullopt;
    }
    std::string list;
    for (std::size_t i = 0; i < matches.size() && i < 6; ++i)
        list += (i ? (i + 1 == matches.size() ? " and " : ", ") : "") + format_move(mv, matches[i]);
    if (matches.size() > 6) list += " and " + std::to_string(matches.size() - 6) + " more";
    err = make_diag(file, w.pos, "ambiguous: `" + w.text + "` matches " + list);
    return std::nullopt;
}

bool replay_action(Multiverse& mv, const Action& action, const ReadOptions& opt,
    std::string_view file, std::vector<movegen::Move>& made, std::vector<MoveUndo>& undo,
    Diagnostic& err) {
    const Color                us       = mv.to_move();
    const std::size_t          base     = undo.size();
    const std::size_t          madeBase = made.size();
    std::vector<movegen::Move> scratch;
    auto                       rollback = [&] {
        while (undo.size() > base) {
            mv.unmake_move(undo.back());
            undo.pop_back();
        }
        made.resize(madeBase);
    };
    for (const Move& w : action.moves) {
        const std::optional<movegen::Move> m = resolve_move(mv, us, w, opt, file, scratch, err);
        if (!m) {
            rollback();
            return false;
        }
        undo.emplace_back();
        mv.make_move(*m, undo.back());
        made.push_back(*m);
    }
    const SourcePos pos = action.moves.empty() ? action.serial.pos : action.moves.front().pos;
    if (Color(mv.present_v() & 1) == us) {
        rollback();
        err = make_diag(file, pos,
            "action cannot be submitted: the present does not pass to the opponent (a mandatory "
            "board is not played)");
        return false;
    }
    if (royal_attacked(mv, us)) {
        rollback();
        err = make_diag(file, pos, "action cannot be submitted: it leaves a royal piece attacked");
        return false;
    }
    return true;
}

std::optional<LoadedGame> load_game(
    std::string_view text, std::string_view file, const ReadOptions& opt, Diagnostic& err) {
    Document doc;
    if (!parse_document(text, file, doc, err)) return std::nullopt;
    std::optional<Multiverse> start = build_start_position(doc, file, err);
    if (!start) return std::nullopt;
    if (const absl::Status st = check_turn_serials(doc, file, start->to_move()); !st.ok()) {
        const std::optional<Diagnostic> d = diagnostic_of(st);
        err = d ? *d : make_diag(file, SourcePos{1, 1}, std::string(st.message()));
        return std::nullopt;
    }
    LoadedGame                 game{std::move(doc), std::move(*start), {}};
    Multiverse                 mv = game.start.fork();
    std::vector<movegen::Move> made;
    std::vector<MoveUndo>      undo;
    for (int node = 0; !game.doc.nodes[std::size_t(node)].children.empty();) {
        node = game.doc.nodes[std::size_t(node)].children.back();
        made.clear();
        if (!replay_action(
                mv, game.doc.nodes[std::size_t(node)].action, opt, file, made, undo, err))
            return std::nullopt;
        game.mainLine.push_back(made);
    }
    return game;
}

void play_main_line(
    Multiverse& mv, const LoadedGame& game, std::size_t count, std::vector<MoveUndo>& undo) {
    for (std::size_t i = 0; i < count && i < game.mainLine.size(); ++i)
        for (const movegen::Move& m : game.mainLine[i]) {
            undo.emplace_back();
            mv.make_move(m, undo.back());
        }
}

} // namespace fived::notation
