/* test/bench/w7-serial.c: W7 quicksort with cutoff, serial C (the serial
 * elision of w7.pc: both parts sorted one after the other). */
#include "w7.h"

static void sort(int *a, long n, long cutoff) {
  if (n <= cutoff) {
    w7_leaf_sort(a, n);
    return;
  }
  long m = w7_partition(a, n);
  sort(a, m, cutoff);
  sort(a + m, n - m, cutoff);
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "rec");
  long n = bench_arg(argc, argv, 2, W7_DEFAULT_N);
  long cutoff = bench_arg(argc, argv, 3, W7_DEFAULT_CUTOFF);
  struct w7_sums before;
  int *a = w7_input(n, &before);
  double t0 = bench_now();
  sort(a, n, cutoff);
  double t = bench_now() - t0;
  return w7_report(a, n, before, t, 1);
}
