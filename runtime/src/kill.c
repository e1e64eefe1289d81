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
 * the posted ranges) answers for it and all its ancestors.  PARC_KILL=bottomup
 * codes nothing, so the walk goes to the root.  Results are cached per
 * descriptor: `dead` (victimhood never ends while the descriptor lives) and
 * `checked_epoch` (not a victim as of that kill epoch).
 *
 * Posting a kill of D (exactly once per D: CAS on killflag):
 *   1. CAS killflag 0 -> 1 (acq_rel: only one poster continues);
 *   2. if D is coded, record S(D) in the range table (under kill_lock);
 *   3. kill_epoch += 1 (seq_cst): invalidates every cached "not a victim";
 *   4. parc_kill_pending_ += 1 (seq_cst): polls now take the slow path;
 *   5. deliver: scan every processor's blocked list and wake the victims.
 * A checker reads kill_epoch (acquire) BEFORE it reads flags and ranges, and
 * caches "not a victim" under the epoch it read; a kill whose record it
 * missed bumps the epoch afterwards (step 3 follows step 2), so the cache
 * entry is stale at the next check.  Nothing is ever missed: a poll that
 * still sees pending == 0 ran before the kill was posted.
 *
 * Removal.  D's parent, once every activity of D is accounted (so every
 * victim in the subtree has stopped), frees D's range slot and decrements
 * parc_kill_pending_ (parc_kill_done), before it can spawn again and reuse
 * the same ranges.
 *
 * Delivery to blocked victims.  A context blocked in sync or parc_P is
 * registered in its processor's blocked list while it is queued (registered
 * under the wait object's lock, unregistered by whoever dequeues it under the
 * same lock).  The poster locks a blocked list, and for each victim
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

static uint64_t kill_epoch;   /* atomic; see step 3 */
static parc_spin kill_lock;   /* the range table (leaf lock) */
static int unranged;          /* kills of coded descriptors that found the table full */
static struct {
  uint64_t lo, hi;
  int used;
} ranges[PARC_MAX_RANGE_KILLS];

void parc_spawn_range(parc_drt *d, parc_batch *parent, uint64_t count) {
  uint64_t a, b;
  if (parc_rt.kill_mode == PARC_KILL_BOTTOMUP) {
    d->coded = 0;
    return;
  }
  if (!parent) {
    a = 0;
    b = UINT64_MAX;
  } else {
    parc_drt *pd = parent->d;
    if (!pd->coded) {
      d->coded = 0;
      return;
    }
    uint64_t k = parent->act.cur;
    a = pd->lo + 1 + k * pd->w;
    b = pd->lo + (k + 1) * pd->w;
  }
  /* A 64-bit division costs tens of cycles: shift for the common powers of
   * two (2-section parblocks), same result. */
  uint64_t w = (count & (count - 1)) == 0 ? (b - a) >> __builtin_ctzll(count) : (b - a) / count;
  d->coded = w != 0;
  d->lo = a;
  d->w = w;
}

static int range_killed(const parc_drt *x) {
  uint64_t lo = x->lo + 1, hi = x->lo + x->count * x->w;
  int hit = 0;
  parc_spin_lock(&kill_lock);
  for (int i = 0; i < PARC_MAX_RANGE_KILLS && !hit; i++)
    hit = ranges[i].used && ranges[i].lo <= lo && hi <= ranges[i].hi;
  parc_spin_unlock(&kill_lock);
  return hit;
}

static inline parc_drt *parent_desc(const parc_drt *x) { return x->parent ? x->parent->d : NULL; }

int parc_victim(parc_drt *d) {
  /* acquire: read the epoch before any flag or range (see "Posting"). */
  uint64_t e = __atomic_load_n(&kill_epoch, __ATOMIC_ACQUIRE) + 1;
  /* relaxed cache reads: a stale value only costs a re-walk. */
  if (__atomic_load_n(&d->dead, __ATOMIC_RELAXED))
    return 1;
  if (__atomic_load_n(&d->checked_epoch, __ATOMIC_RELAXED) == e)
    return 0;
  /* acquire: a kill that found the range table full is announced here
   * before its epoch bump, so a checker sees it or re-checks later. */
  int full_walk = __atomic_load_n(&unranged, __ATOMIC_ACQUIRE) != 0;
  int hit = 0;
  for (parc_drt *x = d; x && !hit; x = parent_desc(x)) {
    if (__atomic_load_n(&x->dead, __ATOMIC_RELAXED) ||
        __atomic_load_n(&x->killflag, __ATOMIC_ACQUIRE)) /* acquire: pairs with the poster's CAS */
      hit = 1;
    else if (x != d && __atomic_load_n(&x->checked_epoch, __ATOMIC_RELAXED) == e)
      break; /* x and its ancestors were checked under this epoch */
    else if (x->coded && !full_walk) {
      hit = range_killed(x);
      break;
    }
  }
  if (hit)
    __atomic_store_n(&d->dead, 1, __ATOMIC_RELAXED);
  else
    __atomic_store_n(&d->checked_epoch, e, __ATOMIC_RELAXED);
  return hit;
}

/* Wake every blocked victim (step 5).  See "Delivery" above. */
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
      if (c->wait_kind == PARC_WAIT_SYNC)
        parc_bar_cancel_locked(c->wait_obj, c);
      else
        parc_sem_cancel_locked(c->wait_obj, c);
      c->wait_kind = PARC_WAIT_NONE;
      c->wake_killed = 1;
      if (c->bprev)
        c->bprev->bnext = c->bnext;
      else
        q->blocked = c->bnext;
      if (c->bnext)
        c->bnext->bprev = c->bprev;
      c->bnext = c->bprev = NULL;
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
  /* acq_rel: exactly one poster per descriptor proceeds. */
  if (!__atomic_compare_exchange_n(&d->killflag, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return;
  if (d->coded && parc_rt.kill_mode != PARC_KILL_BOTTOMUP) {
    parc_spin_lock(&kill_lock);
    for (int i = 0; i < PARC_MAX_RANGE_KILLS; i++) {
      if (!ranges[i].used) {
        ranges[i].lo = d->lo + 1;
        ranges[i].hi = d->lo + d->count * d->w;
        ranges[i].used = 1;
        d->range_slot = i;
        break;
      }
    }
    parc_spin_unlock(&kill_lock);
    if (d->range_slot < 0) /* table full: checkers walk all flags meanwhile; */
      __atomic_fetch_add(&unranged, 1, __ATOMIC_SEQ_CST); /* before step 3 */
  }
  if (PARC_UNLIKELY(parc_rt.trace))
    parc_trace_kill(d); /* PARC_TRACE: one kill event per posted kill */
  /* seq_cst: the epoch bump follows the record (step 3 after step 2). */
  __atomic_fetch_add(&kill_epoch, 1, __ATOMIC_SEQ_CST);
  /* seq_cst: from now on polls go to the slow path (step 4). */
  __atomic_fetch_add(&parc_kill_pending_, 1, __ATOMIC_SEQ_CST);
  deliver();
}

void parc_kill_done(parc_drt *d) {
  if (d->range_slot >= 0) {
    parc_spin_lock(&kill_lock);
    ranges[d->range_slot].used = 0;
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

void parc_poll_slow(void) {
  parc_proc *p = parc_self();
  if (!p || !parc_kill_active())
    return;
  parc_batch *b = p->cur->cur_act;
  if (b && parc_victim(b->d))
    parc_unwind(b);
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
