/* sched.c - PARC_SCHED=random (a reproducible shuffled schedule) and
 * stepping: running a batch one activity per body-function call, which
 * both PARC_SCHED=random and PARC_TRACE need.
 *
 * Stepping.  The emitted body function loops over its batch with the inline
 * parc_next, so the runtime never sees an activity start or end inside a
 * batch.  When parc_rt.step is set (PARC_TRACE or PARC_SCHED=random), the
 * batch is run by parc_step_run instead of one body call: shares are
 * claimed as usual, but the body is called with act.end = act.next + 1,
 * once per activity, and batch.step_end holds the batch's real end.  The
 * only readers of a running batch's end are parc_detach_chain (which cuts
 * step_end when an activity blocks) and the kill landing (which restores
 * act.end from step_end: parc_step_landing).  The default path pays one
 * load and a predictable branch of parc_rt.step per batch (descriptor.c,
 * run_body).
 *
 * PARC_SCHED=random changes every choice of what runs next, with a
 * per-processor xorshift generator seeded from PARC_SEED and the processor
 * number:
 *   - within a batch, before each activity: which of the not-yet-started
 *     activities runs next (the ones below it are handed to a
 *     representative of the processor, which runs them later or lets a
 *     thief take them), or, after the batch's first, none of them: the
 *     batch hands all it has left to a representative and ends, so that
 *     the processor's next pick (get_work) may be among the activities
 *     handed over before.  Without that, an activity skipped by a pick
 *     always ran after all of the batch's later ones: of a parblock's
 *     sections A, B and C, at P = 1, B A C never ran (tester);
 *   - a parent at the start of each of its inline shares: whether it runs
 *     its children inline at all or leaves the whole share to the
 *     processor's list (then it waits at epar and the children run in
 *     envelopes);
 *   - in get_work (processor.c): ready context or new work first, which
 *     ready context, which representative or descriptor of its own list,
 *     and the processor to steal from first;
 *   - at a parc_P, after a parc_V and after the last arrival at a sync:
 *     whether the running activity gives way (processor.c,
 *     parc_random_yield), so that at P = 1 other activities may run
 *     between two semaphore calls, as they could on other processors.
 * Mapped lparfor chunks are never moved (chunk k stays on processor k).
 * At P = 1 the run is a function of the seed (and of the program's input);
 * at P > 1 the interleaving also depends on timing, so the same seed only
 * tends to repeat a schedule.
 */
#include "internal.h"

/* splitmix64: turns (seed, processor) into well-mixed generator states. */
static uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void parc_sched_init(void) {
  for (int k = 0; k < parc_rt.P; k++) {
    uint64_t s = splitmix(parc_rt.seed ^ splitmix((uint64_t)k + 1));
    parc_rt.procs[k].rng = s ? s : 1;
  }
}

/* xorshift64*; owner-only state.  Uniform in [0, n) (n > 0). */
uint64_t parc_rand(parc_proc *p, uint64_t n) {
  uint64_t x = p->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  p->rng = x;
  uint64_t r = x * 0x2545F4914F6CDD1Dull;
  /* Multiply-shift: uniform enough for a schedule, no division. */
  return (uint64_t)(((unsigned __int128)r * n) >> 64);
}

/* Random mode, between two activities of batch b (everything in
 * [start, next) has terminated): pick the next activity among
 * [next, step_end) and hand the ones it skips to a representative of the
 * processor, or leave everything (return 0). */
static int random_pick(parc_batch *b, int first_step) {
  parc_drt *d = b->d;
  uint64_t next = b->act.next, end = b->step_end;
  if (d->mapped)
    return 1;
  parc_proc *p = parc_self();
  uint64_t n = end - next;
  /* Index n means "leave all n to the processor's list": a parent chooses
   * so once per share before it runs any (whether it runs the share
   * inline at all), and every batch after each activity it ran.  The
   * first pick of a batch that get_work started does not leave: get_work
   * has just chosen it. */
  uint64_t k = next + parc_rand(p, n + (uint64_t)(b->is_parent || !first_step));
  if (k == next)
    return 1;
  /* Account the terminated prefix, so that the batch is [k, end) from now
   * on, then hand [next, k) to a representative. */
  b->act.cur = next;
  parc_account_prefix(b);
  parc_defer(p, d, next, k);
  b->first += k - next; /* first only counts (end - first = activities of this batch) */
  b->act.next = b->act.cur = b->start = k;
  if (k == end)
    b->act.end = end;
  return k < end;
}

void parc_step_run(parc_batch *b) {
  parc_drt *d = b->d;
  b->step_end = b->act.end;
  int first = 1;
  /* One clock read per activity: an activity's end is the next one's start. */
  uint64_t t = parc_rt.trace ? parc_trace_now() : 0;
  while (b->act.next < b->step_end) {
    if (parc_rt.sched_random && !random_pick(b, first))
      break;
    first = 0;
    b->act.end = b->act.next + 1;
    if (parc_rt.trace) {
      b->seg = 0;
      b->seg_start = t;
    }
    d->fn(&b->act, d->env);
    if (parc_rt.trace) {
      t = parc_trace_now();
      parc_trace_slice(parc_self(), b, t, 0);
    }
  }
  b->act.end = b->step_end;
}

/* At the kill landing of a stepping batch (descriptor.c, run_body): the
 * current activity ends here (killed, unless it ended itself by pbreak or
 * preturn), and the batch's real end is restored. */
void parc_step_landing(parc_batch *b) {
  if (parc_rt.trace)
    parc_trace_slice(parc_self(), b, parc_trace_now(), b->self_ended ? 0 : PARC_TRACE_KILLED);
  b->act.end = b->step_end;
}
