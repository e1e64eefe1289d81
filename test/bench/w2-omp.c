/* test/bench/w2-omp.c: W2 a[i] = a[i]*3+1, OpenMP: schedule(static) or
 * schedule(dynamic,1) (one chunk per iteration, the parfor analogue). */
#include "bench_omp.h"
#include "w2.h"

static void kernel_static(double *a, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    a[i] = a[i] * 3 + 1;
}

static void kernel_dynamic(double *a, long n) {
#pragma omp parallel for schedule(dynamic, 1)
  for (long i = 0; i < n; i++)
    a[i] = a[i] * 3 + 1;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "static dynamic1");
  long n = bench_arg(argc, argv, 2, W2_DEFAULT_N);
  int dyn = strcmp(v, "dynamic1") == 0;
  double *a = w2_input(n);
  int threads = bench_omp_setup();
  double t0 = bench_now();
  if (dyn)
    kernel_dynamic(a, n);
  else
    kernel_static(a, n);
  double t = bench_now() - t0;
  return w2_report(a, n, t, dyn ? n : threads, threads);
}
