/* stats.c - PARC_STATS=1: counters per processor and per construct, printed
 * to stderr at exit.
 *
 * Output format (stable; tests grep it; one record per line):
 *
 *   parc: stats: proc=K cpu=C node=N activities=A envelopes_created=E
 *                envelopes_reused=R shares=S blocked=B resumed=U killed=X
 *                steals=T mapped=M sleeps=Z splits=Q yields=Y turns=N
 *   parc: stats: total procs=P activities=A envelopes_created=E
 *                envelopes_reused=R shares=S blocked=B resumed=U killed=X
 *                steals=T mapped=M sleeps=Z splits=Q yields=Y turns=N
 *   parc: stats: kill mode=M posted=K checks=C cached=H steps=S
 *                range_tests=R uncoded=U visits=V
 *   parc: stats: site FILE:LINE:COL FUNC KIND executions=N created=C killed=X
 *
 * (the kill record only when something was killed or spawned without
 * activity ranges; its fields are explained in kill.c)
 * (each record on one line; KIND is parblock, parfor, lparfor or
 * mapped-lparfor; sites in order of first execution).  Processor counters
 * are written by their owner only with relaxed atomic stores; per-site
 * counters, shared by all processors, with relaxed RMWs, and only when
 * PARC_STATS is set.  The report is printed by an atexit handler registered
 * at start-up, so it also appears when an activity calls exit().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *kind_name(unsigned k) {
  switch (k & PARC_KIND_MASK) {
  case PARC_KIND_PARBLOCK: return "parblock";
  case PARC_KIND_PARFOR: return "parfor";
  case PARC_KIND_LPARFOR: return "lparfor";
  case PARC_KIND_MAPPED_LPARFOR: return "mapped-lparfor";
  case PARC_KIND_ROOT: return "root";
  default: return "construct";
  }
}

/* relaxed: counters only; a report printed while a processor still runs
 * may be a count behind. */
static uint64_t ld(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static uint64_t ldull(const unsigned long long *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/* What print_counters prints.  A processor still running at exit (one
 * going to sleep) may change a counter while the report is printed: each
 * processor's line and the total are made from one read of each counter,
 * so that the total is the sum of the lines. */
#define PARC_STAT_FIELDS(X)                                                                     \
  X(activities) X(env_created) X(env_reused) X(shares) X(blocked) X(resumed) X(killed)         \
  X(steals) X(mapped) X(sleeps) X(splits) X(yields) X(turns)

static void print_counters(FILE *f, const parc_stats *s) {
  fprintf(f,
          "activities=%llu envelopes_created=%llu envelopes_reused=%llu shares=%llu "
          "blocked=%llu resumed=%llu killed=%llu steals=%llu mapped=%llu sleeps=%llu "
          "splits=%llu yields=%llu turns=%llu\n",
          (unsigned long long)s->activities, (unsigned long long)s->env_created,
          (unsigned long long)s->env_reused, (unsigned long long)s->shares,
          (unsigned long long)s->blocked, (unsigned long long)s->resumed,
          (unsigned long long)s->killed, (unsigned long long)s->steals,
          (unsigned long long)s->mapped, (unsigned long long)s->sleeps,
          (unsigned long long)s->splits, (unsigned long long)s->yields,
          (unsigned long long)s->turns);
}

static void report(void) {
  FILE *f = stderr;
  /* The program's output first, when both go to one file, and the report
   * on a line of its own after an unterminated one (a grep for '^parc:
   * stats:' missed the first record). */
  parc_error_flush();
  parc_stats t = {0};
  for (int k = 0; k < parc_rt.P; k++) {
    parc_proc *p = &parc_rt.procs[k];
    parc_stats s = {0};
#define PARC_STAT_READ(field) s.field = ld(&p->st.field), t.field += s.field;
    PARC_STAT_FIELDS(PARC_STAT_READ)
#undef PARC_STAT_READ
    /* libnuma is only ever called by one thread at a time: here, at exit. */
    int cpu = __atomic_load_n(&p->cpu, __ATOMIC_RELAXED);
    fprintf(f, "parc: stats: proc=%d cpu=%d node=%d ", k, cpu, parc_node_of_cpu(cpu));
    print_counters(f, &s);
  }
  fprintf(f, "parc: stats: total procs=%d ", parc_rt.P);
  print_counters(f, &t);
  /* The kill record (kill.c), only when the program killed something or
   * spawned a construct without activity ranges. */
  uint64_t kp = 0, kc = 0, kh = 0, ks = 0, kt = 0, ku = 0, kv = 0;
  for (int k = 0; k < parc_rt.P; k++) {
    const parc_stats *s = &parc_rt.procs[k].st;
    kp += ld(&s->kill_posts);
    kc += ld(&s->kill_checks);
    kh += ld(&s->kill_cached);
    ks += ld(&s->kill_steps);
    kt += ld(&s->kill_tests);
    ku += ld(&s->kill_uncoded);
    kv += ld(&s->kill_visits);
  }
  if (kp || ku)
    fprintf(f,
            "parc: stats: kill mode=%s posted=%llu checks=%llu cached=%llu steps=%llu "
            "range_tests=%llu uncoded=%llu visits=%llu\n",
            parc_rt.kill_mode == PARC_KILL_BOTTOMUP ? "bottomup"
            : parc_rt.kill_mode == PARC_KILL_RANGE  ? "range"
                                                    : "auto",
            (unsigned long long)kp, (unsigned long long)kc, (unsigned long long)kh,
            (unsigned long long)ks, (unsigned long long)kt, (unsigned long long)ku,
            (unsigned long long)kv);
  parc_spin_lock(&parc_rt.site_lock);
  parc_site *list = parc_rt.sites, *rev = NULL;
  parc_spin_unlock(&parc_rt.site_lock);
  while (list) { /* registration order: reverse the pushed list */
    parc_site *nx = list->next_;
    list->next_ = rev;
    rev = list;
    list = nx;
  }
  for (parc_site *s = rev; s; s = s->next_)
    fprintf(f, "parc: stats: site %s:%u:%u %s %s executions=%llu created=%llu killed=%llu\n",
            s->file ? s->file : "?", s->line, s->col, s->func ? s->func : "?",
            kind_name(s->kind), (unsigned long long)ldull(&s->executions_),
            (unsigned long long)ldull(&s->created_), (unsigned long long)ldull(&s->killed_));
  fflush(f);
}

/* A child of fork() prints the report too, at its exit: of its own work
 * only.  It inherited the parent's counters, and its totals and site
 * lines added the parent's work before the fork to its own.  The only
 * thread of the child runs this, before anything else there. */
static void fork_child(void) {
  for (int k = 0; k < parc_rt.P; k++)
    memset(&parc_rt.procs[k].st, 0, sizeof parc_rt.procs[k].st);
  for (parc_site *s = parc_rt.sites, *next; s; s = next) {
    next = s->next_;
    s->next_ = NULL;
    s->executions_ = s->created_ = s->killed_ = 0;
    s->registered_ = 0; /* listed again at its first spawn in the child */
  }
  parc_rt.sites = NULL;
}

void parc_stats_init(void) {
  if (parc_rt.stats) {
    atexit(report);
    pthread_atfork(NULL, NULL, fork_child);
  }
}

/* Called at every spawn when PARC_STATS or PARC_TRACE is set; returns the
 * execution number of the site (0 for its first spawn: PARC_TRACE). */
uint64_t parc_stats_site(parc_site *site, uint64_t created) {
  int zero = 0;
  /* acq_rel: one registrant links the site; the lock publishes the link. */
  if (__atomic_load_n(&site->registered_, __ATOMIC_ACQUIRE) == 0 &&
      __atomic_compare_exchange_n(&site->registered_, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    parc_spin_lock(&parc_rt.site_lock);
    site->next_ = parc_rt.sites;
    parc_rt.sites = site;
    parc_spin_unlock(&parc_rt.site_lock);
  }
  /* relaxed RMWs: counters only, summed at exit. */
  __atomic_fetch_add(&site->created_, created, __ATOMIC_RELAXED);
  return __atomic_fetch_add(&site->executions_, 1, __ATOMIC_RELAXED);
}

void parc_stats_killed(parc_site *site, uint64_t n) {
  __atomic_fetch_add(&site->killed_, n, __ATOMIC_RELAXED);
}
