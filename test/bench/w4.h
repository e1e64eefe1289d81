/* test/bench/w4.h: W4, parfor 1000 { sync; }, and its check.
 *
 * Each activity counts itself in, passes the barrier, and then must see every
 * activity counted: `ok` ends at n only if the barrier held all of them.  The
 * kernel is nothing but n activities blocking once, so the time is the cost
 * of blocking and resuming an activity.
 *
 * Peers have no barrier among more activities than threads, so they come in
 * two forms, both reported and neither the same program as the PARC one:
 *   team   an OpenMP team of n threads (oversubscribed), already created by an
 *          untimed warm-up region so that the timed one reuses it; pthreads:
 *          n threads created, one pthread_barrier, joined (creation timed)
 *   split  the barrier compiled away by hand: a team of P threads runs every
 *          activity's part before the sync, then every part after it (the
 *          lower bound for any runtime; PARC code never needs this rewrite)
 */
#ifndef PARCC_BENCH_W4_H
#define PARCC_BENCH_W4_H

#include "common.h"

#define W4_DEFAULT_N 1000L

static inline int w4_report(long ok, long n, double t, int threads) {
  return bench_report(t, (unsigned long long)ok, ok == n, n, threads);
}

#endif /* PARCC_BENCH_W4_H */
