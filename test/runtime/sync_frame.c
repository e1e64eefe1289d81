// Stackless sync (parc_abi.h, "Stackless sync"): activities wait at a
// barrier in frames, not on envelopes, and resume after the sync with their
// frame (hoisted locals, pointers into it) intact.
//
// PARC source (as parcc lowers it, LowerSync.cpp):
//   parfor int i; 0; 999; 1;                   // flat: 20 rounds, 2 syncs each
//     for (int r = 0; r < 20; r++) { phase[i] = r; sync; check phase[i+1] == r; sync; }
//   epar
//   parfor int i; 0; 9; 1;                     // nested: inner parfor 100 syncs
//     parfor int j; 0; 99; 1; ...5 rounds... epar
//     sync;
//   epar
//   parfor int i; 0; 99; 1;                    // odd ones wait, even ones end
//     if (i % 2) { int *p = &local; sync; sync; check *p; }
//   epar
//   parfor int i; 0; 63; 1;                    // semaphore after the sync
//     sync; P(s); check nobody else inside; faa(&crit, 1); V(s);
//   epar
//   parfor int i; 0; 199; 1;                   // pbreak while 199 wait
//     if (i == 199) { spin until 199 arrived; pbreak; } sync; faa(&after, 1);
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// RUN: env PARC_SCHED=random PARC_SEED=7 %run-4 %t | %FileCheck %s
// RUN: env PARC_STATS=1 %run-1 %t flat 2>&1 | %FileCheck %s --check-prefix=STATS1
// RUN: env PARC_STATS=1 %run-4 %t flat 2>&1 | %FileCheck %s --check-prefix=STATS4
// CHECK: flat bad=0
// CHECK: nested bad=0 count=1000
// CHECK: partial passed=100 frames_ok=50
// CHECK: sem crit=64
// CHECK: pbreak after=0
// A thousand activities that each wait at 40 syncs, three times over,
// need no envelope beyond the one per processor that runs batches and
// resumptions (and, at P = 4, a few taken while others still run).
// STATS1: flat bad=0
// STATS1: parc: stats: total procs=1 activities=3000 envelopes_created={{[0-2]}} envelopes_reused=
// STATS4: flat bad=0
// STATS4: parc: stats: total procs=4 activities=3000 envelopes_created={{[0-9]}} envelopes_reused=
#include <parc_abi.h>
#include <parc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int phase[1000];
static int bad;
static int inner_phase[10][100];
static int count, passed, frames_ok, crit, inside, arrived, after;
static parc_sem_t sem;

static parc_site s_flat = PARC_SITE_INIT("sync_frame.pc", "main", 7, 3, PARC_KIND_PARFOR);
static parc_site s_outer = PARC_SITE_INIT("sync_frame.pc", "main", 10, 3, PARC_KIND_PARFOR);
static parc_site s_inner = PARC_SITE_INIT("sync_frame.pc", "main", 11, 5, PARC_KIND_PARFOR);
static parc_site s_part = PARC_SITE_INIT("sync_frame.pc", "main", 14, 3, PARC_KIND_PARFOR);
static parc_site s_sem = PARC_SITE_INIT("sync_frame.pc", "main", 17, 3, PARC_KIND_PARFOR);
static parc_site s_kill = PARC_SITE_INIT("sync_frame.pc", "main", 20, 3, PARC_KIND_PARFOR);

static void flat_body(parc_act *self, void *envp) {
  (void)envp;
  struct fr { unsigned st; int r; } *fr;
  uint64_t k;
  while ((fr = parc_next_frame(self, &k, sizeof *fr))) {
    int i = (int)k;
    switch (fr->st) {
    case 0:;
      for (fr->r = 0; (parc_poll(), fr->r < 20); fr->r++) {
        phase[i] = fr->r;
        fr->st = 1;
        if (parc_sync_frame(self))
          goto susp;
        __attribute__((fallthrough));
      case 1:;
        if (__atomic_load_n(&phase[(i + 1) % 1000], __ATOMIC_RELAXED) != fr->r)
          faa(&bad, 1);
        fr->st = 2;
        if (parc_sync_frame(self))
          goto susp;
        __attribute__((fallthrough));
      case 2:;
      }
    }
  susp:;
  }
}

static void inner_body(parc_act *self, void *envp) {
  int o = *(int *)envp;
  struct fr { unsigned st; int r; } *fr;
  uint64_t k;
  while ((fr = parc_next_frame(self, &k, sizeof *fr))) {
    int j = (int)k;
    switch (fr->st) {
    case 0:;
      for (fr->r = 0; (parc_poll(), fr->r < 5); fr->r++) {
        inner_phase[o][j] = fr->r;
        fr->st = 1;
        if (parc_sync_frame(self))
          goto susp;
        __attribute__((fallthrough));
      case 1:;
        if (__atomic_load_n(&inner_phase[o][(j + 7) % 100], __ATOMIC_RELAXED) != fr->r)
          faa(&bad, 1);
        fr->st = 2;
        if (parc_sync_frame(self))
          goto susp;
        __attribute__((fallthrough));
      case 2:;
      }
      faa(&count, 1);
    }
  susp:;
  }
}

static void outer_body(parc_act *self, void *envp) {
  (void)envp;
  struct fr { unsigned st; int o; } *fr;
  uint64_t k;
  while ((fr = parc_next_frame(self, &k, sizeof *fr))) {
    switch (fr->st) {
    case 0:;
      fr->o = (int)k;
      {
        parc_desc d;
        parc_spawn(&d, &s_inner, inner_body, &fr->o, 100);
      }
      fr->st = 1;
      if (parc_sync_frame(self))
        goto susp;
      __attribute__((fallthrough));
    case 1:;
    }
  susp:;
  }
}

/* A big frame (beyond the size classes) holding an array and a pointer into
 * it: both must survive the suspension. */
static void part_body(parc_act *self, void *envp) {
  (void)envp;
  struct fr { unsigned st; int local[4096]; int *p; } *fr;
  uint64_t k;
  while ((fr = parc_next_frame(self, &k, sizeof *fr))) {
    switch (fr->st) {
    case 0:;
      if (k % 2) {
        memset(fr->local, 0, sizeof fr->local);
        fr->local[4095] = (int)k;
        fr->p = &fr->local[4095];
        fr->st = 1;
        if (parc_sync_frame(self))
          goto susp;
        __attribute__((fallthrough));
      case 1:;
        fr->st = 2;
        if (parc_sync_frame(self))
          goto susp;
        __attribute__((fallthrough));
      case 2:;
        if (*fr->p == (int)k)
          faa(&frames_ok, 1);
      }
      faa(&passed, 1);
    }
  susp:;
  }
}

static void sem_body(parc_act *self, void *envp) {
  (void)envp;
  struct fr { unsigned st; } *fr;
  uint64_t k;
  while ((fr = parc_next_frame(self, &k, sizeof *fr))) {
    switch (fr->st) {
    case 0:;
      fr->st = 1;
      if (parc_sync_frame(self))
        goto susp;
      __attribute__((fallthrough));
    case 1:;
      parc_P(&sem);
      if (faa(&inside, 1) != 0)
        faa(&bad, 1);
      faa(&crit, 1);
      faa(&inside, -1);
      parc_V(&sem);
    }
  susp:;
  }
}

static void kill_body(parc_act *self, void *envp) {
  (void)envp;
  struct fr { unsigned st; } *fr;
  uint64_t k;
  while ((fr = parc_next_frame(self, &k, sizeof *fr))) {
    switch (fr->st) {
    case 0:;
      if (k == 199) {
        /* The last one waits for the others to arrive (at P = 1 they ran
         * before it, in index order; at P > 1 other processors run them),
         * then kills them all. */
        while ((parc_poll(), __atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < 199))
          ;
        parc_pbreak(self);
      }
      faa(&arrived, 1);
      fr->st = 1;
      if (parc_sync_frame(self))
        goto susp;
      __attribute__((fallthrough));
    case 1:;
      faa(&after, 1);
    }
  susp:;
  }
}

int main(int argc, char **argv) {
  for (int rep = 0; rep < 3; rep++) {
    parc_desc d;
    parc_spawn(&d, &s_flat, flat_body, NULL, 1000);
  }
  printf("flat bad=%d\n", bad);
  if (argc > 1 && !strcmp(argv[1], "flat"))
    return 0;
  {
    parc_desc d;
    parc_spawn(&d, &s_outer, outer_body, NULL, 10);
  }
  printf("nested bad=%d count=%d\n", bad, count);
  {
    parc_desc d;
    parc_spawn(&d, &s_part, part_body, NULL, 100);
  }
  printf("partial passed=%d frames_ok=%d\n", passed, frames_ok);
  parc_sem_init(&sem, 1);
  {
    parc_desc d;
    parc_spawn(&d, &s_sem, sem_body, NULL, 64);
  }
  printf("sem crit=%d\n", bad ? -1 : crit);
  {
    parc_desc d;
    parc_spawn(&d, &s_kill, kill_body, NULL, 200);
  }
  printf("pbreak after=%d\n", after);
  return 0;
}
