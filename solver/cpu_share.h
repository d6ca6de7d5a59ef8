#pragma once
// How many of the solve's threads the machine can run now (issue 58: "a user who passes
// --threads 2 should never lose time").
//
// The parallel split (split.cpp) pays only when its workers run at once: a worker that has no
// core makes the others wait at the split, and its speculative siblings are work the serial
// search would not have done. Measured on main e82ec1d, 2 cores with one compile running beside
// it: tools-standard-checkmate-4 --at -5 --mate 3, 1 thread 6.9 s, 2 threads 8.4 s (826,761
// nodes against 661,256); js-reversed-royalty --at -5 --mate 3, 1.6 s against 3.7 s. So the
// driver's watcher measures, every SampleMs, how many cores the other processes of the machine
// keep busy (the busy time of the CPUs this process may run on, from /proc/stat, less the
// process's own CPU time) and lets the search split over as many workers as are left
// (SearchContext::splitWorkers): with none left for a second worker the search is the serial
// one, so it is as fast as one thread. The answer does not depend on it (values are exact);
// node counts and timing do, as they do on the schedule.
//
// The cores: the CPUs this process may run on (its affinity), at most its container's CPU quota
// (cgroup v2 cpu.max). Not Linux, or /proc unreadable: every thread, always
// (CoreSource::available() false).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace fived::solver {

// Busy time (clock ticks) of a set of CPUs, summed.
struct CpuTicks {
    std::uint64_t busy = 0;
};

// The CPUs' line of /proc/stat text summed over the CPUs whose index is in `cpus` ("cpuN user
// nice system idle iowait irq softirq steal ..."; idle and iowait are not busy). nullopt when
// the text has no line for one of them or a line does not parse.
std::optional<CpuTicks> parse_proc_stat(std::string_view text, const std::vector<int>& cpus);

// The cores a cgroup v2 CPU quota allows at once ("QUOTA PERIOD" of cpu.max, rounded up);
// nullopt for "max" (no quota) or a text that does not parse.
std::optional<int> quota_cores(std::string_view cpuMax);

// Cores the other processes kept busy between two readings: the CPUs' busy time less this
// process's own CPU time (ownCpuS seconds), over the window's wall time (wallS seconds), at
// `hz` ticks per second. Never below 0.
double others_busy(CpuTicks before, CpuTicks after, double ownCpuS, double wallS, long hz);

// How many workers a split should use: the cores left by the others (cpus - othersBusy), with a
// quarter of a core of slack for the short processes of a desktop, within 1..threads.
int usable_workers(int threads, int cpus, double othersBusy);

// Where the readings come from: the machine (this process's CPU affinity, /proc/stat and the
// process CPU clock), or a test's stand-in.
class CoreSource {
public:
    virtual ~CoreSource() = default;
    // Can this source tell anything? Else the driver splits over every thread, as it would
    // without it.
    virtual bool available() const = 0;
    // The CPUs this process may run on.
    virtual int cpus() const = 0;
    // The first estimate, at the start of a solve, with no window yet: cores the others keep
    // busy now.
    virtual double others_now() = 0;
    // A reading: the CPUs' ticks, this process's CPU seconds and the wall clock's seconds.
    struct Reading {
        CpuTicks ticks;
        double   ownCpuS = 0;
        double   wallS   = 0;
    };
    virtual std::optional<Reading> read()     = 0;
    virtual long                   hz() const = 0;
};

// The machine's readings (Linux). Its first estimate is /proc/loadavg's count of runnable
// threads less this one.
class MachineCores final : public CoreSource {
public:
    MachineCores();
    bool available() const override { return ok; }
    // The CPUs of this process's affinity, at most its container's quota.
    int                    cpus() const override { return std::min(int(allowed.size()), quota); }
    double                 others_now() override;
    std::optional<Reading> read() override;
    long                   hz() const override { return ticks; }

private:
    std::vector<int> allowed;
    long             ticks = 100;
    int              quota = 1 << 20;
    bool             ok    = false;
};

// The watcher's side: readings every SampleMs, the decision over the last WindowSamples of them.
class CoreShare {
public:
    static constexpr int SampleMs      = 100;
    static constexpr int WindowSamples = 3;

    CoreShare(CoreSource& source, int threads);
    // The workers to start with (from CoreSource::others_now()).
    int initial();
    // Called by the watcher (every 20 ms): a new decision once SampleMs passed, else the last.
    int update(double nowS);

private:
    CoreSource&                      src;
    int                              threads;
    int                              workers;
    double                           lastS = -1;
    std::vector<CoreSource::Reading> window; // the last readings, oldest first
};

} // namespace fived::solver
