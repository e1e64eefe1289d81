/* test/bench/w6.h: W6, search 2e7 ints for a key with early exit (the MAXI
 * paper's Figure 7), and its input.
 *
 * The array holds non-negative values and the key -1 once.  The parallel
 * versions split the array into P equal contiguous shares (lparfor chunks,
 * OpenMP schedule(static), TBB static_partitioner); the key sits at PCT percent
 * of the last share, so the activity that finds it has scanned PCT% of its
 * share, and the others must be stopped.  The serial scan reaches it after
 * (P-1) shares plus PCT%; P comes from BENCH_THREADS in every version, serial
 * included, so that all of them search the same array.
 */
#ifndef PARCC_BENCH_W6_H
#define PARCC_BENCH_W6_H

#include "common.h"

#define W6_DEFAULT_N 20000000L
#define W6_DEFAULT_PCT 50L
#define W6_KEY (-1)

static inline long w6_key_pos(long n, long pct, int p) {
  long share = n / p;
  long pos = (long)(p - 1) * share + share * pct / 100;
  return pos < n ? pos : n - 1;
}

static inline int *w6_input(long n, long pos) {
  int *a = (int *)bench_alloc((size_t)n * sizeof(int));
  for (long i = 0; i < n; i++)
    a[i] = (int)(bench_mix((uint64_t)i) & 0x3fffffff);
  a[pos] = W6_KEY;
  return a;
}

static inline int w6_report(int *a, long found, long pos, double t, int threads) {
  free(a);
  return bench_report(t, (unsigned long long)found, found == pos, -1, threads);
}

#endif /* PARCC_BENCH_W6_H */
