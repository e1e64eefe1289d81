/* test/bench/w3.h: W3, 2,000 activities each busy for about 1 ms.
 *
 * The busy work is a fixed number of steps of a 64-bit LCG, not a sleep and
 * not a spin on the clock: an activity that is descheduled takes longer, as
 * real work would.  The step count for 1 ms is measured once by the runner
 * (`w3-serial calibrate`) and passed to every version, so all of them run the
 * same kernel.  The empty asm keeps either compiler from shortening the loop.
 * Ideal time = serial time / P; the runner reports serial/P / parallel.
 */
#ifndef PARCC_BENCH_W3_H
#define PARCC_BENCH_W3_H

#include "common.h"

#define W3_DEFAULT_N 2000L
#define W3_DEFAULT_SPIN 400000L

static inline uint64_t w3_spin(uint64_t x, long steps) {
  for (long k = 0; k < steps; k++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

/* Activity i's work; its result goes to r[i]. */
static inline uint64_t w3_work(long i, long steps) { return w3_spin(bench_mix((uint64_t)i) | 1, steps); }

/* The check: no slot left at 0 (every activity ran; a result of exactly 0 has
 * probability 2^-64) and four slots equal to a recomputed value.  Recomputing
 * all of them would cost as much as the serial kernel; the runner compares
 * the checksum (the sum of all slots) across versions as well. */
static inline int w3_report(uint64_t *r, long n, long steps, double t, int threads) {
  unsigned long long sum = 0;
  int ok = 1;
  for (long i = 0; i < n; i++) {
    sum += r[i];
    if (r[i] == 0)
      ok = 0;
  }
  long probe[4] = {0, n / 3, 2 * n / 3, n - 1};
  for (int k = 0; k < 4; k++)
    if (r[probe[k]] != w3_work(probe[k], steps))
      ok = 0;
  free(r);
  return bench_report(t, sum, ok, n, threads);
}

static inline uint64_t *w3_results(long n) {
  uint64_t *r = (uint64_t *)bench_alloc((size_t)n * sizeof(uint64_t));
  memset(r, 0, (size_t)n * sizeof(uint64_t));
  return r;
}

#endif /* PARCC_BENCH_W3_H */
