// test/bench/w7-tbb.cpp: W7 quicksort with cutoff, TBB: the two parts by
// parallel_invoke (`invoke`) or both run in a task_group (`group`).
#include <tbb/parallel_invoke.h>
#include <tbb/task_group.h>

#include "bench_tbb.h"
#include "w7.h"

static void sort_invoke(int *a, long n, long cutoff) {
  if (n <= cutoff) {
    w7_leaf_sort(a, n);
    return;
  }
  long m = w7_partition(a, n);
  tbb::parallel_invoke([=] { sort_invoke(a, m, cutoff); },
                       [=] { sort_invoke(a + m, n - m, cutoff); });
}

static void sort_group(int *a, long n, long cutoff) {
  if (n <= cutoff) {
    w7_leaf_sort(a, n);
    return;
  }
  long m = w7_partition(a, n);
  tbb::task_group g;
  g.run([=] { sort_group(a, m, cutoff); });
  g.run([=] { sort_group(a + m, n - m, cutoff); });
  g.wait();
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "invoke group");
  long n = bench_arg(argc, argv, 2, W7_DEFAULT_N);
  long cutoff = bench_arg(argc, argv, 3, W7_DEFAULT_CUTOFF);
  struct w7_sums before;
  int *a = w7_input(n, &before);
  bench_tbb_setup setup;
  double t0 = bench_now();
  if (strcmp(v, "group") == 0)
    sort_group(a, n, cutoff);
  else
    sort_invoke(a, n, cutoff);
  double t = bench_now() - t0;
  return w7_report(a, n, before, t, setup.threads);
}
