/* test/bench/w11-pthreads.c: W11 a relay of signals, pthreads: per round,
 * n threads (256 KiB stacks) bound to the first P CPUs the program may
 * use, thread i waiting on its own sem_t for thread i + 1; creation and
 * join are timed, as PARC's activity creation is; see w11.h. */
#include "bench_cpus.h"

#include <semaphore.h>

#include "w11.h"

static sem_t *go;
static uint64_t sum;
static long n_, round_;

static void *activity(void *arg) {
  long i = (long)arg;
  sem_wait(&go[i]);
  sum += w11_value(round_, i); /* one thread at a time: the relay orders them */
  if (i > 0)
    sem_post(&go[i - 1]);
  return NULL;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "sem");
  long r;
  w11_args(argc, argv, &n_, &r);
  int threads = bench_threads();
  cpu_set_t cpus;
  bench_first_cpus(threads, &cpus);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  if (pthread_attr_setaffinity_np(&attr, sizeof cpus, &cpus) != 0)
    bench_die("pthread_attr_setaffinity_np failed", NULL);
  go = (sem_t *)bench_alloc((size_t)n_ * sizeof *go);
  pthread_t *t = (pthread_t *)bench_alloc((size_t)n_ * sizeof(pthread_t));
  double t0 = bench_now();
  for (round_ = 0; round_ < r; round_++) {
    for (long i = 0; i < n_; i++)
      sem_init(&go[i], 0, i == n_ - 1);
    for (long i = 0; i < n_; i++)
      if (pthread_create(&t[i], &attr, activity, (void *)i) != 0)
        bench_die("pthread_create failed", NULL);
    for (long i = 0; i < n_; i++)
      pthread_join(t[i], NULL);
  }
  double tk = bench_now() - t0;
  free(t);
  return w11_report(sum, n_, r, tk, threads);
}
