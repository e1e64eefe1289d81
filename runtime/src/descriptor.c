/* descriptor.c - spawning: descriptor set-up, claiming shares, running
 * batches, termination accounting and the parent's wait at epar.
 *
 * Protocols (the essay at the top of processor.c gives the whole picture):
 *
 * Spawn (P > 1).  While no processor is idle, d stays private (lazy
 * publication, docs/design.md "Fine-grain fast path"): the parent claims
 * every activity with a plain store and runs them in one batch, as at
 * P == 1, and the construct makes no atomic RMW.  When a processor turns
 * hungry later (at a spawn or poll of the parent's context, or before it
 * blocks: parc_publish_chain), the batch keeps the first share, or what it
 * has started if that is more, gives back the rest and d is published.
 * Otherwise the parent claims its first share with a plain store, then
 * pushes d on its processor's list under the list lock (that unlock is the
 * release that publishes every field of d to thieves, who scan under the
 * same lock).  Later claims of a published d are made under
 * the same lock (parent_claim), which also unlinks d with the last share: a
 * published 2-section parblock costs two atomic read-modify-writes.  P == 1:
 * one share of everything, d is never published, no atomic RMW at all.
 *
 * Claim.  d->claimed is the next unclaimed index; a claim advances it by
 * n = ceil((count - c) / P) (guided self-scheduling, MAXI 5.2), or by 1
 * for a parblock's sections (parc_share, internal.h).  An lparfor's
 * chunks are claimed one at a time by affinity instead (affine_claim):
 * d->claimed then counts them and d->taken says which.  Every
 * claim at P > 1 is made under d->home->lock (thieves and get_work find d on
 * that list under it; the parent takes it in parent_claim), so plain loads
 * and stores suffice; they are relaxed atomics only because the idle
 * processors' locked re-check reads them too.  The claimer that makes
 * claimed == count unlinks d in the same critical section, so a listed
 * descriptor always has something left to claim but for that instant.  When
 * a kill is under way and d is a victim, a claimer takes everything left;
 * the batch then accounts it as killed without running it (an affine
 * lparfor's claimer takes one chunk at a time, each accounted so).

 * Termination.  d->unfinished counts activities not yet accounted as
 * terminated (killed or never started included).  A batch accounts its
 * activities when it ends, or its terminated prefix when its current
 * activity blocks (parc_account_prefix), so that siblings waiting at a
 * barrier see them.
 *   - Non-parent finishers: lock d; unfinished -= n; if it reached 0, take
 *     the parked parent out of d->waiter; check the barrier; unlock; then
 *     ready the parent.  Nothing in d is touched after the unlock.
 *   - The parent's own inline batches defer their count (batch.deferred)
 *     until the parent blocks, waits at epar, or sees bar_used set: until
 *     then it is itself running activities of d, so nobody can need the
 *     count sooner.  The flush is unfinished -= n with a seq_cst RMW and no
 *     lock (the parent never waits on itself), then a seq_cst load of
 *     bar_used: if a barrier is in use, lock d and check it (the Dekker pair
 *     with parc_sync's seq_cst store of bar_used and load of unfinished).
 *   - The parent at epar: if it accounted all `count` activities itself,
 *     nobody else touched d and it leaves at once (no flush needed either).
 *     Otherwise it flushes, locks d; if unfinished == 0 it unlocks and
 *     leaves (the lock orders it after every finisher's unlock); else it
 *     stores itself in d->waiter and parks with d->lock released by the
 *     scheduler after the switch.
 * At P == 1 the same steps run with plain loads and stores and no locks;
 * the parent's deferral is what lets a construct whose activities all ran
 * inline (every one at P == 1 unless one blocks) end without touching
 * `unfinished` at all.
 */
#include <string.h>

#include "internal.h"

/* An unmapped lparfor's chunks at P > 1 (d->affine: at most 64 of them):
 * processor k claims chunk k while nobody has, where OpenMP's static
 * schedule would run it, and otherwise the lowest unclaimed chunk, so
 * that a processor that comes late, or is busy elsewhere, is made up for
 * by one that came early.  A loop of lparfors over the same data (the
 * sweeps of a stencil) so finds each chunk's part in the cache of the
 * processor that ran it in the sweep before: at P = 16 on a 16-core Xeon
 * (docs/performance.md, "lparfor chunk affinity and W12") repeated sweeps
 * over 80 MB took 0.75-1.1 ms when the chunks went to the processors in
 * the order they came, 0.54-0.67 ms as a mapped lparfor (chunk k on
 * processor k).  Called where a claim is (see "Claim"), with something
 * left to claim; one chunk per claim, as parc_share gives an lparfor
 * anyway (count <= P), a kill's victim's too (each chunk is then
 * accounted as killed without running). */
static uint64_t affine_claim(parc_drt *d, uint64_t *lo) {
  uint64_t all = d->count == 64 ? ~0ULL : (1ULL << d->count) - 1;
  uint64_t left = all & ~d->taken, k = (uint64_t)parc_self()->id;
  if (k >= d->count || !(left >> k & 1))
    k = (uint64_t)__builtin_ctzll(left);
  d->taken |= 1ULL << k;
  /* relaxed: see "Claim" (the idle processors' re-check reads it). */
  __atomic_store_n(&d->claimed, __atomic_load_n(&d->claimed, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
  *lo = k;
  return 1;
}

/* After an affine lparfor is published: wake the owners of its other
 * chunks that sleep, all at once as a mapped lparfor's are (the claims
 * would wake them one after the other, each thief the next: at P = 16 on
 * a 16-core Xeon with every processor asleep the last chunk started
 * 330-370 us after the construct, now 36-87 us; a mapped one's 37-57). */
static void wake_owners(const parc_drt *d, uint64_t own) {
  /* seq_cst: as parc_wake_any's; d was pushed under a list lock. */
  if (!__atomic_load_n(&parc_rt.nsleeping, __ATOMIC_SEQ_CST))
    return;
  for (uint64_t k = 0; k < d->count; k++)
    if (k != own)
      parc_wake_proc(&parc_rt.procs[k]);
}

/* The parent's claims after its first share (P > 1).  Every other claimer
 * (thieves, the home processor's get_work) claims with d->home->lock held, so
 * under that lock the parent can claim with a plain load and store, and
 * unlink d in the same critical section when it takes the last share: one
 * atomic RMW (the lock) instead of a CAS plus a lock. */
static uint64_t parent_claim(parc_drt *d, uint64_t *lo) {
  uint64_t count = d->count;
  /* relaxed: claimed only grows; seeing count means nothing is left. */
  if (__atomic_load_n(&d->claimed, __ATOMIC_RELAXED) >= count)
    return 0;
  int all = parc_kill_active() && parc_victim(d);
  uint64_t n = 0;
  parc_proc *h = d->home;
  parc_spin_lock(&h->lock);
  uint64_t c = __atomic_load_n(&d->claimed, __ATOMIC_RELAXED);
  uint64_t rem = count - c;
  if (rem) {
    if (d->affine) {
      n = affine_claim(d, lo);
    } else {
      n = all ? rem : parc_share(d, rem);
      /* relaxed store under the lock: every claimer holds it (see "Claim"). */
      __atomic_store_n(&d->claimed, c + n, __ATOMIC_RELAXED);
      *lo = c;
    }
    if (rem == n)
      parc_unlink_desc(d, 1);
  }
  parc_spin_unlock(&h->lock);
  return n;
}

/* Lazy publication (P > 1, see "Spawn"): keep d's unclaimed activities off
 * the lists while no processor is looking for work.  Not for lparfor (its
 * chunks are long by design), nor when stepping (PARC_TRACE, PARC_SCHED=random
 * vary and record the order of every activity). */
static inline int lazy_ok(const parc_drt *d) {
  return !parc_hungry() && !parc_rt.step && !(d->site && (d->site->kind & PARC_KIND_MASK) == PARC_KIND_LPARFOR);
}

static void desc_init(parc_drt *d, parc_site *site, parc_body_fn fn, void *env, uint64_t count,
                      parc_batch *parent) {
  d->fn = fn;
  d->env = env;
  d->site = site;
  d->count = count;
  d->parent = parent;
  d->mapped = 0;
  d->preturned = 0;
  d->listed = 0;
  d->priv = 0;
  d->stackless = 0;
  d->claimed = 0;
  d->unfinished = count;
  d->lock.v = 0;
  d->waiter = NULL;
  d->bar_used = 0;
  d->bar_gen = 0;
  d->arrived[0] = d->arrived[1] = 0;
  d->killflag = 0;
  d->preturn_claimed = 0;
  d->dead = 0;
  d->checked_epoch = 0;
  d->range_slot = -1;
  d->kx = NULL;
  d->taken = 0;
  d->affine = !parc_rt.single && count <= 64 && (site->kind & PARC_KIND_MASK) == PARC_KIND_LPARFOR;
  d->fenv = PARC_FPCTL && (site->kind & PARC_KIND_FENV);
  if (PARC_UNLIKELY(d->fenv))
    d->fpctl = parc_fpctl_get();
  parc_spawn_range(d, parent, count);
  if (PARC_UNLIKELY(parc_rt.observe))
    d->exec = parc_stats_site(site, count);
}

/* Precondition (P > 1): d->home->lock held (get_work's take_local and steal
 * find d on that list under it). */
uint64_t parc_claim(parc_drt *d, uint64_t *lo) {
  uint64_t count = d->count;
  if (parc_rt.single) {
    uint64_t c = d->claimed;
    if (c >= count)
      return 0;
    d->claimed = count;
    *lo = c;
    return count - c;
  }
  /* relaxed: the home lock orders all claims (see "Claim"). */
  uint64_t c = __atomic_load_n(&d->claimed, __ATOMIC_RELAXED);
  uint64_t rem = count - c;
  if (rem == 0)
    return 0;
  if (d->affine)
    return affine_claim(d, lo);
  uint64_t n = parc_kill_active() && parc_victim(d) ? rem : parc_share(d, rem);
  __atomic_store_n(&d->claimed, c + n, __ATOMIC_RELAXED);
  *lo = c;
  return n;
}

void parc_finish(parc_drt *d, uint64_t n, int is_parent) {
  parc_ctx *wake = NULL, *w = NULL;
  if (n == 0)
    return;
  if (parc_rt.single) {
    d->unfinished -= n;
    if (d->bar_used)
      parc_bar_check_locked(d, &wake);
    if (d->unfinished == 0 && d->waiter) {
      w = d->waiter;
      d->waiter = NULL;
    }
  } else if (is_parent) {
    /* seq_cst RMW then seq_cst load: the Dekker pair with parc_sync. */
    __atomic_fetch_sub(&d->unfinished, n, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&d->bar_used, __ATOMIC_SEQ_CST)) { /* ... its second half */
      parc_spin_lock(&d->lock);
      parc_bar_check_locked(d, &wake);
      parc_spin_unlock(&d->lock);
    }
  } else {
    parc_spin_lock(&d->lock);
    /* seq_cst: read without the lock by parc_sync's barrier check pairing
     * (see above) and by the parent's epar fast check. */
    if (__atomic_sub_fetch(&d->unfinished, n, __ATOMIC_SEQ_CST) == 0 && d->waiter) {
      w = d->waiter;
      d->waiter = NULL;
    }
    if (d->bar_used)
      parc_bar_check_locked(d, &wake);
    parc_spin_unlock(&d->lock);
    /* From here on d may be gone (the parent may leave): touch only w. */
  }
  if (wake)
    parc_ready_list(wake);
  if (w)
    parc_ready(w);
}

/* The parent's own batches defer their accounting (see "Termination"): the
 * count is subtracted when the parent blocks or waits at epar, or at once
 * when a barrier is in use.  Nobody else can need it earlier: until then the
 * parent is running activities of the same construct. */
static void flush_deferred(parc_batch *b) {
  uint64_t n = b->deferred;
  if (n) {
    b->deferred = 0;
    parc_finish(b->d, n, 1);
  }
}

static inline __attribute__((always_inline)) void account(parc_batch *b, uint64_t n) {
  if (b->is_parent) {
    b->deferred += n;
    /* relaxed: a stale 0 only defers the flush to the next batch end,
     * block or epar (flush_deferred does the seq_cst handshake). */
    if (__atomic_load_n(&b->d->bar_used, __ATOMIC_RELAXED))
      flush_deferred(b);
  } else {
    parc_finish(b->d, n, b->is_parent);
  }
}

void parc_account_prefix(parc_batch *b) {
  /* The suspended ones among them are unfinished (frame.c). */
  uint64_t n = b->act.cur - b->start;
  b->start = b->act.cur;
  if (b->framed) {
    n -= b->susp;
    b->susp_prior += b->susp; /* for the statistics (framed_batch_end) */
    b->susp = 0;
  }
  if (b->is_parent) {
    b->deferred += n;
    flush_deferred(b);
  } else if (n) {
    parc_finish(b->d, n, 0);
  }
}

/* A batch of d's activities [lo, hi), run inside `outer` on the same
 * context (NULL: an envelope's own batch); is_parent: run by d's parent. */
void parc_batch_init(parc_batch *b, parc_drt *d, parc_batch *outer, int is_parent, uint64_t lo,
                     uint64_t hi) {
  b->d = d;
  b->outer = outer;
  b->act.next = b->act.cur = b->start = b->first = lo;
  b->act.end = hi;
  b->act.total = d->count;
  b->is_parent = is_parent;
  b->self_ended = 0;
  b->deferred = 0;
  b->framed = 0; /* the frame fields are set by parc_next_frame (frame.c) */
  b->dry = 0;
}

/* pthread_exit() or a cancellation unwinding a processor's thread out of an
 * activity.  The thread belongs to the runtime: with it gone, its envelopes,
 * its local list and the construct's count of running activities are lost
 * and the program hung at its next epar (P >= 2).  The unwinding runs the
 * cleanup of parc_run_batch's `live` (descriptor.c is compiled with
 * -fexceptions, CMakeLists.txt), which ends the program with an error in
 * its place.  On the normal path `live` is NULL where its scope ends, so
 * the compiler drops the check: only the unwinding's landing pad has it. */
static void body_unwound(parc_batch *const *live) {
  if (PARC_LIKELY(!*live))
    return;
  const parc_site *site = (*live)->d->site;
  parc_fatal_site(site, "pthread_exit() or a cancellation ended the thread of processor %d "
                        "inside an activity of this %s; an activity ends by reaching its "
                        "end, pbreak or preturn, and exit() ends the program",
                  parc_self()->id, site ? parc_kind_word(site->kind) : "construct");
}

/* Run batch b on context c and account all of it.  The setjmp is the
 * landing point of a kill (kill.c): the activities [cur, end) were killed
 * (less the current one if it ended itself by pbreak/preturn). */
static __attribute__((noinline)) uint64_t run_body(parc_batch *b) {
  /* Nothing local lives across the setjmp: all state is in *b. */
  if (parc_setjmp(b->jb) == 0) {
    if (PARC_LIKELY(!parc_rt.step))
      b->d->fn(&b->act, b->d->env);
    else
      parc_step_run(b); /* one activity per call: PARC_TRACE, PARC_SCHED (sched.c) */
    return 0;
  }
  if (PARC_UNLIKELY(parc_rt.step))
    parc_step_landing(b);
  uint64_t killed = b->act.end - b->act.cur - (uint64_t)b->self_ended;
  b->self_ended = 0;
  b->act.next = b->act.end;
  return killed;
}

/* run_body for a construct written where FENV_ACCESS is on: its activities
 * run under the modes its parent had at the construct, and this context
 * gets its own back after them (it may be an envelope that goes on to
 * another construct's activities, which expect the modes they had).  A
 * context that blocks and resumes keeps its modes: parc_ctx_swap_ saves
 * and restores them with the registers. */
static __attribute__((noinline)) uint64_t run_body_fenv(parc_batch *b) {
  uint64_t own = parc_fpctl_get(), killed;
  if (own != b->d->fpctl)
    parc_fpctl_set(b->d->fpctl);
  {
    parc_batch *live __attribute__((cleanup(body_unwound))) = b;
    killed = run_body(b);
    live = NULL;
  }
  if (parc_fpctl_get() != own)
    parc_fpctl_set(own);
  return killed;
}

/* The end of a batch of a body that runs its activities in frames
 * (frame.c): out of line, so that the registers it needs are not saved
 * and restored by every other batch (fib: 10% at P = 1 when inline). */
static __attribute__((noinline)) void framed_batch_end(parc_ctx *c, parc_batch *b,
                                                        uint64_t killed) {
  parc_drt *d = b->d;
  parc_proc *p = parc_self();
  /* The activities that ended here: not the killed ones, nor the ones
   * that wait at sync, which are counted when they end, resumed (a kill
   * may end them then: reference.md's `activities` leaves those out). */
  PARC_STAT_ADD(p, activities, b->act.end - b->first - killed - b->susp - b->susp_prior);
  b->susp_prior = 0; /* the parent's batch runs its next share with it */
  if (killed) {
    PARC_STAT_ADD(p, killed, killed);
    if (parc_rt.stats)
      parc_stats_killed(d->site, killed);
  }
  uint64_t n = b->act.end - b->start - b->susp;
  b->start = b->act.end;
  b->susp = 0;
  if (b->fr) { /* its last activity's frame */
    parc_frame_free(p, b->fr);
    b->fr = NULL;
  }
  if (b->sq_n) { /* its activities that wait at sync arrive */
    if (b->resumed)
      parc_frames_defer(c, b); /* with the context's next resumed ones */
    else
      parc_frames_publish(b);
  }
  if (b->resumed && n) {
    /* A resumed activity that ended: accounted with the context's next
     * ones of the same construct. */
    if (c->rpend_d != d)
      parc_resumed_flush(c);
    c->rpend_d = d;
    c->rpend_n += n;
    return;
  }
  account(b, n);
}

void parc_run_batch(parc_ctx *c, parc_batch *b) {
  parc_drt *d = b->d;
  uint64_t killed;
  if (PARC_UNLIKELY(parc_kill_active()) && parc_victim(d)) {
    killed = b->act.end - b->act.next;
    b->act.next = b->act.end;
  } else if (PARC_UNLIKELY(d->fenv)) {
    killed = run_body_fenv(b);
  } else {
    parc_batch *live __attribute__((cleanup(body_unwound))) = b;
    killed = run_body(b);
    live = NULL;
  }
  if (PARC_UNLIKELY(c->sem_held_b == b))
    c->sem_held = NULL; /* its activities have ended; b's place is reused */
  if (PARC_UNLIKELY(b->framed)) {
    framed_batch_end(c, b, killed);
    return;
  }
  parc_proc *p = parc_self(); /* re-read: the batch may have moved */
  PARC_STAT_ADD(p, activities, b->act.end - b->first - killed);
  if (PARC_UNLIKELY(killed)) {
    PARC_STAT_ADD(p, killed, killed);
    if (parc_rt.stats)
      parc_stats_killed(d->site, killed);
  }
  uint64_t n = b->act.end - b->start;
  b->start = b->act.end;
  account(b, n);
}

/* The parent waits at epar until every activity of d has been accounted.
 * mine: how many of them the parent accounted itself. */
static void wait_children(parc_ctx *c, parc_drt *d, uint64_t mine) {
  if (mine == d->count)
    return; /* nobody else touched d */
  parc_proc *p = parc_self();
  if (parc_rt.single) {
    if (d->unfinished == 0)
      return;
    parc_detach_chain(p, c);
    d->waiter = c;
    parc_park(p, NULL);
    return;
  }
  /* acquire: cheap pre-check; the decision is re-made under the lock. */
  if (__atomic_load_n(&d->unfinished, __ATOMIC_ACQUIRE) != 0)
    parc_detach_chain(p, c); /* don't hold back our own siblings while waiting */
  parc_spin_lock(&d->lock);
  if (__atomic_load_n(&d->unfinished, __ATOMIC_RELAXED) == 0) {
    parc_spin_unlock(&d->lock);
    return;
  }
  d->waiter = c;
  parc_park(parc_self(), &d->lock);
  /* Readied by the last finisher after it released d->lock. */
}

/* Run d's activities inline on the parent's context, then wait for the rest.
 * P == 1, or P > 1 while nobody is idle: one batch of everything, nothing
 * published (at P > 1 unless a processor turns hungry meanwhile:
 * parc_publish_chain trims the batch and publishes d).  Otherwise the first
 * share is claimed with a plain store before d is published (nobody else can
 * see d yet).  Later shares come from parent_claim. */
static void spawn_body(parc_ctx *c, parc_drt *d, parc_batch *parent) {
  parc_batch b;
  uint64_t count = d->count, mine = 0, lo = 0, n;
  parc_batch_init(&b, d, parent, 1, 0, 0);
  c->cur_act = &b;
  if (d->affine) {
    n = affine_claim(d, &lo); /* nobody else sees d yet */
  } else {
    n = parc_rt.single ? count : parc_share(d, count);
    if (n < count && lazy_ok(d)) {
      /* Nobody looks for work: one batch of everything, as at P == 1.  d
       * stays private; if a processor turns hungry, parc_publish_chain cuts
       * this batch to the first share (or to what it has started), gives
       * the rest back to d and publishes it, and we claim on from there. */
      n = count;
      d->priv = 1;
      c->npriv++;
    }
    d->claimed = n;
  }
  if (n < count) {
    parc_publish_chain(c->last, c, 0); /* outer private ones first (oldest) */
    parc_push_desc(d->home, d);
    if (d->affine)
      wake_owners(d, lo);
  }
  do {
    b.act.next = b.act.cur = b.start = b.first = lo;
    b.act.end = lo + n;
    parc_run_batch(c, &b);
    mine += b.act.end - b.first; /* end may have been cut when an activity blocked */
    if (mine == count)
      break;
    if (parc_rt.single)
      n = parc_claim(d, &lo);
    else
      n = parent_claim(d, &lo); /* d was published meanwhile, if it was private */
    b.dry = 0; /* the share just claimed (split_running) */
  } while (n);
  if (PARC_UNLIKELY(d->priv)) { /* nobody asked: we ran all of it */
    d->priv = 0;
    c->npriv--;
  }
  c->cur_act = parent;
  /* An activity that suspended at a stackless sync (frame.c; we set the
   * flag ourselves when it was one of ours) is unfinished though we ran
   * it: then d is shared with its resumers. */
  if (PARC_UNLIKELY(b.framed) && __atomic_load_n(&d->stackless, __ATOMIC_RELAXED))
    mine = 0;
  if (mine != count) {
    flush_deferred(&b);
    wait_children(c, d, mine);
  }
}

/* Before parc_ensure_started: the runtime starts on main's thread, never on
 * one of the program's own that is about to be refused. */
static inline parc_ctx *current_ctx(const parc_site *site) {
  parc_proc *p = parc_self();
  if (PARC_UNLIKELY(!p) && !(p = parc_main_proc()))
    parc_fatal_foreign(site, NULL);
  return p->cur;
}

/* Before a construct from context c: if it is main's own code's (main's
 * context, no batch on it), its activities run with main's signal mask
 * (processor.c, "Signal masks"); at P = 1 they run on main's thread. */
static inline void root_sigmask(const parc_ctx *c) {
  if (!c->cur_act && !parc_rt.single && c == parc_root_ctx())
    parc_sigmask_publish();
}

/* A construct of main's own code begins (delta 1) or ends (-1): parent is
 * the batch of the activity it is written in, NULL in main's own code
 * (parc_runtime.root_busy).  relaxed: a sleeper that misses the begin is
 * woken by the construct's publication, as before. */
static inline void root_busy(parc_batch *parent, int delta) {
  if (!parent)
    __atomic_add_fetch(&parc_rt.root_busy, delta, __ATOMIC_RELAXED);
}

void parc_spawn(parc_desc *pd, parc_site *site, parc_body_fn fn, void *env, uint64_t count) {
  parc_drt *d = parc_drt_of(pd);
  if (count == 0) {
    d->preturned = 0;
    return;
  }
  parc_ctx *c = current_ctx(site);
  root_sigmask(c);
  parc_ensure_started();
  parc_batch *parent = c->cur_act;
  desc_init(d, site, fn, env, count, parent);
  d->home = c->last;
  root_busy(parent, 1);
  spawn_body(c, d, parent);
  root_busy(parent, -1);
  if (PARC_UNLIKELY(d->killflag))
    parc_kill_done(d);
  if (PARC_UNLIKELY(d->kx))
    parc_kill_unindex(d);
  parc_poll(); /* epar is a poll point */
}

void parc_spawn_lparfor(parc_desc *pd, parc_site *site, parc_body_fn fn, void *env,
                        uint64_t niter, int mapped) {
  parc_drt *d = parc_drt_of(pd);
  if (niter == 0) {
    d->preturned = 0;
    return;
  }
  uint64_t total = niter < (uint64_t)parc_rt.P ? niter : (uint64_t)parc_rt.P;
  if (!mapped || parc_rt.single) {
    parc_spawn(pd, site, fn, env, total);
    return;
  }
  parc_ctx *c = current_ctx(site);
  root_sigmask(c);
  parc_ensure_started();
  parc_batch *parent = c->cur_act;
  desc_init(d, site, fn, env, total, parent);
  root_busy(parent, 1);
  d->mapped = 1;
  d->claimed = total; /* never claimed: chunk k is posted to processor k */
  parc_proc *p = c->last;
  d->home = p;
  int q = p->id;
  int mine_chunk = (uint64_t)q < total;
  parc_post_mapped(d, mine_chunk ? q : -1);
  uint64_t mine = 0;
  if (mine_chunk) {
    parc_batch b;
    parc_batch_init(&b, d, parent, 1, (uint64_t)q, (uint64_t)q + 1);
    int old_pin = c->pin;
    c->pin = q; /* chunk q stays on processor q even if it blocks */
    c->cur_act = &b;
    parc_run_batch(c, &b);
    c->cur_act = parent;
    c->pin = old_pin;
    mine = b.act.end - b.first;
    flush_deferred(&b);
  }
  wait_children(c, d, mine);
  root_busy(parent, -1);
  if (PARC_UNLIKELY(d->killflag))
    parc_kill_done(d);
  if (PARC_UNLIKELY(d->kx))
    parc_kill_unindex(d);
  parc_poll();
}

/* An envelope: runs the job it is given, returns itself to the pool of the
 * processor it ends on, and waits there to be reused. */
void parc_env_main(parc_ctx *self) {
  for (;;) {
    parc_batch b;
    parc_job *j = &self->job;
    if (!j->d) { /* resume mode: activities released from stackless syncs */
      parc_run_resumed(self);
      parc_proc *p = parc_self();
      p->after = PARC_AFTER_POOL;
      p->after_arg = self;
      parc_ctx_switch(p, self, p->sched);
      continue;
    }
    parc_batch_init(&b, j->d, NULL, 0, j->lo, j->hi);
    self->cur_act = &b;
    parc_run_batch(self, &b);
    self->cur_act = NULL;
    parc_proc *p = parc_self();
    p->after = PARC_AFTER_POOL;
    p->after_arg = self;
    parc_ctx_switch(p, self, p->sched);
  }
}

int parc_preturned(const parc_desc *pd) {
  const parc_drt *d = (const parc_drt *)(const void *)pd;
  /* relaxed: the parent reads it after epar, which orders it after every
   * activity of the construct (see "Termination"). */
  return __atomic_load_n(&d->preturned, __ATOMIC_RELAXED);
}
