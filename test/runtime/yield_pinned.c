// Main's context stays on processor 0; once readied, an activity running on
// processor 0 that does not block must give way to it (processor.c,
// "Giving way to pinned contexts"), hand-lowered against parc_abi.h:
//   - "poll": the activity only polls, and the other processor, its
//     release done, is idle and asks for work: it gives way at a poll;
//   - "sem": every processor runs an activity that calls parc_V in a loop
//     (none idle): the one on processor 0 gives way at a parc_V.
// Either activity waits until main has run again, or 5 s; before the yield
// existed main waited all 5 s and the line said "main waited".
//
// PARC source (yield_pinned.pc), for each of the two rounds:
//   parfor int i; 0; parc_nprocs(); 1;                     // line 3, col 3
//     if (i == 0) { parc_P(&go); back = 1; }
//     else { if (parc_procid() != 0) release_once();
//            wait for back, at most 5 s, polling (round "poll": only on
//            processor 0; others return) or calling parc_V(&tick) ("sem") }
//   epar
// RUN: %cc-runtime
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: poll: main ran while processor 0 was busy
// CHECK: sem: main ran while processor 0 was busy
#define _GNU_SOURCE
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static parc_site s_L3 = PARC_SITE_INIT("yield_pinned.pc", "main", 3, 3, PARC_KIND_PARFOR);
static parc_sem_t go, tick;
static int back, released, waited, sem_round;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void release_once(void) {
  if (!__atomic_exchange_n(&released, 1, __ATOMIC_ACQ_REL))
    parc_V(&go);
}

/* Until main has run again (or 5 s): poll, or signal `tick` as well. */
static void wait_for_main(int with_sem) {
  double t0 = now_s();
  while (!__atomic_load_n(&back, __ATOMIC_ACQUIRE)) {
    parc_poll(); /* a loop's back-edge, as parcc emits it */
    if (with_sem)
      parc_V(&tick);
    if (now_s() - t0 > 5.0) {
      __atomic_store_n(&waited, 1, __ATOMIC_RELAXED);
      release_once(); /* whoever else was to release main never ran */
      return;
    }
  }
}

static void main_parfor_L3(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      parc_P(&go);
      __atomic_store_n(&back, 1, __ATOMIC_RELEASE);
    } else if (parc_procid() != 0) {
      release_once();
      if (sem_round)
        wait_for_main(1);
    } else {
      wait_for_main(sem_round);
    }
  }
}

static void round_of(const char *name, int with_sem) {
  parc_desc d;
  parc_sem_init(&go, 0);
  parc_sem_init(&tick, 0);
  back = released = waited = 0;
  sem_round = with_sem;
  parc_spawn(&d, &s_L3, main_parfor_L3, NULL, (uint64_t)parc_nprocs() + 1);
  printf("%s: main %s\n", name, waited ? "waited for processor 0's activity"
                                       : "ran while processor 0 was busy");
}

int main(void) {
  round_of("poll", 0);
  round_of("sem", 1);
  return 0;
}
