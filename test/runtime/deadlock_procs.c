// A program whose every activity is blocked is reported at any P, with what
// each activity waits for, and exits 1; a program that only looks idle
// (one processor in a long activity, the others asleep; main sleeping
// between constructs; a context being readied) is not reported.
//
// PARC source (dead.pc):
//   parc_sem_t never, s;
//   sem:    parblock { parc_P(&never); } : { parc_P(&never); } epar         // line 3, col 3
//   mixed:  parfor int i; 0; 3; 1; if (i == 0) parc_P(&never); else sync; epar   // line 4, col 3
//   root:   parc_P(&never);                                                 // main itself
//   nested: parfor int a; 0; 2; 1;                                          // line 6, col 3
//             parblock { parc_P(&never); } : { ; } epar                     // line 7, col 5
//           epar
//   epar:   parblock { parc_P(&s); } : { parc_V(&s); parc_P(&never); } epar  // line 8, col 3
//   alive:  parblock { usleep(300000); parc_V(&s); } : { parc_P(&s); } epar // line 9, col 3
//           usleep(200000);
//           parfor int i; 0; 99; 1; if (i % 2) { parc_P(&s); } else { usleep(1000); parc_V(&s); } epar
// UNSUPPORTED: cross
// (cross: qemu-user's own thread counts as one of the program's, which may still call parc_V)
// RUN: %cc-runtime
// RUN: %not %run-1 %t sem 2>&1 | %FileCheck %s --check-prefixes=SEM,SEM1
// RUN: %not %run-2 %t sem 2>&1 | %FileCheck %s --check-prefixes=SEM,SEM2
// RUN: %not %run-4 %t sem 2>&1 | %FileCheck %s --check-prefixes=SEM,SEM4
// RUN: %not %run-8 %t sem 2>&1 | %FileCheck %s --check-prefix=SEM
// RUN: sh -c 'env PARC_NPROCS=4 %t sem; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=STATUS
// RUN: %not %run-4 %t mixed 2>&1 | %FileCheck %s --check-prefix=MIXED
// RUN: %not %run-1 %t mixed 2>&1 | %FileCheck %s --check-prefix=MIXED
// RUN: %not %run-4 %t root 2>&1 | %FileCheck %s --check-prefix=ROOT
// RUN: %not %run-2 %t nested 2>&1 | %FileCheck %s --check-prefix=NESTED
// RUN: %not %run-1 %t epar 2>&1 | %FileCheck %s --check-prefix=EPAR
// RUN: %not %run-4 %t epar 2>&1 | %FileCheck %s --check-prefix=EPAR
// RUN: %run-4 %t alive 2>&1 | %FileCheck %s --check-prefix=ALIVE
// RUN: %run-2 %t alive 2>&1 | %FileCheck %s --check-prefix=ALIVE
// SEM1: parc: error: deadlock: every activity is blocked (PARC_NPROCS=1)
// SEM2: parc: error: deadlock: every activity is blocked (PARC_NPROCS=2)
// SEM4: parc: error: deadlock: every activity is blocked (PARC_NPROCS=4)
// SEM-DAG: parc: note: activity 0 of dead.pc:3:3 (parblock in main), run inline by main, waits on the semaphore at 0x{{[0-9a-f]+}}
// SEM-DAG: parc: note: activity 1 of dead.pc:3:3 (parblock in main) waits on the semaphore at 0x{{[0-9a-f]+}}
// SEM-NOT: unreachable
// STATUS: status=1
// MIXED: parc: error: deadlock: every activity is blocked
// MIXED-DAG: parc: note: activity 0 of dead.pc:4:3 (parfor in main), run inline by main, waits on the semaphore
// MIXED-DAG: parc: note: activity 1 of dead.pc:4:3 (parfor in main) waits at sync (3 of 4 unfinished activities arrived)
// MIXED-DAG: parc: note: activity 3 of dead.pc:4:3 (parfor in main) waits at sync
// ROOT: parc: error: deadlock: every activity is blocked (PARC_NPROCS=4)
// ROOT-NEXT: parc: note: main waits on the semaphore at 0x
// NESTED: parc: error: deadlock: every activity is blocked (PARC_NPROCS=2)
// NESTED-DAG: parc: note: activity 0 of dead.pc:7:5 (parblock in main), run inline by activity 0 of dead.pc:6:3 (parfor in main), waits on the semaphore
// NESTED-DAG: parc: note: activity 0 of dead.pc:7:5 (parblock in main), run inline by activity 1 of dead.pc:6:3 (parfor in main), waits on the semaphore
// EPAR: parc: error: deadlock: every activity is blocked
// EPAR-DAG: parc: note: activity 1 of dead.pc:8:3 (parblock in main) waits on the semaphore
// EPAR-DAG: parc: note: main waits at the epar of dead.pc:8:3 (parblock in main) for 1 unfinished activity
// ALIVE: alive pairs=50
// ALIVE-NOT: deadlock
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static parc_sem_t never, s;
static int pairs;
static parc_site s_L3 = PARC_SITE_INIT("dead.pc", "main", 3, 3, PARC_KIND_PARBLOCK);
static parc_site s_L4 = PARC_SITE_INIT("dead.pc", "main", 4, 3, PARC_KIND_PARFOR);
static parc_site s_L6 = PARC_SITE_INIT("dead.pc", "main", 6, 3, PARC_KIND_PARFOR);
static parc_site s_L7 = PARC_SITE_INIT("dead.pc", "main", 7, 5, PARC_KIND_PARBLOCK);
static parc_site s_L8 = PARC_SITE_INIT("dead.pc", "main", 8, 3, PARC_KIND_PARBLOCK);
static parc_site s_L9 = PARC_SITE_INIT("dead.pc", "main", 9, 3, PARC_KIND_PARBLOCK);
static parc_site s_L11 = PARC_SITE_INIT("dead.pc", "main", 11, 3, PARC_KIND_PARFOR);

static void sem_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    parc_P(&never);
}

static void mixed_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0)
      parc_P(&never);
    else
      parc_sync(self, NULL);
  }
}

static void inner_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    if (k == 0)
      parc_P(&never);
}

static void outer_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    parc_desc d;
    parc_spawn(&d, &s_L7, inner_body, NULL, 2);
  }
}

static void epar_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      parc_P(&s);
    } else {
      parc_V(&s);
      parc_P(&never);
    }
  }
}

static void alive_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      usleep(300000); /* a long activity: the other processors sleep meanwhile */
      parc_V(&s);
    } else {
      parc_P(&s);
    }
  }
}

static void pairs_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k % 2) {
      parc_P(&s);
      faa(&pairs, 1);
    } else {
      usleep(1000);
      parc_V(&s);
    }
  }
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  parc_desc d;
  parc_sem_init(&never, 0);
  parc_sem_init(&s, 0);
  if (!strcmp(m, "sem"))
    parc_spawn(&d, &s_L3, sem_body, NULL, 2);
  else if (!strcmp(m, "mixed"))
    parc_spawn(&d, &s_L4, mixed_body, NULL, 4);
  else if (!strcmp(m, "root"))
    parc_P(&never);
  else if (!strcmp(m, "nested"))
    parc_spawn(&d, &s_L6, outer_body, NULL, 2);
  else if (!strcmp(m, "epar"))
    parc_spawn(&d, &s_L8, epar_body, NULL, 2);
  else if (!strcmp(m, "alive")) {
    parc_spawn(&d, &s_L9, alive_body, NULL, 2);
    usleep(200000); /* main busy outside constructs; the others asleep */
    parc_spawn(&d, &s_L11, pairs_body, NULL, 100);
    printf("alive pairs=%d\n", pairs);
    return 0;
  }
  printf("unreachable\n");
  return 0;
}
