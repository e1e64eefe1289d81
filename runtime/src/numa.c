/* numa.c - pinning processors to CPUs and finding their NUMA nodes.
 *
 * Worker k is pinned to the k-th CPU of the process's affinity mask (taken
 * once, before anything is pinned), wrapping around when P exceeds it.  A
 * failed pin is silent: the processor just runs unpinned.  libnuma, when
 * built in (PARC_HAVE_NUMA) and usable at run time, reports the node of a
 * CPU; first touch by a pinned chunk then keeps its data on that node.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "internal.h"

#if PARC_HAVE_NUMA
#include <numa.h>
#endif

static int cpus[PARC_MAX_PROCS];
static int ncpus;

/* Read the process affinity mask once, on the main thread, before any
 * processor is pinned (and before workers exist).  Its CPUs, which taskset,
 * numactl, a cgroup cpuset or a batch scheduler narrow, become parc_rt.cpus
 * (the CPUs online until then, env.c): whether processors outnumber the
 * CPUs that run them is judged against it. */
void parc_pin_init(void) {
  cpu_set_t set;
  ncpus = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE && ncpus < PARC_MAX_PROCS; c++)
      if (CPU_ISSET(c, &set))
        cpus[ncpus++] = c;
  if (ncpus)
    parc_rt.cpus = ncpus;
  /* PARC_PIN=auto: pin when every CPU of the mask gets one processor.  With
   * fewer processors, programs that run at once (a class on one server,
   * each at PARC_NPROCS=4) were all pinned to the mask's first CPUs while
   * the others idled; with more, pinning splits them unevenly (3 on 2
   * CPUs: two on one).  There the kernel places them, as it places an
   * OpenMP team that has no OMP_PROC_BIND.  No mask read: nothing to pin
   * to. */
  if (parc_rt.pin < 0)
    parc_rt.pin = ncpus > 0 && parc_rt.P == ncpus;
}

/* The CPU processor k is pinned to, or -1. */
int parc_pin_cpu(int k) { return ncpus > 0 ? cpus[k % ncpus] : -1; }

/* Pin the calling thread for processor k; returns the CPU or -1. */
int parc_pin_self(int k) {
  int cpu = parc_pin_cpu(k);
  if (cpu < 0)
    return -1;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
    return -1;
  return cpu;
}

/* Make a worker thread of processor k start on its own CPU: a thread
 * inherits its creator's affinity, and processor 0 is already pinned when
 * it creates the workers, so without this a worker would first have to be
 * scheduled on processor 0's CPU, behind the main thread's running program
 * (measured: `parfor 1000 { sync; }` right after start-up ran entirely on
 * processor 0, the worker not yet started 5 ms later).  Failure is silent:
 * the worker pins itself once it runs. */
void parc_pin_attr(pthread_attr_t *a, int k) {
  int cpu = parc_pin_cpu(k);
  if (cpu < 0)
    return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  (void)pthread_attr_setaffinity_np(a, sizeof set, &set);
}

/* The NUMA node of a CPU (0 without libnuma, -1 if unknown).  Called from
 * one thread at a time only (the exit report): libnuma initialises its
 * tables lazily and without locking. */
int parc_node_of_cpu(int cpu) {
#if PARC_HAVE_NUMA
  if (cpu >= 0)
    return numa_available() >= 0 ? numa_node_of_cpu(cpu) : -1;
#endif
  return cpu >= 0 ? 0 : -1;
}
