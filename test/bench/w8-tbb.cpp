// test/bench/w8-tbb.cpp: W8 n-queens, TBB: one task_group task per column of
// each of the first `depth` rows, the serial solver below.
#include <tbb/task_group.h>

#include "bench_tbb.h"
#include "w8.h"

static long queens(int n, int depth, int row, signed char *a) {
  if (row >= depth)
    return w8_serial(n, row, a);
  long counts[W8_MAXN];
  tbb::task_group g;
  for (int c = 0; c < n; c++)
    g.run([&, c] {
      signed char b[W8_MAXN];
      memcpy(b, a, (size_t)row);
      b[row] = (signed char)c;
      counts[c] = w8_ok(row, b) ? queens(n, depth, row + 1, b) : 0;
    });
  g.wait();
  long sum = 0;
  for (int c = 0; c < n; c++)
    sum += counts[c];
  return sum;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "task_group");
  int n, depth;
  w8_args(argc, argv, &n, &depth);
  bench_tbb_setup setup;
  signed char board[W8_MAXN];
  double t0 = bench_now();
  long count = queens(n, depth, 0, board);
  double t = bench_now() - t0;
  return w8_report(n, depth, count, t, 1, setup.threads);
}
