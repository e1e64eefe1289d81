// A runtime error starts on a line of its own when stdout and stderr go to
// one file or pipe (`2>&1`) and the program's last line of output is not
// terminated: `waiting...parc: error: deadlock` escaped a grader's grep for
// `^parc: error:`.  Three ways stdout can hold that line: still in its buffer
// (a pipe, a file), or already written to a file (the program flushed it).
// Separate files, or a terminated line, get no empty line.
//
// PARC source:
//   printf("waiting...");  [fflush(stdout) with an argument]
//   parc_sem_t never;
//   parblock { parc_P(&never); } : { parc_P(&never); } epar
// UNSUPPORTED: cross
// (cross: qemu-user's own thread counts as one of the program's, which may still call parc_V)
// RUN: %cc-runtime
// RUN: %not %run-1 %t 2>&1 | %FileCheck %s
// RUN: %not %run-1 %t > %t.out 2>&1; %FileCheck %s < %t.out
// RUN: %not %run-1 %t flush > %t.out 2>&1; %FileCheck %s < %t.out
// RUN: %not %run-1 %t flush > %t.out 2> %t.err; %FileCheck %s --check-prefix=APART < %t.err
// RUN: %not %run-1 %t newline 2>&1 | %FileCheck %s --check-prefix=ENDED
// CHECK: {{^}}waiting...{{$}}
// CHECK-NEXT: {{^}}parc: error: deadlock: every activity is blocked (PARC_NPROCS=1)
// APART: {{^}}parc: error: deadlock
// ENDED: {{^}}waiting...{{$}}
// ENDED-NEXT: {{^}}parc: error: deadlock
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static parc_sem_t never;
static parc_site s = PARC_SITE_INIT("newline.pc", "main", 3, 3, PARC_KIND_PARBLOCK);

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    parc_P(&never);
}

int main(int argc, char **argv) {
  int ended = argc > 1 && !strcmp(argv[1], "newline");
  printf(ended ? "waiting...\n" : "waiting...");
  if (argc > 1 && !strcmp(argv[1], "flush"))
    fflush(stdout);
  parc_sem_init(&never, 0);
  parc_desc d;
  parc_spawn(&d, &s, body, NULL, 2);
  printf("unreachable\n");
  return 0;
}
