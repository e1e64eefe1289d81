/* test/bench/bench_omp.h: warm-up shared by the OpenMP versions.
 *
 * The thread count comes from OMP_NUM_THREADS, which the runner sets to P.
 * The first parallel region creates the team; it runs here, outside the timed
 * kernel, as the TBB and PARC versions start their workers before timing.
 */
#ifndef PARCC_BENCH_OMP_H
#define PARCC_BENCH_OMP_H

#include <omp.h>

#include "common.h"

static inline int bench_omp_setup(void) {
  int threads = 0;
#pragma omp parallel
  {
#pragma omp atomic
    threads++;
  }
  return threads;
}

#endif /* PARCC_BENCH_OMP_H */
