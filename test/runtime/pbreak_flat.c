// pbreak in a flat parfor: the siblings that run (spinning until killed)
// stop at a poll, unstarted ones never start, the parent continues.
//
// PARC source:
//   int started, after, late;
//   parfor int i; 0; 9999; 1;
//     if (i == 0) { wait until started >= P-1 (or ~200 ms); pbreak; }
//     faa(&started, 1);
//     for (;;) { if (after) late++; }          // only a kill ends this
//   epar
//   after = 1;
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-1 %t | %FileCheck %s
// RUN: env PARC_KILL=range %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// CHECK: round 0 ok
// CHECK: round 9 ok
// CHECK: late=0
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int started, after, late;

static parc_site s_L2 = PARC_SITE_INIT("pbreak_flat.pc", "main", 2, 3, PARC_KIND_PARFOR);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      double t0 = now();
      while ((parc_poll(), __atomic_load_n(&started, __ATOMIC_SEQ_CST) < parc_nprocs() - 1 &&
                               now() - t0 < 0.2))
        ;
      parc_pbreak(self);
    }
    faa(&started, 1);
    for (;;) {
      parc_poll();
      if (__atomic_load_n(&after, __ATOMIC_RELAXED))
        faa(&late, 1);
    }
  }
}

int main(void) {
  for (int r = 0; r < 10; r++) {
    started = 0;
    parc_desc d;
    parc_spawn(&d, &s_L2, body, NULL, 10000);
    printf("round %d ok\n", r);
  }
  __atomic_store_n(&after, 1, __ATOMIC_RELAXED);
  printf("late=%d\n", late);
  return 0;
}
