// A mapped chunk stays on its processor even when it blocks: on a
// semaphore, and as the parent of a nested parfor whose activities sync
// (its inline share blocks, the rest runs anywhere).
//
// PARC source:
//   parc_sem_t s[64]; int bad;
//   mapped lparfor int k; 0; P-1; 1;
//     if (parc_procid() != k) bad++;
//     parc_V(&s[(k + 1) % P]); parc_P(&s[k]);
//     if (parc_procid() != k) bad++;
//     parfor int j; 0; 49; 1; sync; epar
//     if (parc_procid() != k) bad++;
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: %run-8 %t | %FileCheck %s
// CHECK: bad=0 rounds=30
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static parc_sem_t s[64];
static int bad, rounds;

static parc_site s_m = PARC_SITE_INIT("mapped_block.pc", "main", 2, 3, PARC_KIND_MAPPED_LPARFOR);
static parc_site s_j = PARC_SITE_INIT("mapped_block.pc", "main", 6, 5, PARC_KIND_PARFOR);

static void j_body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    parc_sync(self, NULL);
}

static void m_body(parc_act *self, void *envp) {
  uint64_t niter = *(uint64_t *)envp;
  uint64_t c;
  while (parc_next(self, &c)) {
    uint64_t lo = parc_chunk_lo(niter, self->total, c);
    uint64_t hi = parc_chunk_lo(niter, self->total, c + 1);
    for (uint64_t k = lo; (parc_poll(), k < hi); k++) {
      if ((uint64_t)parc_procid() != k)
        faa(&bad, 1);
      parc_V(&s[(k + 1) % niter]);
      parc_P(&s[k]);
      if ((uint64_t)parc_procid() != k)
        faa(&bad, 1);
      parc_desc d;
      parc_spawn(&d, &s_j, j_body, NULL, 50);
      if ((uint64_t)parc_procid() != k)
        faa(&bad, 1);
    }
  }
}

int main(void) {
  uint64_t P = (uint64_t)parc_nprocs();
  for (int r = 0; r < 30; r++) {
    for (uint64_t k = 0; k < P; k++)
      parc_sem_init(&s[k], 0);
    parc_desc d;
    parc_spawn_lparfor(&d, &s_m, m_body, &P, P, 1);
    rounds++;
  }
  printf("bad=%d rounds=%d\n", bad, rounds);
  return 0;
}
