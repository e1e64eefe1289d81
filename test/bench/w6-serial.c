/* test/bench/w6-serial.c: W6 key search, serial scan. */
#include "w6.h"

static long search(const int *a, long n, int key) {
  long found = -1;
  for (long i = 0; i < n; i++)
    if (a[i] == key) {
      found = i;
      break;
    }
  return found;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "scan");
  long n = bench_arg(argc, argv, 2, W6_DEFAULT_N);
  long pct = bench_arg(argc, argv, 3, W6_DEFAULT_PCT);
  long pos = w6_key_pos(n, pct, bench_threads());
  int *a = w6_input(n, pos);
  double t0 = bench_now();
  long found = search(a, n, W6_KEY);
  double t = bench_now() - t0;
  return w6_report(a, found, pos, t, 1);
}
