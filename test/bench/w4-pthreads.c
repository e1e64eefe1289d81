/* test/bench/w4-pthreads.c: W4 parfor 1000 { sync; }, pthreads: one thread per
 * activity at one pthread_barrier; creation and join are timed, as PARC's
 * activity creation is.  Stacks of 256 KiB, so that W5's 10,100 threads fit
 * as well; see w4.h. */
#include <pthread.h>

#include "w4.h"

static pthread_barrier_t bar;
static long arrived, ok, nact;

static void *activity(void *arg) {
  (void)arg;
  __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
  pthread_barrier_wait(&bar);
  if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) == nact)
    __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

static long kernel(long n) {
  pthread_t *t = (pthread_t *)bench_alloc((size_t)n * sizeof(pthread_t));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  nact = n;
  pthread_barrier_init(&bar, NULL, (unsigned)n);
  for (long i = 0; i < n; i++)
    if (pthread_create(&t[i], &attr, activity, NULL) != 0)
      bench_die("pthread_create failed", NULL);
  for (long i = 0; i < n; i++)
    pthread_join(t[i], NULL);
  pthread_barrier_destroy(&bar);
  free(t);
  return ok;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "barrier");
  long n = bench_arg(argc, argv, 2, W4_DEFAULT_N);
  double t0 = bench_now();
  long r = kernel(n);
  double t = bench_now() - t0;
  return w4_report(r, n, t, bench_threads());
}
