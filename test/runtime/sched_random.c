// PARC_SCHED=random with PARC_SEED=n changes the order in which activities
// run, reproducibly at P = 1; results of order-independent programs do not
// change (sync, semaphores, pbreak, nested constructs), at P = 1 and 4.
//
// PARC source (sched.pc):
//   int order[64], n;
//   int main(int argc, char **argv) {
//     parfor int i; 0; 39; 1;                          // line 4, col 3
//       order[faa(&n, 1)] = i;
//       if (i % 8 == 0) parblock { order[faa(&n, 1)] = 100 + i; } : { order[faa(&n, 1)] = 200 + i; } epar
//     epar
//     print order; then check mode: parfor 100 { 3 x (phase[i] = r; sync; check neighbour; sync) },
//     producer/consumer over a semaphore, and parfor 200 { if (i == 150) pbreak; }
//   }
// RUN: %cc-runtime
// RUN: %run-1 %t > %t.default
// RUN: %FileCheck %s --check-prefix=DEFAULT < %t.default
// RUN: env PARC_SCHED=default %run-1 %t | diff %t.default -
// RUN: env PARC_SCHED=random PARC_SEED=1 %run-1 %t > %t.s1a
// RUN: env PARC_SCHED=random PARC_SEED=1 %run-1 %t > %t.s1b
// RUN: env PARC_SCHED=random PARC_SEED=2 %run-1 %t > %t.s2
// RUN: env PARC_SCHED=random PARC_SEED=3 %run-1 %t > %t.s3
// RUN: diff %t.s1a %t.s1b
// RUN: %not diff -q %t.s1a %t.s2
// RUN: %not diff -q %t.s2 %t.s3
// RUN: %not diff -q %t.s1a %t.default
// RUN: %FileCheck %s --check-prefix=SAME < %t.s2
// RUN: env PARC_SCHED=random PARC_SEED=7 %run-1 %t check | %FileCheck %s --check-prefix=CHECK
// RUN: env PARC_SCHED=random PARC_SEED=8 %run-4 %t check | %FileCheck %s --check-prefix=CHECK
// RUN: env PARC_SCHED=random PARC_SEED=9 %run-2 %t check | %FileCheck %s --check-prefix=CHECK
// RUN: env PARC_SCHED=random %run-1 %t 2>&1 >/dev/null | %FileCheck %s --check-prefix=SEEDED
// RUN: env PARC_SCHED=fifo %not %t 2>&1 | %FileCheck %s --check-prefix=BADSCHED
// RUN: env PARC_SCHED=random PARC_SEED=x1 %not %t 2>&1 | %FileCheck %s --check-prefix=BADSEED
// RUN: env PARC_SCHED=random PARC_SEED=-1 %not %t 2>&1 | %FileCheck %s --check-prefix=NEGSEED
// DEFAULT: order: 0 100 200 1 2 3 4 5 6 7 8 108 208 9
// SAME: count=50
// CHECK: count=50
// CHECK: sync bad=0
// CHECK: consumed=4950
// CHECK: pbreak done=1 ran=ok
// SEEDED: parc: PARC_SCHED=random PARC_SEED={{[0-9]+}}
// BADSCHED: parc: error: PARC_SCHED=fifo: expected default or random
// BADSEED: parc: error: PARC_SEED=x1: expected a number from 0 to 18446744073709551615
// NEGSEED: parc: error: PARC_SEED=-1: expected a number
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int order[64], n;
static parc_site s_L4 = PARC_SITE_INIT("sched.pc", "main", 4, 3, PARC_KIND_PARFOR);
static parc_site s_L6 = PARC_SITE_INIT("sched.pc", "main", 6, 21, PARC_KIND_PARBLOCK);
static parc_site s_sync = PARC_SITE_INIT("sched.pc", "check", 10, 3, PARC_KIND_PARFOR);
static parc_site s_pc = PARC_SITE_INIT("sched.pc", "check", 12, 3, PARC_KIND_PARBLOCK);
static parc_site s_cons = PARC_SITE_INIT("sched.pc", "check", 13, 5, PARC_KIND_PARFOR);
static parc_site s_brk = PARC_SITE_INIT("sched.pc", "check", 15, 3, PARC_KIND_PARFOR);

static void main_parblock_L6(parc_act *self, void *envp) {
  int i = *(int *)envp;
  uint64_t k;
  while (parc_next(self, &k))
    order[faa(&n, 1)] = (k == 0 ? 100 : 200) + i;
}

static void main_parfor_L4(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    int i = (int)k;
    order[faa(&n, 1)] = i;
    if (i % 8 == 0) {
      parc_desc d;
      parc_spawn(&d, &s_L6, main_parblock_L6, &i, 2);
    }
  }
}

/* check: sync */
static int phase[100], bad;
static void sync_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    int i = (int)k;
    for (int r = 0; (parc_poll(), r < 3); r++) {
      phase[i] = r;
      parc_sync(self, NULL);
      if (phase[(i + 1) % 100] != r)
        faa(&bad, 1);
      parc_sync(self, NULL);
    }
  }
}

/* check: producer/consumer (one slot) */
static parc_sem_t full, empty;
static int slot, consumed;
static void cons_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    parc_P(&full);
    consumed += slot;
    parc_V(&empty);
  }
}
static void pc_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      for (int v = 0; (parc_poll(), v < 100); v++) {
        parc_P(&empty);
        slot = v;
        parc_V(&full);
      }
    } else {
      parc_desc d;
      parc_spawn(&d, &s_cons, cons_body, NULL, 100);
    }
  }
}

/* check: pbreak */
static int ran;
static void brk_body(parc_act *self, void *envp) {
  int *done = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    faa(&ran, 1);
    if (k == 150) {
      faa(done, 1);
      parc_pbreak(self);
    }
  }
}

int main(int argc, char **argv) {
  parc_desc d;
  parc_spawn(&d, &s_L4, main_parfor_L4, NULL, 40);
  printf("order:");
  for (int i = 0; i < n; i++)
    printf(" %d", order[i]);
  printf("\ncount=%d\n", n);
  if (argc > 1 && !strcmp(argv[1], "check")) {
    parc_spawn(&d, &s_sync, sync_body, NULL, 100);
    printf("sync bad=%d\n", bad);
    parc_sem_init(&full, 0);
    parc_sem_init(&empty, 1);
    parc_spawn(&d, &s_pc, pc_body, NULL, 2);
    printf("consumed=%d\n", consumed);
    int done = 0;
    parc_spawn(&d, &s_brk, brk_body, &done, 200);
    printf("pbreak done=%d ran=%s\n", done, ran >= 1 && ran <= 200 ? "ok" : "bad");
  }
  return 0;
}
