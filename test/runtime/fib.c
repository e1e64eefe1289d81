// Recursion through nested parblocks: both calls of fib in a 2-section
// parblock, as in the performance target.
//
// PARC source:
//   long fib(int n) {
//     long x, y;
//     if (n < 2) return n;
//     parblock { x = fib(n - 1); } : { y = fib(n - 2); } epar
//     return x + y;
//   }
//   int main(void) { printf("fib(24)=%ld\n", fib(24)); }
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: fib(24)=46368
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_site s_fib_L4 = PARC_SITE_INIT("fib.pc", "fib", 4, 3, PARC_KIND_PARBLOCK);

static long fib(int n);

struct env_fib_L4 {
  long *x, *y;
  int *n;
};

static void fib_parblock_L4(parc_act *self, void *envp) {
  struct env_fib_L4 *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k == 0)
      *e->x = fib(*e->n - 1);
    else
      *e->y = fib(*e->n - 2);
  }
}

static long fib(int n) {
  long x, y;
  parc_poll();
  if (n < 2)
    return n;
  {
    struct env_fib_L4 e = {&x, &y, &n};
    parc_desc d;
    parc_spawn(&d, &s_fib_L4, fib_parblock_L4, &e, 2);
  }
  return x + y;
}

int main(void) {
  printf("fib(24)=%ld\n", fib(24));
  return 0;
}
