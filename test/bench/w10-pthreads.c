/* test/bench/w10-pthreads.c: W10 a pipeline of stages, pthreads: a thread
 * per stage (the caller is stage 0), one-slot buffers guarded by POSIX
 * semaphores, every thread bound to the first P CPUs the program may use, as
 * PARC's processors are; creation and join are timed, as PARC's activity
 * creation is; see w10.h. */
#include "bench_cpus.h"

#include <semaphore.h>

#include "w10.h"

static sem_t *full, *empty;
static uint64_t *slot, sum;
static long n_, s_;
static cpu_set_t cpus;

static void *stage(void *arg) {
  long j = (long)arg;
  if (pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus) != 0)
    bench_die("pthread_setaffinity_np failed", NULL);
  for (long i = 0; i < n_; i++) {
    uint64_t v;
    if (j == 0) {
      v = (uint64_t)i;
    } else {
      sem_wait(&full[j - 1]);
      v = w10_stage(slot[j - 1], j);
      sem_post(&empty[j - 1]);
    }
    if (j == s_ - 1) {
      sum += v;
    } else {
      sem_wait(&empty[j]);
      slot[j] = v;
      sem_post(&full[j]);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "sem");
  w10_args(argc, argv, &n_, &s_);
  int threads = bench_threads();
  bench_first_cpus(threads, &cpus);
  full = (sem_t *)bench_alloc((size_t)s_ * sizeof *full);
  empty = (sem_t *)bench_alloc((size_t)s_ * sizeof *empty);
  slot = (uint64_t *)bench_alloc((size_t)s_ * sizeof *slot);
  for (long j = 0; j < s_; j++) {
    sem_init(&full[j], 0, 0);
    sem_init(&empty[j], 0, 1);
  }
  pthread_t *t = (pthread_t *)bench_alloc((size_t)s_ * sizeof(pthread_t));
  double t0 = bench_now();
  for (long j = 1; j < s_; j++)
    if (pthread_create(&t[j], NULL, stage, (void *)j) != 0)
      bench_die("pthread_create failed", NULL);
  stage((void *)0);
  for (long j = 1; j < s_; j++)
    pthread_join(t[j], NULL);
  double tk = bench_now() - t0;
  free(t);
  return w10_report(sum, n_, s_, tk, threads);
}
