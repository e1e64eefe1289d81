// A chain of 200 nested 2-section parblocks (deeper than 64, so the lower
// levels are uncoded and use the bottom-up walk), whose second sections
// spin until killed; the leaf at depth 200 kills the whole tree by a
// preturn aimed at the outermost construct.
//
// PARC source (the runtime is driven with depth 200 directly):
//   int spinning, late, after;
//   void rec(int depth) {
//     parblock
//       { if (depth == 199) preturn_to_top(7); else rec(depth + 1); }
//     :
//       { faa(&spinning, 1); for (;;) if (after) late++; }
//     epar
//   }
//   int main(void) { top: parblock { rec(0) } epar ... }
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-4 %t | %FileCheck %s
// PARC_KILL=range has no fallback: the 64-bit ranges run out after about 63
// binary levels, and the spawn that cannot be coded stops the program.
// RUN: env PARC_KILL=range %not %run-2 %t 2>&1 | %FileCheck --check-prefix=RANGE %s
// RANGE: parc: error: kill_deep.pc:4:5: PARC_KILL=range: activity ranges exhausted: 2 activities, 0 numbers left in the parent activity's range (nesting too deep or too wide); PARC_KILL=auto, the default, checks such subtrees bottom-up (in rec)
// CHECK: round 0 preturned=1 value=7
// CHECK: round 2 preturned=1 value=7
// CHECK: late=0
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int spinning, late, after;
static int value;

static parc_site s_rec = PARC_SITE_INIT("kill_deep.pc", "rec", 4, 5, PARC_KIND_PARBLOCK);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void rec(int depth);

static void rec_parblock(parc_act *self, void *envp) {
  int depth = *(int *)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0) {
      if (depth == 199) {
        double t0 = now();
        while ((parc_poll(), parc_nprocs() > 1 &&
                                 __atomic_load_n(&spinning, __ATOMIC_SEQ_CST) < parc_nprocs() - 1 &&
                                 now() - t0 < 0.3))
          ;
        /* The outermost construct is 200 levels up from here. */
        if (parc_preturn_claim(self, 200))
          value = 7;
        parc_preturn(self, 200);
      }
      rec(depth + 1);
    } else {
      faa(&spinning, 1);
      for (;;) {
        parc_poll();
        if (__atomic_load_n(&after, __ATOMIC_RELAXED))
          faa(&late, 1);
      }
    }
  }
}

static void rec(int depth) {
  parc_poll();
  parc_desc d;
  parc_spawn(&d, &s_rec, rec_parblock, &depth, 2);
  if (depth == 0 && parc_preturned(&d))
    printf("preturned=1 value=%d\n", value);
}

int main(void) {
  for (int r = 0; r < 3; r++) {
    spinning = 0;
    value = 0;
    printf("round %d ", r);
    rec(0);
  }
  __atomic_store_n(&after, 1, __ATOMIC_RELAXED);
  printf("late=%d\n", late);
  return 0;
}
