/* test/bench/w5-pthreads.c: W5 nested parfor with sync, pthreads: one thread
 * per outer activity, each creating one thread per inner activity at its own
 * pthread_barrier (10,100 threads; 256 KiB stacks); creation is timed. */
#include <pthread.h>

#include "w5.h"

struct outer {
  pthread_barrier_t bar;
  long arrived;
};

static long ok, nouter, ninner;
static pthread_attr_t attr;

static void *inner(void *arg) {
  struct outer *o = (struct outer *)arg;
  __atomic_fetch_add(&o->arrived, 1, __ATOMIC_SEQ_CST);
  pthread_barrier_wait(&o->bar);
  if (__atomic_load_n(&o->arrived, __ATOMIC_SEQ_CST) == ninner)
    __atomic_fetch_add(&ok, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

static void *outer(void *arg) {
  (void)arg;
  struct outer o;
  o.arrived = 0;
  pthread_barrier_init(&o.bar, NULL, (unsigned)ninner);
  pthread_t *t = (pthread_t *)bench_alloc((size_t)ninner * sizeof(pthread_t));
  for (long j = 0; j < ninner; j++)
    if (pthread_create(&t[j], &attr, inner, &o) != 0)
      bench_die("pthread_create failed", NULL);
  for (long j = 0; j < ninner; j++)
    pthread_join(t[j], NULL);
  pthread_barrier_destroy(&o.bar);
  free(t);
  return NULL;
}

static long kernel(void) {
  pthread_t *t = (pthread_t *)bench_alloc((size_t)nouter * sizeof(pthread_t));
  for (long i = 0; i < nouter; i++)
    if (pthread_create(&t[i], &attr, outer, NULL) != 0)
      bench_die("pthread_create failed", NULL);
  for (long i = 0; i < nouter; i++)
    pthread_join(t[i], NULL);
  free(t);
  return ok;
}

int main(int argc, char **argv) {
  bench_variant(argc, argv, "barrier");
  nouter = bench_arg(argc, argv, 2, W5_DEFAULT_OUTER);
  ninner = bench_arg(argc, argv, 3, W5_DEFAULT_INNER);
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  double t0 = bench_now();
  long r = kernel();
  double t = bench_now() - t0;
  return w5_report(r, nouter, ninner, t, bench_threads());
}
