/* env.c - the environment variables libparc reads, each parsed and
 * range-checked once, at program start (before main runs).
 *
 *   PARC_NPROCS      processors, 1..1024 (default: online CPUs)
 *   PARC_STACK_SIZE  envelope stack, bytes with optional K/M/G suffix
 *                    (KiB, MiB, GiB), 16K..1G (default 1M)
 *   PARC_PIN         auto, 0 or 1 (default auto): pin processor k to the
 *                    k-th CPU of the affinity mask; auto: only when P is
 *                    the number of CPUs in the mask (numa.c)
 *   PARC_KILL        auto, range or bottomup (default auto: ranges where
 *                    they fit, bottom-up below; range: ranges only, an
 *                    uncodable spawn is an error; see kill.c)
 *   PARC_SPIN_US     0..1000000: how long an idle processor spins before
 *                    it sleeps, in microseconds (default: from
 *                    PARC_SPIN_NS, 60 us, adapted by processor.c's
 *                    spin_adapt; set: that long, always)
 *   PARC_STATS       0 or 1 (default 0): print statistics at exit
 *   PARC_TRACE       a file name: write a Chrome trace-event JSON file of
 *                    the run there at exit (trace.c); opened here, so a bad
 *                    path fails before main
 *   PARC_SCHED       default or random (default default): the order in
 *                    which work is taken (sched.c)
 *   PARC_SEED        0..2^64-1: the seed of PARC_SCHED=random (default:
 *                    from the clock, printed to stderr so the run can be
 *                    repeated)
 * A bad value is a user error: "parc: error: VAR=VALUE: why", exit 2.
 * Any other PARC_ name in the environment is most likely one of these
 * mistyped (PARC_PROCS, PARC_NUM_THREADS), which would otherwise run the
 * program with the default silently: a warning names it and the variable
 * meant (check_unknown).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

extern char **environ;

static _Noreturn void bad(const char *var, const char *val, const char *why) {
  parc_fatal(2, "%s=%s: %s", var, val, why);
}

/* Parse a whole decimal number (optional suffix handled by the caller). */
static int parse_u64(const char *s, unsigned long long *out, char **end) {
  if (!*s || *s == '-' || *s == '+' || *s == ' ' || *s == '\t')
    return 0;
  errno = 0;
  unsigned long long v = strtoull(s, end, 10);
  if (errno || *end == s)
    return 0;
  *out = v;
  return 1;
}

static int parse_flag(const char *var, int dflt) {
  const char *v = getenv(var);
  if (!v)
    return dflt;
  if (!strcmp(v, "0"))
    return 0;
  if (!strcmp(v, "1"))
    return 1;
  bad(var, v, "expected 0 or 1");
}

/* The names libparc reads, and PARC_TRACE_PATH, which parc-trace reads. */
static const char *const known_vars[] = {
    "PARC_NPROCS", "PARC_STACK_SIZE", "PARC_PIN",   "PARC_STATS",      "PARC_SPIN_US",
    "PARC_KILL",   "PARC_SCHED",      "PARC_SEED",  "PARC_TRACE",      "PARC_TRACE_PATH",
};
enum { KNOWN_VARS = sizeof known_vars / sizeof known_vars[0], NAME_MAX_ = 32 };

/* Edit distance (insertions, deletions, substitutions) between a and the
 * first n bytes of b; b longer than NAME_MAX_ counts as far. */
static size_t edit_distance(const char *a, const char *b, size_t n) {
  size_t m = strlen(a), row[NAME_MAX_ + 1];
  if (n > NAME_MAX_)
    return n;
  for (size_t j = 0; j <= n; j++)
    row[j] = j;
  for (size_t i = 1; i <= m; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= n; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      diag = up, row[j] = best;
    }
  }
  return row[n];
}

static int mentions(const char *name, size_t n, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; i + w <= n; i++)
    if (!memcmp(name + i, word, w))
      return 1;
  return 0;
}

/* Warn once for each PARC_ variable libparc does not read, naming the one
 * most like it: the nearest by edit distance if it is close (at most 2
 * edits, or a third of the name after PARC_; the start of the other, as
 * PARC_SCHEDULE, comes first), else PARC_NPROCS for a name about
 * processors or threads.  Only a warning: the program runs as it would
 * without the variable. */
static void check_unknown(void) {
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (strncmp(*e, "PARC_", 5) != 0 || !eq)
      continue;
    size_t n = (size_t)(eq - *e), best_d = (size_t)-1;
    const char *best = NULL;
    for (int k = 0; k < KNOWN_VARS; k++) {
      size_t m = strlen(known_vars[k]);
      if (m == n && !memcmp(known_vars[k], *e, n))
        goto next;
      /* One name the start of the other (PARC_SCHEDULE, PARC_SPIN) is as
       * near as can be. */
      size_t d = edit_distance(known_vars[k], *e, n);
      if (n > 6 && !memcmp(known_vars[k], *e, m < n ? m : n))
        d = 0;
      if (d < best_d)
        best_d = d, best = known_vars[k];
    }
    if (!(best_d <= 2 || best_d * 3 <= n - 5))
      best = mentions(*e, n, "PROC") || mentions(*e, n, "THREAD") || mentions(*e, n, "CPU") ||
                     mentions(*e, n, "CORE") || mentions(*e, n, "WORKER")
                 ? "PARC_NPROCS"
                 : NULL;
    if (best)
      fprintf(stderr, "parc: warning: %.*s is not a libparc variable and is ignored; did you "
                      "mean %s?\n", (int)n, *e, best);
    else
      fprintf(stderr, "parc: warning: %.*s is not a libparc variable and is ignored (parcc(1), "
                      "ENVIRONMENT, lists them)\n", (int)n, *e);
  next:;
  }
}

void parc_env_parse(void) {
  const char *v;
  long page = sysconf(_SC_PAGESIZE);
  parc_rt.page = page > 0 ? (size_t)page : 4096;

  /* P defaults to the CPUs online, as the contract says, even where the
   * affinity mask has fewer (`taskset -c 0`: P = 2 on two CPUs, both
   * processors on CPU 0).  Whether processors outnumber CPUs is
   * judged against the mask, as only its CPUs run them: parc_pin_init
   * (numa.c) replaces this count with the mask's when it reads the mask. */
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  parc_rt.cpus = online > 0 ? (int)(online > PARC_MAX_PROCS ? PARC_MAX_PROCS : online) : 0;
  int P = parc_rt.cpus ? parc_rt.cpus : 1;
  if ((v = getenv("PARC_NPROCS")) != NULL) {
    unsigned long long n;
    char *end;
    if (!*v)
      bad("PARC_NPROCS", v, "expected a number of processors");
    if (v[0] == '-' && v[1] >= '0' && v[1] <= '9') /* -abc is not a number */
      bad("PARC_NPROCS", v, "must be positive");
    errno = 0;
    if (!parse_u64(v, &n, &end))
      bad("PARC_NPROCS", v,
          errno == ERANGE ? "at most 1024 processors are supported" : "not a number");
    if (*end)
      bad("PARC_NPROCS", v, "trailing characters after the number");
    if (n == 0)
      bad("PARC_NPROCS", v, "must be at least 1");
    if (n > PARC_MAX_PROCS)
      bad("PARC_NPROCS", v, "at most 1024 processors are supported");
    P = (int)n;
  }
  parc_rt.P = P;
  parc_rt.single = P == 1;

  size_t stack = PARC_DEFAULT_STACK;
  if ((v = getenv("PARC_STACK_SIZE")) != NULL) {
    unsigned long long n;
    char *end;
    errno = 0;
    if (!parse_u64(v, &n, &end))
      bad("PARC_STACK_SIZE", v,
          errno == ERANGE ? "at most 1G" : "expected a size such as 65536, 256K or 4M");
    unsigned long long mul = 1;
    if (*end == 'k' || *end == 'K')
      mul = 1024, end++;
    else if (*end == 'm' || *end == 'M')
      mul = 1024 * 1024, end++;
    else if (*end == 'g' || *end == 'G')
      mul = 1024ull * 1024 * 1024, end++;
    if (*end)
      bad("PARC_STACK_SIZE", v, "trailing characters after the size");
    if (n > PARC_MAX_STACK / mul || n * mul > PARC_MAX_STACK)
      bad("PARC_STACK_SIZE", v, "at most 1G");
    if (n * mul < PARC_MIN_STACK)
      bad("PARC_STACK_SIZE", v, "at least 16K");
    stack = (size_t)(n * mul);
  }
  parc_rt.stack_size = (stack + parc_rt.page - 1) & ~(parc_rt.page - 1);

  parc_rt.pin = -1; /* auto: decided by parc_pin_init, which counts the mask */
  if ((v = getenv("PARC_PIN")) != NULL && strcmp(v, "auto") != 0) {
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
      bad("PARC_PIN", v, "expected auto, 0 or 1");
    parc_rt.pin = v[0] == '1';
  }
  parc_rt.stats = parse_flag("PARC_STATS", 0);

  parc_rt.spin_ns = PARC_SPIN_NS;
  if ((v = getenv("PARC_SPIN_US")) != NULL) {
    unsigned long long n;
    char *end;
    if (!parse_u64(v, &n, &end) || *end || n > 1000000)
      bad("PARC_SPIN_US", v, "expected a number of microseconds from 0 to 1000000");
    parc_rt.spin_ns = n * 1000;
    parc_rt.spin_fixed = 1;
  }

  parc_rt.kill_mode = PARC_KILL_AUTO;
  if ((v = getenv("PARC_KILL")) != NULL) {
    if (!strcmp(v, "auto"))
      parc_rt.kill_mode = PARC_KILL_AUTO;
    else if (!strcmp(v, "range"))
      parc_rt.kill_mode = PARC_KILL_RANGE;
    else if (!strcmp(v, "bottomup"))
      parc_rt.kill_mode = PARC_KILL_BOTTOMUP;
    else
      bad("PARC_KILL", v, "expected auto, range or bottomup");
  }

  parc_rt.sched_random = 0;
  if ((v = getenv("PARC_SCHED")) != NULL) {
    if (!strcmp(v, "random"))
      parc_rt.sched_random = 1;
    else if (strcmp(v, "default") != 0)
      bad("PARC_SCHED", v, "expected default or random");
  }
  int seeded = 0;
  if ((v = getenv("PARC_SEED")) != NULL) {
    unsigned long long n;
    char *end;
    if (!parse_u64(v, &n, &end) || *end)
      bad("PARC_SEED", v, "expected a number from 0 to 18446744073709551615");
    parc_rt.seed = n;
    seeded = 1;
  }
  if (parc_rt.sched_random && !seeded) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    parc_rt.seed = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) % 1000000007u;
    fprintf(stderr, "parc: PARC_SCHED=random PARC_SEED=%llu\n", (unsigned long long)parc_rt.seed);
  }

  parc_rt.trace = 0;
  if ((v = getenv("PARC_TRACE")) != NULL) {
    parc_trace_open(v);
    parc_rt.trace = 1;
  }
  parc_rt.step = parc_rt.trace || parc_rt.sched_random;
  check_unknown();
  parc_rt.observe = parc_rt.trace || parc_rt.stats;
}
