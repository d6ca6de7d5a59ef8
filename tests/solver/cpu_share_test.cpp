// How many workers the parallel split uses while other processes take the cores (cpu_share.h),
// and that the search then does what one thread does.
#include <gtest/gtest.h>

#include "solver/cpu_share.h"
#include "tests/solver/search_test_util.h"

namespace fived::solver {
namespace {

using namespace searchtest;

// Three CPUs, the second one's guest time counted inside its user time.
constexpr const char* Stat = "cpu  600 0 300 900 100 0 0 0 0 0\n"
                             "cpu0 100 0 100 300 0 0 0 0 0 0\n"
                             "cpu1 400 0 100 300 100 0 0 0 50 0\n"
                             "cpu2 100 0 100 300 0 0 0 0 0 0\n"
                             "intr 1 2 3\n";

TEST(CpuShare, ProcStatSumsTheCpusAskedFor) {
    const std::optional<CpuTicks> one = parse_proc_stat(Stat, {0});
    ASSERT_TRUE(one);
    EXPECT_EQ(one->busy, 200u);
    // cpu1: guest (50) is inside user already (counted twice, busy would be 750); iowait
    // (100) is free time.
    const std::optional<CpuTicks> two = parse_proc_stat(Stat, {1, 2});
    ASSERT_TRUE(two);
    EXPECT_EQ(two->busy, 500u + 200u);
}

TEST(CpuShare, ProcStatWithoutTheCpuOrMalformedIsNothing) {
    EXPECT_FALSE(parse_proc_stat(Stat, {3}));
    EXPECT_FALSE(parse_proc_stat(Stat, {}));
    EXPECT_FALSE(parse_proc_stat("cpu0 1 2 x 4\n", {0}));
    EXPECT_FALSE(parse_proc_stat("cpu0 1 2\n", {0}));
    EXPECT_FALSE(parse_proc_stat("", {0}));
}

TEST(CpuShare, AQuotaIsCoresRoundedUp) {
    EXPECT_EQ(quota_cores("200000 100000\n"), 2);
    EXPECT_EQ(quota_cores("150000 100000"), 2);
    EXPECT_EQ(quota_cores("50000 100000"), 1);
    EXPECT_FALSE(quota_cores("max 100000\n"));
    EXPECT_FALSE(quota_cores(""));
    EXPECT_FALSE(quota_cores("100000 0"));
}

TEST(CpuShare, OthersAreTheBusyTimeLessOurs) {
    // 2 s of busy time over 1 s on 100 Hz ticks, 0.5 s of it ours: 1.5 cores kept by others.
    EXPECT_DOUBLE_EQ(others_busy({100}, {300}, 0.5, 1.0, 100), 1.5);
    // Our own time is never more than the machine's busy time; noise never gives below 0.
    EXPECT_DOUBLE_EQ(others_busy({100}, {150}, 0.9, 1.0, 100), 0.0);
    EXPECT_DOUBLE_EQ(others_busy({100}, {150}, 0.1, 0.0, 100), 0.0);
    EXPECT_DOUBLE_EQ(others_busy({300}, {100}, 0.1, 1.0, 100), 0.0);
}

TEST(CpuShare, WorkersAreTheCoresLeft) {
    EXPECT_EQ(usable_workers(2, 2, 0.0), 2);
    EXPECT_EQ(usable_workers(2, 2, 0.2), 2);  // a desktop's short processes
    EXPECT_EQ(usable_workers(2, 2, 0.9), 1);  // one busy process
    EXPECT_EQ(usable_workers(2, 2, 2.0), 1);  // never below one
    EXPECT_EQ(usable_workers(8, 4, 1.0), 3);  // never above the cores left
    EXPECT_EQ(usable_workers(3, 16, 0.0), 3); // never above the threads
}

// A machine of `n` CPUs on which the others keep `others` cores busy, read every call a tenth of
// a second later; this process uses `ours` cores of it.
class FakeCores final : public CoreSource {
public:
    FakeCores(int n, double others_, double ours_) : others(others_), cpus_(n), ours(ours_) { }
    bool                   available() const override { return true; }
    int                    cpus() const override { return cpus_; }
    double                 others_now() override { return others; }
    std::optional<Reading> read() override {
        Reading r{{std::uint64_t(busy)}, ownS, t};
        t += 0.1;
        busy += (others + ours) * 10;
        ownS += ours * 0.1;
        return r;
    }
    long hz() const override { return 100; }

    double others;

private:
    int    cpus_;
    double ours;
    double t = 0, busy = 0, ownS = 0;
};

TEST(CpuShare, TheDecisionFollowsTheOthers) {
    FakeCores machine(2, 0.0, 2.0);
    CoreShare share(machine, 2);
    EXPECT_EQ(share.initial(), 2);
    EXPECT_EQ(share.update(0.05), 2); // the first reading: too short a window to tell
    // A busy process starts: once its time is in the window, one worker.
    machine.others = 1.0;
    double now     = 0.05;
    int    w       = 2;
    for (int i = 0; i < 8; ++i)
        w = share.update(now += 0.1);
    EXPECT_EQ(w, 1);
    // Between readings the last decision holds.
    EXPECT_EQ(share.update(now + 0.01), 1);
    machine.others = 0.0;
    for (int i = 0; i < 8; ++i)
        w = share.update(now += 0.1);
    EXPECT_EQ(w, 2);
}

TEST(CpuShare, OneThreadOrNoReadingsKeepTheThreads) {
    FakeCores busy(2, 2.0, 0.0);
    CoreShare one(busy, 1);
    EXPECT_EQ(one.initial(), 1);
    EXPECT_EQ(one.initial(), 1);
    EXPECT_EQ(CoreShare(busy, 2).initial(), 1);
}

// The search on a machine whose cores the others keep busy splits nothing: it is the one-thread
// search, node for node; with the cores free, or fixedThreads, it splits, with the same answer.
TEST(Solver, ThreadsOnABusyMachineSearchAsOne) {
    std::uint64_t splitIdle = 0, splitFixed = 0;
    for (const Embedded& e : embedded()) {
        auto root = load_text(e.pgn);
        ASSERT_TRUE(root);
        SolveOptions o       = options(e.bound, 1);
        o.fixedThreads       = false;
        o.splitHeight        = 1; // split everywhere it may
        o.splitDefender      = true;
        const SolveResult r1 = solve(*root, o);
        EXPECT_EQ(r1.splits, 0u) << e.id;

        FakeCores busy(2, 2.0, 0.0);
        o.threads            = 2;
        o.cores              = &busy;
        const SolveResult r2 = solve(*root, o);
        EXPECT_EQ(r2.result, r1.result) << e.id;
        EXPECT_EQ(r2.mateIn, r1.mateIn) << e.id;
        EXPECT_EQ(r2.keys, r1.keys) << e.id;
        EXPECT_EQ(r2.splits, 0u) << e.id;
        EXPECT_EQ(r2.nodes, r1.nodes) << e.id;

        FakeCores idle(2, 0.0, 0.0);
        o.cores              = &idle;
        const SolveResult ri = solve(*root, o);
        EXPECT_EQ(ri.result, r1.result) << e.id;
        EXPECT_EQ(ri.keys, r1.keys) << e.id;
        splitIdle += ri.splits;

        o.cores              = &busy;
        o.fixedThreads       = true;
        const SolveResult rx = solve(*root, o);
        EXPECT_EQ(rx.keys, r1.keys) << e.id;
        splitFixed += rx.splits;
    }
    EXPECT_GT(splitIdle, 0u);
    EXPECT_GT(splitFixed, 0u);
}

} // namespace
} // namespace fived::solver
