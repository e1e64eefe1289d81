// main's own stack overflowing (main itself, or activities main runs inline
// on it) is reported as such, with the stack limit and how to raise it,
// instead of a plain SIGSEGV; exit status 1.
//
// PARC source (mainovf.pc):
//   int rec(int n) {
//     int x = 0;
//     parblock { x = rec(n + 1); } : { x++; } epar        // line 3, col 5
//     return x;
//   }
//   int plain(int n) { volatile char pad[256]; pad[0] = n; return plain(n + 1) + pad[0]; }
//   int main(int argc, char **argv) {
//     parblock { ; } : { ; } epar                          // line 8: start the runtime
//     if (argv[1] == "plain") plain(0); else rec(0);
//   }
// UNSUPPORTED: asan, tsan
// UNSUPPORTED: cross
// (cross: qemu-user gives the program's main thread a stack of its own, not one that grows to RLIMIT_STACK)
// RUN: %cc-runtime
// RUN: sh -c 'ulimit -s 1024; env PARC_NPROCS=1 %t rec; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=REC
// RUN: sh -c 'ulimit -s 1024; env PARC_NPROCS=4 %t rec; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=REC
// RUN: sh -c 'ulimit -s 2048; env PARC_NPROCS=2 %t plain; echo status=$?' 2>&1 | %FileCheck %s --check-prefix=PLAIN
// The activity is named with three of the activities it runs within, and
// the number of those left out: the depth the recursion reached.
// REC: parc: error: stack overflow on main's stack, in activity 0 of mainovf.pc:3:5 (parblock in rec) within activity 0 of mainovf.pc:3:5 (parblock in rec) within activity 0 of mainovf.pc:3:5 (parblock in rec) within activity 0 of mainovf.pc:3:5 (parblock in rec) within {{[1-9][0-9]+}} more activities, run inline by main (stack limit 1024 KiB; raise it with ulimit -s)
// REC-NEXT: status=1
// PLAIN: parc: error: stack overflow in main (stack limit 2048 KiB; raise it with ulimit -s)
// PLAIN-NEXT: status=1
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static parc_site s_L3 = PARC_SITE_INIT("mainovf.pc", "rec", 3, 5, PARC_KIND_PARBLOCK);
static parc_site s_L8 = PARC_SITE_INIT("mainovf.pc", "main", 8, 5, PARC_KIND_PARBLOCK);

static int rec(int n);
struct env_rec {
  int *x, *n;
};

static void rec_parblock(parc_act *self, void *envp) {
  struct env_rec *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0)
      *e->x = rec(*e->n + 1);
    else
      (*e->x)++;
  }
}

static int rec(int n) {
  int x = 0;
  parc_poll();
  struct env_rec e = {&x, &n};
  parc_desc d;
  parc_spawn(&d, &s_L3, rec_parblock, &e, 2);
  return x;
}

static volatile int forever = 1;
static int plain(int n) {
  volatile char pad[256];
  pad[0] = (char)n;
  parc_poll();
  return forever ? plain(n + 1) + pad[0] : 0;
}

static void nothing(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    ;
}

int main(int argc, char **argv) {
  parc_desc d;
  parc_spawn(&d, &s_L8, nothing, NULL, 2);
  if (argc > 1 && !strcmp(argv[1], "plain"))
    printf("%d\n", plain(0));
  else
    printf("%d\n", rec(0));
  return 0;
}
