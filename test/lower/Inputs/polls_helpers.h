/* Plain C helpers for polls.pc: headers get no polls of their own. */
#ifndef PARCC_TEST_POLLS_HELPERS_H
#define PARCC_TEST_POLLS_HELPERS_H

static inline int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

static inline void zero(int *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = 0;
}

#endif
