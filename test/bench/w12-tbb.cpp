// test/bench/w12-tbb.cpp: W12 Jacobi sweeps, TBB parallel_for over the rows
// per sweep: with an affinity_partitioner kept across the sweeps (TBB's
// tool for replaying the last sweep's placement) or the default
// auto_partitioner.
#include <tbb/blocked_range.h>
#include <tbb/partitioner.h>

#include "bench_tbb.h"
#include "w12.h"

template <class Part>
static void kernel(double *g, long n, long s, Part &part) {
  for (long t = 0; t < s; t++) {
    const double *a = w12_plane(g, n, t);
    double *b = w12_plane(g, n, t + 1);
    tbb::parallel_for(
        tbb::blocked_range<long>(1, n - 1),
        [=](const tbb::blocked_range<long> &r) {
          for (long i = r.begin(); i < r.end(); i++)
            w12_row(a, b, n, i);
        },
        part);
  }
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "affinity auto");
  long n = bench_arg(argc, argv, 2, W12_DEFAULT_N), s = bench_arg(argc, argv, 3, W12_DEFAULT_S);
  double *g = w12_grid(n);
  bench_tbb_setup setup;
  double t0 = bench_now();
  if (strcmp(v, "auto") == 0) {
    tbb::auto_partitioner part;
    kernel(g, n, s, part);
  } else {
    tbb::affinity_partitioner part;
    kernel(g, n, s, part);
  }
  double t = bench_now() - t0;
  return w12_report(g, n, s, t, -1, setup.threads);
}
