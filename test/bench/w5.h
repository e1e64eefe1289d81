/* test/bench/w5.h: W5, parfor 100 { parfor 100 { sync; } }, and its check.
 *
 * W4 nested: each of the no outer activities runs an inner construct of ni
 * activities that meet at the inner construct's barrier (sync binds to the
 * innermost construct).  Each inner activity counts itself into its outer
 * activity's counter and after the barrier must see all ni counted, so `ok`
 * ends at no*ni.  The peer forms (team, split, pthreads) are those of w4.h,
 * nested: an OpenMP team of ni threads inside each thread of a team of no
 * (max-active-levels 2, reused from an untimed warm-up), or 10,100 pthreads.
 */
#ifndef PARCC_BENCH_W5_H
#define PARCC_BENCH_W5_H

#include "common.h"

#define W5_DEFAULT_OUTER 100L
#define W5_DEFAULT_INNER 100L

/* activities: the outer ones and the inner ones */
static inline int w5_report(long ok, long no, long ni, double t, int threads) {
  return bench_report(t, (unsigned long long)ok, ok == no * ni, no + no * ni, threads);
}

#endif /* PARCC_BENCH_W5_H */
