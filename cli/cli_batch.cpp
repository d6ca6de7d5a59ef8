// `fived batch` and `fived batch-merge`: whole collections, on one machine or as the tasks of a
// cluster job array (README "Collections").
//
// Each item runs as a child process of this program (`fived solve|verify FILE --json ...`),
// so an item that fails in any way (bad input, an internal error, even a crash) becomes a
// record with its exit status and message, never the end of the run; `--jobs` children run at
// once. The records are JSON lines, written as items finish; `batch-merge` joins the lines of
// several runs or shards, sorted by file, and prints a summary.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/json_text.h"

namespace fived::cli {

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

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (const char ch : s)
        q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
}

// The inputs, each once, sorted: files as given, folders searched for *.5dpgn and *.5dfen.
bool collect_inputs(const BatchCli& c, std::vector<std::string>& files) {
    std::vector<std::string> named = c.inputs;
    if (!c.list.empty()) {
        std::ifstream in(c.list);
        if (!in) {
            std::cerr << c.list << ": cannot be read\n";
            return false;
        }
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != '#') named.push_back(line);
    }
    std::set<std::string> all;
    for (const std::string& n : named) {
        std::error_code ec;
        if (fs::is_directory(n, ec)) {
            for (fs::recursive_directory_iterator it(n, ec), end; !ec && it != end;
                 it.increment(ec)) {
                const std::string ext = it->path().extension().string();
                if (it->is_regular_file() && (ext == ".5dpgn" || ext == ".5dfen"))
                    all.insert(it->path().string());
            }
            if (ec) {
                std::cerr << n << ": " << ec.message() << '\n';
                return false;
            }
        } else {
            all.insert(n); // a missing file becomes an error record
        }
    }
    files.assign(all.begin(), all.end());
    return true;
}

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

// Shard I of N (1-based) from --shard or Slurm's job-array variables; {1, 1} without either.
bool shard_of(const BatchCli& c, int& index, int& count) {
    index = 1;
    count = 1;
    if (!c.shard.empty()) {
        const std::size_t slash = c.shard.find('/');
        if (slash == std::string::npos || !whole_number(c.shard.substr(0, slash).c_str(), index)
            || !whole_number(c.shard.substr(slash + 1).c_str(), count) || count < 1 || index < 1
            || index > count) {
            std::cerr << "fived batch: --shard " << c.shard << ": expected I/N with 1 <= I <= N\n";
            return false;
        }
        return true;
    }
    const char* id  = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* cnt = std::getenv("SLURM_ARRAY_TASK_COUNT");
    if (id && cnt) {
        const char* min   = std::getenv("SLURM_ARRAY_TASK_MIN");
        int         idN   = 0;
        int         minN  = 0;
        const char* wrong = !whole_number(id, idN) ? "SLURM_ARRAY_TASK_ID"
            : !whole_number(cnt, count)            ? "SLURM_ARRAY_TASK_COUNT"
            : min && !whole_number(min, minN)      ? "SLURM_ARRAY_TASK_MIN"
                                                   : nullptr;
        if (wrong) {
            std::cerr << "fived batch: " << wrong << "=" << std::getenv(wrong)
                      << " is not a task number (use --shard I/N outside a Slurm job array)\n";
            return false;
        }
        index = idN - minN + 1;
        if (count < 1 || index < 1 || index > count) {
            std::cerr << "fived batch: SLURM_ARRAY_TASK_ID " << id << " is not within the " << count
                      << " tasks of the array\n";
            return false;
        }
    }
    return true;
}

// Runs one item as a child process and returns its record.
nlohmann::json run_item(const std::string& self, const BatchCli& c, const std::string& file,
    const std::string& tmpDir, std::size_t slot) {
    std::string cmd =
        shell_quote(self) + (c.verify ? " verify " : " solve ") + shell_quote(file) + " --json";
    if (!c.verify) cmd += " --quiet";
    if (c.lenient) cmd += " --lenient";
    if (c.mate && !c.verify) cmd += " --mate " + std::to_string(c.mate);
    if (c.time > 0) cmd += " --time " + std::to_string(c.time);
    if (c.nodes && !c.verify) cmd += " --nodes " + std::to_string(c.nodes);
    cmd += " --hash " + std::to_string(c.hashMb);
    const std::string errFile = tmpDir + "/stderr." + std::to_string(slot);
    cmd += " 2>" + shell_quote(errFile);
    nlohmann::json rec;
    rec["file"] = file;
    rec["mode"] = c.verify ? "verify" : "solve";
    std::string out;
    FILE*       p = popen(cmd.c_str(), "r");
    if (!p) {
        rec["exit_code"] = ExitInternal;
        rec["error"]     = "cannot start a child process";
        return rec;
    }
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        out.append(buf, n);
    const int         status = pclose(p);
    std::ifstream     ef(errFile);
    const std::string err((std::istreambuf_iterator<char>(ef)), std::istreambuf_iterator<char>());
    const int         code = WIFEXITED(status) ? WEXITSTATUS(status) : ExitInternal;
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_object()) {
        for (const auto& [k, v] : j.items())
            if (k != "tree" && k != "prelude") rec[k] = v; // the record stays one short line
    }
    rec["exit_code"] = code;
    if (WIFSIGNALED(status))
        rec["error"] = "killed by signal " + std::to_string(WTERMSIG(status));
    else if (!j.is_object() || code == ExitBadInput || code == ExitInternal) {
        std::string e = err;
        while (!e.empty() && (e.back() == '\n' || e.back() == '\r'))
            e.pop_back();
        if (!e.empty() || !rec.contains("error"))
            rec["error"] = e.empty() ? "no result (exit " + std::to_string(code) + ")" : e;
    }
    return rec;
}

int cmd_batch(const BatchCli& c) {
    std::vector<std::string> files;
    if (!collect_inputs(c, files)) return ExitBadInput;
    // A record names its file as JSON can (json_text.h): two names that read the same there
    // would make one record of two files in --resume and batch-merge.
    std::map<std::string, std::string> named;
    for (const std::string& f : files) {
        const auto [it, fresh] = named.emplace(readable_utf8(f), f);
        if (!fresh) {
            std::cerr << "fived batch: " << readable_utf8(it->second) << " and " << readable_utf8(f)
                      << ": two names one record cannot tell apart\n";
            return ExitBadInput;
        }
    }
    int index = 1, count = 1;
    if (!shard_of(c, index, count)) return ExitBadInput;
    std::vector<std::string> mine;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (int(i % std::size_t(count)) == index - 1) mine.push_back(files[i]);
    // Resume: the files already in OUT are done.
    std::set<std::string> done;
    if (c.resume && !c.out.empty()) {
        std::ifstream in(c.out);
        for (std::string line; std::getline(in, line);) {
            const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_object() && j.contains("file") && j["file"].is_string())
                done.insert(j["file"].get<std::string>());
        }
    }
    std::vector<std::string> todo;
    for (const std::string& f : mine)
        if (!done.count(readable_utf8(f))) todo.push_back(f);
    std::ofstream file;
    if (!c.out.empty()) {
        file.open(c.out, c.resume ? std::ios::app : std::ios::trunc);
        if (!file) {
            std::cerr << c.out << ": cannot be written\n";
            return ExitBadInput;
        }
    }
    std::ostream& out = c.out.empty() ? std::cout : file;
    // This program, for the children.
    std::error_code   ec;
    const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
    if (ec) {
        std::cerr << "fived batch: cannot find its own program: " << ec.message() << '\n';
        return ExitInternal;
    }
    char tmpl[] = "/tmp/fived-batch.XXXXXX";
    if (!mkdtemp(tmpl)) {
        std::cerr << "fived batch: cannot make a temporary folder\n";
        return ExitInternal;
    }
    const std::string tmpDir = tmpl;
    const int  jobs = c.jobs > 0 ? c.jobs : std::max(1, int(std::thread::hardware_concurrency()));
    const bool bar  = c.progress || isatty(2);
    std::atomic<std::size_t> next{0}, finished{0}, failed{0};
    std::mutex               lock;
    auto                     worker = [&](std::size_t slot) {
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= todo.size()) return;
            const nlohmann::json rec = run_item(self, c, todo[i], tmpDir, slot);
            const int            rc  = rec.value("exit_code", ExitInternal);
            if (rc == ExitBadInput || rc == ExitInternal) ++failed;
            std::lock_guard g(lock);
            out << json_text(rec) << '\n' << std::flush;
            const std::size_t k = ++finished;
            if (bar) std::fprintf(stderr, "\r[%zu/%zu] %-60.60s", k, todo.size(), todo[i].c_str());
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < jobs; ++t)
        pool.emplace_back(worker, std::size_t(t));
    for (std::thread& t : pool)
        t.join();
    if (bar && !todo.empty()) std::fprintf(stderr, "\n");
    fs::remove_all(tmpDir, ec);
    std::fprintf(stderr,
        "fived batch: %zu of %zu inputs (shard %d/%d), %zu done before, %zu with errors\n",
        todo.size(), files.size(), index, count, done.size(), failed.load());
    if (!out.good()) {
        std::cerr << (c.out.empty() ? std::string("<stdout>") : c.out) << ": cannot be written\n";
        return ExitBadInput;
    }
    return failed.load() ? ExitNegative : ExitOk;
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
        int n = 0;
        for (std::string line; std::getline(in, line);) {
            ++n;
            if (line.empty()) continue;
            const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
            if (!j.is_object() || !j.contains("file") || !j["file"].is_string()) {
                std::cerr << path << ':' << n << ":1: not a batch record\n";
                return ExitBadInput;
            }
            byFile[j["file"].get<std::string>()] = j;
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
        const int   rc  = j.value("exit_code", ExitInternal);
        std::string key = rc == ExitBadInput || rc == ExitInternal
            ? "errors"
            : j.value("result", j.value("verdict", std::string("?")));
        ++tally[key];
        if (j.contains("time_ms") && j["time_ms"].is_number())
            times.emplace_back(j["time_ms"].get<double>(), f);
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
        batch->add_option("--nodes", c->nodes, "per item: solve --nodes N")
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
