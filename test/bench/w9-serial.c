/* test/bench/w9-serial.c: W9 a lock around a shared sum, serial C: the same
 * sum without a lock; see w9.h. */
#include "w9.h"

static uint64_t kernel(long n, long k, long work) {
  uint64_t sum = 0;
  for (long a = 0; a < n; a++)
    for (long j = 0; j < k; j++)
      sum += w9_value(a, j, work);
  return sum;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "loop");
  long n, k, work;
  w9_args(argc, argv, &n, &k, &work);
  double t0 = bench_now();
  uint64_t sum = kernel(n, k, work);
  double t = bench_now() - t0;
  return w9_report(sum, n, k, work, t, 1);
}
