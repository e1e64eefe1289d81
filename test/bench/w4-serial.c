/* test/bench/w4-serial.c: W4 parfor 1000 { sync; }, serial C: the two phases
 * around the barrier one after the other (what any version must at least do). */
#include "w4.h"

static long kernel(long n) {
  long arrived = 0, ok = 0;
  for (long i = 0; i < n; i++)
    arrived++;
  __asm__ volatile("" : "+r"(arrived)); /* keep the phases from folding */
  for (long i = 0; i < n; i++)
    if (arrived == n)
      ok++;
  return ok;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "split");
  long n = bench_arg(argc, argv, 2, W4_DEFAULT_N);
  double t0 = bench_now();
  long ok = kernel(n);
  double t = bench_now() - t0;
  return w4_report(ok, n, t, 1);
}
