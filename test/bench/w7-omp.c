/* test/bench/w7-omp.c: W7 quicksort with cutoff, OpenMP: the two parts as
 * tasks, taskwait. */
#include "bench_omp.h"
#include "w7.h"

static void sort(int *a, long n, long cutoff) {
  if (n <= cutoff) {
    w7_leaf_sort(a, n);
    return;
  }
  long m = w7_partition(a, n);
#pragma omp task
  sort(a, m, cutoff);
#pragma omp task
  sort(a + m, n - m, cutoff);
#pragma omp taskwait
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "task");
  long n = bench_arg(argc, argv, 2, W7_DEFAULT_N);
  long cutoff = bench_arg(argc, argv, 3, W7_DEFAULT_CUTOFF);
  struct w7_sums before;
  int *a = w7_input(n, &before);
  int threads = bench_omp_setup();
  double t0 = bench_now();
#pragma omp parallel
#pragma omp single
  sort(a, n, cutoff);
  double t = bench_now() - t0;
  return w7_report(a, n, before, t, threads);
}
