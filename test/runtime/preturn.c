// preturn from deep recursion with a value: each invocation of find has two
// nested constructs (preturn depth 2); the value found at the bottom is
// preturned up through every level; concurrent preturns yield one value.
//
// PARC source:
//   int find(int lvl) {
//     parfor int i; 0; 3; 1;
//       parfor int j; 0; 3; 1;
//         if (lvl < 4) { int r = find(lvl + 1); if (r >= 0) preturn r; }
//         else if (i == 2 && j == 1) preturn 1000 + lvl * 100 + i * 10 + j;
//         else if (i == 3) preturn 2000 + j;      // several may preturn here
//       epar
//     epar
//     return -1;
//   }
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-4 %t | %FileCheck %s
// RUN: env PARC_KILL=bottomup %run-1 %t | %FileCheck %s
// RUN: env PARC_KILL=range %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// CHECK: find=ok
// CHECK: none=-1
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_site s_i = PARC_SITE_INIT("preturn.pc", "find", 2, 5, PARC_KIND_PARFOR);
static parc_site s_j = PARC_SITE_INIT("preturn.pc", "find", 3, 7, PARC_KIND_PARFOR);

static int find(int lvl, int want);

struct env_find {
  int *lvl, *want;
  int *parc_rv_;
  int i;
};

static void find_j(parc_act *self, void *envp) {
  struct env_find *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    int j = (int)k;
    if (*e->lvl < 4) {
      int r = find(*e->lvl + 1, *e->want);
      if (r >= 0) {
        int v = r;
        if (parc_preturn_claim(self, 2))
          *e->parc_rv_ = v;
        parc_preturn(self, 2);
      }
    } else if (*e->want && e->i == 2 && j == 1) {
      int v = 1000 + *e->lvl * 100 + e->i * 10 + j;
      if (parc_preturn_claim(self, 2))
        *e->parc_rv_ = v;
      parc_preturn(self, 2);
    } else if (*e->want && e->i == 3) {
      int v = 2000 + j;
      if (parc_preturn_claim(self, 2))
        *e->parc_rv_ = v;
      parc_preturn(self, 2);
    }
  }
}

static void find_i(parc_act *self, void *envp) {
  struct env_find *outer = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    struct env_find e = *outer;
    e.i = (int)k;
    parc_desc d;
    parc_spawn(&d, &s_j, find_j, &e, 4);
  }
}

static int find(int lvl, int want) {
  int parc_rv_ = -1;
  parc_poll();
  struct env_find e = {&lvl, &want, &parc_rv_, 0};
  parc_desc d;
  parc_spawn(&d, &s_i, find_i, &e, 4);
  if (parc_preturned(&d))
    return parc_rv_;
  return -1;
}

int main(void) {
  int bad = 0;
  for (int r = 0; r < 20; r++) {
    int v = find(0, 1);
    if (v != 1421 && !(v >= 2000 && v <= 2003)) {
      printf("find=%d\n", v);
      bad = 1;
    }
  }
  if (!bad)
    printf("find=ok\n");
  printf("none=%d\n", find(3, 0));
  return 0;
}
