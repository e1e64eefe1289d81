/* hello.c - a hand-lowered PARC program built against an installed libparc:
 *   parfor int i; 0; 99; 1; faa(&sum, i); epar */
#include <parc_abi.h>
#include <stdint.h>
#include <stdio.h>

static long sum;
static parc_site s = PARC_SITE_INIT("hello.pc", "main", 3, 3, PARC_KIND_PARFOR);

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&sum, (long)k);
}

int main(void) {
  parc_desc d;
  parc_spawn(&d, &s, body, NULL, parc_count_s(0, 99, 1, &s));
  printf("installed libparc: sum=%ld P=%d\n", sum, parc_nprocs());
  return 0;
}
