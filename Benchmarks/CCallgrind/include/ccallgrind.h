// Callgrind's client requests for Benchmarks/LoopBench: no-ops when not running under valgrind
// (or when valgrind's headers are not installed).
#pragma once

/// 1 under valgrind, else 0.
int ccallgrind_running(void);
/// Dumps (and zeroes) every thread's counters so far into a new profile named by `label`.
void ccallgrind_dump(const char *label);
