// test/bench/w9-tbb.cpp: W9 a lock around a shared sum, TBB: a parallel_for
// over the activities, the addition under a tbb::spin_mutex (`spin`) or a
// std::mutex (`mutex`); see w9.h.
#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/spin_mutex.h>

#include "bench_tbb.h"
#include "w9.h"

template <class Mutex> static uint64_t kernel(long n, long k, long work) {
  uint64_t sum = 0;
  Mutex m;
  tbb::parallel_for(tbb::blocked_range<long>(0, n), [&](const tbb::blocked_range<long> &r) {
    for (long a = r.begin(); a < r.end(); a++)
      for (long j = 0; j < k; j++) {
        uint64_t x = w9_value(a, j, work);
        std::lock_guard<Mutex> hold(m);
        sum += x;
      }
  });
  return sum;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "spin mutex");
  long n, k, work;
  w9_args(argc, argv, &n, &k, &work);
  bench_tbb_setup setup;
  double t0 = bench_now();
  uint64_t sum = strcmp(v, "mutex") == 0 ? kernel<std::mutex>(n, k, work)
                                         : kernel<tbb::spin_mutex>(n, k, work);
  double t = bench_now() - t0;
  return w9_report(sum, n, k, work, t, setup.threads);
}
