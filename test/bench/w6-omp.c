/* test/bench/w6-omp.c: W6 key search, OpenMP schedule(static) with `cancel for`
 * and a cancellation point per iteration.  `cancel` needs OMP_CANCELLATION=true
 * (the runner sets it); `nocancel` is the same code with cancellation off,
 * where both directives do nothing and every share is scanned to its end. */
#include "bench_omp.h"
#include "w6.h"

static long search(const int *a, long n, int key) {
  long found = -1;
  /* parallel and for apart: gcc gives a combined `parallel for` an implicit
   * nowait and then warns that `cancel for` inside it is not allowed */
#pragma omp parallel
#pragma omp for schedule(static)
  for (long i = 0; i < n; i++) {
    if (a[i] == key) {
      found = i;
#pragma omp cancel for
    }
#pragma omp cancellation point for
  }
  return found;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "cancel nocancel");
  long n = bench_arg(argc, argv, 2, W6_DEFAULT_N);
  long pct = bench_arg(argc, argv, 3, W6_DEFAULT_PCT);
  int want = strcmp(v, "cancel") == 0;
  if (omp_get_cancellation() != want)
    bench_die(want ? "variant 'cancel' needs OMP_CANCELLATION=true"
                   : "variant 'nocancel' needs OMP_CANCELLATION unset or false",
              NULL);
  long pos = w6_key_pos(n, pct, bench_threads());
  int *a = w6_input(n, pos);
  int threads = bench_omp_setup();
  double t0 = bench_now();
  long found = search(a, n, W6_KEY);
  double t = bench_now() - t0;
  return w6_report(a, found, pos, t, threads);
}
