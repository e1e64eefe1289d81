/* test/bench/diag/w2skew-omp.c: W2's kernel with each chunk timed, an
 * OpenMP parallel region that does what schedule(static) does (w2skew.h).
 *
 *   gcc -O2 -fopenmp w2skew-omp.c -o w2skew-omp && OMP_NUM_THREADS=16 ./w2skew-omp [n] [reps]
 */
#include <omp.h>

#include "w2skew.h"
#include "../w2.h"

static struct w2skew_chunk chunk[W2SKEW_MAXT];

static double run(double *a, long n) {
  double t0 = bench_now();
#pragma omp parallel
  {
    int t = omp_get_num_threads(), c = omp_get_thread_num();
    chunk[c].start = bench_now() - t0;
    for (long i = c * n / t; i < (c + 1) * n / t; i++)
      a[i] = a[i] * 3 + 1;
    chunk[c].end = bench_now() - t0;
    chunk[c].who = c;
  }
  return bench_now() - t0;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : W2_DEFAULT_N;
  int reps = argc > 2 ? atoi(argv[2]) : 21;
  int t = omp_get_max_threads();
  if (t > W2SKEW_MAXT || reps < 2 || reps > 256)
    bench_die("bad arguments", "");
  double *a = w2_input(n);
  static struct w2skew_rep r[256];
  for (int i = 0; i < reps; i++)
    r[i] = w2skew_summary(chunk, t, run(a, n));
  w2skew_print("OpenMP static", r, reps, t, chunk);
  free(a);
  return 0;
}
