/* test/bench/w5-serial.c: W5 nested parfor with sync, serial C: each inner
 * construct's two phases one after the other. */
#include "w5.h"

static long kernel(long no, long ni) {
  long ok = 0;
  for (long i = 0; i < no; i++) {
    long arrived = 0;
    for (long j = 0; j < ni; j++)
      arrived++;
    __asm__ volatile("" : "+r"(arrived)); /* keep the phases from folding */
    for (long j = 0; j < ni; j++)
      if (arrived == ni)
        ok++;
  }
  return ok;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "split");
  long no = bench_arg(argc, argv, 2, W5_DEFAULT_OUTER);
  long ni = bench_arg(argc, argv, 3, W5_DEFAULT_INNER);
  double t0 = bench_now();
  long ok = kernel(no, ni);
  double t = bench_now() - t0;
  return w5_report(ok, no, ni, t, 1);
}
