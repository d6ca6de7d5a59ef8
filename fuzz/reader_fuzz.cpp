// libFuzzer target of the notation reader: any bytes go through parse + tree replay; a tree that
// reads must survive the writer in both styles (parse(write(tree)) == tree, and the canonical
// text is a fixed point); a rejection must carry a position. Anything else aborts.
//
// Build and run with scripts/fuzz.sh (clang, ASan + UBSan).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "notation/reader.h"
#include "notation/writer.h"

namespace {

using namespace fived::notation;

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "reader_fuzz: %s\n%s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ReadOptions            opt;
    opt.maxErrors = 16; // also exercise the recovery after semantic errors
    std::vector<Diagnostic>       errors;
    const std::optional<GameTree> tree = read_game_tree(text, "fuzz", opt, errors);
    if (!tree) {
        if (errors.empty()) fail("rejected without a diagnostic", "");
        for (const Diagnostic& d : errors)
            if (d.pos.line < 1 || d.pos.column < 1 || d.cause.empty())
                fail("diagnostic without a position or cause", d.to_string());
        return 0;
    }
    for (const MoveStyle style : {MoveStyle::FULL, MoveStyle::SHORT}) {
        const std::string             written = write_tree(*tree, style);
        std::vector<Diagnostic>       again;
        const std::optional<GameTree> back =
            read_game_tree(written, "written", ReadOptions{}, again);
        if (!back)
            fail("the writer's output does not read back",
                again.front().to_string() + "\n" + written);
        std::string why;
        if (!same_tree(*tree, *back, &why))
            fail("round trip changed the tree", why + "\n" + written);
        if (write_tree(*back, style) != written)
            fail("the canonical text is not a fixed point", written);
    }
    return 0;
}
