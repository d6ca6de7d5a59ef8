// `fived batch` and `fived batch-merge`: whole collections, on one machine or as the tasks of a
// cluster job array (README "Collections").
//
// Each item runs as a child process of this program (`fived solve|verify FILE --json ...`),
// so an item that fails in any way (bad input, an internal error, even a crash) becomes a
// record with its exit status and message, never the end of the run; `--jobs` children run at
// once. The records are JSON lines, written as items finish; `batch-merge` joins the lines of
// several runs or shards, sorted by file, and prints a summary.
//
// Children: started with fork/exec (no shell), each in a process group of its own, with
// standard input /dev/null, and killed by the kernel if batch dies (PR_SET_PDEATHSIG). SIGINT or
// SIGTERM to batch kills every running child (its whole group), writes no record for the items
// they were doing (--resume does them again) and makes batch exit with ExitUnknown. Only the
// main thread takes those signals: the workers block them, so a child never runs batch's handler
// between fork and exec.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/batch_records.h"
#include "cli/cli.h"
#include "report/batch_json.h"
#include "report/json_text.h"

namespace fived::cli {

static_assert(RecordStatus::Ok == ExitOk && RecordStatus::Negative == ExitNegative
    && RecordStatus::Unknown == ExitUnknown && RecordStatus::Internal == ExitInternal);

namespace {

namespace fs = std::filesystem;

struct BatchCli {
    std::vector<std::string> inputs; // files and folders
    std::string              list;   // a file naming one input a line
    bool                     verify = false;
    int                      jobs   = 0; // 0: the machine's cores
    std::string              out;        // JSON lines here (default: standard output)
    bool                     resume = false;
    std::string              shard; // I/N
    bool                     progress = false;
    bool                     lenient  = false;
    int                      mate     = 0;
    double                   time     = 0;
    std::uint64_t            nodes    = 0;
    std::size_t              hashMb   = 16;
};

// One input: a file to run, or (error set) a path that gives an error record without a child:
// a FIFO or another file that is not a regular one (a child would block on it), a folder that
// cannot be listed.
struct Item {
    std::string path;
    std::string error;
    bool        operator<(const Item& o) const { return path < o.path; }
};

bool wanted_extension(const fs::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".5dpgn" || ext == ".5dfen";
}

// A named input that is neither a folder nor a regular file (a FIFO, a device, a socket): its
// error, else empty. A missing file is left to the child, whose message says so.
std::string not_regular(const std::string& path) {
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return {};
    return path + ": not a regular file (a FIFO, a device or a socket); not read";
}

// Every *.5dpgn / *.5dfen below `dir` (symbolic links to folders are not followed): regular
// files as items, other files of those names and folders that cannot be listed as error items.
void walk(const fs::path& dir, std::vector<Item>& items) {
    std::error_code        ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
        items.push_back({dir.string(), dir.string() + ": cannot be listed: " + ec.message()});
        return;
    }
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const fs::directory_entry& e = *it;
        std::error_code            e1;
        if (e.is_directory(e1) && !e.is_symlink(e1)) {
            walk(e.path(), items);
        } else if (wanted_extension(e.path())) {
            if (e.is_regular_file(e1))
                items.push_back({e.path().string(), {}});
            else if (std::string why = not_regular(e.path().string()); !why.empty())
                items.push_back({e.path().string(), why});
        }
    }
    if (ec) items.push_back({dir.string(), dir.string() + ": cannot be listed: " + ec.message()});
}

// The inputs, each once, sorted: files as given, folders searched for *.5dpgn and *.5dfen.
bool collect_inputs(const BatchCli& c, std::vector<Item>& items) {
    std::vector<std::string> named = c.inputs;
    if (!c.list.empty()) {
        if (std::string why = not_regular(c.list); !why.empty()) {
            std::cerr << why << '\n';
            return false;
        }
        std::ifstream in(c.list);
        if (!in) {
            std::cerr << c.list << ": cannot be read\n";
            return false;
        }
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != '#') named.push_back(line);
    }
    std::vector<Item> all;
    for (const std::string& n : named) {
        std::error_code ec;
        if (fs::is_directory(n, ec))
            walk(n, all);
        else
            all.push_back({n, not_regular(n)}); // a missing file becomes an error record
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end(),
                  [](const Item& a, const Item& b) { return a.path == b.path; }),
        all.end());
    items = std::move(all);
    return true;
}

// Shard I of N (1-based) from --shard or Slurm's job-array variables; {1, 1} without either.
bool shard_of(const BatchCli& c, int& index, int& count) {
    return parse_shard(c.shard, "fived batch", true, index, count);
}

// SIGINT / SIGTERM / SIGHUP during a run (see the top of this file).
std::atomic<int> stopSignal{0};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free,
    "used from a signal handler");
std::unique_ptr<std::atomic<pid_t>[]> running; // per worker: its child (its process group), or 0
std::size_t                           runningSlots  = 0;
constexpr int                         StopSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void on_batch_stop(int sig) {
    stopSignal.store(sig);
    for (std::size_t i = 0; i < runningSlots; ++i)
        if (const pid_t p = running[i].load(); p > 0) {
            kill(-p, SIGKILL);
            kill(p, SIGKILL);
        }
}

std::string signal_name(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
        s.pop_back();
    return s;
}

// The command line of an item's child: `PROGRAM solve|verify FILE --json` and the per-item
// options.
std::vector<std::string> child_args(
    const std::string& program, const BatchCli& c, const std::string& file) {
    std::vector<std::string> args{program, c.verify ? "verify" : "solve", file, "--json"};
    if (!c.verify) args.emplace_back("--quiet");
    if (c.lenient) args.emplace_back("--lenient");
    if (c.mate && !c.verify) args.insert(args.end(), {"--mate", std::to_string(c.mate)});
    if (c.time > 0) args.insert(args.end(), {"--time", std::to_string(c.time)});
    if (c.nodes) args.insert(args.end(), {"--nodes", std::to_string(c.nodes)});
    args.insert(args.end(), {"--hash", std::to_string(c.hashMb)});
    return args;
}

// The child, after fork (async-signal-safe calls only): a process group of its own, killed when
// batch dies, standard input /dev/null, output to outFd, errors to errFd, the stop signals back
// to their defaults and unblocked, then argv run.
[[noreturn]] void exec_child(const std::vector<char*>& argv, pid_t parent, int outFd, int errFd) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int nul = ::open("/dev/null", O_RDONLY);
    if (nul < 0 || ::dup2(nul, 0) < 0 || ::dup2(outFd, 1) < 0 || ::dup2(errFd, 2) < 0) ::_exit(127);
    struct sigaction dfl { };
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (const int s : StopSignals)
        ::sigaction(s, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execv(argv[0], argv.data());
    static const char           msg[] = "fived batch: cannot run the child program\n";
    [[maybe_unused]] const auto n     = ::write(2, msg, sizeof msg - 1);
    ::_exit(127);
}

// Everything fd gives until its end.
std::string read_to_end(int fd) {
    std::string out;
    char        buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0)
            out.append(buf, std::size_t(n));
        else if (n < 0 && errno == EINTR)
            continue;
        else
            break;
    }
    return out;
}

// Waits for the child `pid` of worker `slot` to end and returns its status. It waits without
// reaping, forgets the pid, then reaps: the handler never signals a pid that could already
// belong to another process.
int reap_child(pid_t pid, std::size_t slot) {
    siginfo_t info{};
    while (::waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) { }
    running[slot].store(0);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    return status;
}

// The record of an item whose child ended with `status`, from what it wrote on standard output
// (its JSON) and in errFile (its standard error).
nlohmann::json child_record(
    nlohmann::json rec, const std::string& out, const std::string& errFile, int status) {
    std::ifstream     ef(errFile);
    const std::string err = trimmed(
        std::string((std::istreambuf_iterator<char>(ef)), std::istreambuf_iterator<char>()));
    report::ChildEnd end;
    if (WIFSIGNALED(status)) {
        end.signaled   = true;
        end.signal     = signal_name(WTERMSIG(status));
        end.signalText = strsignal(WTERMSIG(status));
    } else {
        end.code = WEXITSTATUS(status);
    }
    return report::batch_child_record(std::move(rec), out, err, end);
}

// Runs one item as a child process and returns its record; nullopt when batch was stopped by a
// signal and killed the child (the item is not done).
std::optional<nlohmann::json> run_item(const std::string& program, const BatchCli& c,
    const std::string& file, const std::string& tmpDir, std::size_t slot) {
    std::vector<std::string> args = child_args(program, c, file);
    std::vector<char*>       argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    auto fail = [&](const std::string& what) {
        return report::batch_error_record(
            file, c.verify, ExitInternal, "fived batch: " + what + ": " + std::strerror(errno));
    };
    const std::string errFile = tmpDir + "/stderr." + std::to_string(slot);
    const int errFd = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (errFd < 0) return fail("cannot make a temporary file");
    int pipeFd[2];
    if (::pipe2(pipeFd, O_CLOEXEC) != 0) {
        ::close(errFd);
        return fail("cannot make a pipe");
    }
    const pid_t parent = ::getpid();
    const pid_t pid    = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(errFd);
        ::close(pipeFd[0]);
        ::close(pipeFd[1]);
        errno = e;
        return fail("cannot start a child process");
    }
    if (pid == 0) exec_child(argv, parent, pipeFd[1], errFd);
    ::setpgid(pid, pid); // the child does the same; whichever comes first
    running[slot].store(pid);
    if (stopSignal.load()) { // the handler may have run before the store
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
    }
    ::close(pipeFd[1]);
    ::close(errFd);
    const std::string out = read_to_end(pipeFd[0]);
    ::close(pipeFd[0]);
    const int status = reap_child(pid, slot);
    if (WIFSIGNALED(status) && stopSignal.load()) return std::nullopt;
    return child_record(report::batch_record(file, c.verify), out, errFile, status);
}

// --resume: the files OUT records already (read_done_records); a last line cut short is
// dropped from the file, and any other line that is no record is an error.
bool read_done(const std::string& path, std::set<std::string>& done, bool& newline) {
    newline = false;
    std::error_code ec;
    if (!fs::exists(path, ec)) return true;
    if (std::string why = not_regular(path); !why.empty()) {
        std::cerr << why << '\n';
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << path << ": cannot be read\n";
        return false;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    DoneRecords       r = read_done_records(text);
    if (r.badLine) {
        std::cerr << path << ':' << r.badLine << ":1: not a batch record; --resume does not "
                  << "append to this file\n";
        return false;
    }
    if (r.cutAt) {
        fs::resize_file(path, *r.cutAt, ec);
        if (ec) {
            std::cerr << path << ": cannot drop its truncated last line: " << ec.message() << '\n';
            return false;
        }
        std::cerr << path << ':' << r.cutLine
                  << ":1: a record cut short (a run killed while writing it): dropped, its "
                     "item is done again\n";
    }
    done    = std::move(r.done);
    newline = r.newline;
    return true;
}

// A record names its file as JSON can (json_text.h): two names that read the same there would
// make one record of two files in --resume and batch-merge. False (with the message) when two
// inputs do.
bool names_tell_apart(const std::vector<Item>& items) {
    std::map<std::string, std::string> named;
    for (const Item& it : items) {
        const auto [at, fresh] = named.emplace(readable_utf8(it.path), it.path);
        if (!fresh) {
            std::cerr << "fived batch: " << readable_utf8(at->second) << " and "
                      << readable_utf8(it.path) << ": two names one record cannot tell apart\n";
            return false;
        }
    }
    return true;
}

// The items of shard `index` of `count` (1-based): every count-th of the sorted inputs.
std::vector<Item> shard_items(const std::vector<Item>& items, int index, int count) {
    std::vector<Item> mine;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (int(i % std::size_t(count)) == index - 1) mine.push_back(items[i]);
    return mine;
}

// The program run for each item: this one. FIVED_BATCH_PROGRAM, for tests only (README
// "Collections"), names another (a stand-in that crashes, or waits to be killed).
bool item_program(std::string& program) {
    if (const char* p = std::getenv("FIVED_BATCH_PROGRAM"); p && *p) {
        program = p;
        return true;
    }
    std::error_code ec;
    program = fs::read_symlink("/proc/self/exe", ec).string();
    if (ec) {
        std::cerr << "fived batch: cannot find its own program: " << ec.message() << '\n';
        return false;
    }
    return true;
}

// The items to run and what the workers share: the next item, the counts, the output.
struct BatchRun {
    const BatchCli&          c;
    const std::vector<Item>& todo;
    const std::string&       program;
    const std::string&       tmpDir;
    std::ostream&            out;
    const bool               bar; // a progress line on stderr
    std::atomic<std::size_t> next{0}, finished{0}, failed{0};
    std::mutex               lock;

    BatchRun(const BatchCli& cli, const std::vector<Item>& items, const std::string& prog,
        const std::string& tmp, std::ostream& os, bool progress) :
        c(cli),
        todo(items), program(prog), tmpDir(tmp), out(os), bar(progress) { }
    // Takes items until none is left or batch is stopped; `slot` is the worker's.
    void worker(std::size_t slot);
};

void BatchRun::worker(std::size_t slot) {
    for (;;) {
        if (stopSignal.load()) return;
        const std::size_t i = next.fetch_add(1);
        if (i >= todo.size()) return;
        std::optional<nlohmann::json> rec;
        if (!todo[i].error.empty()) {
            rec = report::batch_error_record(todo[i].path, c.verify, ExitBadInput, todo[i].error);
        } else {
            rec = run_item(program, c, todo[i].path, tmpDir, slot);
        }
        if (!rec) return; // stopped
        const int rc = rec->value("exit_code", ExitInternal);
        if (rc == ExitBadInput || rc == ExitInternal) ++failed;
        std::lock_guard g(lock);
        out << json_text(*rec) << '\n' << std::flush;
        const std::size_t k = ++finished;
        if (bar) std::fprintf(stderr, "\r[%zu/%zu] %-60.60s", k, todo.size(), todo[i].path.c_str());
    }
}

// Runs the items on `jobs` workers. The workers block the stop signals (their children start
// with them blocked, and unblock them after resetting them to their defaults); the main thread
// takes them, with on_batch_stop while the workers run.
void run_workers(BatchRun& run, int jobs) {
    running      = std::make_unique<std::atomic<pid_t>[]>(std::size_t(jobs));
    runningSlots = std::size_t(jobs);
    struct sigaction sa {
    }, old[std::size(StopSignals)];
    sa.sa_handler = on_batch_stop;
    sigemptyset(&sa.sa_mask);
    sigset_t stops, before;
    sigemptyset(&stops);
    for (std::size_t s = 0; s < std::size(StopSignals); ++s) {
        sigaddset(&stops, StopSignals[s]);
        sigaddset(&sa.sa_mask, StopSignals[s]);
    }
    for (std::size_t s = 0; s < std::size(StopSignals); ++s)
        sigaction(StopSignals[s], &sa, &old[s]);
    pthread_sigmask(SIG_BLOCK, &stops, &before);
    std::vector<std::thread> pool;
    for (int t = 0; t < jobs; ++t)
        pool.emplace_back([&run, t] { run.worker(std::size_t(t)); });
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    for (std::thread& t : pool)
        t.join();
    for (std::size_t s = 0; s < std::size(StopSignals); ++s)
        sigaction(StopSignals[s], &old[s], nullptr);
}

int cmd_batch(const BatchCli& c) {
    std::vector<Item> items;
    if (!collect_inputs(c, items) || !names_tell_apart(items)) return ExitBadInput;
    int index = 1, count = 1;
    if (!shard_of(c, index, count)) return ExitBadInput;
    const std::vector<Item> mine = shard_items(items, index, count);
    // Resume: the files already in OUT are done.
    std::set<std::string> done;
    bool                  newline = false;
    if (c.resume && !c.out.empty() && !read_done(c.out, done, newline)) return ExitBadInput;
    std::vector<Item> todo;
    for (const Item& it : mine)
        if (!done.count(readable_utf8(it.path))) todo.push_back(it);
    std::ofstream file;
    if (!c.out.empty()) {
        file.open(c.out, c.resume ? std::ios::app : std::ios::trunc);
        if (!file) {
            std::cerr << c.out << ": cannot be written\n";
            return ExitBadInput;
        }
        if (newline) file << '\n' << std::flush;
    }
    std::ostream& out = c.out.empty() ? std::cout : file;
    std::string   program;
    if (!item_program(program)) return ExitInternal;
    char tmpl[] = "/tmp/fived-batch.XXXXXX";
    if (!mkdtemp(tmpl)) {
        std::cerr << "fived batch: cannot make a temporary folder\n";
        return ExitInternal;
    }
    const std::string tmpDir = tmpl;
    const int  jobs = c.jobs > 0 ? c.jobs : std::max(1, int(std::thread::hardware_concurrency()));
    const bool bar  = c.progress || isatty(2);
    BatchRun   run(c, todo, program, tmpDir, out, bar);
    run_workers(run, jobs);
    if (bar && !todo.empty()) std::fprintf(stderr, "\n");
    std::error_code ec;
    fs::remove_all(tmpDir, ec);
    std::fprintf(stderr,
        "fived batch: %zu of %zu inputs (shard %d/%d), %zu done before, %zu with errors\n",
        todo.size(), items.size(), index, count, done.size(), run.failed.load());
    if (!out.good()) {
        std::cerr << (c.out.empty() ? std::string("<stdout>") : c.out) << ": cannot be written\n";
        return ExitBadInput;
    }
    if (const int sig = stopSignal.load()) {
        std::fprintf(stderr,
            "fived batch: stopped by %s: %zu of %zu inputs not done (--resume does them)\n",
            signal_name(sig).c_str(), todo.size() - run.finished.load(), todo.size());
        return ExitUnknown;
    }
    return run.failed.load() ? ExitNegative : ExitOk;
}

// batch-merge: the records of several files, one per input (the last one read wins), sorted by
// file; the summary on stderr.
int cmd_merge(const std::vector<std::string>& inputs, const std::string& outPath) {
    std::map<std::string, nlohmann::json> byFile;
    for (const std::string& path : inputs) {
        std::ifstream in(path);
        if (!in) {
            std::cerr << path << ": cannot be read\n";
            return ExitBadInput;
        }
        if (std::string error; !merge_records(in, path, byFile, error)) {
            std::cerr << error << '\n';
            return ExitBadInput;
        }
    }
    std::ofstream file;
    if (!outPath.empty()) {
        file.open(outPath);
        if (!file) {
            std::cerr << outPath << ": cannot be written\n";
            return ExitBadInput;
        }
    }
    std::ostream&                               out = outPath.empty() ? std::cout : file;
    std::map<std::string, int>                  tally;
    std::vector<std::pair<double, std::string>> times;
    for (const auto& [f, j] : byFile) {
        out << json_text(j) << '\n';
        ++tally[record_class(j)];
        if (const std::optional<double> ms = record_time_ms(j)) times.emplace_back(*ms, f);
    }
    std::sort(times.rbegin(), times.rend());
    std::fprintf(stderr, "fived batch-merge: %zu inputs\n", byFile.size());
    for (const auto& [k, n] : tally)
        std::fprintf(stderr, "  %-20s %d\n", k.c_str(), n);
    for (std::size_t i = 0; i < times.size() && i < 5; ++i)
        std::fprintf(
            stderr, "  slowest %zu: %.1f ms  %s\n", i + 1, times[i].first, times[i].second.c_str());
    return out.good() ? ExitOk : ExitBadInput;
}

} // namespace

void register_batch_commands(const Commands& commands, int& exitCode) {
    auto c = std::make_shared<BatchCli>();
    if (auto* batch = commands.add("batch",
            "solve (or verify) every file of a collection, in parallel, one JSON record a line")) {
        batch->add_option("INPUTS", c->inputs, "files and folders (*.5dpgn, *.5dfen, recursively)");
        batch->add_option("--list", c->list, "a file naming one input a line");
        batch->add_flag("--verify", c->verify, "verify each file instead of solving it");
        batch->add_option("--jobs", c->jobs, "items at once (default: the machine's cores)")
            ->check(CLI::Range(1, 4096));
        batch->add_option(
            "-o,--output", c->out, "write the records here (default: standard output)");
        batch->add_flag(
            "--resume", c->resume, "append to --output, skipping the files already in it");
        batch->add_option("--shard", c->shard,
            "do shard I of N (I/N) of the sorted inputs; default: Slurm's SLURM_ARRAY_TASK_ID and "
            "SLURM_ARRAY_TASK_COUNT when set");
        batch->add_flag(
            "--progress", c->progress, "a progress line on stderr (default: on a terminal)");
        batch->add_flag("--lenient", c->lenient, "read each file leniently (as solve --lenient)");
        batch->add_option("--mate", c->mate, "per item: solve --mate")->check(CLI::Range(1, 60));
        batch->add_option("--time", c->time, "per item: --time S")->check(CLI::PositiveNumber);
        batch
            ->add_option("--nodes", c->nodes,
                "per item: --nodes N (solve, or verify's proof check and analysis)")
            ->check(CLI::Range(std::uint64_t(1), UINT64_MAX));
        batch->add_option("--hash", c->hashMb, "per item: --hash MB")
            ->check(CLI::Range(std::size_t(1), std::size_t(1) << 20));
        batch->callback([&exitCode, c] {
            if (c->inputs.empty() && c->list.empty()) {
                std::cerr << "fived batch: no INPUTS and no --list\n";
                exitCode = ExitBadInput;
                return;
            }
            exitCode = cmd_batch(*c);
        });
    }

    auto files = std::make_shared<std::vector<std::string>>();
    auto out   = std::make_shared<std::string>();
    if (auto* merge = commands.add("batch-merge",
            "join batch records (shards, resumed runs): one per file, sorted; a summary "
            "on stderr")) {
        merge->add_option("FILES", *files, "JSON-lines files written by batch")->required();
        merge->add_option("-o,--output", *out, "write the merged records here (default: stdout)");
        merge->callback([&exitCode, files, out] { exitCode = cmd_merge(*files, *out); });
    }
}

} // namespace fived::cli
