/* test/bench/w2-serial.c: W2 a[i] = a[i]*3+1, serial C. */
#include "w2.h"

static void kernel(double *a, long n) {
  for (long i = 0; i < n; i++)
    a[i] = a[i] * 3 + 1;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "loop");
  long n = bench_arg(argc, argv, 2, W2_DEFAULT_N);
  double *a = w2_input(n);
  double t0 = bench_now();
  kernel(a, n);
  double t = bench_now() - t0;
  return w2_report(a, n, t, -1, 1);
}
