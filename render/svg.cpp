#include "render/svg.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string_view>

#include "movegen/actions.h"
#include "movegen/movegen.h"

#include "movegen/text.h"

namespace fived::render {

using movegen::Color;
using movegen::Multiverse;
using movegen::PieceType;
using movegen::utf8_sequence;
using movegen::Vec4;

namespace {

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", x);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    if (s == "-0") s = "0";
    return s;
}

// Text as XML character data, valid whatever the bytes: markup characters as entities; a byte
// outside a valid UTF-8 sequence, a control character and U+FFFE / U+FFFF (none of which XML
// 1.0 allows) as the text \xHH, one per byte (as fived's JSON writes invalid bytes).
std::string escape(std::string_view in) {
    static constexpr char Hex[] = "0123456789ABCDEF";
    std::string           out;
    auto                  hex = [&](std::string_view bytes) {
        for (const char c : bytes) {
            const auto b = static_cast<std::uint8_t>(c);
            out += "\\x";
            out += Hex[b >> 4];
            out += Hex[b & 15];
        }
    };
    for (std::size_t i = 0; i < in.size();) {
        const std::size_t n = utf8_sequence(in, i);
        if (n == 0) {
            hex(in.substr(i++, 1));
            continue;
        }
        const std::string_view ch = in.substr(i, n);
        i += n;
        if (n == 1) {
            switch (ch[0]) {
                case '&': out += "&amp;"; break;
                case '<': out += "&lt;"; break;
                case '>': out += "&gt;"; break;
                case '"': out += "&quot;"; break;
                case '\t':
                case '\n':
                case '\r': out += ch; break;
                default:
                    if (static_cast<std::uint8_t>(ch[0]) < 0x20 || ch[0] == 0x7F)
                        hex(ch);
                    else
                        out += ch;
            }
        } else if (ch == "\xEF\xBF\xBE" || ch == "\xEF\xBF\xBF") {
            hex(ch);
        } else {
            out += ch;
        }
    }
    return out;
}

// s cut to at most n bytes, not inside a UTF-8 sequence.
void cut_utf8(std::string& s, std::size_t n) {
    if (s.size() <= n) return;
    std::size_t keep = 0;
    for (std::size_t i = 0; i < n;) {
        const std::size_t len = std::max<std::size_t>(1, utf8_sequence(s, i));
        if (i + len > n) break;
        i += len;
        keep = i;
    }
    s.resize(keep);
}

std::string label_of(const Scene& scene, int l) {
    return scene.lineLabel ? scene.lineLabel(l) : std::to_string(l);
}

// The 5DFEN letter of each kind, stroked in a 100 x 100 box (the disc is centred at 50,50).
const char* letter_path(PieceType pt) {
    switch (pt) {
        case movegen::PAWN: return "M37 72V28H56Q68 28 68 39.5Q68 51 56 51H37";
        case movegen::BRAWN: return "M29 29L39 71L50 43L61 71L71 29";
        case movegen::KING: return "M36 28V72M67 28L36 56M47 46L68 72";
        case movegen::COMMON_KING: return "M68 35Q63 27 52 27Q33 27 33 50Q33 73 52 73Q63 73 68 65";
        case movegen::QUEEN: return "M50 27C29 27 29 73 50 73C71 73 71 27 50 27ZM55 60L70 77";
        case movegen::ROYAL_QUEEN: return "M32 28L50 51L68 28M50 51V72";
        case movegen::PRINCESS:
            return "M66 34Q61 27 50 27Q35 27 35 38Q35 48 50 50Q66 52 66 62Q66 73 50 73Q39 73 34 "
                   "66";
        case movegen::KNIGHT: return "M35 72V28L65 72V28";
        case movegen::ROOK: return "M37 72V28H56Q68 28 68 39.5Q68 51 56 51H37M54 51L68 72";
        case movegen::BISHOP:
            return "M37 50V72H57Q68 72 68 61Q68 50 56 50H37V28H55Q65 28 65 39Q65 50 55 50";
        case movegen::UNICORN: return "M35 28V58Q35 73 50 73Q65 73 65 58V28";
        case movegen::DRAGON: return "M37 28V72H50Q68 72 68 50Q68 28 50 28Z";
        default: return "";
    }
}

std::string glyph_id(movegen::Piece p) {
    return std::string(movegen::color_of(p) == movegen::WHITE ? "w" : "b")
        + movegen::piece_letter(movegen::type_of(p));
}

// How each kind of arrow is drawn: colour, marker id suffix, legend text.
struct ArrowStyle {
    const char* colour;
    const char* id;
    const char* legend;
};
ArrowStyle style(ArrowKind k) {
    switch (k) {
        case ArrowKind::LastAction: return {"#e07b00", "last", "last action"};
        case ArrowKind::Key: return {"#1565c0", "key", "key"};
        case ArrowKind::Threat: return {"#8e44ad", "threat", "threat"};
        case ArrowKind::Check: return {"#d62728", "check", "check"};
    }
    return {"#000", "", ""};
}
const char* arrow_colour(ArrowKind k) { return style(k).colour; }
const char* arrow_name(ArrowKind k) { return style(k).id; }
const char* arrow_legend(ArrowKind k) { return style(k).legend; }

// The board that the square of an arrow end stands on, in mv (a passed copy maps to the board
// it copies).
Vec4 existing(const Multiverse& mv, Vec4 p) {
    if (!mv.board_exists(p.l(), p.v()) && mv.board_exists(p.l(), p.v() - 1))
        return Vec4(p.l(), p.v() - 1, p.sq());
    return p;
}

} // namespace

const Layout::Row* Layout::row_of(int l) const {
    for (const Row& r : rows)
        if (r.l == l) return &r;
    return nullptr;
}

std::optional<Point> Layout::board_origin(int l, int v) const {
    const Row* r = row_of(l);
    if (!r || v < v0 || v > v1) return std::nullopt;
    return Point{left + (v - v0) * (boardW + gapX), r->y};
}

std::optional<Point> Layout::square_center(Vec4 p) const {
    const std::optional<Point> o = board_origin(p.l(), p.v());
    if (!o) return std::nullopt;
    return Point{o->x + (p.x() + 0.5) * square, o->y + (ranks - 1 - p.y() + 0.5) * square};
}

Layout layout(const Multiverse& mv, const Scene& scene, const Options& opt) {
    Layout lay;
    lay.files       = mv.width();
    lay.ranks       = mv.height();
    lay.fontSize    = 14;
    const double fs = lay.fontSize;

    // 1. The timelines drawn: those the arrows touch (checks first, then keys and threats, then
    // the last action), then the others; within each group the nearest to the initial ones.
    // Fixed sizes: text keeps its size whatever the scale.
    const double margin   = 12;
    const double labelW   = fs * 5;
    const double gapRowH  = fs * 1.8;
    const double captionH = fs * 1.5 * double(scene.caption.size() + 1); // + the legend line
    const double headerH  = fs * 2;
    const double fixedW   = 2 * margin + labelW;
    // Fewer rows and columns rather than squares too small to read (room for 3 gap rows).
    const double readable = std::min(opt.readableSquare, opt.maxSquare);
    const double roomH    = opt.maxHeight - (2 * margin + captionH + headerH + 3 * gapRowH);
    const int    rowsFit  = int((roomH / (lay.ranks * readable) + 0.15) / 1.25);
    const int    colsFit  = int(((opt.maxWidth - fixedW) / (lay.files * readable) + 0.075) / 1.25);
    const int    maxRows  = std::max(1, std::min(opt.maxTimelines, rowsFit));
    const int    maxCols  = std::max(1, std::min(opt.maxHalfTurns, colsFit));
    std::vector<int> rank(std::size_t(mv.max_l() - mv.min_l() + 1), 4);
    for (const Arrow& a : scene.arrows) {
        const int r = a.kind == ArrowKind::Check ? 0 : a.kind == ArrowKind::LastAction ? 2 : 1;
        for (Vec4 p : {a.move.from, a.move.to})
            if (mv.has_timeline(p.l())) {
                int& q = rank[std::size_t(p.l() - mv.min_l())];
                q      = std::min(q, r);
            }
    }
    const double     centre = (mv.init_min_l() + mv.init_max_l()) / 2.0;
    std::vector<int> order;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        order.push_back(l);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const int ra = rank[std::size_t(a - mv.min_l())], rb = rank[std::size_t(b - mv.min_l())];
        if (ra != rb) return ra < rb;
        const double da = std::abs(a - centre), db = std::abs(b - centre);
        return da != db ? da < db : a > b;
    });
    if (int(order.size()) > maxRows) order.resize(std::size_t(maxRows));
    std::sort(order.begin(), order.end(), std::greater<>());

    // 2. The half-turns drawn: the latest maxHalfTurns, widened to the arrows' boards.
    int vmin = INT32_MAX, vmax = INT32_MIN;
    for (int l : order) {
        vmin = std::min(vmin, mv.start_v(l));
        vmax = std::max(vmax, mv.end_v(l));
    }
    lay.v0 = std::max(vmin, vmax - maxCols + 1);
    lay.v1 = vmax;
    for (const Arrow& a : scene.arrows)
        for (Vec4 p : {a.move.from, a.move.to})
            if (std::find(order.begin(), order.end(), p.l()) != order.end())
                lay.v0 = std::max(std::min(lay.v0, p.v()), std::max(vmin, vmax - 2 * maxCols + 1));
    lay.hiddenEarlier = lay.v0 - vmin;
    const int cols    = lay.v1 - lay.v0 + 1;

    // 3. Sizes. Boards are separated by a quarter of a board; text keeps its size.
    int gapCount = 0;
    for (std::size_t i = 0; i <= order.size(); ++i) {
        const int above = i == 0 ? mv.max_l() : order[i - 1] - 1;
        const int below = i == order.size() ? mv.min_l() : order[i] + 1;
        if (above >= below) ++gapCount;
    }
    const double fixedH = 2 * margin + captionH + headerH + gapCount * gapRowH;
    // Width: cols boards, cols - 1 gaps and 0.7 gap of overhang (step 4); height: rows boards,
    // rows - 1 gaps and 0.4 gap below.
    const double perW = lay.files * (1.25 * cols - 0.075);
    const double perH = lay.ranks * (1.25 * double(order.size()) - 0.15);
    double       s =
        std::min({opt.maxSquare, (opt.maxWidth - fixedW) / perW, (opt.maxHeight - fixedH) / perH});
    s              = std::max(s, opt.minSquare);
    lay.square     = s;
    lay.boardW     = lay.files * s;
    lay.boardH     = lay.ranks * s;
    lay.gapX       = 0.25 * lay.boardW;
    lay.gapY       = 0.25 * lay.boardH;
    lay.captionTop = margin;
    lay.headerY    = margin + captionH + fs * 1.2;
    lay.left       = margin + labelW;
    lay.top        = margin + captionH + headerH;

    // 4. Rows and gaps, top to bottom.
    double y = lay.top;
    for (std::size_t i = 0; i <= order.size(); ++i) {
        const int above = i == 0 ? mv.max_l() : order[i - 1] - 1;
        const int below = i == order.size() ? mv.min_l() : order[i] + 1;
        if (above >= below) {
            lay.gaps.push_back({below, above, y, gapRowH});
            y += gapRowH;
        }
        if (i == order.size()) break;
        lay.rows.push_back({order[i], y, mv.is_active(order[i])});
        y += lay.boardH + (i + 1 < order.size() ? lay.gapY : 0);
    }
    // The frames and the present band stick out of the boards by up to 0.35 gapX.
    // At least as wide as the legend line (up to five items).
    lay.width  = std::max(lay.left + cols * lay.boardW + (cols - 0.3) * lay.gapX + margin, fs * 52);
    lay.height = y + 0.4 * lay.gapY + margin;

    // 5. Arrows whose both ends are drawn.
    for (const Arrow& a : scene.arrows) {
        const Vec4                 to = a.move.to;
        const std::optional<Point> p  = lay.square_center(a.move.from);
        const std::optional<Point> q  = lay.square_center(to);
        if (!p || !q || !mv.board_exists(a.move.from.l(), a.move.from.v())
            || !mv.board_exists(to.l(), to.v())) {
            ++lay.droppedArrows;
            continue;
        }
        lay.arrows.push_back({*p, *q, a.kind, a.move.from.board() != to.board()});
    }
    return lay;
}

std::string xml_text(std::string_view text) { return escape(text); }

std::string state_text(Multiverse& mv) {
    int active = 0;
    for (int l = mv.min_l(); l <= mv.max_l(); ++l)
        active += mv.is_active(l);
    std::string s = mv.to_move() == movegen::WHITE ? "White" : "Black";
    s += " to move, present T" + std::to_string(mv.present_v() / 2) + ", "
        + std::to_string(mv.timeline_count()) + " timeline" + (mv.timeline_count() == 1 ? "" : "s")
        + " (" + std::to_string(active) + " active)";
    const movegen::Verdict v = movegen::verdict(mv);
    if (v == movegen::Verdict::Checkmate)
        s += ", checkmate";
    else if (v == movegen::Verdict::Stalemate)
        s += ", stalemate";
    else if (movegen::in_check_at_turn_start(mv))
        s += ", in check";
    return s;
}

std::vector<Arrow> check_arrows(const Multiverse& mv) {
    Multiverse                 scratch = mv.fork();
    std::vector<movegen::Move> attacks;
    movegen::turn_start_checks(scratch, attacks);
    std::vector<Arrow> out;
    for (movegen::Move m : attacks) {
        m.from = existing(mv, m.from);
        m.to   = existing(mv, m.to);
        out.push_back({m, ArrowKind::Check});
    }
    return out;
}

namespace {

// The SVG document of one picture, written part by part (svg() below) into `o`, top to bottom
// as the reader sees it.
struct Picture {
    const Multiverse& mv;
    const Scene&      scene;
    const Options&    opt;
    const Layout      lay;
    const double      s;  // side of a square
    const double      fs; // font size
    const Color       us;
    // Every id and reference carries the prefix (several pictures in one HTML page).
    const std::string& id;
    std::string        o;

    Picture(const Multiverse& m, const Scene& sc, const Options& op) :
        mv(m), scene(sc), opt(op), lay(layout(m, sc, op)), s(lay.square), fs(lay.fontSize),
        us(m.to_move()), id(op.idPrefix) {
        o.reserve(1 << 16);
    }

    void   open();
    void   board_definition();
    void   glyph_definitions();
    void   marker_definitions();
    double caption();
    void   legend(double cy);
    void   turn_labels();
    void   gap_rows();
    void   timeline_row(const Layout::Row& r, const std::vector<Arrow>& checks);
    void   board(const Layout::Row& r, int v, const std::vector<Arrow>& checks);
    void   pieces(const movegen::Board& bd, int l, int v);
    void   arrow(const Layout::LaidArrow& a, double w);
    void   arrows();
};

// The XML declaration, the <svg> element's start and the title.
void Picture::open() {
    o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
         "version=\"1.1\" width=\""
        + num(lay.width) + "\" height=\"" + num(lay.height) + "\" viewBox=\"0 0 " + num(lay.width)
        + " " + num(lay.height) + "\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n";
    o += "<title>5D chess multiverse</title>\n";
}

// The empty board, drawn once and used for every board.
void Picture::board_definition() {
    o += "<g id=\"" + id + "board\"><rect width=\"" + num(lay.boardW) + "\" height=\""
        + num(lay.boardH) + "\" fill=\"#f0d9b5\"/><path fill=\"#b58863\" d=\"";
    for (int y = 0; y < lay.ranks; ++y)
        for (int x = 0; x < lay.files; ++x)
            if ((x + y) % 2 == 0) // a1 is dark
                o += "M" + num(x * s) + " " + num((lay.ranks - 1 - y) * s) + "h" + num(s) + "v"
                    + num(s) + "h-" + num(s) + "z";
    o += "\"/></g>\n";
}

// A symbol for each piece on the boards drawn.
void Picture::glyph_definitions() {
    std::set<movegen::Piece> used;
    for (const Layout::Row& r : lay.rows)
        for (int v = std::max(lay.v0, mv.start_v(r.l)); v <= std::min(lay.v1, mv.end_v(r.l)); ++v)
            for (movegen::Bitboard bb = mv.board(r.l, v).pieces(); bb; bb &= bb - 1)
                used.insert(mv.board(r.l, v).piece_on(std::countr_zero(bb)));
    for (movegen::Piece p : used) {
        const bool      white = movegen::color_of(p) == movegen::WHITE;
        const PieceType pt    = movegen::type_of(p);
        o += "<symbol id=\"" + id + glyph_id(p) + "\" viewBox=\"0 0 100 100\">";
        if (movegen::is_royal(pt))
            o += "<circle cx=\"50\" cy=\"50\" r=\"46\" fill=\"#e8b923\" stroke=\"#6b5200\" "
                 "stroke-width=\"3\"/>";
        o += std::string("<circle cx=\"50\" cy=\"50\" r=\"") + (movegen::is_royal(pt) ? "38" : "42")
            + "\" fill=\"" + (white ? "#ffffff" : "#1e1e1e") + "\" stroke=\""
            + (white ? "#1e1e1e" : "#000000") + "\" stroke-width=\"4\"/>";
        o += std::string("<path d=\"") + letter_path(pt) + "\" fill=\"none\" stroke=\""
            + (white ? "#1e1e1e" : "#ffffff")
            + "\" stroke-width=\"9\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>";
        o += "</symbol>\n";
    }
}

// An arrow head for each kind of arrow.
void Picture::marker_definitions() {
    for (ArrowKind k : {ArrowKind::LastAction, ArrowKind::Key, ArrowKind::Threat, ArrowKind::Check})
        o += "<marker id=\"" + id + "head-" + arrow_name(k)
            + "\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"3.2\" "
              "markerHeight=\"3.2\" orient=\"auto\" markerUnits=\"strokeWidth\"><path d=\"M0 0L10 "
              "5L0 10z\" fill=\""
            + arrow_colour(k) + "\"/></marker>\n";
}

// The caption's lines; returns the baseline of the legend line below them.
double Picture::caption() {
    double cy = lay.captionTop + fs * 1.1;
    // Lines too long for the picture are cut (at about 0.6 em a character).
    const std::size_t maxChars = std::size_t(std::max(20.0, (lay.width - 24) / (fs * 0.62)));
    for (std::size_t i = 0; i < scene.caption.size(); ++i, cy += fs * 1.5) {
        std::string line = scene.caption[i];
        if (line.size() > maxChars) {
            cut_utf8(line, maxChars - 4);
            if (const std::size_t sp = line.rfind(' ');
                sp != std::string::npos && sp > maxChars / 2)
                line.resize(sp);
            line += " ...";
        }
        o += "<text x=\"12\" y=\"" + num(cy) + "\" font-size=\"" + num(i ? fs : fs * 1.1)
            + "\" fill=\"#222\"" + (i ? "" : " font-weight=\"bold\"") + ">" + escape(line)
            + "</text>\n";
    }
    return cy;
}

// The legend on baseline cy: the kinds of arrow drawn, the present, playable boards, inactive
// timelines.
void Picture::legend(double cy) {
    double lx   = 12;
    auto   item = [&](const std::string& swatch, const std::string& text) {
        o += swatch;
        o += "<text x=\"" + num(lx + 26) + "\" y=\"" + num(cy) + "\" font-size=\"" + num(fs * 0.9)
            + "\" fill=\"#444\">" + escape(text) + "</text>\n";
        lx += 34 + fs * 0.55 * double(text.size()) + 14;
    };
    std::set<ArrowKind> kinds;
    for (const Arrow& a : scene.arrows)
        kinds.insert(a.kind);
    for (ArrowKind k : kinds)
        item("<line x1=\"" + num(lx) + "\" y1=\"" + num(cy - fs * 0.35) + "\" x2=\"" + num(lx + 20)
                + "\" y2=\"" + num(cy - fs * 0.35) + "\" stroke=\"" + arrow_colour(k)
                + "\" stroke-width=\"4\"/>",
            arrow_legend(k));
    item("<rect x=\"" + num(lx) + "\" y=\"" + num(cy - fs * 0.8) + "\" width=\"20\" height=\""
            + num(fs * 0.9) + "\" fill=\"#3b7dd8\" fill-opacity=\"0.25\"/>",
        "present");
    item("<rect x=\"" + num(lx) + "\" y=\"" + num(cy - fs * 0.8) + "\" width=\"20\" height=\""
            + num(fs * 0.9) + "\" fill=\"none\" stroke=\"#2bb24c\" stroke-width=\"3\"/>",
        std::string("playable (") + (us == movegen::WHITE ? "white" : "black") + " to move)");
    item("<rect x=\"" + num(lx) + "\" y=\"" + num(cy - fs * 0.8) + "\" width=\"20\" height=\""
            + num(fs * 0.9) + "\" fill=\"#9a9a9a\" fill-opacity=\"0.35\"/>",
        "inactive timeline");
}

// The turn labels over the columns, the note of half-turns not drawn and the present band.
void Picture::turn_labels() {
    if (lay.hiddenEarlier > 0)
        o += "<text x=\"12\" y=\"" + num(lay.headerY) + "\" font-size=\"" + num(fs * 0.85)
            + "\" fill=\"#555\">+" + std::to_string(lay.hiddenEarlier) + " earlier</text>\n";
    const double colStep = lay.boardW + lay.gapX;
    const double gridBot = lay.height - 12 + lay.gapY * 0.3;
    const int    present = mv.present_v();
    if (present >= lay.v0 && present <= lay.v1) {
        const double x = lay.left + (present - lay.v0) * colStep - lay.gapX * 0.35;
        o += "<rect x=\"" + num(x) + "\" y=\"" + num(lay.headerY - fs * 1.1) + "\" width=\""
            + num(lay.boardW + lay.gapX * 0.7) + "\" height=\""
            + num(gridBot - lay.headerY + fs * 1.1)
            + "\" fill=\"#3b7dd8\" fill-opacity=\"0.16\" rx=\"6\"/>\n";
    }
    for (int v = lay.v0; v <= lay.v1; ++v) {
        const double x     = lay.left + (v - lay.v0) * colStep;
        const bool   white = (v & 1) == 0;
        const double cx    = x + lay.boardW / 2;
        o += "<circle cx=\"" + num(cx - fs * 1.6) + "\" cy=\"" + num(lay.headerY - fs * 0.35)
            + "\" r=\"" + num(fs * 0.35) + "\" fill=\"" + (white ? "#fff" : "#222")
            + "\" stroke=\"#222\" stroke-width=\"1\"/>";
        o += "<text x=\"" + num(cx - fs * 1.05) + "\" y=\"" + num(lay.headerY) + "\" font-size=\""
            + num(fs) + "\" fill=\"#222\">T" + std::to_string(v >> 1) + "</text>\n";
    }
}

// The summaries of the timelines not drawn ("+N more timelines").
void Picture::gap_rows() {
    for (const Layout::Gap& g : lay.gaps) {
        const std::string range = g.count() == 1
            ? label_of(scene, g.lowL)
            : label_of(scene, g.lowL) + " to " + label_of(scene, g.highL);
        o += "<rect x=\"12\" y=\"" + num(g.y + 2) + "\" width=\"" + num(lay.width - 24)
            + "\" height=\"" + num(g.height - 4) + "\" fill=\"#e9e6de\" rx=\"4\"/><text x=\""
            + num(lay.left) + "\" y=\"" + num(g.y + g.height * 0.68) + "\" font-size=\""
            + num(fs * 0.9) + "\" fill=\"#333\">+" + std::to_string(g.count()) + " more timeline"
            + (g.count() == 1 ? "" : "s") + " (L " + escape(range) + ")</text>\n";
    }
}

// One timeline: its label, the shade of an inactive one, and its boards drawn.
void Picture::timeline_row(const Layout::Row& r, const std::vector<Arrow>& checks) {
    const double pad = std::min(lay.gapY * 0.4, fs * 0.5); // clear of the turn labels
    if (!r.active)
        o += "<rect x=\"12\" y=\"" + num(r.y - pad) + "\" width=\"" + num(lay.width - 24)
            + "\" height=\"" + num(lay.boardH + 2 * pad)
            + "\" fill=\"#9a9a9a\" fill-opacity=\"0.35\" rx=\"4\"/>\n";
    const double ly = r.y + lay.boardH / 2;
    o += "<text x=\"" + num(lay.left - lay.gapX * 0.3 - 4) + "\" y=\"" + num(ly + fs * 0.35)
        + "\" font-size=\"" + num(fs) + "\" text-anchor=\"end\" fill=\""
        + (r.active ? "#222" : "#666") + "\" font-weight=\"bold\">L" + escape(label_of(scene, r.l))
        + "</text>\n";
    if (!r.active)
        o += "<text x=\"" + num(lay.left - lay.gapX * 0.3 - 4) + "\" y=\"" + num(ly + fs * 1.35)
            + "\" font-size=\"" + num(fs * 0.7)
            + "\" text-anchor=\"end\" fill=\"#666\">inactive</text>\n";
    o += std::string("<g") + (r.active ? "" : " opacity=\"0.55\"") + ">\n";
    const int first = std::max(lay.v0, mv.start_v(r.l)), last = std::min(lay.v1, mv.end_v(r.l));
    for (int v = first; v <= last; ++v)
        board(r, v, checks);
    o += "</g>\n";
}

// Board (r.l, v): its frame, the squares, the royal pieces in check marked, its pieces.
void Picture::board(const Layout::Row& r, int v, const std::vector<Arrow>& checks) {
    const Point b        = *lay.board_origin(r.l, v);
    const bool  white    = (v & 1) == 0;
    const bool  tip      = v == mv.end_v(r.l);
    const bool  playable = tip && Color(v & 1) == us;
    bool        checked  = false;
    for (const Arrow& c : checks)
        checked = checked || (c.move.to.l() == r.l && c.move.to.v() == v);
    const double fw = std::max(2.0, s * 0.18);
    // Frame: the board's colour; playable boards in green, a board in check in red.
    o += "<rect x=\"" + num(b.x - fw) + "\" y=\"" + num(b.y - fw) + "\" width=\""
        + num(lay.boardW + 2 * fw) + "\" height=\"" + num(lay.boardH + 2 * fw) + "\" fill=\""
        + (white ? "#e4e4e4" : "#3a3a3a") + "\"";
    if (checked || playable)
        o += std::string(" stroke=\"") + (checked ? "#d62728" : "#2bb24c") + "\" stroke-width=\""
            + num(fw * 1.2) + "\"";
    o += "/><use href=\"#" + id + "board\" xlink:href=\"#" + id + "board\" x=\"" + num(b.x)
        + "\" y=\"" + num(b.y) + "\"/>\n";
    for (const Arrow& c : checks)
        if (c.move.to.l() == r.l && c.move.to.v() == v) {
            const Point p = *lay.square_center(c.move.to);
            o += "<circle cx=\"" + num(p.x) + "\" cy=\"" + num(p.y) + "\" r=\"" + num(s * 0.62)
                + "\" fill=\"#ff2a2a\" fill-opacity=\"0.7\"/>";
        }
    pieces(mv.board(r.l, v), r.l, v);
    o += "\n";
}

// The pieces of board bd = (l, v), with the marks of unmoved pieces when asked for.
void Picture::pieces(const movegen::Board& bd, int l, int v) {
    for (movegen::Bitboard bb = bd.pieces(); bb; bb &= bb - 1) {
        const int   sq = std::countr_zero(bb);
        const Point p  = *lay.square_center(Vec4(l, v, sq));
        const auto  pc = bd.piece_on(sq);
        o += "<use href=\"#" + id + glyph_id(pc) + "\" xlink:href=\"#" + id + glyph_id(pc)
            + "\" x=\"" + num(p.x - s * 0.46) + "\" y=\"" + num(p.y - s * 0.46) + "\" width=\""
            + num(s * 0.92) + "\" height=\"" + num(s * 0.92) + "\"/>";
        if (opt.unmovedMarks && (bd.unmoved & movegen::square_bb(sq))
            && movegen::keeps_unmoved_flag(movegen::type_of(pc)))
            o += "<circle cx=\"" + num(p.x + s * 0.36) + "\" cy=\"" + num(p.y - s * 0.36)
                + "\" r=\"" + num(std::max(1.0, s * 0.09))
                + "\" fill=\"#2bb24c\" stroke=\"#fff\" stroke-width=\"0.5\"/>";
    }
}

// One arrow of stroke width w: a line, or a curve for a jump, its head and a dot at its start.
void Picture::arrow(const Layout::LaidArrow& a, double w) {
    const std::string colour = arrow_colour(a.kind);
    std::string       d      = "M" + num(a.from.x) + " " + num(a.from.y);
    // The head stops short of the target square's centre, so that its piece stays visible.
    const double dx = a.to.x - a.from.x, dy = a.to.y - a.from.y;
    const double len = std::max(1e-9, std::hypot(dx, dy));
    if (a.jump) {
        // A jump bends to its left, by a fifth of its length.
        const double qx = (a.from.x + a.to.x) / 2 + dy * 0.2;
        const double qy = (a.from.y + a.to.y) / 2 - dx * 0.2;
        const double ex = a.to.x - qx, ey = a.to.y - qy;
        const double el = std::max(1e-9, std::hypot(ex, ey));
        d += "Q" + num(qx) + " " + num(qy) + " " + num(a.to.x - ex / el * s * 0.3) + " "
            + num(a.to.y - ey / el * s * 0.3);
    } else {
        const double cut = std::min(s * 0.3, len * 0.3);
        d += "L" + num(a.to.x - dx / len * cut) + " " + num(a.to.y - dy / len * cut);
    }
    o += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"" + num(w)
        + "\" stroke-opacity=\"0.85\" stroke-linecap=\"round\""
        + (a.kind == ArrowKind::Check
                ? " stroke-dasharray=\"" + num(w * 2) + " " + num(w * 1.5) + "\""
                : std::string())
        + " marker-end=\"url(#" + id + "head-" + arrow_name(a.kind) + ")\"/>\n";
    o += "<circle cx=\"" + num(a.from.x) + "\" cy=\"" + num(a.from.y) + "\" r=\"" + num(w * 0.7)
        + "\" fill=\"" + colour + "\" fill-opacity=\"0.85\"/>\n";
}

// The arrows drawn, and a note of those that end on boards not drawn.
void Picture::arrows() {
    const double w = std::max(2.0, s * 0.22);
    for (const Layout::LaidArrow& a : lay.arrows)
        arrow(a, w);
    if (lay.droppedArrows > 0)
        o += "<text x=\"12\" y=\"" + num(lay.height - 2) + "\" font-size=\"" + num(fs * 0.8)
            + "\" fill=\"#a00\">" + std::to_string(lay.droppedArrows)
            + " arrow(s) end on boards not drawn</text>\n";
}

} // namespace

std::string svg(const Multiverse& mv, const Scene& scene, const Options& opt) {
    Picture p(mv, scene, opt);
    p.open();
    p.o += "<defs>\n";
    p.board_definition();
    p.glyph_definitions();
    p.marker_definitions();
    p.o += "</defs>\n";
    p.o += "<rect width=\"100%\" height=\"100%\" fill=\"#fbfaf7\"/>\n";
    p.legend(p.caption());
    p.turn_labels();
    p.gap_rows();
    const std::vector<Arrow> checks = check_arrows(mv);
    for (const Layout::Row& r : p.lay.rows)
        p.timeline_row(r, checks);
    p.arrows();
    p.o += "</svg>\n";
    return std::move(p.o);
}

} // namespace fived::render
