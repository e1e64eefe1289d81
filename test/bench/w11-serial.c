/* test/bench/w11-serial.c: W11 a relay of signals, serial C: the same sums
 * in a loop, last activity first; see w11.h. */
#include "w11.h"

static uint64_t kernel(long n, long r) {
  uint64_t sum = 0;
  for (long k = 0; k < r; k++)
    for (long i = n - 1; i >= 0; i--)
      sum += w11_value(k, i);
  return sum;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "loop");
  long n, r;
  w11_args(argc, argv, &n, &r);
  double t0 = bench_now();
  uint64_t sum = kernel(n, r);
  double t = bench_now() - t0;
  return w11_report(sum, n, r, t, 1);
}
