// The picture subcommand, svg, and the picture of `solve --svg` (render/svg.h draws; this file
// supplies notation's labels and move text).
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "cli/cli_svg.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"

namespace fived::cli {

namespace {

struct SvgCli {
    InputOptions    in;
    std::string     out = "-";
    render::Options opt;
};

int cmd_svg(const SvgCli& c) {
    int  played = 0;
    auto game   = load(c.in, &played);
    if (!game) return ExitBadInput;
    const int           k  = int(game->mainLine.size());
    movegen::Multiverse mv = final_position(*game);
    render::Scene       scene;
    scene.caption.push_back((c.in.file == "-" ? std::string("<stdin>") : c.in.file) + ", after "
        + std::to_string(k) + " of " + std::to_string(played) + " actions");
    scene.caption.push_back(render::state_text(mv));
    if (k > 0) {
        // The last action, in full notation from the position before it.
        const std::vector<movegen::Move> last = game->mainLine.back();
        game->mainLine.pop_back();
        movegen::Multiverse before = final_position(*game);
        game->mainLine.push_back(last);
        scene.caption.push_back("last action"
            + (last.size() > 1 ? " (" + std::to_string(last.size()) + " moves)" : std::string())
            + ": " + notation::format_action(before, last));
        for (const movegen::Move& m : last)
            scene.arrows.push_back({m, render::ArrowKind::LastAction});
    }
    return write_svg(c.out, mv, std::move(scene), c.opt) ? ExitOk : ExitBadInput;
}

} // namespace

bool write_output(const std::string& out, const std::string& text) {
    if (out == "-") {
        std::cout << text;
        return bool(std::cout.flush());
    }
    std::ofstream f(out, std::ios::binary);
    if (f) f << text;
    if (f) f.close();
    if (!f) {
        std::cerr << out << ": cannot write file\n";
        return false;
    }
    return true;
}

bool write_svg(const std::string& out, const movegen::Multiverse& mv, render::Scene scene,
    const render::Options& opt) {
    const bool even = mv.even();
    scene.lineLabel = [even](int l) { return notation::canonical_line_label(l, even); };
    for (render::Arrow& a : render::check_arrows(mv))
        scene.arrows.push_back(a);
    return write_output(out, render::svg(mv, scene, opt));
}

bool write_key_svg(const std::string& out, const std::string& file, const movegen::Multiverse& root,
    std::span<const std::vector<movegen::Move>> keys, const std::string& result) {
    movegen::Multiverse mv = root.fork();
    render::Scene       scene;
    scene.caption.push_back(file + ": " + result);
    scene.caption.push_back(render::state_text(mv));
    for (std::size_t i = 0; i < keys.size(); ++i) {
        scene.caption.push_back(
            std::string(i ? "other key: " : "key: ") + notation::format_action(mv, keys[i]));
        for (const movegen::Move& m : keys[i])
            scene.arrows.push_back({m, render::ArrowKind::Key});
    }
    return write_svg(out, mv, std::move(scene), render::Options{});
}

void add_picture_options(CLI::App* cmd, render::Options& opt) {
    cmd->add_option("--max-timelines", opt.maxTimelines,
           "timelines drawn at most; the others are summarised as \"+N more\" (default 16)")
        ->check(CLI::Range(1, 4096));
    cmd->add_option("--max-turns", opt.maxHalfTurns,
           "half-turn columns drawn at most, the latest (default 20)")
        ->check(CLI::Range(1, 16384));
    cmd->add_option("--width", opt.maxWidth, "fit the boards into this width (default 1600)")
        ->check(CLI::Range(100.0, 100000.0));
    cmd->add_option("--height", opt.maxHeight, "and this height (default 1400)")
        ->check(CLI::Range(100.0, 100000.0));
    cmd->add_flag("--unmoved", opt.unmovedMarks,
        "mark pawns, brawns, kings and rooks that never moved (a green dot)");
}

void register_svg_command(const Commands& commands, int& exitCode) {
    auto c = std::make_shared<SvgCli>();
    if (auto* cmd = commands.add("svg",
            "picture of the final position (SVG): boards by timeline and turn, the present, "
            "the last action's moves as arrows, checks")) {
        add_position_input(cmd, c->in, "draw");
        cmd->add_option(
            "-o,--output", c->out, "write the SVG to this file ('-' = standard output)");
        add_picture_options(cmd, c->opt);
        cmd->callback([&exitCode, c] { exitCode = cmd_svg(*c); });
    }
}

} // namespace fived::cli
