// test/bench/w3-tbb.cpp: W3 busy activities, TBB parallel_for: grain 1 with
// simple_partitioner (one task per activity) or the default auto_partitioner.
#include <tbb/blocked_range.h>

#include "bench_tbb.h"
#include "w3.h"

static void kernel_simple1(uint64_t *r, long n, long steps) {
  tbb::parallel_for(
      tbb::blocked_range<long>(0, n, 1),
      [=](const tbb::blocked_range<long> &b) {
        for (long i = b.begin(); i < b.end(); i++)
          r[i] = w3_work(i, steps);
      },
      tbb::simple_partitioner());
}

static void kernel_auto(uint64_t *r, long n, long steps) {
  tbb::parallel_for(tbb::blocked_range<long>(0, n), [=](const tbb::blocked_range<long> &b) {
    for (long i = b.begin(); i < b.end(); i++)
      r[i] = w3_work(i, steps);
  });
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "simple1 auto");
  long n = bench_arg(argc, argv, 2, W3_DEFAULT_N);
  long steps = bench_arg(argc, argv, 3, W3_DEFAULT_SPIN);
  uint64_t *r = w3_results(n);
  bench_tbb_setup setup;
  double t0 = bench_now();
  if (strcmp(v, "auto") == 0)
    kernel_auto(r, n, steps);
  else
    kernel_simple1(r, n, steps);
  double t = bench_now() - t0;
  return w3_report(r, n, steps, t, setup.threads);
}
