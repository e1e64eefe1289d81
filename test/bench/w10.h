/* test/bench/w10.h: W10, a pipeline of stages that hand each token on
 * through one-slot buffers, and its check.
 *
 * n tokens pass through s stages: stage 0 makes token i (its value is i),
 * every later stage adds its own number to the value it receives, and the
 * last stage sums the values.  Between stages j and j + 1 is a buffer of one
 * slot with two semaphores, `full` (a value waits in the slot) and `empty`
 * (the slot is free): the classic producer-consumer hand-over, n * (s - 1)
 * of them, each a signal from one activity to another.  A stage does almost
 * nothing, so what is measured is the hand-over: a context switch where two
 * stages share a processor, a wake-up across processors where they do not.
 * The PARC version is a parfor over the stages with parc_P / parc_V; the
 * pthreads one a thread per stage with POSIX semaphores (sem_t), its threads
 * bound to P CPUs; the TBB one tbb::parallel_pipeline, TBB's own form of a
 * pipeline, with serial in-order filters and s tokens in flight (as many as
 * the slots and stages hold).  OpenMP has no construct to hand a value from
 * one running task to another (a task with `depend` clauses per token and
 * stage is a different program, with no stage that waits), so W10 has no
 * OpenMP version.  The serial version computes the same sum in a loop.
 */
#ifndef PARCC_BENCH_W10_H
#define PARCC_BENCH_W10_H

#include "common.h"

#define W10_DEFAULT_N 100000L
#define W10_DEFAULT_S 9L

/* argv[2..3]: n tokens, s stages (at least 2). */
static inline void w10_args(int argc, char **argv, long *n, long *s) {
  *n = bench_arg(argc, argv, 2, W10_DEFAULT_N);
  *s = bench_arg(argc, argv, 3, W10_DEFAULT_S);
  if (*s < 2)
    bench_die("a pipeline needs at least 2 stages", argv[3]);
}

/* What stage j >= 1 makes of the value v it receives. */
static inline uint64_t w10_stage(uint64_t v, long j) { return v + (uint64_t)j; }

static inline int w10_report(uint64_t sum, long n, long s, double t, int threads) {
  uint64_t want = 0;
  for (long i = 0; i < n; i++) {
    uint64_t v = (uint64_t)i;
    for (long j = 1; j < s; j++)
      v = w10_stage(v, j);
    want += v;
  }
  return bench_report(t, (unsigned long long)sum, sum == want, (long long)n * (s - 1), threads);
}

#endif /* PARCC_BENCH_W10_H */
