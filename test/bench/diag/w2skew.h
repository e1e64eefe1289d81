/* test/bench/diag/w2skew.h: where W2's lparfor loses time at high P.
 *
 * W2's lparfor ran 1.6 ms at P = 16 against libomp's static loop's
 * 1.25-1.31 ms, and parcc's own parfor form did better (1.43 ms): either
 * the chunks start late (the construct reaches its processors one after
 * the other), or some chunks run slower (placement).  This program times
 * each chunk of the same kernel: its start and end relative to the
 * construct's start, over R repetitions (the first is warm-up), and prints
 * per repetition the construct's time, the latest chunk start, the
 * earliest and latest chunk end, and the slowest chunk's own duration;
 * then medians over the repetitions.  Chunk c covers [c n / T, (c+1) n / T)
 * as in the benchmark.
 */
#ifndef PARCC_W2SKEW_H
#define PARCC_W2SKEW_H

#include <stdio.h>
#include <stdlib.h>

#include "../common.h"

#define W2SKEW_MAXT 1024

struct w2skew_chunk {
  double start, end;
  int who; /* processor or thread that ran it */
  char pad[64 - 2 * sizeof(double) - sizeof(int)];
};

static int w2skew_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double w2skew_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, w2skew_cmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One repetition's figures from its chunks (times in seconds, relative to
 * the construct's start; total = the construct's time). */
struct w2skew_rep {
  double total, last_start, first_end, last_end, slowest;
};

static struct w2skew_rep w2skew_summary(struct w2skew_chunk *c, int t, double total) {
  struct w2skew_rep r = {total, 0, 1e30, 0, 0};
  for (int k = 0; k < t; k++) {
    if (c[k].start > r.last_start)
      r.last_start = c[k].start;
    if (c[k].end < r.first_end)
      r.first_end = c[k].end;
    if (c[k].end > r.last_end)
      r.last_end = c[k].end;
    if (c[k].end - c[k].start > r.slowest)
      r.slowest = c[k].end - c[k].start;
  }
  return r;
}

static void w2skew_print(const char *what, struct w2skew_rep *r, int reps, int t,
                         struct w2skew_chunk *last) {
  double v[5][256];
  int n = 0;
  for (int i = 1; i < reps && n < 256; i++, n++) { /* repetition 0 is warm-up */
    v[0][n] = r[i].total;
    v[1][n] = r[i].last_start;
    v[2][n] = r[i].first_end;
    v[3][n] = r[i].last_end;
    v[4][n] = r[i].slowest;
  }
  printf("%s T=%d reps=%d medians (us): construct %.1f  latest start %.1f  first end %.1f  "
         "last end %.1f  slowest chunk %.1f\n",
         what, t, n, w2skew_median(v[0], n) * 1e6, w2skew_median(v[1], n) * 1e6,
         w2skew_median(v[2], n) * 1e6, w2skew_median(v[3], n) * 1e6,
         w2skew_median(v[4], n) * 1e6);
  printf("%s last repetition, per chunk: start/end us (who)\n", what);
  for (int k = 0; k < t; k++)
    printf("  %3d: %8.1f %8.1f (%d)\n", k, last[k].start * 1e6, last[k].end * 1e6, last[k].who);
}

#endif /* PARCC_W2SKEW_H */
