/* sumlib.c - a shared library built against an installed libparc, with
 * libparc-pic.a linked in (pkg-config parc-pic, CMake parc::parc-pic):
 *   parfor int i; 0; 99; 1; faa(&sum, i); epar */
#include <parc_abi.h>
#include <stdint.h>

static long sum;
static parc_site s = PARC_SITE_INIT("sumlib.pc", "lib_sum", 3, 3, PARC_KIND_PARFOR);

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k))
    faa(&sum, (long)k);
}

long lib_sum(void) {
  parc_desc d;
  sum = 0;
  parc_spawn(&d, &s, body, 0, parc_count_s(0, 99, 1, &s));
  return sum;
}
