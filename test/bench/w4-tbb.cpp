// test/bench/w4-tbb.cpp: W4 parfor 1000 { sync; }, TBB: `split` only (tasks
// must not block on each other, so a barrier among n tasks on P threads would
// deadlock): one parallel_for per phase, one task per activity; see w4.h.
#include <tbb/blocked_range.h>

#include "bench_tbb.h"
#include "w4.h"

static long kernel_split(long n) {
  long arrived = 0, ok = 0;
  tbb::parallel_for(
      tbb::blocked_range<long>(0, n, 1),
      [&](const tbb::blocked_range<long> &r) {
        for (long i = r.begin(); i < r.end(); i++)
          __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
      },
      tbb::simple_partitioner());
  tbb::parallel_for(
      tbb::blocked_range<long>(0, n, 1),
      [&](const tbb::blocked_range<long> &r) {
        for (long i = r.begin(); i < r.end(); i++)
          if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) == n)
            __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
      },
      tbb::simple_partitioner());
  return ok;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "split");
  long n = bench_arg(argc, argv, 2, W4_DEFAULT_N);
  bench_tbb_setup setup;
  double t0 = bench_now();
  long ok = kernel_split(n);
  double t = bench_now() - t0;
  return w4_report(ok, n, t, setup.threads);
}
