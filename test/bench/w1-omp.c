/* test/bench/w1-omp.c: W1 fib, OpenMP: both calls as tasks, taskwait, no cutoff. */
#include "bench_omp.h"
#include "w1.h"

static long fib(int n) {
  if (n < 2)
    return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "task");
  int n = (int)bench_arg(argc, argv, 2, W1_DEFAULT_N);
  int threads = bench_omp_setup();
  long r = 0;
  double t0 = bench_now();
#pragma omp parallel
#pragma omp single
  r = fib(n);
  double t = bench_now() - t0;
  return w1_report(n, t, r, threads);
}
