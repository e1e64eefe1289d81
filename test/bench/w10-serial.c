/* test/bench/w10-serial.c: W10 a pipeline of stages, serial C: each token
 * through every stage in turn, no hand-over; see w10.h. */
#include "w10.h"

static uint64_t kernel(long n, long s) {
  uint64_t sum = 0;
  for (long i = 0; i < n; i++) {
    uint64_t v = (uint64_t)i;
    for (long j = 1; j < s; j++)
      v = w10_stage(v, j);
    sum += v;
  }
  return sum;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "loop");
  long n, s;
  w10_args(argc, argv, &n, &s);
  double t0 = bench_now();
  uint64_t sum = kernel(n, s);
  double t = bench_now() - t0;
  return w10_report(sum, n, s, t, 1);
}
