/* test/bench/w8-serial.c: W8 n-queens, serial C (the serial elision of w8.pc:
 * a for loop over the columns where w8.pc has a parfor). */
#include "w8.h"

static long queens(int n, int depth, int row, signed char *a) {
  if (row >= depth)
    return w8_serial(n, row, a);
  long counts[W8_MAXN];
  for (int c = 0; c < n; c++) {
    signed char b[W8_MAXN];
    memcpy(b, a, (size_t)row);
    b[row] = (signed char)c;
    counts[c] = w8_ok(row, b) ? queens(n, depth, row + 1, b) : 0;
  }
  long sum = 0;
  for (int c = 0; c < n; c++)
    sum += counts[c];
  return sum;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "rec");
  int n, depth;
  w8_args(argc, argv, &n, &depth);
  signed char board[W8_MAXN];
  double t0 = bench_now();
  long count = queens(n, depth, 0, board);
  double t = bench_now() - t0;
  return w8_report(n, depth, count, t, 0, 1);
}
