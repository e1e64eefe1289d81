/* semaphore.c - counting semaphores (parc_P / parc_V) that park the waiting
 * context instead of its processor.
 *
 * Under the semaphore's spinlock: the value and a FIFO of parked contexts.
 * parc_V hands its unit directly to the oldest waiter (the value is not
 * incremented), so a waiter is never overtaken by a later parc_P.  A blocked
 * parc_P first cuts its batch chain (processor.c), so its batch-mates run in
 * other envelopes: at P = 1 a producer/consumer pair cannot deadlock.
 * parc_P is a poll point on entry only: once it has the unit it returns, so
 * a kill never loses a unit that was handed over.  Both give way to a
 * context pinned to their processor that is ready (parc_P on entry, parc_V
 * on exit: processor.c, "Giving way to pinned contexts").
 */
#include <stdint.h>

#include "internal.h"

typedef struct parc_sem_rt {
  parc_spin lock;
  int value;
  parc_ctx *head, *tail;
} parc_sem_rt;

_Static_assert(sizeof(parc_sem_rt) <= sizeof(parc_sem_t), "parc_sem_rt must fit in parc_sem_t");
_Static_assert(_Alignof(parc_sem_rt) <= _Alignof(parc_sem_t), "parc_sem_rt alignment");

static inline parc_sem_rt *sem_of(parc_sem_t *s) { return (parc_sem_rt *)(void *)s; }

void parc_sem_init(parc_sem_t *s, int value) {
  parc_sem_rt *r = sem_of(s);
  r->lock.v = 0;
  r->value = value;
  r->head = r->tail = NULL;
}

static int try_take(parc_sem_rt *r) {
  if (r->value > 0) {
    r->value--;
    return 1;
  }
  return 0;
}

void parc_P(parc_sem_t *s) {
  parc_sem_rt *r = sem_of(s);
  int single = parc_rt.single;
  if (!single)
    parc_yield_to_pinned();
  parc_poll();
  if (!single)
    parc_spin_lock(&r->lock);
  int ok = try_take(r);
  if (!single)
    parc_spin_unlock(&r->lock);
  if (ok)
    return;
  parc_ensure_started();
  parc_proc *p = parc_self();
  if (PARC_UNLIKELY(!p))
    parc_fatal_foreign(NULL);
  parc_ctx *c = p->cur;
  parc_detach_chain(p, c);
  if (!single)
    parc_spin_lock(&r->lock);
  if (try_take(r)) {
    if (!single)
      parc_spin_unlock(&r->lock);
    return;
  }
  c->next = NULL;
  c->wprev = r->tail;
  if (r->tail)
    r->tail->next = c;
  else
    r->head = c;
  r->tail = c;
  c->wait_kind = PARC_WAIT_SEM;
  c->wait_obj = r;
  c->wait_lock = &r->lock;
  c->wake_killed = 0;
  parc_register_blocked(p, c);
  if (c->cur_act && parc_kill_active() && parc_victim(c->cur_act->d)) {
    /* A kill posted before we registered: its delivery may have missed us. */
    parc_sem_cancel_locked(r, c);
    parc_unregister_blocked(c);
    c->wait_kind = PARC_WAIT_NONE;
    if (!single)
      parc_spin_unlock(&r->lock);
    parc_unwind(c->cur_act);
  }
  parc_park(p, &r->lock);
  if (c->wake_killed)
    parc_unwind(c->cur_act);
}

void parc_V(parc_sem_t *s) {
  parc_sem_rt *r = sem_of(s);
  int single = parc_rt.single;
  if (!single)
    parc_spin_lock(&r->lock);
  parc_ctx *w = r->head;
  if (w) {
    r->head = w->next;
    if (r->head)
      r->head->wprev = NULL;
    else
      r->tail = NULL;
    w->next = NULL;
    parc_unregister_blocked(w);
    w->wait_kind = PARC_WAIT_NONE;
  } else {
    r->value++;
  }
  if (!single)
    parc_spin_unlock(&r->lock);
  if (w)
    parc_ready(w);
  if (!single)
    parc_yield_to_pinned(); /* w, say, if it is pinned to this processor */
}

/* Precondition: c waits on semaphore `sem`, whose lock is held.  Kill
 * delivery: O(1) through the queue's back links (wprev). */
void parc_sem_cancel_locked(void *sem, parc_ctx *c) {
  parc_sem_rt *r = sem;
  if (c->wprev)
    c->wprev->next = c->next;
  else
    r->head = c->next;
  if (c->next)
    c->next->wprev = c->wprev;
  else
    r->tail = c->wprev;
  c->next = c->wprev = NULL;
}
