// libFuzzer target of `fived shard-merge` (cli/cli_shard.h shard_merge()): any bytes as record
// files (hostile JSON, forged records and items, sub-parts, trees, truncated lines; a NUL splits
// the input into two files) must give an answer (exit 0, 1 or 3 with text on stdout) or a
// refusal (exit 2, nothing on stdout, a `FILE:LINE:1: cause` or `fived shard-merge: cause` on
// stderr), never a crash, an exception or another exit status (README "One puzzle on many
// machines").
//
// Build and run with scripts/fuzz.sh (clang, ASan + UBSan).

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli_shard.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "shard_fuzz: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// A file of this process's own under TMPDIR (or /tmp), rewritten for each input.
std::string scratch(int n) {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/shard_fuzz-" + std::to_string(getpid()) + "-"
        + std::to_string(n) + ".json";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view   text(reinterpret_cast<const char*>(data), size);
    const std::size_t        cut = text.find('\0');
    std::vector<std::string> files;
    for (const std::string_view part : {text.substr(0, cut),
             cut == std::string_view::npos ? std::string_view() : text.substr(cut + 1)}) {
        if (!files.empty() && cut == std::string_view::npos) break;
        files.push_back(scratch(int(files.size())));
        std::ofstream(files.back(), std::ios::binary) << part;
    }
    for (const bool asJson : {false, true}) {
        std::ostringstream out, err;
        std::streambuf*    oldOut = std::cout.rdbuf(out.rdbuf());
        std::streambuf*    oldErr = std::cerr.rdbuf(err.rdbuf());
        const int          rc     = fived::cli::shard_merge(files, asJson);
        std::cout.rdbuf(oldOut);
        std::cerr.rdbuf(oldErr);
        const std::string said = err.str();
        if (rc == 2) {
            if (!out.str().empty()) fail("a refusal with an answer on stdout", out.str());
            const bool named = said.rfind("fived shard-merge: ", 0) == 0
                || said.find(":1: ") != std::string::npos
                || said.find(": no record (an empty file)") != std::string::npos;
            if (!named) fail("a refusal that names no record", said);
        } else if (rc == 0 || rc == 1 || rc == 3) {
            if (out.str().empty()) fail("an answer without text", said);
        } else {
            fail("an exit status that is none of 0, 1, 2, 3", std::to_string(rc) + "\n" + said);
        }
    }
    for (const std::string& f : files)
        std::remove(f.c_str());
    return 0;
}
