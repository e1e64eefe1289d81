// PARC_TRACE=FILE writes a Chrome trace-event JSON file (docs/trace-format.md):
// valid JSON, and every activity of the program appears exactly once (one
// segment 0), at P = 1 and P = 4, also when activities block and are killed.
//
// PARC source (trace.pc):
//   int main(int argc, char **argv) {
//     parfor int i; 0; 999; 1; faa(&sum, i); epar             // line 3, col 3
//     parblock { faa(&sum, 1); } : { faa(&sum, 2); } epar     // line 4, col 3
//     if (mode == block) {
//       parc_sem_t s; parc_sem_init(&s, 0);
//       parfor int i; 0; 2; 1;                                // line 7, col 5
//         if (i == 0) parc_P(&s); if (i == 2) parc_V(&s);
//       epar
//       parfor int i; 0; 7; 1; sync; sync; sync; epar         // line 10, col 5
//     }
//     if (mode == kill)
//       parfor int i; 0; 99; 1; if (i == 50) pbreak; spin(); epar   // line 13, col 5
//   }
// RUN: %cc-runtime
// RUN: env PARC_TRACE=%t.p1.json %run-1 %t | %FileCheck %s --check-prefix=OUT
// RUN: %python -m json.tool %t.p1.json > /dev/null
// RUN: %python %srcroot/tools/parc-trace --check %t.p1.json | %FileCheck %s --check-prefix=BASIC1
// RUN: %python %S/Inputs/trace_check.py %t.p1.json | %FileCheck %s --check-prefix=ONCE
// RUN: env PARC_TRACE=%t.p4.json %run-4 %t | %FileCheck %s --check-prefix=OUT
// RUN: %python -m json.tool %t.p4.json > /dev/null
// RUN: %python %srcroot/tools/parc-trace --check %t.p4.json | %FileCheck %s --check-prefix=BASIC4
// RUN: %python %S/Inputs/trace_check.py %t.p4.json | %FileCheck %s --check-prefix=ONCE
// RUN: env PARC_TRACE=%t.b1.json %run-1 %t block | %FileCheck %s --check-prefix=OUT
// RUN: %python %srcroot/tools/parc-trace --check %t.b1.json | %FileCheck %s --check-prefix=BLOCK
// RUN: env PARC_TRACE=%t.b4.json %run-4 %t block | %FileCheck %s --check-prefix=OUT
// RUN: %python %srcroot/tools/parc-trace --check %t.b4.json | %FileCheck %s --check-prefix=BLOCK
// RUN: env PARC_TRACE=%t.k1.json %run-1 %t kill | %FileCheck %s --check-prefix=OUT
// RUN: %python %srcroot/tools/parc-trace --check %t.k1.json | %FileCheck %s --check-prefix=KILL
// RUN: env PARC_TRACE=%t.k4.json %run-4 %t kill | %FileCheck %s --check-prefix=OUT
// RUN: %python %srcroot/tools/parc-trace --check %t.k4.json | %FileCheck %s --check-prefix=KILL
// RUN: env PARC_TRACE=%t.s4.json PARC_STATS=1 %run-4 %t block 2> %t.s4.stats
// RUN: %python %S/Inputs/trace_check.py %t.s4.json %t.s4.stats | %FileCheck %s --check-prefix=STATS
// RUN: env PARC_TRACE=%t.nodir/x.json %not %t 2>&1 | %FileCheck %s --check-prefix=BADPATH
// RUN: env PARC_TRACE= %not %t 2>&1 | %FileCheck %s --check-prefix=EMPTY
// OUT: sum=499503
// BASIC1: parc-trace: check: {{.*}}: 1 processor, {{[0-9]+}} events, 1003 activities, 3 sites
// BASIC1: site <root> main root: executions=1 activities=1 indices=1 segments=1 killed=0
// BASIC1: site trace.pc:3:3 main parfor L3: executions=1 activities=1000 indices=1000 segments=1000 killed=0
// BASIC1: site trace.pc:4:3 main parblock L4: executions=1 activities=2 indices=2 segments=2 killed=0
// BASIC1: parc-trace: check: ok
// BASIC4: parc-trace: check: {{.*}}: 4 processors, {{[0-9]+}} events, 1003 activities, 3 sites
// BASIC4: site trace.pc:3:3 main parfor L3: executions=1 activities=1000 indices=1000 segments=1000 killed=0
// BASIC4: site trace.pc:4:3 main parblock L4: executions=1 activities=2 indices=2 segments=2 killed=0
// BASIC4: parc-trace: check: ok
// ONCE: <root>: 1 activities, each once
// ONCE-NEXT: trace.pc:3:3: 1000 activities, each once
// ONCE-NEXT: trace.pc:4:3: 2 activities, each once
// BLOCK: site trace.pc:7:5 main parfor L7: executions=1 activities=3 indices=3
// BLOCK: site trace.pc:10:5 main parfor L10: executions=1 activities=8 indices=8
// BLOCK: parc-trace: check: ok
// KILL: site trace.pc:13:5 main parfor L13: executions=1 activities={{[0-9]+}} indices={{[0-9]+}} segments={{[0-9]+}} killed={{[0-9]+}}
// KILL: parc-trace: check: ok
// STATS: trace.pc:10:5: 8 activities, each once
// STATS: blocks match stats, resumes match stats
// STATS: processors named 4
// BADPATH: parc: error: PARC_TRACE={{.*}}nodir/x.json: No such file or directory
// BADPATH-NOT: sum=
// EMPTY: parc: error: PARC_TRACE=: expected a file name
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long sum;
static parc_sem_t sem;
static parc_site s_L3 = PARC_SITE_INIT("trace.pc", "main", 3, 3, PARC_KIND_PARFOR);
static parc_site s_L4 = PARC_SITE_INIT("trace.pc", "main", 4, 3, PARC_KIND_PARBLOCK);
static parc_site s_L7 = PARC_SITE_INIT("trace.pc", "main", 7, 5, PARC_KIND_PARFOR);
static parc_site s_L10 = PARC_SITE_INIT("trace.pc", "main", 10, 5, PARC_KIND_PARFOR);
static parc_site s_L13 = PARC_SITE_INIT("trace.pc", "main", 13, 5, PARC_KIND_PARFOR);

static void main_parfor_L3(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&sum, (long)k);
}

static void main_parblock_L4(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    switch (k) {
    case 0: faa(&sum, 1); break;
    case 1: faa(&sum, 2); break;
    }
  }
}

static void main_parfor_L7(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0)
      parc_P(&sem);
    if (k == 2)
      parc_V(&sem);
  }
}

static void main_parfor_L10(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    parc_sync(self, NULL);
    parc_sync(self, NULL);
    parc_sync(self, NULL);
  }
}

static void main_parfor_L13(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    volatile long sink = 0;
    if (k == 50)
      parc_pbreak(self);
    for (int j = 0; (parc_poll(), j < 20000); j++)
      sink += j;
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  parc_desc d;
  parc_spawn(&d, &s_L3, main_parfor_L3, NULL, parc_count_s(0, 999, 1, &s_L3));
  parc_spawn(&d, &s_L4, main_parblock_L4, NULL, 2);
  if (!strcmp(mode, "block")) {
    parc_sem_init(&sem, 0);
    parc_spawn(&d, &s_L7, main_parfor_L7, NULL, 3);
    parc_spawn(&d, &s_L10, main_parfor_L10, NULL, 8);
  }
  if (!strcmp(mode, "kill"))
    parc_spawn(&d, &s_L13, main_parfor_L13, NULL, 100);
  printf("sum=%ld\n", sum);
  return 0;
}
