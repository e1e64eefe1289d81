/* bench.c - libparc micro-benchmarks, hand-lowered as parcc would emit them.
 *
 * Each kernel prints its time and a checksum:
 *   fib N         fib with both calls in a 2-section parblock (ns/activity)
 *   fibseq N      the same recursion without constructs (the baseline)
 *   parfor N      parfor of N tiny activities (sum of i)
 *   lparfor N     lparfor of the same loop
 *   sync N R      parfor N { sync; } repeated R times (ms per construct)
 *   synccold N    the first parfor N { sync; } of the process (envelopes
 *                 created, not reused: MAXI 5.4's batch allocation)
 *   sync2 N M R   parfor N { parfor M { sync; } } repeated R times
 *   work N US     parfor of N activities of US microseconds of busy work
 *                 (reports the ratio to the ideal N*US/P)
 * Build: cc -O2 -I../include bench.c -L<build>/lib -lparc -lpthread -lnuma
 */
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- fib ---- */
static parc_site s_fib = PARC_SITE_INIT("bench.pc", "fib", 1, 1, PARC_KIND_PARBLOCK);
static long fib(int n);
struct env_fib {
  long *x, *y;
  int *n;
};
static void fib_pb(parc_act *self, void *envp) {
  struct env_fib *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0)
      *e->x = fib(*e->n - 1);
    else
      *e->y = fib(*e->n - 2);
  }
}
static long fib(int n) {
  long x, y;
  parc_poll();
  if (n < 2)
    return n;
  struct env_fib e = {&x, &y, &n};
  parc_desc d;
  parc_spawn(&d, &s_fib, fib_pb, &e, 2);
  return x + y;
}
static long __attribute__((noinline)) fibseq(int n) {
  parc_poll();
  if (n < 2)
    return n;
  return fibseq(n - 1) + fibseq(n - 2);
}

/* ---- parfor / lparfor ---- */
static parc_site s_pf = PARC_SITE_INIT("bench.pc", "main", 2, 1, PARC_KIND_PARFOR);
static parc_site s_lpf = PARC_SITE_INIT("bench.pc", "main", 3, 1, PARC_KIND_LPARFOR);
static long long *acc; /* one slot per processor, padded */
static void pf_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    long long i = (long long)parc_iter(0, 1, k);
    acc[parc_procid() * 16] += i;
  }
}
struct env_lpf {
  uint64_t niter;
};
static void lpf_body(parc_act *self, void *envp) {
  struct env_lpf *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    uint64_t lo = parc_chunk_lo(e->niter, self->total, k);
    uint64_t hi = parc_chunk_lo(e->niter, self->total, k + 1);
    for (uint64_t it = lo; (parc_poll(), it < hi); it++) {
      long long i = (long long)parc_iter(0, 1, it);
      acc[parc_procid() * 16] += i;
    }
  }
}

/* ---- sync ---- */
static parc_site s_sync = PARC_SITE_INIT("bench.pc", "main", 4, 1, PARC_KIND_PARFOR);
static parc_site s_sync_in = PARC_SITE_INIT("bench.pc", "main", 5, 1, PARC_KIND_PARFOR);
static void sync_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    parc_sync(self, NULL);
}
static void sync2_body(parc_act *self, void *envp) {
  uint64_t m = *(uint64_t *)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    parc_desc d;
    parc_spawn(&d, &s_sync_in, sync_body, NULL, m);
  }
}

/* ---- work ---- */
static parc_site s_work = PARC_SITE_INIT("bench.pc", "main", 6, 1, PARC_KIND_PARFOR);
static void work_body(parc_act *self, void *envp) {
  double us = *(double *)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    double t0 = now();
    while ((parc_poll(), now() - t0 < us * 1e-6))
      ;
  }
}

static long long total_acc(void) {
  long long s = 0;
  for (int p = 0; p < parc_nprocs(); p++)
    s += acc[p * 16];
  memset(acc, 0, sizeof *acc * 16 * (size_t)parc_nprocs());
  return s;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *m = argv[1];
  long n = argc > 2 ? atol(argv[2]) : 0;
  int P = parc_nprocs();
  acc = calloc((size_t)P * 16, sizeof *acc);
  if (!strcmp(m, "fib") || !strcmp(m, "fibseq")) {
    int seq = !strcmp(m, "fibseq");
    (seq ? fibseq : fib)(20); /* warm up: threads, envelopes */
    double t0 = now();
    long r = (seq ? fibseq : fib)((int)n);
    double t = now() - t0;
    /* fib(n) makes fib(n+1)-1 parblocks of 2 activities: 2*(fib(n+1)-1). */
    double acts = 2.0 * (double)(fibseq((int)n + 1) - 1);
    printf("%s(%ld)=%ld P=%d time=%.3f s ns/activity=%.2f\n", m, n, r, P, t, t * 1e9 / acts);
  } else if (!strcmp(m, "parfor") || !strcmp(m, "lparfor")) {
    for (int rep = 0; rep < 2; rep++) { /* first repetition warms up */
      double t0 = now();
      parc_desc d;
      if (!strcmp(m, "parfor")) {
        parc_spawn(&d, &s_pf, pf_body, NULL, (uint64_t)n);
      } else {
        struct env_lpf e = {(uint64_t)n};
        parc_spawn_lparfor(&d, &s_lpf, lpf_body, &e, (uint64_t)n, 0);
      }
      double t = now() - t0;
      long long s = total_acc();
      if (rep)
        printf("%s(%ld) P=%d time=%.2f ms ns/iteration=%.2f sum=%lld\n", m, n, P, t * 1e3,
               t * 1e9 / (double)n, s);
    }
  } else if (!strcmp(m, "sync")) {
    long reps = argc > 3 ? atol(argv[3]) : 10;
    parc_desc d;
    parc_spawn(&d, &s_sync, sync_body, NULL, (uint64_t)n); /* warm up the pool */
    double t0 = now();
    for (long r = 0; r < reps; r++)
      parc_spawn(&d, &s_sync, sync_body, NULL, (uint64_t)n);
    double t = (now() - t0) / (double)reps;
    printf("sync(%ld) P=%d time=%.3f ms per construct\n", n, P, t * 1e3);
  } else if (!strcmp(m, "synccold")) {
    parc_desc d;
    double t0 = now();
    parc_spawn(&d, &s_sync, sync_body, NULL, (uint64_t)n);
    double t = now() - t0;
    printf("synccold(%ld) P=%d time=%.3f ms\n", n, P, t * 1e3);
  } else if (!strcmp(m, "sync2")) {
    uint64_t mm = argc > 3 ? (uint64_t)atol(argv[3]) : 100;
    long reps = argc > 4 ? atol(argv[4]) : 5;
    parc_desc d;
    parc_spawn(&d, &s_sync, sync2_body, &mm, (uint64_t)n);
    double t0 = now();
    for (long r = 0; r < reps; r++)
      parc_spawn(&d, &s_sync, sync2_body, &mm, (uint64_t)n);
    double t = (now() - t0) / (double)reps;
    printf("sync2(%ld x %llu) P=%d time=%.3f ms per construct\n", n, (unsigned long long)mm, P,
           t * 1e3);
  } else if (!strcmp(m, "work")) {
    double us = argc > 3 ? atof(argv[3]) : 1000;
    parc_desc d;
    double warm = 10;
    parc_spawn(&d, &s_work, work_body, &warm, (uint64_t)P); /* start the processors */
    double t0 = now();
    parc_spawn(&d, &s_work, work_body, &us, (uint64_t)n);
    double t = now() - t0;
    double ideal = (double)n * us * 1e-6 / P;
    printf("work(%ld x %.0f us) P=%d time=%.2f ms ideal=%.2f ms overhead=%.3f%%\n", n, us, P,
           t * 1e3, ideal * 1e3, (t / ideal - 1) * 100);
  }
  return 0;
}
