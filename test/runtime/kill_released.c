// pbreak by the first activity past a barrier, while its released siblings
// are readied but have not run again: a released waiter stays in the
// blocked registry until it runs (barrier.c), so kill delivery must leave
// it alone instead of taking it out of a barrier queue it has left; it
// stops at the poll right after its sync.
//
// PARC source:
//   int before, order, after;
//   parfor int i; 0; 199; 1; {
//     faa(&before, 1);
//     sync;
//     if (faa(&order, 1) == 0) pbreak;   // the first one past the barrier
//     faa(&after, 1);                    // at P = 1 nobody else gets here
//   } epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s --check-prefixes=CHECK,ONE
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-1 %t | %FileCheck %s --check-prefixes=CHECK,ONE
// ONE: round 0 before=200 after=0
// CHECK: round 49 before=200
// CHECK: done
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_site s_L2 = PARC_SITE_INIT("kill_released.pc", "main", 2, 3, PARC_KIND_PARFOR);
static int before, order, after;

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    faa(&before, 1);
    parc_sync(self, NULL);
    if (faa(&order, 1) == 0)
      parc_pbreak(self);
    faa(&after, 1);
  }
}

int main(void) {
  for (int r = 0; r < 50; r++) {
    before = order = after = 0;
    parc_desc d;
    parc_spawn(&d, &s_L2, body, NULL, 200);
    printf("round %d before=%d after=%d\n", r, before, after);
  }
  printf("done\n");
  return 0;
}
