// sync: a barrier among the activities of the innermost construct,
// repeated many times, nested, and mixed with early terminations.
//
// PARC source:
//   int phase[1000]; int bad;
//   parfor int i; 0; 999; 1;
//     for (int r = 0; r < 20; r++) { phase[i] = r; sync; if (phase[(i+1)%1000] != r) bad++; sync; }
//   epar
//   parfor int i; 0; 9; 1;                      // outer: 10 activities
//     parfor int j; 0; 99; 1; ...same with 100 activities, 5 rounds... epar
//     sync;
//   epar
//   parfor int i; 0; 99; 1;                     // half terminate at once:
//     if (i % 2) { sync; sync; }                // terminated ones count as arrived
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: flat bad=0
// CHECK: nested bad=0 count=1000
// CHECK: partial passed=100
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static int phase[1000];
static int bad;
static int inner_phase[10][100];
static int count, passed;

static parc_site s_flat = PARC_SITE_INIT("sync.pc", "main", 10, 3, PARC_KIND_PARFOR);
static parc_site s_outer = PARC_SITE_INIT("sync.pc", "main", 13, 3, PARC_KIND_PARFOR);
static parc_site s_inner = PARC_SITE_INIT("sync.pc", "main", 14, 5, PARC_KIND_PARFOR);
static parc_site s_part = PARC_SITE_INIT("sync.pc", "main", 17, 3, PARC_KIND_PARFOR);

static void flat_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    int i = (int)k;
    for (int r = 0; (parc_poll(), r < 20); r++) {
      phase[i] = r;
      parc_sync(self, NULL);
      if (__atomic_load_n(&phase[(i + 1) % 1000], __ATOMIC_RELAXED) != r)
        faa(&bad, 1);
      parc_sync(self, NULL);
    }
  }
}

static void inner_body(parc_act *self, void *envp) {
  int o = *(int *)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    int j = (int)k;
    for (int r = 0; (parc_poll(), r < 5); r++) {
      inner_phase[o][j] = r;
      parc_sync(self, NULL);
      if (__atomic_load_n(&inner_phase[o][(j + 7) % 100], __ATOMIC_RELAXED) != r)
        faa(&bad, 1);
      parc_sync(self, NULL);
    }
    faa(&count, 1);
  }
}

static void outer_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    int o = (int)k;
    parc_desc d;
    parc_spawn(&d, &s_inner, inner_body, &o, 100);
    parc_sync(self, NULL);
  }
}

static void part_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    if (k % 2) {
      parc_sync(self, NULL);
      parc_sync(self, NULL);
    }
    faa(&passed, 1);
  }
}

int main(void) {
  for (int rep = 0; rep < 3; rep++) {
    parc_desc d;
    parc_spawn(&d, &s_flat, flat_body, NULL, 1000);
  }
  printf("flat bad=%d\n", bad);
  {
    parc_desc d;
    parc_spawn(&d, &s_outer, outer_body, NULL, 10);
  }
  printf("nested bad=%d count=%d\n", bad, count);
  {
    parc_desc d;
    parc_spawn(&d, &s_part, part_body, NULL, 100);
  }
  printf("partial passed=%d\n", passed);
  return 0;
}
