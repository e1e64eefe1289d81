// test/bench/w2-tbb.cpp: W2 a[i] = a[i]*3+1, TBB parallel_for: grain 1 with
// simple_partitioner (one task per iteration, the parfor analogue) or the
// default auto_partitioner.
#include <tbb/blocked_range.h>

#include "bench_tbb.h"
#include "w2.h"

static void kernel_simple1(double *a, long n) {
  tbb::parallel_for(
      tbb::blocked_range<long>(0, n, 1),
      [=](const tbb::blocked_range<long> &r) {
        for (long i = r.begin(); i < r.end(); i++)
          a[i] = a[i] * 3 + 1;
      },
      tbb::simple_partitioner());
}

static void kernel_auto(double *a, long n) {
  tbb::parallel_for(tbb::blocked_range<long>(0, n), [=](const tbb::blocked_range<long> &r) {
    for (long i = r.begin(); i < r.end(); i++)
      a[i] = a[i] * 3 + 1;
  });
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "auto simple1");
  long n = bench_arg(argc, argv, 2, W2_DEFAULT_N);
  int simple = strcmp(v, "simple1") == 0;
  double *a = w2_input(n);
  bench_tbb_setup setup;
  double t0 = bench_now();
  if (simple)
    kernel_simple1(a, n);
  else
    kernel_auto(a, n);
  double t = bench_now() - t0;
  return w2_report(a, n, t, simple ? n : -1, setup.threads);
}
