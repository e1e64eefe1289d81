/* test/bench/w9.h: W9, a lock around a shared sum, and its check.
 *
 * n activities each add k values to one sum, each addition under a lock;
 * each value costs `work` rounds of bench_mix, computed outside the lock.
 * What is measured is the lock under contention: PARC's semaphore used as a
 * lock (parc_P / parc_V: the contract's only lock), OpenMP's critical section
 * and omp_lock_t, TBB's spin_mutex and std::mutex, a pthread mutex.  With
 * work = 0 the program is nothing but the lock taken and given back, the
 * worst case: every peer's best is one thread keeping the lock while the
 * others wait.  With work = 32 (about 80 ns a value on the machine of
 * docs/performance.md) the lock is free most of the time, and the threads
 * can overlap their work.  The serial version adds the same values without
 * a lock.
 */
#ifndef PARCC_BENCH_W9_H
#define PARCC_BENCH_W9_H

#include "common.h"

#define W9_DEFAULT_N 1000L
#define W9_DEFAULT_K 1000L
#define W9_DEFAULT_WORK 0L

/* The j-th value of activity a: 16 bits, so that no sum overflows. */
static inline uint64_t w9_value(long a, long j, long work) {
  uint64_t x = (uint64_t)a * 1000003u + (uint64_t)j;
  for (long w = 0; w < work; w++)
    x = bench_mix(x);
  return x & 0xffff;
}

/* argv[2..4]: n, k and work (which may be 0). */
static inline void w9_args(int argc, char **argv, long *n, long *k, long *work) {
  *n = bench_arg(argc, argv, 2, W9_DEFAULT_N);
  *k = bench_arg(argc, argv, 3, W9_DEFAULT_K);
  *work = W9_DEFAULT_WORK;
  if (argc > 4 && strcmp(argv[4], "0") != 0)
    *work = bench_arg(argc, argv, 4, 0);
}

static inline int w9_report(uint64_t sum, long n, long k, long work, double t, int threads) {
  uint64_t want = 0;
  for (long a = 0; a < n; a++)
    for (long j = 0; j < k; j++)
      want += w9_value(a, j, work);
  return bench_report(t, (unsigned long long)sum, sum == want, -1, threads);
}

#endif /* PARCC_BENCH_W9_H */
