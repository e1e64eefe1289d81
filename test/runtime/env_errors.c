// Bad environment values are rejected before main runs, with exit status 2.
//
// RUN: %cc-runtime
// RUN: env PARC_NPROCS=0 %not %t 2>&1 | %FileCheck %s --check-prefix=ZERO
// RUN: env PARC_NPROCS=-3 %not %t 2>&1 | %FileCheck %s --check-prefix=NEG
// RUN: env PARC_NPROCS=abc %not %t 2>&1 | %FileCheck %s --check-prefix=NAN
// RUN: env PARC_NPROCS=-abc %not %t 2>&1 | %FileCheck %s --check-prefix=NAN2
// RUN: env PARC_NPROCS=4x %not %t 2>&1 | %FileCheck %s --check-prefix=JUNK
// RUN: env PARC_NPROCS=1025 %not %t 2>&1 | %FileCheck %s --check-prefix=BIG
// RUN: env PARC_NPROCS=99999999999999999999999 %not %t 2>&1 | %FileCheck %s --check-prefix=HUGE
// RUN: env PARC_NPROCS= %not %t 2>&1 | %FileCheck %s --check-prefix=EMPTY
// RUN: env PARC_NPROCS=1024 PARC_PIN=0 %t | %FileCheck %s --check-prefix=MAX
// RUN: env PARC_STACK_SIZE=1k %not %t 2>&1 | %FileCheck %s --check-prefix=STACK
// RUN: env PARC_STACK_SIZE=64Q %not %t 2>&1 | %FileCheck %s --check-prefix=STACKJ
// A size past 64 bits is too big, not malformed (as for PARC_NPROCS):
// RUN: env PARC_STACK_SIZE=99999999999999999999 %not %t 2>&1 | %FileCheck %s --check-prefix=STACKBIG
// RUN: env PARC_STACK_SIZE=256K %run-2 %t | %FileCheck %s --check-prefix=OK2
// RUN: env PARC_PIN=2 %not %t 2>&1 | %FileCheck %s --check-prefix=PIN
// RUN: env PARC_KILL=fast %not %t 2>&1 | %FileCheck %s --check-prefix=KILL
// RUN: env PARC_STATS=yes %not %t 2>&1 | %FileCheck %s --check-prefix=STATS
// RUN: env PARC_SPIN_US=1000001 %not %t 2>&1 | %FileCheck %s --check-prefix=SPIN
// RUN: env PARC_SPIN_US=-1 %not %t 2>&1 | %FileCheck %s --check-prefix=SPINNEG
// RUN: env PARC_SPIN_US=0 %run-2 %t | %FileCheck %s --check-prefix=OK2
// RUN: sh -c 'env PARC_NPROCS=0 %t; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=STATUS
// Any other PARC_ name is most likely a misspelt one: a warning names the
// variable meant, and the program runs as it would without it.
// RUN: env PARC_NPROCS=2 PARC_PROCS=4 PARC_NUM_THREADS=4 PARC_SCHEDULE=random PARC_FOO=1 %t 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
// RUN: env PARC_TRACE_PATH=x %run-2 %t 2>&1 | %FileCheck %s --check-prefix=OK2 --implicit-check-not=warning
// UNKNOWN-DAG: parc: warning: PARC_PROCS is not a libparc variable and is ignored; did you mean PARC_NPROCS?
// UNKNOWN-DAG: parc: warning: PARC_NUM_THREADS is not a libparc variable and is ignored; did you mean PARC_NPROCS?
// UNKNOWN-DAG: parc: warning: PARC_SCHEDULE is not a libparc variable and is ignored; did you mean PARC_SCHED?
// UNKNOWN-DAG: parc: warning: PARC_FOO is not a libparc variable and is ignored (parcc(1), ENVIRONMENT, lists them)
// UNKNOWN: main ran P=2 sum=4950
// ZERO: parc: error: PARC_NPROCS=0: must be at least 1
// ZERO-NOT: main ran
// NEG: parc: error: PARC_NPROCS=-3: must be positive
// NAN: parc: error: PARC_NPROCS=abc: not a number
// NAN2: parc: error: PARC_NPROCS=-abc: not a number
// JUNK: parc: error: PARC_NPROCS=4x: trailing characters after the number
// BIG: parc: error: PARC_NPROCS=1025: at most 1024 processors are supported
// HUGE: parc: error: PARC_NPROCS=99999999999999999999999: at most 1024 processors are supported
// EMPTY: parc: error: PARC_NPROCS=: expected a number of processors
// MAX: main ran P=1024 sum=4950
// STACK: parc: error: PARC_STACK_SIZE=1k: at least 16K
// STACKJ: parc: error: PARC_STACK_SIZE=64Q: trailing characters
// STACKBIG: parc: error: PARC_STACK_SIZE=99999999999999999999: at most 1G
// OK2: main ran P=2 sum=4950
// PIN: parc: error: PARC_PIN=2: expected auto, 0 or 1
// KILL: parc: error: PARC_KILL=fast: expected auto, range or bottomup
// STATS: parc: error: PARC_STATS=yes: expected 0 or 1
// SPIN: parc: error: PARC_SPIN_US=1000001: expected a number of microseconds from 0 to 1000000
// SPINNEG: parc: error: PARC_SPIN_US=-1: expected a number of microseconds from 0 to 1000000
// STATUS: status=2
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_site s = PARC_SITE_INIT("env.pc", "main", 3, 3, PARC_KIND_PARFOR);
static int sum;

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&sum, (int)k);
}

int main(void) {
  parc_desc d;
  parc_spawn(&d, &s, body, NULL, 100);
  printf("main ran P=%d sum=%d\n", parc_nprocs(), sum);
  return 0;
}
