/* test/bench/w8-omp.c: W8 n-queens, OpenMP: one task per column of each of
 * the first `depth` rows, taskwait, the serial solver below. */
#include "bench_omp.h"
#include "w8.h"

static long queens(int n, int depth, int row, signed char *a) {
  if (row >= depth)
    return w8_serial(n, row, a);
  long counts[W8_MAXN];
  for (int c = 0; c < n; c++) {
#pragma omp task shared(counts)
    {
      signed char b[W8_MAXN];
      memcpy(b, a, (size_t)row);
      b[row] = (signed char)c;
      counts[c] = w8_ok(row, b) ? queens(n, depth, row + 1, b) : 0;
    }
  }
#pragma omp taskwait
  long sum = 0;
  for (int c = 0; c < n; c++)
    sum += counts[c];
  return sum;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "task");
  int n, depth;
  w8_args(argc, argv, &n, &depth);
  int threads = bench_omp_setup();
  long count = 0;
  signed char board[W8_MAXN];
  double t0 = bench_now();
#pragma omp parallel
#pragma omp single
  count = queens(n, depth, 0, board);
  double t = bench_now() - t0;
  return w8_report(n, depth, count, t, 1, threads);
}
