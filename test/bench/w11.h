/* test/bench/w11.h: W11, a relay of signals through the activities of one
 * parfor, and its check.
 *
 * r rounds; in each, a construct of n activities where activity i waits
 * for a signal from activity i + 1 (a semaphore of its own), adds its
 * index to the round's sum and signals activity i - 1; activity n - 1
 * starts.  Every activity but the last blocks, most of them before the
 * activity that will wake them has started: what is measured is blocking
 * beside work that has not started yet, the case MAXI's envelopes exist
 * for (a blocked activity's processor runs the others), and the hand-over
 * of a signal.  The PARC version is a parfor with parc_P / parc_V; the
 * pthreads one n threads per round with POSIX semaphores, bound to P CPUs,
 * created and joined in the timed kernel as PARC's activities are.
 * OpenMP and TBB have no way for a task to wait for another's signal
 * without holding its thread, so W11 has no version of theirs.  The serial
 * version computes the same sums in a loop.
 */
#ifndef PARCC_BENCH_W11_H
#define PARCC_BENCH_W11_H

#include "common.h"

#define W11_DEFAULT_N 100L
#define W11_DEFAULT_R 500L

/* argv[2..3]: n activities, r rounds. */
static inline void w11_args(int argc, char **argv, long *n, long *r) {
  *n = bench_arg(argc, argv, 2, W11_DEFAULT_N);
  *r = bench_arg(argc, argv, 3, W11_DEFAULT_R);
}

/* What activity i of round k adds. */
static inline uint64_t w11_value(long k, long i) { return (uint64_t)k * 1000003u + (uint64_t)i; }

static inline int w11_report(uint64_t sum, long n, long r, double t, int threads) {
  uint64_t want = 0;
  for (long k = 0; k < r; k++)
    for (long i = 0; i < n; i++)
      want += w11_value(k, i);
  return bench_report(t, (unsigned long long)sum, sum == want, (long long)n * r, threads);
}

#endif /* PARCC_BENCH_W11_H */
