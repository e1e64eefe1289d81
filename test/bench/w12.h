/* test/bench/w12.h: W12, Jacobi sweeps: s sweeps of a 4-point average over
 * an n x n grid, two arrays in turn.
 *
 * The loop every class writes for heat diffusion, and the one where a
 * static schedule pays: each sweep is a parallel loop over the same rows,
 * so a runtime that gives a processor the rows it had the sweep before
 * finds them in that processor's cache (W2 runs its loop once, on data
 * that the main thread wrote).  The PARC version's lparfor against
 * OpenMP's schedule(static) and TBB's affinity_partitioner, the tools the
 * other two offer for it.  Every element is computed by the same
 * expression in every version, so the final grids, and the checksums,
 * are the same to the bit.
 */
#ifndef PARCC_BENCH_W12_H
#define PARCC_BENCH_W12_H

#include "common.h"

#define W12_DEFAULT_N 1024L
#define W12_DEFAULT_S 200L

/* Both arrays: the border 1 on the first row, 0 elsewhere, the interior
 * values in [0, 1) from the index. */
static inline double *w12_grid(long n) {
  double *g = (double *)bench_alloc((size_t)(2 * n * n) * sizeof(double));
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      double v = i == 0 ? 1 : (i == n - 1 || j == 0 || j == n - 1)
                                  ? 0
                                  : (double)(bench_mix((uint64_t)(i * n + j)) & 1023) / 1024;
      g[i * n + j] = g[n * n + i * n + j] = v;
    }
  return g;
}

/* The grid that sweep t reads; it writes w12_plane(g, n, t + 1), and
 * after s sweeps the result is w12_plane(g, n, s). */
static inline double *w12_plane(double *g, long n, long t) { return g + (t % 2) * n * n; }

/* Row i (1 <= i <= n-2) of the next grid from the current one. */
static inline void w12_row(const double *a, double *b, long n, long i) {
  for (long j = 1; j < n - 1; j++)
    b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                           a[i * n + j + 1]);
}

/* Checksum: the final grid's bits, folded; the check: every value stays
 * within [0, 1] (an average of values in it). */
static inline int w12_report(double *g, long n, long s, double t, long long activities,
                             int threads) {
  const double *a = w12_plane(g, n, s); /* the last sweep's output */
  unsigned long long sum = 0;
  int ok = 1;
  for (long k = 0; k < n * n; k++) {
    uint64_t bits;
    memcpy(&bits, &a[k], sizeof bits);
    sum = sum * 31 + bits;
    if (!(a[k] >= 0 && a[k] <= 1))
      ok = 0;
  }
  free(g);
  return bench_report(t, sum % 1000000007ULL, ok, activities, threads);
}

#endif /* PARCC_BENCH_W12_H */
