/* test/bench/w3-omp.c: W3 busy activities, OpenMP: schedule(dynamic,1) (one
 * chunk per activity, the parfor analogue) or schedule(static). */
#include "bench_omp.h"
#include "w3.h"

static void kernel_dynamic(uint64_t *r, long n, long steps) {
#pragma omp parallel for schedule(dynamic, 1)
  for (long i = 0; i < n; i++)
    r[i] = w3_work(i, steps);
}

static void kernel_static(uint64_t *r, long n, long steps) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    r[i] = w3_work(i, steps);
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "dynamic1 static");
  long n = bench_arg(argc, argv, 2, W3_DEFAULT_N);
  long steps = bench_arg(argc, argv, 3, W3_DEFAULT_SPIN);
  uint64_t *r = w3_results(n);
  int threads = bench_omp_setup();
  double t0 = bench_now();
  if (strcmp(v, "static") == 0)
    kernel_static(r, n, steps);
  else
    kernel_dynamic(r, n, steps);
  double t = bench_now() - t0;
  return w3_report(r, n, steps, t, threads);
}
