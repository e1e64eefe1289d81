// A processor's thread that cannot be created (here: its stack does not fit
// under the address-space limit) stops the program at the first construct
// with a message naming the cause and what to change, exit status 1; never a
// crash or a hang.  The limits are the process's own (ulimit -v 100000 leaves
// room for about 150 processors), so the test does not depend on the
// machine's memory.  A processor's thread stack is the runtime's own size,
// not ulimit -s: under ulimit -s 65536, 8 processors took 448 MiB and did
// not fit under 400 MB.
//
// PARC source (threads.pc):
//   printf("before\n");
//   parfor int i; 0; 99; 1; faa(&sum, i); epar      // line 4, col 3
// UNSUPPORTED: asan, tsan
// UNSUPPORTED: cross
// (cross: qemu-user cannot start under the test's ulimit -v)
// RUN: %cc-runtime
// RUN: sh -c 'ulimit -v 100000; env MALLOC_ARENA_MAX=1 PARC_NPROCS=1024 PARC_PIN=0 %t; echo status=$?' 2>&1 | %FileCheck %s
// RUN: sh -c 'ulimit -s 65536; ulimit -v 1000000; env PARC_NPROCS=2 %t; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=OK
// RUN: sh -c 'ulimit -s 65536; ulimit -v 400000; env MALLOC_ARENA_MAX=1 PARC_NPROCS=8 %t; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=OK
// CHECK-DAG: before
// CHECK-DAG: parc: error: cannot create processor {{[0-9]+}}'s thread (of PARC_NPROCS=1024): the address-space limit (ulimit -v 100000) is reached: each processor takes {{[0-9]+}} KiB for its thread's stacks; a smaller PARC_NPROCS, or a larger ulimit -v, may help
// CHECK-NOT: after
// CHECK: status=1
// OK: before
// OK-NEXT: after sum=4950
// OK-NEXT: status=0
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_site s_L4 = PARC_SITE_INIT("threads.pc", "main", 4, 3, PARC_KIND_PARFOR);
static int sum;

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&sum, (int)k);
}

int main(void) {
  printf("before\n");
  parc_desc d;
  parc_spawn(&d, &s_L4, body, NULL, 100);
  printf("after sum=%d\n", sum);
  return 0;
}
