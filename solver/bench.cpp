#include "solver/bench.h"

#include <xxhash.h>

#include "solver/solver.h"

namespace fived::solver {

namespace {

// Small puzzles whose positions are free to embed: the official in-game puzzle Rook Tactics I
// and positions from adri326/5dchess-tools (MIT, Copyright (c) 2020 Adrien Burgun), plus the
// project's own compositions.
constexpr BenchPuzzle Suite[] = {
    {"rook-tactics-1", R"([Size "5x5"]
[Board "custom"]
[4k/5/5/5/K1R2:0:1:w]
1. (0T1)Kb2 / (0T1)Ke4
2. (0T2)Re1 / (0T2)Kd3
)",
        1, false},
    {"fived-corner-rook", R"([Size "5x5"]
[Board "custom"]
[k4/5/1K3/5/4R:0:1:w]
)",
        1, false},
    {"standard-mate-1", R"([Board "custom"]
[Size "8x8"]
[r*1b2b2/p*p*1p*1kp*1/2n2n2/q1p1p2p/2P4P/2NBP3/P*P*1P*1P*P*1/R*1BQK*2R*:0:1:w]
1. (0T1)Bh7 / (0T1)g6
)",
        1, false},
    {"rook-tactics-2", R"([Size "6x6"]
[Board "custom"]
[6/5k/6/6/1R4/KR4:0:1:w]
1. Re2 / Kf4
)",
        2, false},
    {"rook-tactics-3", R"([Size "5x5"]
[Board "custom"]
[2p*1k/5/5/5/KR3:0:1:w]
1. Rd1 / Ke4
2. Re1+ / Kd5
3. (0T3)Re1>>(0T2)e1~ / (1T2)Ke4>>(0T3)e4
)",
        2, true},
    {"advanced-branching-2", R"([Size "4x4"]
[Board "custom"]
[n1bk/4/4/KR1B:0:1:w]
1. Bxa4 / Kd3
2. Rc1 / Bb3
3. (0T3)Rc1>>(0T1)c1~
)",
        1, false},
    // Ours: mate in 3 (key (0T1)Rc1c5), so that the suite has defender nodes two attacker
    // actions from the end (the killers' node budget, Searcher::narrow_checks_first).
    {"fived-two-rooks-knight", R"([Size "5x5"]
[Board "custom"]
[k3n/5/5/5/K1R1R:0:1:w]
)",
        3, false},
};

void hash_u64(XXH3_state_t* st, std::uint64_t v) { XXH3_64bits_update(st, &v, sizeof v); }

} // namespace

std::span<const BenchPuzzle> bench_suite() { return Suite; }

BenchReport run_bench(std::span<const BenchCase> cases, std::size_t hashMb, int threads) {
    BenchReport   rep;
    XXH3_state_t* sig = XXH3_createState();
    XXH3_state_t* ans = XXH3_createState();
    XXH3_64bits_reset(sig);
    XXH3_64bits_reset(ans);
    for (const BenchCase& c : cases) {
        SolveOptions o;
        o.maxMate           = c.maxMate;
        o.threads           = threads;
        o.fixedThreads      = true; // the search as configured, whatever else runs
        o.hashMb            = hashMb;
        o.buildTree         = false;
        o.allKeys           = true;
        const SolveResult r = solve(*c.position, o);
        if (r.noMemory) {
            rep.noMemory = true;
            rep.lines.clear();
            break;
        }
        BenchLine line{c.id, result_name(r.result), r.mateIn, r.nodes, r.ms, r.error};
        for (XXH3_state_t* st : {sig, ans}) {
            XXH3_64bits_update(st, c.id.data(), c.id.size());
            hash_u64(st, std::uint64_t(r.result));
            hash_u64(st, std::uint64_t(r.mateIn));
            for (const auto& key : r.keys) {
                hash_u64(st, key.size());
                for (const movegen::Move& m : key)
                    hash_u64(st, (std::uint64_t(m.from.raw()) << 32 | m.to.raw()) ^ m.promotion);
            }
        }
        hash_u64(sig, r.nodes);
        rep.nodes += r.nodes;
        rep.ms += r.ms;
        rep.lines.push_back(std::move(line));
    }
    rep.signature = XXH3_64bits_digest(sig);
    rep.answers   = XXH3_64bits_digest(ans);
    XXH3_freeState(sig);
    XXH3_freeState(ans);
    return rep;
}

} // namespace fived::solver
