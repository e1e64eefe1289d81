// pbreak kills descendants three levels deep, including the unclaimed part
// of large inner parfors; nothing of the killed subtree runs after epar.
//
// PARC source:
//   int leaves, after, late;
//   parfor int a; 0; 7; 1;
//     if (a == 0) { wait until leaves > 0 (or ~200 ms); pbreak; }
//     parfor int b; 0; 3; 1;
//       parfor int c; 0; 99999; 1;
//         faa(&leaves, 1);
//         for (;;) { if (after) late++; }        // only a kill ends this
//       epar
//     epar
//   epar
//   after = 1;
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-1 %t | %FileCheck %s
// RUN: env PARC_KILL=range %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// CHECK: round 4 ok
// CHECK: late=0
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int leaves, after, late;

static parc_site s_a = PARC_SITE_INIT("pbreak_nested.pc", "main", 2, 3, PARC_KIND_PARFOR);
static parc_site s_b = PARC_SITE_INIT("pbreak_nested.pc", "main", 4, 5, PARC_KIND_PARFOR);
static parc_site s_c = PARC_SITE_INIT("pbreak_nested.pc", "main", 5, 7, PARC_KIND_PARFOR);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void c_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    faa(&leaves, 1);
    for (;;) {
      parc_poll();
      if (__atomic_load_n(&after, __ATOMIC_RELAXED))
        faa(&late, 1);
    }
  }
}

static void b_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    parc_desc d;
    parc_spawn(&d, &s_c, c_body, NULL, 100000);
  }
}

static void a_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      double t0 = now();
      while ((parc_poll(), parc_nprocs() > 1 && __atomic_load_n(&leaves, __ATOMIC_SEQ_CST) == 0 &&
                               now() - t0 < 0.2))
        ;
      parc_pbreak(self);
    }
    parc_desc d;
    parc_spawn(&d, &s_b, b_body, NULL, 4);
  }
}

int main(void) {
  for (int r = 0; r < 5; r++) {
    leaves = 0;
    parc_desc d;
    parc_spawn(&d, &s_a, a_body, NULL, 8);
    printf("round %d ok\n", r);
  }
  __atomic_store_n(&after, 1, __ATOMIC_RELAXED);
  printf("late=%d\n", late);
  return 0;
}
