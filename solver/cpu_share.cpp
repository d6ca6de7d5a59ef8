#include "solver/cpu_share.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#if defined(__linux__)
#include <sched.h>
#include <unistd.h>
#endif

namespace fived::solver {

namespace {

// The unsigned numbers of one /proc/stat line after its name; false if one does not parse.
bool fields(std::string_view line, std::vector<std::uint64_t>& out) {
    out.clear();
    std::size_t i = line.find(' ');
    while (i != std::string_view::npos && i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        if (i >= line.size()) break;
        std::uint64_t v   = 0;
        const auto [p, e] = std::from_chars(line.data() + i, line.data() + line.size(), v);
        if (e != std::errc{}) return false;
        out.push_back(v);
        i = std::size_t(p - line.data());
        if (i < line.size() && line[i] != ' ') return false;
    }
    return out.size() >= 4;
}

std::string read_text(const char* path) {
    std::ifstream f(path);
    if (!f) return {};
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

double seconds(clockid_t id) {
    timespec ts{};
    if (clock_gettime(id, &ts) != 0) return 0;
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

} // namespace

std::optional<CpuTicks> parse_proc_stat(std::string_view text, const std::vector<int>& cpus) {
    CpuTicks                   sum;
    std::vector<std::uint64_t> f;
    std::size_t                found = 0;
    while (!text.empty()) {
        const std::size_t      nl   = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (line.size() < 4 || line.substr(0, 3) != "cpu" || line[3] == ' ') continue;
        int cpu           = -1;
        const auto [p, e] = std::from_chars(line.data() + 3, line.data() + line.size(), cpu);
        if (e != std::errc{} || p == line.data() + line.size() || *p != ' ') return std::nullopt;
        if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) continue;
        if (!fields(line, f)) return std::nullopt;
        std::uint64_t total = 0;
        for (const std::uint64_t v : f)
            total += v;
        // user nice system idle iowait irq softirq steal guest guest_nice: guest time is
        // counted in user already; idle and iowait are the CPU's free time.
        if (f.size() >= 10) total -= f[8] + f[9];
        const std::uint64_t idle = f[3] + (f.size() > 4 ? f[4] : 0);
        sum.busy += total - idle;
        ++found;
    }
    if (found != cpus.size() || cpus.empty()) return std::nullopt;
    return sum;
}

std::optional<int> quota_cores(std::string_view cpuMax) {
    std::uint64_t quota = 0, period = 0;
    const char*   end = cpuMax.data() + cpuMax.size();
    const auto    q   = std::from_chars(cpuMax.data(), end, quota);
    if (q.ec != std::errc{} || q.ptr == end || *q.ptr != ' ') return std::nullopt; // "max"
    const auto p = std::from_chars(q.ptr + 1, end, period);
    if (p.ec != std::errc{} || period == 0) return std::nullopt;
    return int(std::max<std::uint64_t>(1, (quota + period - 1) / period));
}

double others_busy(CpuTicks before, CpuTicks after, double ownCpuS, double wallS, long hz) {
    if (wallS <= 0 || hz <= 0 || after.busy < before.busy) return 0;
    const double busyS = double(after.busy - before.busy) / double(hz);
    return std::max(0.0, (busyS - ownCpuS) / wallS);
}

int usable_workers(int threads, int cpus, double othersBusy) {
    const double left = double(cpus) - othersBusy + 0.25;
    return std::clamp(int(std::floor(left)), 1, std::max(threads, 1));
}

// --- MachineCores ------------------------------------------------------------------------------

MachineCores::MachineCores() {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) allowed.push_back(c);
    const long hz = sysconf(_SC_CLK_TCK);
    if (hz > 0) ticks = hz;
    ok = !allowed.empty() && parse_proc_stat(read_text("/proc/stat"), allowed).has_value();
    // A container's CPU quota (cgroup v2 "QUOTA PERIOD", or "max"): the cores it may use at once.
    if (const std::optional<int> q = quota_cores(read_text("/sys/fs/cgroup/cpu.max"))) quota = *q;
#endif
}

double MachineCores::others_now() {
    // "0.52 0.61 0.70 3/512 4242": the fourth field's first number counts the runnable
    // threads, this one among them.
    const std::string  text = read_text("/proc/loadavg");
    std::istringstream in(text);
    std::string        a, b, c, running;
    if (!(in >> a >> b >> c >> running)) return 0;
    int n             = 0;
    const auto [p, e] = std::from_chars(running.data(), running.data() + running.size(), n);
    (void)p;
    if (e != std::errc{}) return 0;
    return std::max(0, n - 1);
}

std::optional<CoreSource::Reading> MachineCores::read() {
    if (!ok) return std::nullopt;
    const std::optional<CpuTicks> t = parse_proc_stat(read_text("/proc/stat"), allowed);
    if (!t) return std::nullopt;
    return Reading{*t, seconds(CLOCK_PROCESS_CPUTIME_ID), seconds(CLOCK_MONOTONIC)};
}

// --- CoreShare ---------------------------------------------------------------------------------

CoreShare::CoreShare(CoreSource& source, int threads_) :
    src(source), threads(std::max(threads_, 1)), workers(threads) { }

int CoreShare::initial() {
    if (threads == 1 || !src.available()) return workers = threads;
    window.clear();
    lastS = -1;
    if (const std::optional<CoreSource::Reading> r = src.read()) window.push_back(*r);
    return workers = usable_workers(threads, src.cpus(), src.others_now());
}

int CoreShare::update(double nowS) {
    if (threads == 1 || !src.available()) return workers;
    if (lastS >= 0 && nowS - lastS < SampleMs / 1000.0) return workers;
    lastS                                      = nowS;
    const std::optional<CoreSource::Reading> r = src.read();
    if (!r) return workers;
    window.push_back(*r);
    if (window.size() > std::size_t(WindowSamples) + 1) window.erase(window.begin());
    const CoreSource::Reading& a = window.front();
    const CoreSource::Reading& b = window.back();
    if (b.wallS - a.wallS < SampleMs / 1000.0) return workers; // too short to tell

    workers = usable_workers(threads, src.cpus(),
        others_busy(a.ticks, b.ticks, b.ownCpuS - a.ownCpuS, b.wallS - a.wallS, src.hz()));
    return workers;
}

} // namespace fived::solver
