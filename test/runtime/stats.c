// PARC_STATS=1 prints per-processor and total counters and per-construct
// lines at exit; parfor of 10,000 independent activities needs at most P+2
// envelopes, and a program without constructs starts no processor.
//
// PARC source:
//   parfor int i; 0; 9999; 1; faa(&sum, i); epar      // line 3, column 3
//   parfor int i; 0; 99; 1; sync; epar                 // line 4, column 3
// UNSUPPORTED: cross
// (cross: qemu-user's own thread shows in the program's thread count)
// RUN: %cc-runtime
// RUN: env PARC_STATS=1 %run-1 %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,P1
// RUN: env PARC_STATS=1 %run-4 %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,P4
// RUN: env PARC_STATS=1 %run-4 %t none 2>&1 | %FileCheck %s --check-prefix=NONE
// RUN: env PARC_STATS=1 %run-1 %t indep 2>&1 | %FileCheck %s --check-prefix=INDEP1
// RUN: env PARC_STATS=1 %run-4 %t indep 2>&1 | %FileCheck %s --check-prefix=INDEP4
// RUN: env PARC_STATS=1 %run-4 %t syncs 2>&1 | %FileCheck %s --check-prefix=SYNCS
// RUN: %run-4 %t 2>&1 | %FileCheck %s --check-prefix=QUIET
// CHECK: sum=49995000
// P1: parc: stats: proc=0 cpu={{-?[0-9]+}} node={{-?[0-9]+}} activities=10100 envelopes_created={{[0-9]+}}
// P4: parc: stats: proc=3 cpu={{-?[0-9]+}} node={{-?[0-9]+}} activities={{[0-9]+}}
// CHECK: parc: stats: total procs={{[14]}} activities=10100 envelopes_created={{[0-9]+}} envelopes_reused={{[0-9]+}} shares={{[0-9]+}} blocked={{[0-9]+}} resumed={{[0-9]+}} killed=0 steals={{[0-9]+}}
// CHECK: parc: stats: site stats.pc:3:3 main parfor executions=1 created=10000 killed=0
// CHECK: parc: stats: site stats.pc:4:3 main parfor executions=1 created=100 killed=0
// INDEP1: parc: stats: total procs=1 activities=10000 envelopes_created={{[0-3]}} envelopes_reused=
// INDEP4: parc: stats: total procs=4 activities=10000 envelopes_created={{[0-6]}} envelopes_reused=
// Envelopes are pooled and shared between processors: 100 rounds of
// parfor 1000 { sync; } need about 1000, never one per round.
// SYNCS: parc: stats: total procs=4 activities=100000 envelopes_created={{([0-9]{1,3}|[12][0-9]{3})}} envelopes_reused=
// NONE: threads=1
// NONE: parc: stats: total procs=4 activities=0 envelopes_created=0
// QUIET-NOT: parc: stats
#include <dirent.h>
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static parc_site s_L3 = PARC_SITE_INIT("stats.pc", "main", 3, 3, PARC_KIND_PARFOR);
static parc_site s_L4 = PARC_SITE_INIT("stats.pc", "main", 4, 3, PARC_KIND_PARFOR);
static long long sum;

static void sum_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&sum, (long long)k);
}

static void sync_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    parc_sync(self, NULL);
}

static int count_threads(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return -1;
  struct dirent *e;
  while ((e = readdir(d)))
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "syncs")) {
    for (int r = 0; r < 100; r++) {
      parc_desc d;
      parc_spawn(&d, &s_L4, sync_body, NULL, 1000);
    }
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "none")) {
    printf("threads=%d\n", count_threads());
    return 0;
  }
  parc_desc d;
  parc_spawn(&d, &s_L3, sum_body, NULL, 10000);
  printf("sum=%lld\n", sum);
  if (argc > 1 && !strcmp(argv[1], "indep"))
    return 0;
  parc_desc d2;
  parc_spawn(&d2, &s_L4, sync_body, NULL, 100);
  return 0;
}
