// Main's context stays on processor 0 (the main thread): when it is readied
// while processor 0 is busy, an idle processor must not steal it.  Stealing
// it once made main finish on a worker thread, and its PARC_TRACE slices,
// the last one written on processor 0's track, cross processor 0's own
// (parc-trace --check: "slices overlap without nesting on processor 0").
//
// Activity 0 runs inline on main's context and blocks on a semaphore.  An
// activity that runs on processor 0 keeps it busy until main's context runs
// again (or 500 ms pass); one on another processor releases main (once
// processor 0 is busy) and then leaves its processor idle, free to steal.
//
// PARC source (root_pinned.pc):
//   parc_sem_t s; parc_sem_init(&s, 0);
//   parfor int i; 0; 2; 1;                                 // line 3, col 3
//     if (i == 0) { parc_P(&s); root_proc = parc_procid(); back = 1; }
//     else if (parc_procid() == 0) { busy = 1; wait for back, at most 500 ms; release_once(); }
//     else { wait for busy, at most 2 s; release_once(); }
//   epar
//   printf(... root_proc, parc_procid());
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: env PARC_TRACE=%t.json %run-2 %t | %FileCheck %s
// RUN: %python %srcroot/tools/parc-trace --check %t.json | %FileCheck %s --check-prefix=TRACE
// CHECK: main resumed on processor 0, after epar on processor 0
// TRACE: site <root> main root: executions=1 activities=1 indices=1
// TRACE: parc-trace: check: ok
#define _GNU_SOURCE
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static parc_site s_L3 = PARC_SITE_INIT("root_pinned.pc", "main", 3, 3, PARC_KIND_PARFOR);
static parc_sem_t sem;
static int busy, back, released, released_on = -1, root_proc = -1;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wait until *flag is set, at most `limit` seconds. */
static void await(int *flag, double limit) {
  double t0 = now_s();
  while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && now_s() - t0 < limit)
    ;
}

static void release_once(void) {
  if (!__atomic_exchange_n(&released, 1, __ATOMIC_ACQ_REL)) {
    __atomic_store_n(&released_on, parc_procid(), __ATOMIC_RELAXED);
    parc_V(&sem);
  }
}

static void main_parfor_L3(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      parc_P(&sem);
      root_proc = parc_procid();
      __atomic_store_n(&back, 1, __ATOMIC_RELEASE);
    } else if (parc_procid() == 0) {
      __atomic_store_n(&busy, 1, __ATOMIC_RELEASE);
      /* Not after our own release (P = 1): main waits for this processor. */
      if (__atomic_load_n(&released_on, __ATOMIC_RELAXED) != 0)
        await(&back, 0.5);
      release_once(); /* both other activities ran here: nobody released main */
    } else {
      await(&busy, 2.0);
      release_once();
    }
  }
}

int main(void) {
  parc_desc d;
  parc_sem_init(&sem, 0);
  parc_spawn(&d, &s_L3, main_parfor_L3, NULL, 3);
  printf("main resumed on processor %d, after epar on processor %d\n", root_proc, parc_procid());
  return 0;
}
