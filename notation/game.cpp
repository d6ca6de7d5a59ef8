#include "notation/game.h"

#include <cctype>

#include "movegen/action.h"
#include "notation/parser.h"

namespace fived::notation {

using namespace movegen;

namespace {

// Keeps the path from the root to the newest node of a streamed document. Nodes come in
// depth-first order, so once the whole text is read that path is the main line (the last child
// at every node). Every node's turn serial is checked on the way (the first error stops).
class MainLineSink final : public NodeSink {
public:
    MainLineSink(std::string_view fileName, Color first) : file(fileName), firstToMove(first) { }

    std::vector<std::pair<int, Node>> path; // (document id, node), root excluded
    std::optional<Diagnostic>         error;

    bool on_node(int id, const Node& n) override {
        if ((error = serial_error(n.action.serial, n.ply, firstToMove, file))) return false;
        while (!path.empty() && path.back().first != n.parent)
            path.pop_back();
        path.emplace_back(id, n);
        return true;
    }
    bool on_finish(int id, const Node& n) override {
        for (std::size_t i = path.size(); i-- > 0;)
            if (path[i].first == id) {
                path[i].second = n;
                break;
            }
        return true;
    }

private:
    std::string_view file;
    Color            firstToMove;
};

} // namespace

absl::StatusOr<LoadedGame> load_game(
    std::string_view text, std::string_view file, const ReadOptions& opt) {
    // Two passes, neither keeping the variations: the syntax and the head, then the main line.
    Document   doc;
    Diagnostic err;
    if (!parse_document_streaming(text, file, doc, nullptr, err)) return error_status(err);
    absl::StatusOr<Multiverse> start = build_start_position(doc, file);
    if (!start.ok()) return start.status();
    {
        MainLineSink sink(file, start->to_move());
        Document     scratch;
        if (!parse_document_streaming(text, file, scratch, &sink, err))
            return error_status(sink.error ? *sink.error : err);
        // doc.nodes: the root, then the main line, each node the only child of the previous.
        doc.nodes.resize(1);
        doc.nodes[0].children.clear();
        for (auto& [id, n] : sink.path) {
            const int at = int(doc.nodes.size());
            n.parent     = at - 1;
            n.children.clear();
            doc.nodes[std::size_t(at - 1)].children.push_back(at);
            doc.nodes.push_back(std::move(n));
        }
    }
    LoadedGame                 game{std::move(doc), std::move(*start), {}};
    Multiverse                 mv = game.start.fork();
    std::vector<movegen::Move> made;
    std::vector<MoveUndo>      undo;
    ReplayScratch              scratch;
    for (int node = 0; !game.doc.nodes[std::size_t(node)].children.empty();) {
        node = game.doc.nodes[std::size_t(node)].children.back();
        made.clear();
        if (!replay_action(
                mv, game.doc.nodes[std::size_t(node)].action, opt, file, made, undo, err, scratch))
            return error_status(err);
        if (scratch.warning) game.doc.warnings.push_back(std::move(*scratch.warning));
        game.mainLine.push_back(made);
    }
    return game;
}

void play_main_line(
    Multiverse& mv, const LoadedGame& game, std::size_t count, std::vector<MoveUndo>& undo) {
    for (std::size_t i = 0; i < count && i < game.mainLine.size(); ++i)
        movegen::do_action(mv, game.mainLine[i], undo);
}

namespace {

// True if text is white space and complete `{...}` comments (nested) only.
bool only_comments(std::string_view text) {
    int depth = 0;
    for (const char c : text) {
        if (c == '{') {
            ++depth;
        } else if (c == '}') {
            if (depth == 0) return false;
            --depth;
        } else if (depth == 0 && !std::isspace(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return depth == 0;
}

} // namespace

std::optional<std::string> not_a_game(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
        return "empty file, not a game (write [Board \"Standard\"] for the standard opening)";
    if (only_comments(text))
        return "only comments, not a game (write [Board \"Standard\"] for the standard opening)";
    return std::nullopt;
}

} // namespace fived::notation
