/* test/bench/bench_tbb.h: thread count and warm-up shared by the TBB versions.
 *
 * TBB has no environment variable for its thread count, so the runner's P
 * arrives in BENCH_THREADS and a global_control caps the arena at it (the main
 * thread counts as one of the P, as in OpenMP and PARC).
 */
#ifndef PARCC_BENCH_TBB_H
#define PARCC_BENCH_TBB_H

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "common.h"

struct bench_tbb_setup {
  tbb::global_control gc;
  int threads;
  bench_tbb_setup()
      : gc(tbb::global_control::max_allowed_parallelism, (size_t)bench_threads()),
        threads(bench_threads()) {
    /* Workers start lazily on the first parallel algorithm: start them here,
     * outside the timed kernel, as the OpenMP and PARC versions do. */
    tbb::parallel_for(0, 64 * threads, [](int) {}, tbb::simple_partitioner());
  }
};

#endif /* PARCC_BENCH_TBB_H */
