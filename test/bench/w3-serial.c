/* test/bench/w3-serial.c: W3 busy activities, serial C; `calibrate` prints the
 * spin steps per millisecond (the best of several trials). */
#include "w3.h"

static void kernel(uint64_t *r, long n, long steps) {
  for (long i = 0; i < n; i++)
    r[i] = w3_work(i, steps);
}

static int calibrate(void) {
  const long trial = 2000000;
  double best = 1e9;
  uint64_t sink = 0;
  for (int k = 0; k < 15; k++) {
    double t0 = bench_now();
    sink += w3_spin((uint64_t)k, trial);
    double t = bench_now() - t0;
    if (t < best)
      best = t;
  }
  printf("spin_per_ms=%ld sink=%llu\n", (long)(trial / (best * 1e3)), (unsigned long long)(sink & 1));
  return 0;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "loop calibrate");
  if (strcmp(v, "calibrate") == 0)
    return calibrate();
  long n = bench_arg(argc, argv, 2, W3_DEFAULT_N);
  long steps = bench_arg(argc, argv, 3, W3_DEFAULT_SPIN);
  uint64_t *r = w3_results(n);
  double t0 = bench_now();
  kernel(r, n, steps);
  double t = bench_now() - t0;
  return w3_report(r, n, steps, t, 1);
}
