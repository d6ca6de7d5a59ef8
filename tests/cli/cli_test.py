#!/usr/bin/env python3
"""End-to-end checks of the `fived` command line: read errors, errors that must not pass as
results, the exit-status table, claims, wrong claimed lengths, verify under a limit, limits and
signals (README.md, "Commands" and "Exit status").

Usage: cli_test.py FIVED DATA_DIR CASE   (CASE: one of the functions named in CASES)
Exit 0 = pass, 1 = fail (the reasons are printed), 77 = skipped.

The cases live in modules by command group (cases_errors.py, cases_solve.py, cases_verify.py,
cases_limits.py, cases_engine.py, cases_batch.py, cases_report.py), their shared helpers in cli_common.py. A new
case is a function in its group's module (or here), named in CASES.
"""
import sys

# The helpers (run, check, write, the exit statuses, FIVED, DATA, TMP, ...): for a case written
# here, and for shard_test.py (run_cases, schema_validator) and scripts/resources.py.
from cli_common import *  # noqa: F401,F403
from cli_common import run_cases
from cases_batch import batch, batch_failures, hostile_records
from cases_engine import at_everywhere, bench_report, count_engines, fen_reads_back, perft_divide
from cases_errors import (command_line, errors_not_results, exit_codes, invalid_utf8, json_schema,
                          meaningless_options, read_errors)
from cases_limits import (limits, many_headers, memory_caps, shared_actions_streams,
                          shared_wide_node_limit, timeline_limit, wide_time_limit)
from cases_report import format_aliases, format_csv
from cases_solve import (claims, implicit_defences, problemist, quiet_means_quiet, read_back,
                         solve_keeps_head, wrong_claim)
from cases_verify import (shared_verify_game_file, verify_bounded, verify_game_file, verify_signal,
                          verify_unknown)

CASES = {f.__name__: f for f in (
    read_errors, errors_not_results, exit_codes, claims, implicit_defences, wide_time_limit,
    perft_divide, count_engines, bench_report, at_everywhere, json_schema, problemist, batch,
    batch_failures, hostile_records, timeline_limit, read_back, invalid_utf8, fen_reads_back,
    meaningless_options, quiet_means_quiet, command_line, wrong_claim, verify_unknown, limits,
    verify_bounded, verify_game_file, many_headers, shared_verify_game_file,
    shared_actions_streams, shared_wide_node_limit, solve_keeps_head, memory_caps, verify_signal,
    format_aliases, format_csv)}


if __name__ == "__main__":
    sys.exit(run_cases(sys.modules[__name__]))
