// An activity that overflows its envelope stack is reported by number and
// construct,
// with the stack size and the variable to raise it; a fault that is not a
// guard-page hit keeps its ordinary meaning.
//
// PARC source (overflow.pc):
//   int deep(int n) { volatile char pad[1024]; pad[0] = n; return n ? deep(n - 1) + pad[0] : 0; }
//   int main(void) {
//     parfor int i; 0; 1; 1;        // line 5, column 3
//       // the activity that runs inline on main's own stack (if any) blocks,
//       // so that the other one runs in an envelope; that one recurses
//       if (on_main_stack()) parc_P(&s); else deep(1 << 20);
//     epar
//   }
// UNSUPPORTED: asan, tsan
// RUN: %cc-runtime
// RUN: %not %run-1 %t 2>&1 | %FileCheck %s
// RUN: env PARC_STACK_SIZE=64K %not %run-4 %t 2>&1 | %FileCheck %s --check-prefix=SMALL
// RUN: env PARC_NPROCS=1 %not --crash %t null 2>&1 | %FileCheck %s --check-prefix=NULL
// CHECK: parc: error: stack overflow in activity {{[01]}} of overflow.pc:5:3 (parfor in main) (stack size 1024 KiB; set PARC_STACK_SIZE)
// SMALL: parc: error: stack overflow in activity {{[01]}} of overflow.pc:5:3 (parfor in main) (stack size 64 KiB; set PARC_STACK_SIZE)
// NULL: null pointer store
// NULL-NOT: stack overflow
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static parc_site s_L5 = PARC_SITE_INIT("overflow.pc", "main", 5, 3, PARC_KIND_PARFOR);
static parc_sem_t s;
static volatile int *nullp;
static char *main_sp;

static int on_main_stack(void) {
  char here;
  long dist = (long)(main_sp - &here);
  return dist >= 0 && dist < 4 * 1024 * 1024;
}

static int deep(int n) {
  volatile char pad[1024];
  pad[0] = (char)n;
  parc_poll();
  return n ? deep(n - 1) + pad[0] : 0;
}

static void body(parc_act *self, void *envp) {
  int mode = *(int *)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    (void)k;
    if (on_main_stack()) {
      parc_P(&s); /* blocks: the other activity goes to an envelope */
    } else if (mode) {
      fprintf(stderr, "null pointer store\n");
      *nullp = 1;
    } else {
      printf("%d\n", deep(1 << 20));
    }
  }
}

int main(int argc, char **argv) {
  char here;
  main_sp = &here;
  int mode = argc > 1 && !strcmp(argv[1], "null");
  parc_sem_init(&s, 0);
  parc_desc d;
  parc_spawn(&d, &s_L5, body, &mode, 2);
  return 0;
}
