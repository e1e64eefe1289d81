/* test/bench/w2.h: W2, a[i] = a[i]*3 + 1 over 1e7 doubles.
 *
 * The tiniest possible activity: one iteration per activity in the parfor /
 * dynamic,1 / grain-1 variants measures scheduling cost per iteration, the
 * lparfor / static variants measure the loop itself.  Inputs are k/4 with
 * k < 1024, so a*3+1 is exact and every element can be checked.  W2 also
 * carries the memory figure: peak RSS of the parfor version against serial.
 */
#ifndef PARCC_BENCH_W2_H
#define PARCC_BENCH_W2_H

#include "common.h"

#define W2_DEFAULT_N 10000000L

static inline unsigned w2_k(long i) { return (unsigned)(bench_mix((uint64_t)i) & 1023); }

static inline double *w2_input(long n) {
  double *a = (double *)bench_alloc((size_t)n * sizeof(double));
  for (long i = 0; i < n; i++)
    a[i] = w2_k(i) * 0.25;
  return a;
}

/* Checksum: the sum of 4*a[i] = 3k+4, exact in integers. */
static inline int w2_report(double *a, long n, double t, long long activities, int threads) {
  unsigned long long sum = 0;
  int ok = 1;
  for (long i = 0; i < n; i++) {
    double want = w2_k(i) * 0.75 + 1;
    if (a[i] != want)
      ok = 0;
    sum += (unsigned long long)(a[i] * 4);
  }
  free(a);
  return bench_report(t, sum, ok, activities, threads);
}

#endif /* PARCC_BENCH_W2_H */
