// test/bench/w10-tbb.cpp: W10 a pipeline of stages, TBB: tbb::parallel_pipeline
// with a serial in-order filter per stage and s tokens in flight; see w10.h.
#include <tbb/parallel_pipeline.h>

#include "bench_tbb.h"
#include "w10.h"

static uint64_t kernel(long n, long s) {
  uint64_t sum = 0;
  long next = 0;
  auto source = tbb::make_filter<void, uint64_t>(
      tbb::filter_mode::serial_in_order, [&](tbb::flow_control &fc) -> uint64_t {
        if (next == n) {
          fc.stop();
          return 0;
        }
        return (uint64_t)next++;
      });
  tbb::filter<void, uint64_t> chain = source;
  for (long j = 1; j < s - 1; j++)
    chain = chain & tbb::make_filter<uint64_t, uint64_t>(tbb::filter_mode::serial_in_order,
                                                         [j](uint64_t v) { return w10_stage(v, j); });
  auto sink = tbb::make_filter<uint64_t, void>(tbb::filter_mode::serial_in_order,
                                               [&, s](uint64_t v) { sum += w10_stage(v, s - 1); });
  tbb::parallel_pipeline((size_t)s, chain & sink);
  return sum;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "pipeline");
  long n, s;
  w10_args(argc, argv, &n, &s);
  bench_tbb_setup setup;
  double t0 = bench_now();
  uint64_t sum = kernel(n, s);
  double t = bench_now() - t0;
  return w10_report(sum, n, s, t, setup.threads);
}
