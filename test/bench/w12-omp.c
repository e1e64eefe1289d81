/* test/bench/w12-omp.c: W12 Jacobi sweeps, OpenMP: a parallel loop over the
 * rows per sweep, schedule(static) (the same rows on the same thread every
 * sweep). */
#include "bench_omp.h"
#include "w12.h"

static void kernel(double *g, long n, long s) {
  for (long t = 0; t < s; t++) {
    const double *a = w12_plane(g, n, t);
    double *b = w12_plane(g, n, t + 1);
#pragma omp parallel for schedule(static)
    for (long i = 1; i < n - 1; i++)
      w12_row(a, b, n, i);
  }
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "static");
  long n = bench_arg(argc, argv, 2, W12_DEFAULT_N), s = bench_arg(argc, argv, 3, W12_DEFAULT_S);
  double *g = w12_grid(n);
  int threads = bench_omp_setup();
  double t0 = bench_now();
  kernel(g, n, s);
  double t = bench_now() - t0;
  return w12_report(g, n, s, t, s * threads, threads);
}
