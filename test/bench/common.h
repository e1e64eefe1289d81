/* test/bench/common.h: timing, input generation, argument reading and the one
 * report line that every benchmark program of the suite prints.
 *
 * Every version of a workload (serial C, PARC, OpenMP, TBB, pthreads) includes
 * this header, so that inputs, checks and the report are the same code in all
 * of them and only the parallel construct around the kernel differs.  It is
 * plain C that also compiles as C++ (the TBB versions) and under parcc, whose
 * headers are plain C: no VLAs, no `restrict`, explicit casts from malloc.
 *
 * Command line of every program:  prog VARIANT [SIZE...]
 *   VARIANT  "-" for the default, or a name the program lists (e.g. "static")
 *   SIZE     workload sizes; defaults are the full sizes
 * Output: one line
 *   kernel_s=<seconds> checksum=<value> [activities=<n>] threads=<P> maxrss_kb=<kB>
 * and exit status 0, or 1 when the program's own check of its result fails
 * (the line is still printed, and a `bench: error:` line goes to stderr).
 */
#ifndef PARCC_BENCH_COMMON_H
#define PARCC_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* Seconds on the monotonic clock; the kernel time is the difference of two. */
static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* splitmix64 (Steele, Lea, Flood 2014): the deterministic input generator.
 * A pure function of the index, so any version can regenerate or check any
 * element without replaying a sequence. */
static inline uint64_t bench_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static inline void bench_die(const char *msg, const char *arg) {
  fprintf(stderr, "bench: error: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  exit(2);
}

/* argv[i] as a positive long, or dflt when absent. */
static inline long bench_arg(int argc, char **argv, int i, long dflt) {
  if (i >= argc)
    return dflt;
  char *end;
  long v = strtol(argv[i], &end, 10);
  if (*argv[i] == '\0' || *end != '\0' || v <= 0)
    bench_die("bad size argument", argv[i]);
  return v;
}

/* argv[1], the variant; "-" or absent selects the first of `names` (a
 * space-separated list).  An unknown name stops the program. */
static inline const char *bench_variant(int argc, char **argv, const char *names) {
  static char first[32];
  size_t len = strcspn(names, " ");
  if (len >= sizeof first)
    len = sizeof first - 1;
  memcpy(first, names, len);
  first[len] = '\0';
  if (argc < 2 || strcmp(argv[1], "-") == 0)
    return first;
  const char *p = names;
  size_t want = strlen(argv[1]);
  while (*p) {
    size_t n = strcspn(p, " ");
    if (n == want && strncmp(p, argv[1], n) == 0)
      return argv[1];
    p += n;
    while (*p == ' ')
      p++;
  }
  fprintf(stderr, "bench: error: unknown variant '%s' (known: %s)\n", argv[1], names);
  exit(2);
}

/* An integer environment variable, or dflt when unset.  BENCH_THREADS is the
 * P the runner chose; it sets PARC_NPROCS and OMP_NUM_THREADS to the same. */
static inline int bench_env_int(const char *name, int dflt) {
  const char *s = getenv(name);
  if (!s || !*s)
    return dflt;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end != '\0' || v <= 0 || v > 100000)
    bench_die("bad value of environment variable", name);
  return (int)v;
}

static inline int bench_threads(void) { return bench_env_int("BENCH_THREADS", 1); }

static inline void *bench_alloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p)
    bench_die("out of memory", NULL);
  return p;
}

/* Peak resident set of this program so far, in kB.  VmHWM of the process's
 * own address space; getrusage's ru_maxrss would do on its own, but Linux
 * carries the parent's peak across fork and exec into it, so under a Python
 * runner every small program would report the runner's 18 MB.  ru_maxrss is
 * the fallback where /proc is missing. */
static inline long bench_maxrss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "VmHWM:", 6) == 0) {
        kb = strtol(line + 6, NULL, 10);
        break;
      }
    fclose(f);
    if (kb > 0)
      return kb;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* The report line; returns the exit status.  activities < 0: not printed. */
static inline int bench_report(double kernel_s, unsigned long long checksum, int ok,
                               long long activities, int threads) {
  printf("kernel_s=%.9f checksum=%llu", kernel_s, checksum);
  if (activities >= 0)
    printf(" activities=%lld", activities);
  printf(" threads=%d maxrss_kb=%ld\n", threads, bench_maxrss_kb());
  fflush(stdout);
  if (!ok) {
    fprintf(stderr, "bench: error: wrong result (checksum %llu)\n", checksum);
    return 1;
  }
  return 0;
}

#endif /* PARCC_BENCH_COMMON_H */
