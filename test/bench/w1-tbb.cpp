// test/bench/w1-tbb.cpp: W1 fib, TBB: both calls run in a task_group, no cutoff.
#include <tbb/task_group.h>

#include "bench_tbb.h"
#include "w1.h"

static long fib(int n) {
  if (n < 2)
    return n;
  long x, y;
  tbb::task_group g;
  g.run([&] { x = fib(n - 1); });
  g.run([&] { y = fib(n - 2); });
  g.wait();
  return x + y;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "task_group");
  int n = (int)bench_arg(argc, argv, 2, W1_DEFAULT_N);
  bench_tbb_setup setup;
  double t0 = bench_now();
  long r = fib(n);
  double t = bench_now() - t0;
  return w1_report(n, t, r, setup.threads);
}
