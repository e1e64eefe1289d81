/* test/bench/w5-omp.c: W5 nested parfor with sync, OpenMP: `team` (nested
 * teams of no x ni threads, reused) or `split` (P threads over the outer
 * loop, each inner construct's phases split by hand); see w4.h and w5.h. */
#include "bench_omp.h"
#include "w5.h"

static long kernel_team(long no, long ni) {
  long ok = 0;
#pragma omp parallel num_threads(no)
  {
    long arrived = 0;
#pragma omp parallel num_threads(ni) shared(arrived)
    {
      __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
#pragma omp barrier
      if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) == ni)
        __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
    }
  }
  return ok;
}

static long kernel_split(long no, long ni) {
  long ok = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (long i = 0; i < no; i++) {
    long arrived = 0;
    for (long j = 0; j < ni; j++)
      __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
    for (long j = 0; j < ni; j++)
      if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) == ni)
        __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
  }
  return ok;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "team split");
  long no = bench_arg(argc, argv, 2, W5_DEFAULT_OUTER);
  long ni = bench_arg(argc, argv, 3, W5_DEFAULT_INNER);
  int team = strcmp(v, "team") == 0;
  int threads = bench_omp_setup();
  if (team) {
    omp_set_max_active_levels(2);
    kernel_team(no, ni); /* creates the threads the timed region reuses */
  }
  double t0 = bench_now();
  long ok = team ? kernel_team(no, ni) : kernel_split(no, ni);
  double t = bench_now() - t0;
  return w5_report(ok, no, ni, t, threads);
}
