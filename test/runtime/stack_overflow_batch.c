// A stack overflow is reported by construct in an envelope of a batch too:
// once siblings wait at a barrier, envelopes are created 64 at a time and
// their guard pages installed together (context.c, batch_guard), so the
// activity that recurses here runs on a stack in the middle of a batch.
//
// PARC source (overflow_batch.pc):
//   int deep(int n) { volatile char pad[1024]; pad[0] = n; return n ? deep(n - 1) + pad[0] : 0; }
//   int main(void) {
//     parfor int i; 0; 99; 1; {     // line 4, column 3
//       if (i == 70) deep(1 << 20);   // siblings 0-69 are blocked at the sync
//       sync;
//     } epar
//   }
// UNSUPPORTED: asan, tsan
// RUN: %cc-runtime
// RUN: %not %run-1 %t 2>&1 | %FileCheck %s
// RUN: env PARC_STACK_SIZE=64K %not %run-4 %t 2>&1 | %FileCheck %s --check-prefix=SMALL
// RUN: env PARC_STATS=1 PARC_NPROCS=1 %t ok 2>&1 | %FileCheck %s --check-prefix=STATS
// CHECK: parc: error: stack overflow in activity 70 of overflow_batch.pc:4:3 (parfor in main) (stack size 1024 KiB; set PARC_STACK_SIZE)
// SMALL: parc: error: stack overflow in activity 70 of overflow_batch.pc:4:3 (parfor in main) (stack size 64 KiB; set PARC_STACK_SIZE)
// Without the recursion: 99 envelopes, two batches (64 + 35) at P = 1.
// STATS: passed 100
// STATS: parc: stats: total procs=1 {{.*}}envelopes_created=99 {{.*}}blocked=100
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static parc_site s_L4 = PARC_SITE_INIT("overflow_batch.pc", "main", 4, 3, PARC_KIND_PARFOR);
static int passed;

static int deep(int n) {
  volatile char pad[1024];
  pad[0] = (char)n;
  parc_poll();
  return n ? deep(n - 1) + pad[0] : 0;
}

static void body(parc_act *self, void *envp) {
  int recurse = *(int *)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (recurse && k == 70)
      printf("%d\n", deep(1 << 20));
    parc_sync(self, NULL);
    faa(&passed, 1);
  }
}

int main(int argc, char **argv) {
  int recurse = !(argc > 1 && !strcmp(argv[1], "ok"));
  parc_desc d;
  parc_spawn(&d, &s_L4, body, &recurse, 100);
  printf("passed %d\n", passed);
  return 0;
}
