// parfor: one activity per index value, tiny activities in large numbers,
// steps and empty ranges.
//
// PARC source:
//   long long sum; int hits[1000];
//   int main(void) {
//     parfor long i; 1; 1000000; 1; faa(&sum, i); epar
//     printf("sum=%lld\n", sum);
//     parfor int i; 999; 0; -3; hits[i]++; epar          // 999, 996, ..., 0
//     parfor unsigned u; 5; 4; 1; hits[0] = -1000; epar   // empty
//     int n = 0; for (int i = 0; i < 1000; i++) n += hits[i] * (i % 3 == 0 ? 1 : 100);
//     printf("hits=%d\n", n);
//   }
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: sum=500000500000
// CHECK: hits=334
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static long long sum;
static int hits[1000];

static parc_site s_L4 = PARC_SITE_INIT("parfor.pc", "main", 4, 5, PARC_KIND_PARFOR);
static parc_site s_L6 = PARC_SITE_INIT("parfor.pc", "main", 6, 5, PARC_KIND_PARFOR);
static parc_site s_L7 = PARC_SITE_INIT("parfor.pc", "main", 7, 5, PARC_KIND_PARFOR);

struct env_bounds {
  long long from, step;
};

static void main_parfor_L4(parc_act *self, void *envp) {
  struct env_bounds *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    long i = (long)parc_iter(e->from, e->step, k);
    faa(&sum, i);
  }
}

static void main_parfor_L6(parc_act *self, void *envp) {
  struct env_bounds *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    int i = (int)parc_iter(e->from, e->step, k);
    faa(&hits[i], 1);
  }
}

static void main_parfor_L7(parc_act *self, void *envp) {
  (void)envp;
  (void)self;
  hits[0] = -1000; /* must never run */
}

int main(void) {
  {
    struct env_bounds e = {1, 1};
    parc_desc d;
    parc_spawn(&d, &s_L4, main_parfor_L4, &e, parc_count_s(1, 1000000, 1, &s_L4));
  }
  printf("sum=%lld\n", sum);
  {
    struct env_bounds e = {999, -3};
    parc_desc d;
    parc_spawn(&d, &s_L6, main_parfor_L6, &e, parc_count_s(999, 0, -3, &s_L6));
  }
  {
    parc_desc d;
    parc_spawn(&d, &s_L7, main_parfor_L7, NULL, parc_count_u(5, 4, 1, &s_L7));
  }
  int n = 0;
  for (int i = 0; i < 1000; i++)
    n += hits[i] * (i % 3 == 0 ? 1 : 100);
  printf("hits=%d\n", n);
  return 0;
}
