/* test/bench/bench_cpus.h: the CPUs a pthreads version binds its threads
 * to, for the workloads whose threads outnumber P (W10's stages, W11's
 * activities): PARC runs them on P processors, so their threads get P CPUs.
 * Include before any system header: it needs _GNU_SOURCE. */
#ifndef PARCC_BENCH_CPUS_H
#define PARCC_BENCH_CPUS_H

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "common.h"

/* The first n CPUs of those the program may use (all of them if fewer). */
static inline void bench_first_cpus(int n, cpu_set_t *cpus) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    bench_die("sched_getaffinity failed", NULL);
  CPU_ZERO(cpus);
  for (int c = 0, k = 0; c < CPU_SETSIZE && k < n; c++)
    if (CPU_ISSET(c, &allowed)) {
      CPU_SET(c, cpus);
      k++;
    }
}

#endif /* PARCC_BENCH_CPUS_H */
