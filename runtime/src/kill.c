/* kill.c - pbreak and preturn: activity ranges, the bottom-up fallback,
 * kill posting and delivery, and the poll slow path (MAXI 6).
 *
 * Victims.  Killing construct D kills all of D's activities and their
 * descendants.  Every activity of a descriptor in D's subtree is a victim,
 * so victimhood is a property of descriptors: parc_victim(d).
 *
 * Ranges (MAXI 6.2).  The root activity owns [0, 2^64-1].  A parent activity
 * with range [lo, hi] spawning n activities gives activity k the range
 * [lo+1+k*w, lo+(k+1)*w], w = (hi-lo)/n (the parent keeps lo).  The
 * descriptor stores lo and w; its activities' ranges span
 * S(d) = [lo+1, lo+n*w].  For coded descriptors, x lies in D's subtree iff
 * S(x) is inside S(D): a descendant's span is inside its parent activity's
 * range, an ancestor's span strictly contains lo of D's parent activity, and
 * unrelated spans are disjoint.  When w would be 0 the descriptor is
 * uncoded, and so is its whole subtree.
 *
 * Bottom-up (MAXI 6.2's second algorithm).  Every kill also sets D->killflag.
 * parc_victim(x) walks x, x's parent activity's descriptor, ... checking
 * killflag, until the first coded descriptor, where one range check (against
 * the posted ranges) answers for it and all its ancestors.  Results are
 * cached per descriptor, and for every descriptor the walk passed (MAXI's
 * "marking each activity identified as being either in or out"): `dead`
 * (victimhood never ends while the descriptor lives: a kill's record stays
 * until every victim has stopped) and `checked_epoch` (not a victim as of
 * that kill epoch; the walk stops at such an ancestor).  So a kill costs
 * each descriptor of the tree about one step, not one walk to the root.
 *
 * Modes (PARC_KILL, env.c):
 *   auto      (default) ranges while they can be split, bottom-up below;
 *   range     ranges only: a spawn whose activities cannot get ranges (the
 *             parent activity's range has fewer numbers than activities) is
 *             a run-time error naming the construct, as in the paper's coding
 *             scheme, which "limits the structure of the activity tree"; so
 *             every victim check is one range test (for measurements);
 *   bottomup  no ranges at all: every check walks flags (for measurements).
 * A range-table overflow (more than PARC_MAX_RANGE_KILLS kills in flight)
 * falls back to flag walks in every mode; it is exact, only slower.
 *
 * Statistics (PARC_STATS=1, stats.c "kill" record): kills posted, victim
 * checks, checks answered by the cache, descriptors visited by walks, posted
 * ranges compared, and descriptors spawned without a range.
 *
 * Posting a kill of D (exactly once per D):
 *   1. CAS killflag 0 -> 1 (acq_rel): claims the kill; only one poster
 *      continues, and checkers ignore the value 1;
 *   2. parc_kill_pending_ += 1 and posting += 1 (seq_cst): polls now take
 *      the slow path, and checkers bypass the "not a victim" caches;
 *   3. publish: if D is coded, record S(D) in the range table (under
 *      kill_lock; if the table is full, unranged += 1 instead), then
 *      killflag = 2 (release);
 *   4. kill_epoch += 1 (seq_cst): invalidates every cached "not a victim";
 *   5. posting -= 1 (seq_cst);
 *   6. deliver: scan every processor's blocked list and wake the victims.
 * A checker reads `dead` (acquire; always true when set), then posting,
 * then kill_epoch (acquire), then flags and ranges; it reads and writes the
 * `checked_epoch` cache only if posting was 0, under the epoch it read.
 *   - A kill whose record it missed bumps the epoch afterwards (4 after 3),
 *     so a "not a victim" it cached is stale at the next check; if it read
 *     the epoch after the bump, it synchronized with it and saw the record.
 *   - Causality: a checker X that sees the kill (killflag == 2, a range, or
 *     `dead`, all published with release after step 2) happens-after step 2;
 *     so does every later check Y that X's outcome reaches (a victim's
 *     termination reaches its parent's epar poll through the descriptor
 *     lock).  Y then sees pending != 0 (the kill's decrement waits for every
 *     victim), and either sees posting != 0 and walks without caches, or
 *     sees posting == 0 after step 5 and therefore the bumped epoch: it
 *     never trusts a "not a victim" cached before the kill.  (Without step
 *     2 coming first, a parent could pass its epar poll on a stale cache
 *     after watching a child die of the same kill: the stress test found
 *     that.)
 * Nothing is ever missed: a poll that still sees pending == 0 ran before
 * the kill was published.
 *
 * Removal.  D's parent, once every activity of D is accounted (so every
 * victim in the subtree has stopped), frees D's range slot and decrements
 * parc_kill_pending_ (parc_kill_done), before it can spawn again and reuse
 * the same ranges.
 *
 * Delivery to blocked victims.  A context blocked in sync or parc_P is
 * registered in its processor's blocked list while it is queued (registered
 * under the wait object's lock, unregistered by whoever dequeues it under the
 * same lock; a barrier's waiters are released by the generation and
 * unregister themselves when they run again, so the poster skips a
 * registered waiter whose barrier has moved on: it unwinds at its next
 * poll).  The poster locks a blocked list, and for each victim
 * trylocks the object's lock (lock order is object -> blocked list, so the
 * poster must not wait: on failure it drops everything and retries), takes it
 * out of the queue (undoing its barrier arrival), marks it wake_killed and
 * readies it; the victim unwinds when it resumes.  A blocker checks for a
 * posted kill itself after registering, which closes the window where a
 * poster scanned before it was registered.  A parent waiting at epar is not
 * woken: it keeps waiting until its children (victims too) have stopped, then
 * its epar poll unwinds it.
 *
 * Unwinding.  Each batch has a setjmp landing point (descriptor.c).  The poll
 * slow path finds the innermost batch of the running context and, if its
 * descriptor is a victim, longjmps there; every outer batch on the same
 * context belongs to an ancestor activity, which unwinds at its own epar poll
 * once the inner construct has been accounted.  No runtime lock is ever held
 * across a poll.
 */
#include <sched.h>

#include "internal.h"

unsigned parc_kill_pending_;
void (*parc_poll_hook_)(void);
/* The hook before this copy's (another copy of the runtime, in a library
 * loaded with dlopen(RTLD_LOCAL), started first): polls of threads that are
 * not this copy's processors go on to it. */
static void (*prev_poll_hook)(void);

static uint64_t kill_epoch;   /* atomic; see step 4 */
static int posting;           /* atomic: kills between steps 2 and 5 */
static int nranges;           /* used slots of the table (under kill_lock) */
static parc_spin kill_lock;   /* the range table (leaf lock) */
static int unranged;          /* kills of coded descriptors that found the table full */
static struct {
  uint64_t lo, hi;
  int used;
} ranges[PARC_MAX_RANGE_KILLS];

/* The spawn of d cannot give its activities ranges (cold path). */
static __attribute__((noinline, cold)) void no_range(parc_drt *d, uint64_t numbers) {
  if (parc_rt.kill_mode == PARC_KILL_RANGE)
    parc_fatal_site(d->site,
                    "PARC_KILL=range: activity ranges exhausted: %llu activities, %llu "
                    "numbers left in the parent activity's range (nesting too deep or too "
                    "wide); PARC_KILL=auto, the default, checks such subtrees bottom-up",
                    (unsigned long long)d->count, (unsigned long long)numbers);
  d->coded = 0;
  parc_proc *p = parc_self();
  if (parc_rt.stats && p)
    PARC_STAT_ADD(p, kill_uncoded, 1);
}

/* The spawn path's only kill cost (about 20 instructions; Table 3 in
 * docs/performance.md). */
void parc_spawn_range(parc_drt *d, parc_batch *parent, uint64_t count) {
  uint64_t a, n; /* the parent activity's range is [a, a + n] */
  if (parc_rt.kill_mode == PARC_KILL_BOTTOMUP) {
    d->coded = 0;
    return;
  }
  if (!parent) {
    a = 0;
    n = UINT64_MAX;
  } else {
    parc_drt *pd = parent->d;
    if (PARC_UNLIKELY(!pd->coded)) {
      no_range(d, 0);
      return;
    }
    uint64_t pw = pd->w; /* activity k of pd: [lo+1+k*w, lo+(k+1)*w] */
    a = pd->lo + 1 + parent->act.cur * pw;
    n = pw - 1;
  }
  /* A 64-bit division costs tens of cycles: shift for the common powers of
   * two (2-section parblocks), same result. */
  uint64_t w = (count & (count - 1)) == 0 ? n >> __builtin_ctzll(count) : n / count;
  d->coded = 1;
  d->lo = a;
  d->w = w;
  if (PARC_UNLIKELY(w == 0))
    no_range(d, n);
}

static int range_killed(const parc_drt *x, uint64_t *tests) {
  uint64_t lo = x->lo + 1, hi = x->lo + x->count * x->w;
  int hit = 0;
  parc_spin_lock(&kill_lock);
  for (int i = 0, seen = 0; seen < nranges && !hit; i++) {
    if (ranges[i].used) {
      seen++;
      hit = ranges[i].lo <= lo && hi <= ranges[i].hi;
    }
  }
  *tests += (uint64_t)nranges; /* an upper bound when it hit early; statistics only */
  parc_spin_unlock(&kill_lock);
  return hit;
}

static inline parc_drt *parent_desc(const parc_drt *x) { return x->parent ? x->parent->d : NULL; }

static inline void count_check(uint64_t cached, uint64_t steps, uint64_t tests) {
  parc_proc *p = parc_self();
  if (!p)
    return;
  PARC_STAT_ADD(p, kill_checks, 1);
  PARC_STAT_ADD(p, kill_cached, cached);
  PARC_STAT_ADD(p, kill_steps, steps);
  PARC_STAT_ADD(p, kill_tests, tests);
}

int parc_victim(parc_drt *d) {
  /* acquire: `dead` is set only on victims, with release (see "Posting"). */
  if (__atomic_load_n(&d->dead, __ATOMIC_ACQUIRE)) {
    if (PARC_UNLIKELY(parc_rt.stats))
      count_check(1, 0, 0);
    return 1;
  }
  /* acquire, posting before the epoch: see "Posting". */
  int caches = __atomic_load_n(&posting, __ATOMIC_ACQUIRE) == 0;
  uint64_t e = __atomic_load_n(&kill_epoch, __ATOMIC_ACQUIRE) + 1;
  /* relaxed: the epoch orders the cache (a stale value only costs a walk). */
  if (caches && __atomic_load_n(&d->checked_epoch, __ATOMIC_RELAXED) == e) {
    if (PARC_UNLIKELY(parc_rt.stats))
      count_check(1, 0, 0);
    return 0;
  }
  /* acquire: a kill that found the range table full is announced here
   * before its flag is published. */
  int full_walk = __atomic_load_n(&unranged, __ATOMIC_ACQUIRE) != 0;
  int hit = 0;
  uint64_t steps = 0, tests = 0;
  /* Walk up to the descriptor x that answers; `end` is the first one the
   * answer does not apply to (x itself when x only had a cached "no"). */
  parc_drt *x = d, *end = NULL;
  for (; x; x = parent_desc(x)) {
    steps++;
    /* acquire: pairs with the release of killflag = 2 and of dead. */
    if (__atomic_load_n(&x->dead, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&x->killflag, __ATOMIC_ACQUIRE) == 2) {
      hit = 1;
      end = parent_desc(x);
      break;
    }
    if (caches && x != d && __atomic_load_n(&x->checked_epoch, __ATOMIC_RELAXED) == e) {
      end = x; /* x and its ancestors were checked under this epoch */
      break;
    }
    if (x->coded && !full_walk) {
      hit = range_killed(x, &tests);
      end = parent_desc(x);
      break;
    }
  }
  /* Mark every descriptor passed: they are in the killed subtree exactly
   * when d is (each is d or an ancestor of d below the answering one). */
  if (hit || caches) {
    for (parc_drt *y = d; y != end; y = parent_desc(y)) {
      if (hit) /* release: carries what this walk saw (see "Posting") */
        __atomic_store_n(&y->dead, 1, __ATOMIC_RELEASE);
      else if (__atomic_load_n(&y->checked_epoch, __ATOMIC_RELAXED) != e) /* keep lines clean */
        __atomic_store_n(&y->checked_epoch, e, __ATOMIC_RELAXED);
    }
  }
  if (PARC_UNLIKELY(parc_rt.stats))
    count_check(0, steps, tests);
  return hit;
}

/* Wake every blocked victim (step 6).  See "Delivery" above. */
static void deliver(void) {
  for (int k = 0; k < parc_rt.P; k++) {
    parc_proc *q = &parc_rt.procs[k];
    parc_ctx *wake = NULL;
  retry:
    parc_spin_lock(&q->blocked_lock);
    for (parc_ctx *c = q->blocked, *nx; c; c = nx) {
      nx = c->bnext;
      if (!c->cur_act || !parc_victim(c->cur_act->d))
        continue;
      if (!parc_spin_trylock(c->wait_lock)) {
        parc_spin_unlock(&q->blocked_lock);
        sched_yield();
        goto retry;
      }
      if (c->wait_kind == PARC_WAIT_SYNC && !parc_bar_queued(c)) {
        /* Released by its barrier, not yet run: it takes itself out of the
         * registry when it runs, and unwinds at its next poll. */
        parc_spin_unlock(c->wait_lock);
        continue;
      }
      if (c->wait_kind == PARC_WAIT_SYNC)
        parc_bar_cancel_locked(c->wait_obj, c);
      else
        parc_sem_cancel_locked(c->wait_obj, c);
      c->wake_killed = 1;
      parc_unregister_blocked_locked(c); /* c->reg == q */
      parc_spin_unlock(c->wait_lock);
      c->next = wake;
      wake = c;
    }
    parc_spin_unlock(&q->blocked_lock);
    if (wake)
      parc_ready_list(wake);
  }
}

static void post_kill(parc_drt *d) {
  int zero = 0;
  /* Step 1.  acq_rel: exactly one poster per descriptor proceeds. */
  if (!__atomic_compare_exchange_n(&d->killflag, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return;
  if (PARC_UNLIKELY(parc_rt.stats))
    PARC_STAT_ADD(parc_self(), kill_posts, 1);
  /* Step 2.  seq_cst: before anything of this kill can be seen. */
  __atomic_fetch_add(&parc_kill_pending_, 1, __ATOMIC_SEQ_CST);
  __atomic_fetch_add(&posting, 1, __ATOMIC_SEQ_CST);
  /* Step 3. */
  if (d->coded && parc_rt.kill_mode != PARC_KILL_BOTTOMUP) {
    parc_spin_lock(&kill_lock);
    for (int i = 0; i < PARC_MAX_RANGE_KILLS; i++) {
      if (!ranges[i].used) {
        ranges[i].lo = d->lo + 1;
        ranges[i].hi = d->lo + d->count * d->w;
        ranges[i].used = 1;
        nranges++;
        d->range_slot = i;
        break;
      }
    }
    parc_spin_unlock(&kill_lock);
    if (d->range_slot < 0) /* table full: checkers walk all flags meanwhile */
      __atomic_fetch_add(&unranged, 1, __ATOMIC_SEQ_CST);
  }
  /* release: the flag, once seen, carries step 2 and the record with it. */
  __atomic_store_n(&d->killflag, 2, __ATOMIC_RELEASE);
  if (PARC_UNLIKELY(parc_rt.trace))
    parc_trace_kill(d); /* PARC_TRACE: one kill event per posted kill */
  /* Step 4.  seq_cst: the epoch bump follows the record. */
  __atomic_fetch_add(&kill_epoch, 1, __ATOMIC_SEQ_CST);
  /* Step 5.  seq_cst: caches may be trusted again (under the new epoch). */
  __atomic_fetch_sub(&posting, 1, __ATOMIC_SEQ_CST);
  deliver();
}

void parc_kill_done(parc_drt *d) {
  if (d->range_slot >= 0) {
    parc_spin_lock(&kill_lock);
    ranges[d->range_slot].used = 0;
    nranges--;
    parc_spin_unlock(&kill_lock);
    d->range_slot = -1;
  } else if (d->coded && parc_rt.kill_mode != PARC_KILL_BOTTOMUP) {
    /* seq_cst: this kill no longer needs full walks (its victims stopped). */
    __atomic_fetch_sub(&unranged, 1, __ATOMIC_SEQ_CST);
  }
  /* seq_cst: after the record is gone; the last kill out restores the
   * one-load fast path of parc_poll. */
  __atomic_fetch_sub(&parc_kill_pending_, 1, __ATOMIC_SEQ_CST);
}

_Noreturn void parc_unwind(parc_batch *b) {
  PARC_ASSERT(parc_self()->cur->cur_act == b);
  parc_longjmp(b->jb, 1);
}

static void poll_slow(void);

void parc_poll_slow(void) { poll_slow(); }

void parc_poll_hook_install(void) {
  prev_poll_hook = __atomic_exchange_n(&parc_poll_hook_, poll_slow, __ATOMIC_ACQ_REL);
}

static void poll_slow(void) {
  parc_proc *p = parc_self();
  if (!p) {
    void (*prev)(void) = __atomic_load_n(&prev_poll_hook, __ATOMIC_RELAXED);
    if (prev)
      prev();
    return;
  }
  /* relaxed: a request or kill seen late is one poll later (see parc_help). */
  if (PARC_UNLIKELY(__atomic_load_n(&parc_kill_pending_, __ATOMIC_RELAXED) & PARC_HELP_BIT)) {
    parc_help(p);
    p = parc_self(); /* a yield (parc_help) may have moved us */
  }
  if (!parc_kill_active())
    return;
  parc_batch *b = p->cur->cur_act;
  if (b && parc_victim(b->d))
    parc_unwind(b);
  /* Not a victim, and a kill is under way: if a context is ready on p (a
   * victim woken to stop, or main's, pinned, waiting at epar for its
   * killed activities before its function returns the preturn's value),
   * give way to it, as for an idle processor's help request (processor.c,
   * "Giving way").  Else it would wait for this activity's end, and
   * forever when that end comes only from a kill that it must post next
   * (test/kill/preturn_deep.pc hung so at P = 4 under ASan, 8 runs in 600;
   * test/kill/victim_behind_busy.pc at P = 2, every run). */
  if (!parc_rt.single)
    parc_yield_in_kill();
}

static parc_drt *target_of(parc_act *self, unsigned depth) {
  parc_drt *d = ((parc_batch *)self)->d;
  if (depth == 0)
    depth = 1;
  for (unsigned i = 1; i < depth; i++) {
    PARC_ASSERT(d->parent != NULL);
    d = d->parent->d;
  }
  return d;
}

_Noreturn void parc_pbreak(parc_act *self) {
  parc_batch *b = (parc_batch *)self;
  post_kill(b->d);
  b->self_ended = 1;
  parc_unwind(b);
}

int parc_preturn_claim(parc_act *self, unsigned depth) {
  parc_drt *t = target_of(self, depth);
  int zero = 0;
  /* acq_rel CAS: exactly one preturning activity wins the value. */
  return __atomic_compare_exchange_n(&t->preturn_claimed, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE);
}

_Noreturn void parc_preturn(parc_act *self, unsigned depth) {
  parc_batch *b = (parc_batch *)self;
  parc_drt *t = target_of(self, depth);
  /* relaxed: the parent reads it after epar (ordered by termination). */
  __atomic_store_n(&t->preturned, 1, __ATOMIC_RELAXED);
  post_kill(t);
  b->self_ended = 1;
  parc_unwind(b);
}
