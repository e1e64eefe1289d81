// At P = 1 a program whose every activity is blocked can never continue:
// the runtime says so instead of hanging.
//
// PARC source:
//   parc_sem_t never;
//   parblock { parc_P(&never); } : { parc_P(&never); } epar
// UNSUPPORTED: cross
// (cross: qemu-user's own thread counts as one of the program's, which may still call parc_V)
// RUN: %cc-runtime
// RUN: %not %run-1 %t 2>&1 | %FileCheck %s
// CHECK: parc: error: deadlock: every activity is blocked (PARC_NPROCS=1)
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_sem_t never;
static parc_site s = PARC_SITE_INIT("deadlock.pc", "main", 2, 3, PARC_KIND_PARBLOCK);

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    parc_P(&never);
}

int main(void) {
  parc_sem_init(&never, 0);
  parc_desc d;
  parc_spawn(&d, &s, body, NULL, 2);
  printf("unreachable\n");
  return 0;
}
