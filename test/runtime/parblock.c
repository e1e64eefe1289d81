// parblock: every section runs once; the parent continues after all of them.
//
// PARC source (hand-lowered below as parcc would emit it):
//   int a, b, c;
//   int main(void) {
//     for (int r = 0; r < 1000; r++) {
//       parblock { a += 1; } : { b += 2; } : { c += 3; } epar
//     }
//     parblock { printf("one section\n"); } epar
//     printf("a=%d b=%d c=%d\n", a, b, c);
//   }
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: one section
// CHECK: a=1000 b=2000 c=3000
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static int a, b, c;

static parc_site site_main_L6 = PARC_SITE_INIT("parblock.pc", "main", 6, 7, PARC_KIND_PARBLOCK);
static parc_site site_main_L8 = PARC_SITE_INIT("parblock.pc", "main", 8, 3, PARC_KIND_PARBLOCK);

static void main_parblock_L6(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    switch (k) {
    case 0: a += 1; break;
    case 1: b += 2; break;
    case 2: c += 3; break;
    }
  }
}

static void main_parblock_L8(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    printf("one section\n");
}

int main(void) {
  parc_poll();
  for (int r = 0; (parc_poll(), r < 1000); r++) {
    parc_desc d;
    parc_spawn(&d, &site_main_L6, main_parblock_L6, NULL, 3);
  }
  {
    parc_desc d;
    parc_spawn(&d, &site_main_L8, main_parblock_L8, NULL, 1);
  }
  printf("a=%d b=%d c=%d\n", a, b, c);
  return 0;
}
