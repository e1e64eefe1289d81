// faa on every integer type: atomic, returns the previous value, from many
// activities at once.
//
// PARC source:
//   char c; short s; int i; unsigned u; long l; unsigned long long ull; size_t z;
//   parfor int k; 0; 9999; 1;
//     faa(&c, 1); faa(&s, 1); faa(&i, 2); faa(&u, 3u); faa(&l, -1L); faa(&ull, 5ull); faa(&z, 7);
//   epar
// RUN: %cc-runtime
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// CHECK: c=16 s=10000 i=20000 u=30000 l=-10000 ull=50000 z=70000 prev_ok=1
#include <parc_abi.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

static signed char c;
static short s;
static int i;
static unsigned u;
static long l;
static unsigned long long ull;
static size_t z;
static int seen[10000];

static parc_site s_L4 = PARC_SITE_INIT("faa.pc", "main", 4, 3, PARC_KIND_PARFOR);

static void body(parc_act *self, void *envp) {
  (void)envp;
  uint64_t k;
  while (parc_next(self, &k)) {
    faa(&c, 1);
    faa(&s, 1);
    faa(&i, 2);
    faa(&u, 3u);
    faa(&l, -1L);
    faa(&ull, 5ull);
    size_t prev = faa(&z, 7);
    faa(&seen[prev / 7], 1); /* each previous value is returned exactly once */
  }
}

int main(void) {
  parc_desc d;
  parc_spawn(&d, &s_L4, body, NULL, 10000);
  int ok = 1;
  for (int k = 0; k < 10000; k++)
    ok &= seen[k] == 1;
  printf("c=%d s=%d i=%d u=%u l=%ld ull=%llu z=%zu prev_ok=%d\n", c, s, i, u, l, ull, z, ok);
  return 0;
}
