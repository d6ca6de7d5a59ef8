#include "render/html.h"

#include <string_view>

#include "render/svg.h"

namespace fived::render {

namespace {

constexpr std::string_view Style = R"(
body{margin:0;font-family:"DejaVu Sans",Verdana,Arial,sans-serif;background:#fbfaf7;color:#222}
header{padding:8px 14px;border-bottom:1px solid #ddd}
h1{font-size:1.15em;margin:0 0 4px}
table.headers{font-size:.85em;border-collapse:collapse;margin:2px 0}
table.headers td{padding:0 10px 0 0;vertical-align:top}
table.headers td:first-child{color:#666}
.summary{margin:4px 0;font-size:.9em}
.tries{margin:4px 0;font-size:.9em}
.try-mark{color:#b00;font-weight:bold}
main{display:flex;align-items:flex-start;gap:12px;padding:8px 14px}
#moves{flex:0 0 26em;max-height:calc(100vh - 40px);overflow:auto;line-height:1.7;font-size:.9em;
  border:1px solid #ddd;background:#fff;padding:6px 8px;position:sticky;top:4px}
#board{flex:1 1 auto;min-width:0}
.frame svg{max-width:100%;height:auto}
a.mv{color:#1a1a1a;text-decoration:none;padding:1px 3px;border-radius:3px;cursor:pointer;
  white-space:nowrap}
a.mv:hover{background:#e8eefb}
a.mv.current{background:#1565c0;color:#fff}
a.mv.prelude{color:#777}
a.mv.key{font-weight:bold;outline:2px solid #1565c0}
.num{color:#888;margin-right:2px}
a.mv.current .num{color:#dde}
.badge{font-size:.75em;border-radius:3px;padding:0 4px;margin-left:3px;color:#fff}
.badge.key{background:#1565c0}
.note{font-size:.85em;color:#555;margin:0 3px}
.note.threat{color:#6a1b9a;font-weight:bold}
.note.dual{color:#b35900;font-weight:bold}
.var{margin:2px 0 2px 10px;padding-left:8px;border-left:2px solid #cfd8e6}
.help{font-size:.8em;color:#777;margin-top:6px}
)";

constexpr std::string_view Script = R"(
(function () {
  var cur = -1;
  function el(id) { return document.getElementById(id); }
  function show(n) {
    if (typeof n !== 'number' || n < 0 || n >= P.length) return;
    if (cur >= 0) { el('f' + cur).hidden = true; el('m' + cur).classList.remove('current'); }
    cur = n;
    el('f' + n).hidden = false;
    var m = el('m' + n);
    m.classList.add('current');
    m.scrollIntoView({block: 'nearest'});
    document.body.dataset.current = String(n);
  }
  el('moves').addEventListener('click', function (e) {
    var a = e.target.closest('[data-node]');
    if (!a) return;
    e.preventDefault();
    show(Number(a.dataset.node));
  });
  document.addEventListener('keydown', function (e) {
    var n = -1;
    if (e.key === 'ArrowLeft') n = P[cur];
    else if (e.key === 'ArrowRight') n = K[cur].length ? K[cur][0] : -1;
    else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      if (P[cur] < 0) return;
      var sib = K[P[cur]], i = sib.indexOf(cur) + (e.key === 'ArrowDown' ? 1 : -1);
      n = i >= 0 && i < sib.length ? sib[i] : -1;
    } else return;
    e.preventDefault();
    if (n >= 0) show(n);
  });
  show(INITIAL);
})();
)";

// Notes longer than this (bytes) are shown cut, the whole text as a tooltip.
constexpr std::size_t LongNote = 120;

void move_element(std::string& o, const HtmlNode& n, int id) {
    o += "<a class=\"mv";
    if (id == 0) o += " start";
    if (n.key) o += " key";
    if (n.prelude) o += " prelude";
    o += "\" href=\"#\" id=\"m" + std::to_string(id) + "\" data-node=\"" + std::to_string(id)
        + "\">";
    if (id == 0) {
        o += "start";
    } else {
        o += "<span class=\"num\">" + xml_text(n.number) + "</span> " + xml_text(n.action);
        if (n.key) o += "<span class=\"badge key\">key</span>";
    }
    o += "</a>";
    for (const HtmlNote& note : n.notes) {
        const char* cls = note.kind == HtmlNote::Kind::Threat ? "note threat"
            : note.kind == HtmlNote::Kind::Dual               ? "note dual"
                                                              : "note";
        // A long note (a defence group's list) is cut at a blank, whole in its tooltip.
        const std::size_t cut = note.text.size() > LongNote ? note.text.rfind(' ', LongNote) : 0;
        if (cut > 0 && cut != std::string::npos)
            o += std::string("<span class=\"") + cls + "\" title=\"" + xml_text(note.text) + "\">{"
                + xml_text(std::string_view(note.text).substr(0, cut)) + " ...}</span>";
        else
            o += std::string("<span class=\"") + cls + "\">{" + xml_text(note.text) + "}</span>";
    }
    o += '\n';
}

// The move list: each node's main continuation, then its other children as nested variations.
// An explicit stack: a tree as deep as the node cap allows does not recurse.
void move_list(std::string& o, const HtmlPage& page) {
    enum class Kind : std::uint8_t {
        Move,
        Line,
        Open,
        Close
    };
    struct Task {
        Kind kind;
        int  node;
    };
    std::vector<Task> tasks{{Kind::Line, 0}, {Kind::Move, 0}};
    while (!tasks.empty()) {
        const Task t = tasks.back();
        tasks.pop_back();
        switch (t.kind) {
            case Kind::Move: move_element(o, page.nodes[std::size_t(t.node)], t.node); break;
            case Kind::Open: o += "<div class=\"var\">"; break;
            case Kind::Close: o += "</div>\n"; break;
            case Kind::Line: {
                const std::vector<int>& kids = page.nodes[std::size_t(t.node)].children;
                if (kids.empty()) break;
                // Executed in this order: the main move, each variation, the main line's rest.
                tasks.push_back({Kind::Line, kids[0]});
                for (std::size_t i = kids.size(); i-- > 1;) {
                    tasks.push_back({Kind::Close, 0});
                    tasks.push_back({Kind::Line, kids[i]});
                    tasks.push_back({Kind::Move, kids[i]});
                    tasks.push_back({Kind::Open, 0});
                }
                tasks.push_back({Kind::Move, kids[0]});
                break;
            }
        }
    }
}

// An SVG document as an element of the page: without its XML declaration.
std::string_view inline_svg(std::string_view svg) {
    if (svg.starts_with("<?xml")) {
        const std::size_t end = svg.find("?>");
        if (end != std::string_view::npos) svg.remove_prefix(end + 2);
        while (!svg.empty() && (svg.front() == '\n' || svg.front() == '\r'))
            svg.remove_prefix(1);
    }
    return svg;
}

} // namespace

std::string html(const HtmlPage& page) {
    std::string o;
    std::size_t size = 1 << 14;
    for (const HtmlNode& n : page.nodes)
        size += n.svg.size() + 256;
    o.reserve(size);
    o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    o += "<meta name=\"generator\" content=\"fived html\">\n";
    o += "<title>" + xml_text(page.title) + "</title>\n<style>";
    o += Style;
    o += "</style>\n</head>\n<body data-current=\"" + std::to_string(page.initial) + "\">\n";
    o += "<header>\n<h1>" + xml_text(page.title) + "</h1>\n";
    if (!page.headers.empty()) {
        o += "<table class=\"headers\">\n";
        for (const auto& [k, v] : page.headers)
            o += "<tr><td>" + xml_text(k) + "</td><td>" + xml_text(v) + "</td></tr>\n";
        o += "</table>\n";
    }
    for (const std::string& line : page.summary)
        o += "<p class=\"summary\">" + xml_text(line) + "</p>\n";
    if (!page.tries.empty()) {
        o += "<ul class=\"tries\">\n";
        for (const auto& [t, refutation] : page.tries)
            o += "<li class=\"try\">try <b>" + xml_text(t)
                + "</b><span class=\"try-mark\">?</span> refuted by <b>" + xml_text(refutation)
                + "</b><span class=\"try-mark\">!</span></li>\n";
        o += "</ul>\n";
    }
    o += "</header>\n<main>\n<nav id=\"moves\">\n";
    move_list(o, page);
    o +=
        "<p class=\"help\">Click a move, or use the keys: &#8592; back, &#8594; forward, &#8593; / "
        "&#8595; the previous / next variation.</p>\n";
    o += "</nav>\n<section id=\"board\">\n";
    for (std::size_t i = 0; i < page.nodes.size(); ++i) {
        o += "<div class=\"frame\" id=\"f" + std::to_string(i) + "\" data-node=\""
            + std::to_string(i) + "\"" + (int(i) == page.initial ? "" : " hidden") + ">\n";
        o += inline_svg(page.nodes[i].svg);
        o += "</div>\n";
    }
    o += "</section>\n</main>\n<script>\nvar P = [";
    for (std::size_t i = 0; i < page.nodes.size(); ++i)
        o += (i ? "," : "") + std::to_string(page.nodes[i].parent);
    o += "];\nvar K = [";
    for (std::size_t i = 0; i < page.nodes.size(); ++i) {
        o += i ? ",[" : "[";
        for (std::size_t j = 0; j < page.nodes[i].children.size(); ++j)
            o += (j ? "," : "") + std::to_string(page.nodes[i].children[j]);
        o += "]";
    }
    o += "];\nvar INITIAL = " + std::to_string(page.initial) + ";";
    o += Script;
    o += "</script>\n</body>\n</html>\n";
    return o;
}

} // namespace fived::render
