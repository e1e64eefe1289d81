/* test/bench/w4-omp.c: W4 parfor 1000 { sync; }, OpenMP: `team` (a reused
 * team of n threads at one barrier) or `split` (P threads, phases split by
 * hand); see w4.h. */
#include "bench_omp.h"
#include "w4.h"

static long kernel_team(long n) {
  long arrived = 0, ok = 0;
#pragma omp parallel num_threads(n)
  {
    __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
#pragma omp barrier
    if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) == n)
      __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
  }
  return ok;
}

static long kernel_split(long n) {
  long arrived = 0, ok = 0;
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
      __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
    /* the implicit barrier of the first loop is the sync */
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
      if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) == n)
        __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
  }
  return ok;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "team split");
  long n = bench_arg(argc, argv, 2, W4_DEFAULT_N);
  int team = strcmp(v, "team") == 0;
  int threads = bench_omp_setup();
  if (team)
    kernel_team(n); /* creates the n threads the timed region reuses */
  double t0 = bench_now();
  long ok = team ? kernel_team(n) : kernel_split(n);
  double t = bench_now() - t0;
  return w4_report(ok, n, t, threads);
}
