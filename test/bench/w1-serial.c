/* test/bench/w1-serial.c: W1 fib, serial C (the serial elision of w1.pc). */
#include "w1.h"

static long fib(int n) {
  if (n < 2)
    return n;
  long x, y;
  x = fib(n - 1);
  y = fib(n - 2);
  return x + y;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "rec");
  int n = (int)bench_arg(argc, argv, 2, W1_DEFAULT_N);
  double t0 = bench_now();
  long r = fib(n);
  double t = bench_now() - t0;
  return w1_report(n, t, r, 1);
}
