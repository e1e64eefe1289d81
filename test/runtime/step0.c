// A parfor whose STEP is zero at run time stops the program with a message
// naming the construct; so does an iteration count that does not fit.
//
// PARC source (step0.pc):
//   int main(int argc, char **argv) {
//     int step = argc - 1;                 // 0 when run without arguments
//     printf("before\n");
//     parfor int i; 0; 10; step; ; epar    // line 12, column 5
//   }
// RUN: %cc-runtime
// RUN: %not %run-1 %t 2>&1 | %FileCheck %s
// RUN: %not %run-4 %t 2>&1 | %FileCheck %s
// RUN: %not %run-1 %t overflow 2>&1 | %FileCheck %s --check-prefix=OVF
// RUN: %run-1 %t x y | %FileCheck %s --check-prefix=OK
// CHECK: before
// CHECK: parc: error: step0.pc:12:5: parfor step is zero (in main)
// CHECK-NOT: after
// OVF: parc: error: step0.pc:14:5: lparfor has too many iterations
// OK: after 6
#include <limits.h>
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static parc_site s_L12 = PARC_SITE_INIT("step0.pc", "main", 12, 5, PARC_KIND_PARFOR);
static parc_site s_L14 = PARC_SITE_INIT("step0.pc", "main", 14, 5, PARC_KIND_LPARFOR);
static int n;

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&n, 1);
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "overflow")) {
    parc_desc d;
    parc_spawn_lparfor(&d, &s_L14, body, NULL, parc_count_s(LLONG_MIN, LLONG_MAX, 1, &s_L14), 0);
    return 0;
  }
  int step = argc - 1;
  printf("before\n");
  fflush(stdout);
  parc_desc d;
  parc_spawn(&d, &s_L12, body, NULL, parc_count_s(0, 10, step, &s_L12));
  printf("after %d\n", n);
  return 0;
}
