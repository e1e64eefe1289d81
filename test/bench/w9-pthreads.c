/* test/bench/w9-pthreads.c: W9 a lock around a shared sum, pthreads: P
 * threads (the caller one of them), each with an equal share of the
 * activities, the addition under a pthread mutex; creation and join are
 * timed, as PARC's activity creation is; see w9.h. */
#include <pthread.h>

#include "w9.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t sum;
static long n_, k_, work_;
static int threads_;

static void *share(void *arg) {
  long id = (long)arg;
  for (long a = n_ * id / threads_; a < n_ * (id + 1) / threads_; a++)
    for (long j = 0; j < k_; j++) {
      uint64_t x = w9_value(a, j, work_);
      pthread_mutex_lock(&lock);
      sum += x;
      pthread_mutex_unlock(&lock);
    }
  return NULL;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "mutex");
  w9_args(argc, argv, &n_, &k_, &work_);
  threads_ = bench_threads();
  pthread_t *t = (pthread_t *)bench_alloc((size_t)threads_ * sizeof(pthread_t));
  double t0 = bench_now();
  for (long i = 1; i < threads_; i++)
    if (pthread_create(&t[i], NULL, share, (void *)i) != 0)
      bench_die("pthread_create failed", NULL);
  share((void *)0);
  for (long i = 1; i < threads_; i++)
    pthread_join(t[i], NULL);
  double tk = bench_now() - t0;
  free(t);
  return w9_report(sum, n_, k_, work_, tk, threads_);
}
