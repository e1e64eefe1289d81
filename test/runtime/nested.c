// Constructs nest arbitrarily: parfor in parfor, a parblock in a parfor, an
// lparfor inside a parfor activity, each level writing its own index into a
// shared table, so every (i, j, k) is visited exactly once.
//
// PARC source:
//   int seen[20][30][3];
//   parfor int i; 0; 19; 1;
//     parfor int j; 0; 29; 1;
//       parblock { seen[i][j][0]++; } : { seen[i][j][1]++; }
//              : { lparfor int k; 0; 9; 1; faa(&seen[i][j][2], 1); epar } epar
//     epar
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-2 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: nested ok visits=1800
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static int seen[20][30][3];

static parc_site s_i = PARC_SITE_INIT("nested.pc", "main", 2, 3, PARC_KIND_PARFOR);
static parc_site s_j = PARC_SITE_INIT("nested.pc", "main", 3, 5, PARC_KIND_PARFOR);
static parc_site s_b = PARC_SITE_INIT("nested.pc", "main", 4, 7, PARC_KIND_PARBLOCK);
static parc_site s_k = PARC_SITE_INIT("nested.pc", "main", 5, 14, PARC_KIND_LPARFOR);

struct env_ij {
  int i, j;
};

static void k_body(parc_act *self, void *envp) {
  struct env_ij *e = envp;
  uint64_t c;
  while (parc_next(self, &c)) {
    uint64_t lo = parc_chunk_lo(10, self->total, c), hi = parc_chunk_lo(10, self->total, c + 1);
    for (uint64_t k = lo; (parc_poll(), k < hi); k++)
      faa(&seen[e->i][e->j][2], 1);
  }
}

static void b_body(parc_act *self, void *envp) {
  struct env_ij *e = envp;
  uint64_t s;
  while (parc_next(self, &s)) {
    if (s < 2) {
      seen[e->i][e->j][s]++;
    } else {
      parc_desc d;
      parc_spawn_lparfor(&d, &s_k, k_body, e, 10, 0);
    }
  }
}

static void j_body(parc_act *self, void *envp) {
  int i = *(int *)envp;
  uint64_t j;
  while (parc_next(self, &j)) {
    struct env_ij e = {i, (int)j};
    parc_desc d;
    parc_spawn(&d, &s_b, b_body, &e, 3);
  }
}

static void i_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t i;
  while (parc_next(self, &i)) {
    int ii = (int)i;
    parc_desc d;
    parc_spawn(&d, &s_j, j_body, &ii, 30);
  }
}

int main(void) {
  for (int r = 0; r < 5; r++) {
    parc_desc d;
    parc_spawn(&d, &s_i, i_body, NULL, 20);
  }
  int ok = 1, visits = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++) {
      ok &= seen[i][j][0] == 5 && seen[i][j][1] == 5 && seen[i][j][2] == 50;
      visits += seen[i][j][0] + seen[i][j][1] == 10 ? 3 : 0;
    }
  printf("nested %s visits=%d\n", ok ? "ok" : "BAD", visits);
  return 0;
}
