#!/usr/bin/env python3
"""Counting from Python against the fived program, side by side (issue 57): the same count of
the same position, RUNS runs of each, interleaved; prints the minimum of each and the ratio.

  /usr/bin/python3 python/bench_count.py build/ci FILE AT [RUNS]

Python's time is load + position + count() in the process (the module already imported); the
program's is the whole `fived count FILE --at AT` process, start-up included."""
import os
import subprocess
import sys
import time

build, path, at = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
sys.path.insert(0, os.path.join(build, "python"))
import fived  # noqa: E402

cli = os.path.join(build, "cli", "fived")
py_times, count_times, cli_times = [], [], []
for _ in range(runs):
    t0 = time.perf_counter()
    pos = fived.load(path).position(at)
    t1 = time.perf_counter()
    n_py = pos.count()
    t2 = time.perf_counter()
    py_times.append(t2 - t0)
    count_times.append(t2 - t1)
    t0 = time.perf_counter()
    out = subprocess.run([cli, "count", path, "--at", str(at)], capture_output=True, text=True,
                         check=True).stdout
    cli_times.append(time.perf_counter() - t0)
    assert int(out) == n_py, (out, n_py)
print(f"count {n_py}; min of {runs}: python load+count {min(py_times):.3f} s "
      f"(count() {min(count_times):.3f} s), fived count {min(cli_times):.3f} s, "
      f"ratio {min(py_times) / min(cli_times):.3f}")
