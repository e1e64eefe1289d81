/* barrier.c - sync: the barrier among the activities of one construct.
 *
 * State in the descriptor, under d->lock: the generation, two arrival
 * counters used alternately by generation parity, and the FIFO of parked
 * waiters of the current generation.  Terminated activities are counted by
 * d->unfinished (descriptor.c), so the release condition of generation g is
 *
 *     arrived[g & 1] == unfinished        (every unfinished activity waits)
 *
 * checked by each arrival and, once a barrier is in use (bar_used), by every
 * termination.  The last arrival readies all waiters at once, batched per
 * processor (parc_ready_list), so `parfor N { sync; }` is O(N): no waiter
 * ever re-checks, unlike MAXI's yield loop (5.4).  The release writes no
 * waiter: a waiter knows it was released by the generation (wait_gen !=
 * bar_gen) and takes itself out of the blocked registry when it runs again,
 * so at P = 1 the whole queue moves to the ready list in O(1), and at P > 1
 * the release reads each waiter once (its target processor).  A walk over
 * a thousand waiters, each on a stack page of its own, cost about as much as
 * resuming them.  Arrivals of generation
 * g+1 can only come after g's release, so the two counters never mix; the
 * second one keeps a late reader of the parity (the release condition
 * checked by a finisher) from seeing a counter being refilled.
 *
 * A killed waiter (kill.c) is taken out of the queue and its arrival undone;
 * it then unwinds and terminates, which counts it as arrived.
 */
#include <string.h>

#include "internal.h"

/* Precondition: d->lock held (or P == 1).  If generation g is complete,
 * move its waiters onto *wake (to be readied after unlocking). */
/* The queue a waiter registered on processor p goes to. */
static inline int bar_queue(const parc_proc *p) {
  return p->id < PARC_BAR_QUEUES ? p->id : PARC_BAR_QUEUES;
}

void parc_bar_check_locked(parc_drt *d, parc_ctx **wake) {
  uint64_t g = d->bar_gen;
  uint64_t a = d->arrived[g & 1];
  /* seq_cst load: pairs with the parent's lock-free seq_cst decrement. */
  if (a == 0 || a != __atomic_load_n(&d->unfinished, __ATOMIC_SEQ_CST))
    return;
  d->arrived[g & 1] = 0;
  d->bar_gen = g + 1; /* releases every queued waiter (parc_bar_queued) */
  if (__atomic_load_n(&d->stackless, __ATOMIC_RELAXED))
    parc_bar_release_frames_locked(d); /* frame.c */
  /* Queue k < PARC_BAR_QUEUES holds contexts that blocked on processor k:
   * pinned ones are pinned to k, the others last ran on k, so k is where
   * parc_ready would put each of them.  Ready it as it is, in O(1). */
  int top = parc_rt.P < PARC_BAR_QUEUES ? parc_rt.P : PARC_BAR_QUEUES;
  for (int k = 0; k < top; k++) {
    parc_ctx *list = d->bq_head[k];
    if (!list)
      continue;
    parc_ready_chain(&parc_rt.procs[k], list, d->bq_tail[k], d->bq_n[k], d->bq_unpinned[k]);
    d->bq_head[k] = d->bq_tail[k] = NULL;
    d->bq_n[k] = d->bq_unpinned[k] = 0;
  }
  parc_ctx *list = d->bq_head[PARC_BAR_QUEUES];
  if (!list)
    return;
  d->bq_head[PARC_BAR_QUEUES] = d->bq_tail[PARC_BAR_QUEUES] = NULL;
  d->bq_n[PARC_BAR_QUEUES] = d->bq_unpinned[PARC_BAR_QUEUES] = 0;
  /* Append to *wake (the caller may hold other waiters). */
  parc_ctx **t = wake;
  while (*t)
    t = &(*t)->next;
  *t = list;
}

/* c is registered as waiting at sync (wait_kind == PARC_WAIT_SYNC) and the
 * caller holds its descriptor's lock: is c still in the queue, rather than
 * released and not yet run? */
int parc_bar_queued(const parc_ctx *c) {
  return c->wait_gen == ((const parc_drt *)c->wait_obj)->bar_gen;
}

/* Precondition: c waits in d's barrier, d->lock held.  Used by kill delivery:
 * O(1) through the queue's back links (wprev), so waking every waiter of a
 * large barrier is linear, not quadratic. */
void parc_bar_cancel_locked(parc_drt *d, parc_ctx *c) {
  int k = bar_queue(c->reg); /* registered where it blocked */
  if (c->wprev)
    c->wprev->next = c->next;
  else
    d->bq_head[k] = c->next;
  if (c->next)
    c->next->wprev = c->wprev;
  else
    d->bq_tail[k] = c->wprev;
  c->next = c->wprev = NULL;
  d->bq_n[k]--;
  d->bq_unpinned[k] -= c->pin < 0;
  d->arrived[d->bar_gen & 1]--;
}

/* An arrival at d's barrier (parc_sync, frame.c's parc_sync_frame): lock d
 * (P > 1), count it, the first one setting up the queues, and check the
 * generation.  Returns 1 if this arrival completed it (d unlocked, the
 * waiters readied: the caller goes on), else 0 with d->lock held. */
int parc_bar_arrive(parc_drt *d) {
  parc_ctx *wake = NULL;
  if (!parc_rt.single)
    parc_spin_lock(&d->lock);
  uint64_t gen = d->bar_gen;
  parc_bar_use_locked(d);
  d->arrived[gen & 1]++;
  parc_bar_check_locked(d, &wake);
  if (d->bar_gen == gen)
    return 0;
  /* We were the last arrival; we are not in a queue (we never queued).
   * The queues may be empty: every sibling but us has terminated. */
  if (!parc_rt.single)
    parc_spin_unlock(&d->lock);
  if (wake)
    parc_ready_list(wake);
  return 1;
}

/* d->lock held, before an arrival is counted: the first one sets up the
 * queues, and every one marks the barrier used. */
void parc_bar_use_locked(parc_drt *d) {
  /* seq_cst store, then parc_bar_check_locked's seq_cst load of unfinished:
   * the Dekker pair with the parent's lock-free termination (descriptor.c). */
  if (!__atomic_load_n(&d->bar_used, __ATOMIC_RELAXED)) { /* the first arrival */
    memset(d->bq_head, 0, sizeof d->bq_head);
    memset(d->bq_tail, 0, sizeof d->bq_tail);
    memset(d->bq_n, 0, sizeof d->bq_n);
    memset(d->bq_unpinned, 0, sizeof d->bq_unpinned);
    memset(d->sq_head, 0, sizeof d->sq_head);
    memset(d->sq_tail, 0, sizeof d->sq_tail);
    memset(d->sq_n, 0, sizeof d->sq_n);
  }
  __atomic_store_n(&d->bar_used, 1, __ATOMIC_SEQ_CST);
}

void parc_sync(parc_act *self, const parc_wait_site *site) {
  parc_batch *b = (parc_batch *)self;
  parc_drt *d = b->d;
  parc_poll();
  if (d->count == 1)
    return; /* no sibling to wait for */
  parc_proc *p = parc_self();
  parc_ctx *c = p->cur;
  PARC_ASSERT(c->cur_act == b);
  /* Account terminated batch-mates and hand our unstarted ones to a rep:
   * they must reach the barrier (or terminate) without us. */
  parc_detach_chain(p, c);
  int single = parc_rt.single;
  if (parc_bar_arrive(d)) {
    if (PARC_UNLIKELY(parc_rt.sched_random))
      parc_random_yield(); /* let those it released go first */
    parc_poll();
    return;
  }
  uint64_t gen = d->bar_gen;
  int k = bar_queue(p);
  c->next = NULL;
  c->wprev = d->bq_tail[k];
  if (d->bq_tail[k])
    d->bq_tail[k]->next = c;
  else
    d->bq_head[k] = c;
  d->bq_tail[k] = c;
  d->bq_n[k]++;
  d->bq_unpinned[k] += c->pin < 0;
  c->wait_gen = gen;
  c->wait_site = site;
  parc_register_blocked(p, c, PARC_WAIT_SYNC, d, &d->lock);
  if (parc_kill_active() && parc_victim(d)) {
    /* A kill posted before we registered: its delivery may have missed us. */
    parc_bar_cancel_locked(d, c);
    parc_unregister_blocked(c);
    if (!single)
      parc_spin_unlock(&d->lock);
    parc_unwind(b);
  }
  parc_park(p, &d->lock);
  if (c->reg) { /* released by the barrier (a kill would have taken it out) */
    parc_unregister_blocked(c);
  }
  if (c->wake_killed)
    parc_unwind(b);
  parc_poll();
}
