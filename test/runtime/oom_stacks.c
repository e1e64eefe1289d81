// When the envelope stacks cannot be had (address space or memory
// exhausted), the program stops with a message naming the cause, the
// construct and what to change, and exit status 1; never a crash or hang.
//
// PARC source (oom.pc):
//   parfor int i; 0; 199; 1; sync; epar        // line 3, col 3: 200 blocked at once
// UNSUPPORTED: asan, tsan
// UNSUPPORTED: cross
// (cross: qemu-user cannot start under the test's ulimit -v)
// RUN: %cc-runtime
// RUN: sh -c 'ulimit -v 3000000; env PARC_NPROCS=1 PARC_STACK_SIZE=256M %t; echo status=$?' 2>&1 | %FileCheck %s
// RUN: sh -c 'ulimit -v 3000000; env PARC_NPROCS=2 PARC_STACK_SIZE=256M %t; echo status=$?' 2>&1 | %FileCheck %s
// RUN: env PARC_NPROCS=2 PARC_STACK_SIZE=64K %t | %FileCheck %s --check-prefix=OK
// Several processors run out at once; the message comes once (it came twice
// in about one run of eight at P = 4).
// RUN: sh -c 'ulimit -v 3000000; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do env PARC_NPROCS=4 PARC_STACK_SIZE=256M %t 2>&1 | grep -c "parc: error"; done' | sort | uniq -c | %FileCheck %s --check-prefix=ONCE
// Under ulimit -v the message names the limit and what an envelope costs,
// and at the smallest PARC_STACK_SIZE does not suggest a smaller one.
// RUN: sh -c 'ulimit -v 12000; env MALLOC_ARENA_MAX=1 PARC_NPROCS=1 PARC_STACK_SIZE=16K %t; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=MIN
// CHECK: parc: error: out of memory for activity stacks: cannot map an envelope of 262144 KiB for activities of oom.pc:3:3 in main: the address-space limit (ulimit -v 3000000) is reached: {{[0-9]+}} envelopes exist (one for each activity blocked at once, one for each processor but main's to run activities in, and free ones kept for reuse, up to 64 a processor; 262208 KiB each with its guard region){{.*}}; a smaller PARC_STACK_SIZE, {{(MALLOC_ARENA_MAX=1, )?}}or a larger ulimit -v, may help{{$}}
// MIN: parc: error: out of memory for activity stacks: cannot map an envelope of 16 KiB for activities of oom.pc:3:3 in main: the address-space limit (ulimit -v 12000) is reached: {{[0-9]+}} envelopes exist (one for each activity blocked at once, one for each processor but main's to run activities in, and free ones kept for reuse, up to 64 a processor; 80 KiB each with its guard region); fewer activities blocked at once, or a larger ulimit -v, may help{{$}}
// MIN-NOT: done
// MIN: status=1
// CHECK-NOT: done
// CHECK: status=1
// OK: done
// ONCE: {{^ *}}24 1{{$}}
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_site s_L3 = PARC_SITE_INIT("oom.pc", "main", 3, 3, PARC_KIND_PARFOR);

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    parc_sync(self, NULL);
}

int main(void) {
  parc_desc d;
  parc_spawn(&d, &s_L3, body, NULL, 200);
  printf("done\n");
  return 0;
}
