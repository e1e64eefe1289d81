// pbreak while siblings are blocked: in sync (waiting for the semaphore
// waiters, which never arrive) and on a semaphore nobody signals.  Blocked
// victims are woken and stop; the semaphore and the program stay usable.
//
// PARC source:
//   parc_sem_t never; int blocked, passed;
//   parfor int i; 0; 99; 1;
//     if (i == 99) { wait until blocked == 99 (or ~300 ms); pbreak; }
//     faa(&blocked, 1);
//     if (i % 2) parc_P(&never); else sync;
//     faa(&passed, 1);                            // must never run
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-1 %t | %FileCheck %s
// RUN: env PARC_KILL=range %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// CHECK: round 0 passed=0
// CHECK: round 19 passed=0
// CHECK: nested passed=0
// CHECK: sem still works
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static parc_sem_t never;
static int blocked, passed;

static parc_site s_L2 = PARC_SITE_INIT("kill_blocked.pc", "main", 2, 3, PARC_KIND_PARFOR);
static parc_site s_out = PARC_SITE_INIT("kill_blocked.pc", "main", 12, 3, PARC_KIND_PARBLOCK);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void body(parc_act *self, void *envp) {
  int target = *(int *)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 99) {
      double t0 = now();
      while ((parc_poll(), __atomic_load_n(&blocked, __ATOMIC_SEQ_CST) < target && now() - t0 < 0.3))
        ;
      parc_pbreak(self);
    }
    faa(&blocked, 1);
    if (k % 2)
      parc_P(&never);
    else
      parc_sync(self, NULL);
    faa(&passed, 1);
  }
}

// The same construct one level down, killed by an outer pbreak instead:
// section 1 of the outer parblock waits, then pbreaks the parblock.
static void outer(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      int target = 1000; /* inner i == 99 never pbreaks: it waits ~300 ms */
      parc_desc d;
      parc_spawn(&d, &s_L2, body, &target, 100);
    } else {
      double t0 = now();
      while ((parc_poll(), __atomic_load_n(&blocked, __ATOMIC_SEQ_CST) < 50 && now() - t0 < 0.3))
        ;
      parc_pbreak(self);
    }
  }
}

int main(void) {
  parc_sem_init(&never, 0);
  for (int r = 0; r < 20; r++) {
    blocked = 0;
    int target = 99;
    parc_desc d;
    parc_spawn(&d, &s_L2, body, &target, 100);
    printf("round %d passed=%d\n", r, passed);
  }
  blocked = 0;
  {
    parc_desc d;
    parc_spawn(&d, &s_out, outer, NULL, 2);
  }
  printf("nested passed=%d\n", passed);
  parc_V(&never);
  parc_P(&never);
  printf("sem still works\n");
  return 0;
}
