// test/bench/w5-tbb.cpp: W5 nested parfor with sync, TBB: `split` only (see
// w4-tbb.cpp): parallel_for over the outer activities, and inside each one
// parallel_for per phase of the inner construct, one task per activity.
#include <tbb/blocked_range.h>

#include "bench_tbb.h"
#include "w5.h"

static long kernel_split(long no, long ni) {
  long ok = 0;
  tbb::parallel_for(
      tbb::blocked_range<long>(0, no, 1),
      [&](const tbb::blocked_range<long> &ro) {
        for (long i = ro.begin(); i < ro.end(); i++) {
          long arrived = 0;
          tbb::parallel_for(
              tbb::blocked_range<long>(0, ni, 1),
              [&](const tbb::blocked_range<long> &r) {
                for (long j = r.begin(); j < r.end(); j++)
                  __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
              },
              tbb::simple_partitioner());
          tbb::parallel_for(
              tbb::blocked_range<long>(0, ni, 1),
              [&](const tbb::blocked_range<long> &r) {
                for (long j = r.begin(); j < r.end(); j++)
                  if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) == ni)
                    __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
              },
              tbb::simple_partitioner());
        }
      },
      tbb::simple_partitioner());
  return ok;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "split");
  long no = bench_arg(argc, argv, 2, W5_DEFAULT_OUTER);
  long ni = bench_arg(argc, argv, 3, W5_DEFAULT_INNER);
  bench_tbb_setup setup;
  double t0 = bench_now();
  long ok = kernel_split(no, ni);
  double t = bench_now() - t0;
  return w5_report(ok, no, ni, t, setup.threads);
}
