// The notation subcommands (registered by main.cpp): fmt, fen, hash, check-notation.
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "notation/fen.h"
#include "notation/parser.h"
#include "notation/reader.h"
#include "notation/writer.h"
#include "report/engine_json.h"

namespace fived::cli {

namespace {

using notation::read_options;

// fmt: the whole tree, every variation, in canonical form.
int cmd_fmt(const InputOptions& in, const std::string& style) {
    const std::optional<std::string> text = read_text(in.file);
    if (!text) return ExitBadInput;
    std::vector<notation::Diagnostic>       errors;
    const std::optional<notation::GameTree> tree =
        notation::read_game_tree(*text, display_name(in.file), read_options(in.lenient), errors);
    if (!tree) {
        for (const notation::Diagnostic& d : errors)
            std::cerr << d.to_string() << '\n';
        return ExitBadInput;
    }
    std::cout << notation::write_tree(
        *tree, style == "short" ? notation::MoveStyle::SHORT : notation::MoveStyle::FULL);
    return ExitOk;
}

int cmd_fen(const InputOptions& in, bool json) {
    const auto game = load(in);
    if (!game) return ExitBadInput;
    // The headers the boards need to be read back (a 5x5 board, promotions): the output is a
    // file fived reads as the same position.
    const movegen::Multiverse mv  = final_position(*game);
    const std::string         fen = notation::fen_headers(mv) + notation::fen_of(mv);
    if (json)
        std::cout << report::fen_json(fen) << '\n';
    else
        std::cout << fen;
    return ExitOk;
}

int cmd_hash(const InputOptions& in, bool json) {
    const auto game = load(in);
    if (!game) return ExitBadInput;
    const std::string hash = notation::state_hash(final_position(*game));
    if (json)
        std::cout << report::hash_json(hash) << '\n';
    else
        std::cout << hash << '\n';
    return ExitOk;
}

// check-notation: every file parsed and every variation replayed; all problems reported.
int cmd_check(const std::vector<std::string>& files, bool lenient, bool json) {
    std::vector<report::CheckedFile> checked;
    notation::ReadOptions            opt = read_options(lenient);
    opt.annotate                         = false; // marks are not checked (NOTATION.md §5 step 6)
    opt.maxErrors                        = 1000;
    bool allFine                         = true;
    for (const std::string& file : files) {
        const std::optional<std::string> text = read_text(file);
        if (!text) {
            allFine = false;
            if (json)
                checked.push_back(
                    {display_name(file), false, {display_name(file) + ": cannot be read"}, {}});
            continue;
        }
        // Streamed: neither the syntax tree nor a game tree is kept (memory grows with the
        // depth of the text's tree, not its size).
        std::vector<notation::Diagnostic> errors, warnings;
        const bool                        ok =
            notation::check_game_text(*text, display_name(file), opt, errors, &warnings);
        std::vector<std::string> errs, warns;
        for (const notation::Diagnostic& w : warnings) {
            const std::string line = w.file + ':' + std::to_string(w.pos.line) + ':'
                + std::to_string(w.pos.column) + ": warning: " + w.cause;
            if (json)
                warns.push_back(line);
            else
                std::cerr << line << '\n';
        }
        for (const notation::Diagnostic& d : errors) {
            if (json)
                errs.push_back(d.to_string());
            else
                std::cerr << d.to_string() << '\n';
        }
        if (json) checked.push_back({display_name(file), ok, std::move(errs), std::move(warns)});
        allFine = allFine && ok;
    }
    const int code = allFine ? ExitOk : ExitBadInput;
    if (json) std::cout << report::check_notation_json(checked, code) << '\n';
    return code;
}

} // namespace

void register_notation_commands(const Commands& commands, int& exitCode) {
    auto in    = std::make_shared<InputOptions>();
    auto style = std::make_shared<std::string>("full");
    auto json  = std::make_shared<bool>(false);
    if (auto* fmt = commands.add(
            "fmt", "the canonical Branched 5DPGN of the whole game tree (NOTATION.md §7)")) {
        add_input(fmt, *in);
        fmt->add_option("--style", *style, "move style: full `(0T1)Pe2e3` or short `e3`")
            ->check(CLI::IsMember({"full", "short"}));
        fmt->callback([&exitCode, in, style] { exitCode = cmd_fmt(*in, *style); });
    }

    if (auto* fen = commands.add("fen", "5DFEN of every board of the final position")) {
        add_position_input(fen, *in, "use");
        fen->add_flag("--json", *json, "print one JSON object");
        fen->callback([&exitCode, in, json] { exitCode = cmd_fen(*in, *json); });
    }

    if (auto* hash = commands.add(
            "hash", "Shad's MD5 state hash of the final position (5DFEN of all boards)")) {
        add_position_input(hash, *in, "use");
        hash->add_flag("--json", *json, "print one JSON object");
        hash->callback([&exitCode, in, json] { exitCode = cmd_hash(*in, *json); });
    }

    auto files   = std::make_shared<std::vector<std::string>>();
    auto lenient = std::make_shared<bool>(false);
    if (auto* check = commands.add("check-notation",
            "parse and replay every variation of each file; report every problem as "
            "FILE:LINE:COL: CAUSE (exit 0 if all are fine, else 2)")) {
        check->add_option("FILES", *files, "5DPGN / Branched 5DPGN files ('-' for standard input)")
            ->required();
        check->add_flag("--lenient", *lenient,
            "accept a wrong capture mark `x` or jump indicator `>`/`>>` (third-party files)");
        check->add_flag("--json", *json,
            "print one JSON object: per file `ok`, `errors` and `warnings` (as text lines)");
        check->callback(
            [&exitCode, files, lenient, json] { exitCode = cmd_check(*files, *lenient, *json); });
    }
}

} // namespace fived::cli
