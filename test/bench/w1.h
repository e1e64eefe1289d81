/* test/bench/w1.h: W1, fib(n) with both recursive calls parallel and no cutoff.
 *
 * Every call with n >= 2 creates two activities (tasks), so fib(n) creates
 * 2*fib(n+1) - 2 of them: 7,049,154 for fib(32).  The kernel is pure spawn
 * overhead; W1 measures what one activity costs.
 */
#ifndef PARCC_BENCH_W1_H
#define PARCC_BENCH_W1_H

#include "common.h"

#define W1_DEFAULT_N 32

static inline long w1_fib_iter(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    long t = a + b;
    a = b;
    b = t;
  }
  return a;
}

static inline long long w1_activities(int n) { return n < 2 ? 0 : 2 * w1_fib_iter(n + 1) - 2; }

static inline int w1_report(int n, double t, long r, int threads) {
  return bench_report(t, (unsigned long long)r, r == w1_fib_iter(n), w1_activities(n), threads);
}

#endif /* PARCC_BENCH_W1_H */
