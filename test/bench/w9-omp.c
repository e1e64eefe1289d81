/* test/bench/w9-omp.c: W9 a lock around a shared sum, OpenMP: a parallel for
 * over the activities, the addition in a `critical` section or under an
 * omp_lock_t (`lock`); see w9.h. */
#include "bench_omp.h"
#include "w9.h"

static uint64_t kernel_critical(long n, long k, long work) {
  uint64_t sum = 0;
#pragma omp parallel for schedule(static)
  for (long a = 0; a < n; a++)
    for (long j = 0; j < k; j++) {
      uint64_t x = w9_value(a, j, work);
#pragma omp critical
      sum += x;
    }
  return sum;
}

static uint64_t kernel_lock(long n, long k, long work) {
  uint64_t sum = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel for schedule(static)
  for (long a = 0; a < n; a++)
    for (long j = 0; j < k; j++) {
      uint64_t x = w9_value(a, j, work);
      omp_set_lock(&lock);
      sum += x;
      omp_unset_lock(&lock);
    }
  omp_destroy_lock(&lock);
  return sum;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "critical lock");
  long n, k, work;
  w9_args(argc, argv, &n, &k, &work);
  int threads = bench_omp_setup();
  double t0 = bench_now();
  uint64_t sum = strcmp(v, "lock") == 0 ? kernel_lock(n, k, work) : kernel_critical(n, k, work);
  double t = bench_now() - t0;
  return w9_report(sum, n, k, work, t, threads);
}
