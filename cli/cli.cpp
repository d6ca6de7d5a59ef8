#include "cli/cli.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

namespace fived::cli {

void add_input(CLI::App* cmd, InputOptions& in) {
    cmd->add_option("FILE", in.file, "5DPGN / Branched 5DPGN file ('-' for standard input)")
        ->required();
    cmd->add_flag("--lenient", in.lenient,
        "accept a wrong capture mark `x` or jump indicator `>`/`>>` (third-party files)");
}

void add_position_input(CLI::App* cmd, InputOptions& in, const char* what) {
    add_input(cmd, in);
    cmd->add_option("--at", in.at,
           std::string(what)
               + " the position after the first K actions of the main line instead of the final "
                 "one (negative K: |K| actions before the end, -0 the end)")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                const std::size_t digitsAt = !s.empty() && s[0] == '-' ? 1 : 0;
                if (s.size() == digitsAt
                    || s.find_first_not_of("0123456789", digitsAt) != std::string::npos)
                    return "an action count is written in decimal digits, with `-` to count "
                           "from the end, not `"
                        + s + "`";
                return {};
            },
            "K"));
}

std::string display_name(const std::string& file) { return file == "-" ? "<stdin>" : file; }

std::optional<std::string> read_text(const std::string& file) {
    const std::string name = display_name(file);
    std::FILE*        f    = file == "-" ? stdin : std::fopen(file.c_str(), "rb");
    if (!f) {
        std::cerr << name << ": " << std::strerror(errno) << '\n';
        return std::nullopt;
    }
    std::string text;
    char        buf[1 << 16];
    std::size_t got = 0;
    // A directory opens but fails the first read (EISDIR): every read error is reported.
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, got);
    const bool failed = std::ferror(f);
    const int  err    = errno;
    if (f != stdin) std::fclose(f);
    if (failed) {
        std::cerr << name << ": " << std::strerror(err) << '\n';
        return std::nullopt;
    }
    if (const std::optional<std::string> why = notation::not_a_game(text)) {
        std::cerr << name << ": " << *why << '\n';
        return std::nullopt;
    }
    return text;
}

std::optional<notation::LoadedGame> load(const InputOptions& in, int* played) {
    const std::optional<std::string> text = read_text(in.file);
    if (!text) return std::nullopt;
    const notation::ReadOptions          opt = notation::read_options(in.lenient);
    absl::StatusOr<notation::LoadedGame> game =
        notation::load_game(*text, display_name(in.file), opt);
    if (!game.ok()) {
        std::cerr << game.status().message() << '\n';
        return std::nullopt;
    }
    const int n = int(game->mainLine.size());
    if (played) *played = n;
    if (!in.at.empty()) {
        // Digits as checked by add_position_input(); any number of them (a count beyond the
        // main line is out of range however large), `-` counting from the end (`-0`: the end).
        const bool        fromEnd = in.at[0] == '-';
        const std::string digits  = in.at.substr(fromEnd ? 1 : 0);
        const std::size_t first   = std::min(digits.find_first_not_of('0'), digits.size());
        long long         count   = -1; // -1: more than any main line
        if (digits.size() - first <= 9) count = digits.empty() ? 0 : std::stoll(digits);
        const long long k = fromEnd && count >= 0 ? n - count : count;
        if (count < 0 || k < 0 || k > n) {
            std::cerr << display_name(in.file) << ": --at " << in.at << ": the main line has " << n
                      << " actions\n";
            return std::nullopt;
        }
        game->mainLine.resize(std::size_t(k));
    }
    return std::move(*game);
}

movegen::Multiverse final_position(const notation::LoadedGame& g) {
    movegen::Multiverse            mv = g.start.fork();
    std::vector<movegen::MoveUndo> undo;
    notation::play_main_line(mv, g, g.mainLine.size(), undo);
    return mv;
}

std::optional<Claim> read_claim(
    const std::string* value, const std::string& where, movegen::Color toMove, bool& refused) {
    refused = false;
    if (!value) return std::nullopt;
    std::string                why;
    const std::optional<Claim> c = notation::check_claim(*value, toMove, why);
    if (!c) {
        std::cerr << where << ": [Puzzle \"" << *value << "\"]: " << why << '\n';
        refused = true;
    }
    return c;
}

// --- signals and validators -------------------------------------------------------------------

namespace {

std::atomic<bool> interruptFlag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_interrupt(int) { interruptFlag.store(true); }

} // namespace

const std::atomic<bool>* catch_interrupts() {
    struct sigaction sa { };
    sa.sa_handler = on_interrupt;
    sa.sa_flags   = SA_RESETHAND; // a second signal ends the process as usual
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    return &interruptFlag;
}

std::unique_ptr<tbb::global_control> allow_threads(int threads) {
    const std::size_t want = std::size_t(std::max(threads, 1));
    if (want <= tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism))
        return nullptr;
    return std::make_unique<tbb::global_control>(
        tbb::global_control::max_allowed_parallelism, want);
}

CLI::Validator positive_seconds() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            char*        end = nullptr;
            const double v   = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0' || !std::isfinite(v) || !(v > 0))
                return "a time limit is a positive number of seconds, not `" + s + "`";
            return {};
        },
        "SECONDS>0");
}

CLI::Validator digits() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
                return "a count is written in decimal digits, not `" + s + "`";
            return {};
        },
        "COUNT");
}

namespace {

// A whole decimal number, from 0 to 1,000,000,000 (nothing else: no sign, no trailing text).
bool whole_number(const char* text, int& value) {
    const std::string_view t(text);
    if (t.empty() || t.size() > 10 || t.find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    const long long v = std::stoll(std::string(t));
    if (v > 1'000'000'000) return false;
    value = int(v);
    return true;
}

// The part from Slurm's job-array variables; `present` false when the job is not an array task.
bool slurm_shard(const char* command, bool& present, int& index, int& count) {
    const char* id  = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* cnt = std::getenv("SLURM_ARRAY_TASK_COUNT");
    const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
    const char* max = std::getenv("SLURM_ARRAY_TASK_MAX");
    present         = id && (cnt || (min && max));
    if (!present) return true;
    int         idN = 0, minN = 0, maxN = 0;
    const char* wrong = !whole_number(id, idN) ? "SLURM_ARRAY_TASK_ID"
        : cnt && !whole_number(cnt, count)     ? "SLURM_ARRAY_TASK_COUNT"
        : min && !whole_number(min, minN)      ? "SLURM_ARRAY_TASK_MIN"
        : !cnt && !whole_number(max, maxN)     ? "SLURM_ARRAY_TASK_MAX"
                                               : nullptr;
    if (wrong) {
        std::cerr << command << ": " << wrong << "=" << std::getenv(wrong)
                  << " is not a task number (use --shard I/N outside a Slurm job array)\n";
        return false;
    }
    if (!cnt) count = maxN - minN + 1;
    index = idN - minN + 1;
    if (count < 1 || index < 1 || index > count) {
        std::cerr << command << ": SLURM_ARRAY_TASK_ID " << id << " is not within the " << count
                  << " tasks of the array\n";
        return false;
    }
    return true;
}

} // namespace

bool parse_shard(const std::string& spec, const char* command, bool slurmWhenEmpty, int& index,
    int& count, const char* option) {
    index = 1;
    count = 1;
    if (spec == "slurm" || (spec.empty() && slurmWhenEmpty)) {
        bool present = false;
        if (!slurm_shard(command, present, index, count)) return false;
        if (!present && !spec.empty()) {
            std::cerr << command << ": " << option
                      << " slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (or "
                         "_MIN and _MAX) are not set: not a task of a Slurm job array\n";
            return false;
        }
        return true;
    }
    if (spec.empty()) return true;
    const std::size_t slash = spec.find('/');
    if (slash == std::string::npos || !whole_number(spec.substr(0, slash).c_str(), index)
        || !whole_number(spec.substr(slash + 1).c_str(), count) || count < 1 || index < 1
        || index > count) {
        std::cerr << command << ": " << option << ' ' << spec
                  << ": expected I/N with 1 <= I <= N\n";
        return false;
    }
    return true;
}

} // namespace fived::cli
