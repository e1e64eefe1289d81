// Concurrent kills: many activities pbreak at once, pbreak racing siblings
// that terminate normally, and inner pbreaks racing an outer pbreak that
// kills the inner constructs (kills inside kills).  Every construct ends,
// nothing runs after its epar, and the counts add up.
//
// PARC source:
//   parfor int i; 0; 999; 1; if (i % 7 == 3) pbreak; faa(&done, 1); epar     // many pbreaks
//   parfor int i; 0; 1; 1; if (i == 0) pbreak; faa(&done, 1); epar          // vs. normal end
//   parfor int a; 0; 3; 1;                                                     // kills in kills
//     parfor int j; 0; 63; 1;
//       if (j == 0) { wait a little; pbreak; }
//       for (;;) ;                                   // only a kill ends this
//     epar
//     if (a == 1) pbreak;
//     faa(&outer_done, 1);
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-1 %t | %FileCheck %s
// RUN: env PARC_KILL=range %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// CHECK: many ok
// CHECK: race ok
// CHECK: nested ok
// CHECK: late=0
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int done, outer_done, after, late;

static parc_site s_many = PARC_SITE_INIT("kill_races.pc", "main", 1, 1, PARC_KIND_PARFOR);
static parc_site s_race = PARC_SITE_INIT("kill_races.pc", "main", 2, 1, PARC_KIND_PARFOR);
static parc_site s_a = PARC_SITE_INIT("kill_races.pc", "main", 3, 1, PARC_KIND_PARFOR);
static parc_site s_j = PARC_SITE_INIT("kill_races.pc", "main", 4, 3, PARC_KIND_PARFOR);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void many_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k % 7 == 3)
      parc_pbreak(self);
    faa(&done, 1);
  }
}

static void j_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      double t0 = now();
      while ((parc_poll(), parc_nprocs() > 1 && now() - t0 < 0.002))
        ;
      parc_pbreak(self);
    }
    for (;;) {
      parc_poll();
      if (__atomic_load_n(&after, __ATOMIC_RELAXED))
        faa(&late, 1);
    }
  }
}

static void a_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    parc_desc d;
    parc_spawn(&d, &s_j, j_body, NULL, 64);
    if (k == 1)
      parc_pbreak(self);
    faa(&outer_done, 1);
  }
}

int main(void) {
  int ok = 1;
  for (int r = 0; r < 200; r++) {
    done = 0;
    parc_desc d;
    parc_spawn(&d, &s_many, many_body, NULL, 1000);
    /* at most the 3 activities before the first pbreaker plus whatever ran
     * concurrently; never all of the non-pbreaking ones */
    if (done >= 1000 - 143)
      ok = 0;
  }
  printf("many %s\n", ok ? "ok" : "BAD");
  ok = 1;
  for (int r = 0; r < 2000; r++) {
    done = 0;
    parc_desc d;
    parc_spawn(&d, &s_race, many_body, NULL, 4); /* index 3 pbreaks */
    if (done > 3)
      ok = 0;
  }
  printf("race %s\n", ok ? "ok" : "BAD");
  ok = 1;
  for (int r = 0; r < 50; r++) {
    outer_done = 0;
    parc_desc d;
    parc_spawn(&d, &s_a, a_body, NULL, 4);
    if (outer_done > 3)
      ok = 0;
  }
  printf("nested %s\n", ok ? "ok" : "BAD");
  __atomic_store_n(&after, 1, __ATOMIC_RELAXED);
  printf("late=%d\n", late);
  return 0;
}
