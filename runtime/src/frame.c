/* frame.c - stackless sync: activities that wait at a barrier in a frame of
 * their own instead of on an envelope's stack (parc_abi.h, "Stackless
 * sync"; docs/design.md, "Stackless sync").
 *
 * Why.  An activity that blocks keeps its envelope, so `parfor 1000 {
 * sync; }` needs a thousand stacks: a thousand page-sized stack tops to
 * create, to switch to and back, and to keep in the caches and the TLB,
 * and the time per activity grows with the count.  Filaments (stateless
 * threads) and PACLIB (virtual tasks) avoid stacks for work that has not
 * started; parcc extends that to work that waits: it hoists the locals of
 * a syncing parfor body that live across a sync into a frame, and lowers
 * `sync;` to a return to the body function's loop when the activity must
 * wait.  The frame, a few dozen bytes, is all that the waiting activity
 * keeps; the envelope goes on with the next activity of its batch.
 *
 * Protocol.
 *   Frames.  parc_next_frame gives each activity the batch's frame
 *     (b->fr, state 0); a batch keeps one frame for all the activities that
 *     do not suspend, so a batch that never waits allocates one frame.
 *     Frames come from per-processor free lists by size class, carved from
 *     blocks that are never returned: a frame's address is its identity
 *     while it waits, and the emitted code may hold pointers into it.  A
 *     frame is freed where its activity ends, often another processor
 *     than the one that carved it: a processor keeps about
 *     PARC_FRAME_KEEP free frames of a class, in chains of
 *     PARC_FRAME_MOVE, and gives a chain beyond to the shared pool
 *     (parc_rt.fr_pool), which an empty list takes from before it
 *     carves.  Unbounded lists grew on the processors where frames ended
 *     while the others carved new blocks: a loop of `parfor 1000 { sync;
 *     }` took 1.4 GB after 10^6 rounds at P = 2.
 *   Suspension (parc_sync_frame, no lock).  The frame, with d and the
 *     index, joins the batch's list of suspended frames (b->sq_*), b->fr
 *     is cleared (the next activity takes a fresh frame) and b->susp
 *     counts it: the batch's accounting treats [start, cur) less the
 *     suspended ones as terminated (descriptor.c), since a suspended
 *     activity is unfinished.
 *   Arrival (parc_frames_publish, under d->lock).  When the batch ends
 *     (parc_run_batch, a kill landing included) or blocks
 *     (parc_detach_chain), its suspended frames arrive together: the count
 *     rises by their number and the chain joins the barrier's frame queue
 *     of this processor (d->sq_*), then the generation is checked.  No
 *     release can come sooner: the batch's later activities belong to d and
 *     have neither arrived nor ended, and a batch that blocks publishes
 *     first.  One lock per batch instead of one per activity: at P = 2 the
 *     lock per arrival was most of the cost of `parfor N { sync; }`.
 *   Release (parc_bar_check_locked).  Each per-processor queue moves, in
 *     O(1), onto that processor's resume lists (p->rn_*, ahead of the
 *     chains released before it, under ready_lock; processor.c, "Resume
 *     lists"), and the processor is woken as for readied contexts.
 *   Resumption.  get_work sees the resume lists after its ready contexts
 *     (both are work that was under way; records a context gave back only
 *     after its reps and descriptors: processor.c, "Resume lists") and
 *     runs an envelope in resume mode (parc_job.d == NULL): it takes up to
 *     PARC_RESUME_TAKE records at a time from the processor it runs on
 *     (c->rtake; get_work takes the first ones) and calls the body
 *     function for each with a batch of that one activity, b->fr = the
 *     record and b->resume set, so that parc_next_frame hands back the same
 *     frame and the state selects the code after the sync.  The activity
 *     may suspend again or terminate (the record is freed); either is
 *     accounted with the context's next ones of the same construct
 *     (c->apend_* arrive, c->rpend_n terminate: parc_frames_defer,
 *     parc_resumed_flush), flushed before a record of another construct,
 *     when the context blocks, and when the list is empty.  Or it blocks
 *     on its stack (a
 *     semaphore, a construct of its own): the envelope then returns the
 *     records it took but has not started to the list and parks as for any
 *     activity.  Idle processors steal half of another processor's resume
 *     list.
 *   Kill.  A suspended activity needs no delivery: a kill's range covers
 *     all activities of a construct or none of them (pbreak kills the
 *     other activities of its construct, preturn and the ancestors' kills
 *     whole subtrees), so every sibling of a killed waiter terminates or
 *     arrives, the barrier releases, and the resumed record is accounted
 *     as killed by parc_run_batch's victim check without running.
 *   Stepping (PARC_TRACE, PARC_SCHED=random) keeps every sync on its
 *     stack (parc_sync), so that traces and random schedules see the same
 *     blocking as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

_Static_assert(offsetof(parc_susp, frame) % 16 == 0, "frames are 16-byte aligned");

/* Size classes: record (header + frame) of at most PARC_FRAME_MIN << c
 * bytes; larger ones are malloc'd one by one. */
static inline uint32_t frame_class(size_t total) {
  uint32_t c = 0;
  size_t s = PARC_FRAME_MIN;
  while (s < total) {
    s <<= 1;
    if (++c == PARC_FRAME_CLASSES)
      return PARC_FRAME_BIG;
  }
  return c;
}

/* Free frames of class c on processor p: the list being filled
 * (fr[c].free, fr[c].nfree < PARC_FRAME_MOVE of them) and full chains of
 * PARC_FRAME_MOVE (fr[c].full, linked through their heads' `chain`), at most
 * PARC_FRAME_KEEP frames in all; a chain beyond goes to the shared pool
 * whole, so no list is ever walked but the few chains. */

/* A full chain for p's empty list: its own, or the shared pool's, or NULL. */
static __attribute__((noinline)) parc_susp *chain_take(parc_proc *p, uint32_t c) {
  parc_susp *r = p->fr[c].full;
  if (r) {
    p->fr[c].full = r->chain;
    p->fr[c].nfull--;
    return r;
  }
  if (!__atomic_load_n(&parc_rt.fr_pool[c], __ATOMIC_RELAXED)) /* hint; rechecked */
    return NULL;
  parc_spin_lock(&parc_rt.fr_pool_lock);
  r = parc_rt.fr_pool[c];
  if (r)
    __atomic_store_n(&parc_rt.fr_pool[c], r->chain, __ATOMIC_RELAXED); /* under the lock */
  parc_spin_unlock(&parc_rt.fr_pool_lock);
  return r;
}

/* p's list of class c is full: it becomes a chain, and the oldest chain
 * goes to the shared pool when p holds more than PARC_FRAME_KEEP. */
static __attribute__((noinline)) void chain_close(parc_proc *p, uint32_t c) {
  parc_susp *head = p->fr[c].free;
  head->chain = p->fr[c].full;
  p->fr[c].full = head;
  p->fr[c].free = NULL;
  p->fr[c].nfree = 0;
  if (++p->fr[c].nfull * PARC_FRAME_MOVE <= PARC_FRAME_KEEP)
    return;
  parc_susp **at = &p->fr[c].full;
  while ((*at)->chain)
    at = &(*at)->chain;
  parc_susp *old = *at;
  *at = NULL;
  p->fr[c].nfull--;
  parc_spin_lock(&parc_rt.fr_pool_lock);
  old->chain = parc_rt.fr_pool[c];
  __atomic_store_n(&parc_rt.fr_pool[c], old, __ATOMIC_RELAXED); /* under the lock */
  parc_spin_unlock(&parc_rt.fr_pool_lock);
}

static parc_susp *frame_alloc(parc_proc *p, size_t size) {
  if (size < sizeof(unsigned))
    size = sizeof(unsigned);
  size_t total = offsetof(parc_susp, frame) + size;
  uint32_t c = total > size ? frame_class(total) : PARC_FRAME_BIG;
  parc_susp *r;
  if (PARC_LIKELY(c != PARC_FRAME_BIG)) {
    r = p->fr[c].free;
    if (PARC_LIKELY(r)) {
      p->fr[c].free = r->next;
      p->fr[c].nfree -= !parc_rt.single; /* P = 1: one list, no chains */
      return r;
    }
    if ((r = chain_take(p, c))) {
      p->fr[c].free = r->next;
      p->fr[c].nfree = PARC_FRAME_MOVE - 1;
      return r;
    }
    size_t sz = (size_t)PARC_FRAME_MIN << c;
    if ((size_t)(p->fr_end - p->fr_bump) < sz) {
      /* A new block; the rest of the old one is left unused.  Blocks are
       * never freed; each holds the previous one's address in its first
       * line, so that all stay reachable from p: a leak checker (Valgrind's
       * Memcheck) that saw only frames' addresses, inside the blocks,
       * reported every block "possibly lost". */
      char *blk = aligned_alloc(PARC_CACHELINE, PARC_FRAME_BLOCK);
      if (!blk)
        parc_fatal_oom("frames for activities waiting at sync");
      *(char **)(void *)blk = p->fr_blocks;
      p->fr_blocks = blk;
      p->fr_bump = blk + PARC_CACHELINE;
      p->fr_end = blk + PARC_FRAME_BLOCK;
    }
    r = (parc_susp *)(void *)p->fr_bump;
    p->fr_bump += sz;
  } else {
    if (total < size || !(r = aligned_alloc(PARC_CACHELINE, (total + PARC_CACHELINE - 1) &
                                                                 ~(size_t)(PARC_CACHELINE - 1)))) {
      char what[100];
      snprintf(what, sizeof what, "a frame of %zu bytes for an activity waiting at sync", size);
      parc_fatal_oom(what);
    }
  }
  r->cls = c;
  return r;
}

void parc_frame_free(parc_proc *p, parc_susp *r) {
  if (PARC_UNLIKELY(r->cls == PARC_FRAME_BIG)) {
    free(r);
    return;
  }
  r->next = p->fr[r->cls].free;
  p->fr[r->cls].free = r;
  /* At P = 1 every frame comes back to the one list it came from, which
   * stays as long as the most that ever waited: no count, no chains. */
  if (PARC_UNLIKELY(!parc_rt.single) && PARC_UNLIKELY(++p->fr[r->cls].nfree == PARC_FRAME_MOVE))
    chain_close(p, r->cls);
}

/* Set up the frame fields of batch b (parc_batch.framed): its frame fr,
 * and whether it resumes fr's suspended activity. */
static void frames_begin(parc_batch *b, parc_susp *fr, int resume) {
  b->framed = 1;
  b->fr = fr;
  b->susp = b->susp_prior = 0;
  b->resume = b->resumed = resume;
  b->sq_first = b->sq_last = NULL;
  b->sq_n = 0;
}

void *parc_next_frame(parc_act *self, uint64_t *k, size_t size) {
  parc_batch *b = (parc_batch *)self;
  if (PARC_UNLIKELY(!b->framed)) /* the batch's first activity */
    frames_begin(b, NULL, 0);
  else if (PARC_UNLIKELY(b->resume)) {
    /* A resume batch: its one activity, with the frame it suspended with. */
    b->resume = 0;
    *k = self->cur = self->next++;
    parc_poll();
    return b->fr->frame;
  }
  if (self->next >= self->end)
    return NULL;
  *k = self->cur = self->next++;
  parc_poll();
  parc_susp *r = b->fr;
  if (!r)
    b->fr = r = frame_alloc(parc_self(), size);
  *(unsigned *)(void *)r->frame = 0;
  return r->frame;
}

/* The queue a stackless waiter suspended on processor p goes to, as
 * barrier.c's bar_queue. */
static inline int susp_queue(const parc_proc *p) {
  return p->id < PARC_BAR_QUEUES ? p->id : PARC_BAR_QUEUES;
}

const parc_wait_site *parc_frame_sync_site(const parc_drt *d, const parc_susp *r) {
  const parc_wait_site *const *t = d->site ? d->site->syncs : NULL;
  unsigned state;
  memcpy(&state, r->frame, sizeof state);
  if (!t || state == 0)
    return NULL;
  for (unsigned i = 1; i < state; i++) /* the table ends with NULL */
    if (!t[i])
      return NULL;
  return t[state - 1];
}

int parc_sync_frame(parc_act *self) {
  parc_batch *b = (parc_batch *)self;
  parc_drt *d = b->d;
  if (PARC_UNLIKELY(parc_rt.step)) {
    parc_sync(self, parc_frame_sync_site(d, b->fr)); /* stepping: block on the stack, as
                                                        traces expect */
    return 0;
  }
  parc_poll();
  if (d->count == 1)
    return 0; /* no sibling to wait for */
  /* Suspend: the frame waits in the batch until the batch ends or blocks
   * (parc_frames_publish), which no release could precede: the batch's
   * later activities belong to d and have not arrived. */
  parc_susp *r = b->fr;
  r->d = d;
  r->k = self->cur;
  r->next = NULL;
  if (b->sq_last)
    b->sq_last->next = r;
  else
    b->sq_first = r;
  b->sq_last = r;
  b->sq_n++;
  b->fr = NULL;
  b->susp++;
  /* relaxed: read by the parent at epar and by run_job (hints), and by
   * the barrier's release under d->lock, which parc_frames_publish takes
   * after this store whenever the queues hold a frame. */
  if (!__atomic_load_n(&d->stackless, __ATOMIC_RELAXED))
    __atomic_store_n(&d->stackless, 1, __ATOMIC_RELAXED);
  PARC_STAT_ADD(parc_self(), blocked, 1);
  return 1;
}

/* The frames first..last (n of them, suspended in d's barrier on this
 * processor) arrive at once: one lock, the arrival count raised by n, the
 * chain appended to this processor's frame queue, and the generation
 * checked (which may release them at once). */
static void publish_frames(parc_drt *d, parc_susp *first, parc_susp *last, uint32_t n) {
  parc_proc *p = parc_self();
  int q = susp_queue(p);
  parc_ctx *wake = NULL;
  for (parc_susp *r = first; r; r = r->next)
    r->proc = p->id;
  if (!parc_rt.single)
    parc_spin_lock(&d->lock);
  parc_bar_use_locked(d);
  d->arrived[d->bar_gen & 1] += n;
  if (d->sq_tail[q])
    d->sq_tail[q]->next = first;
  else
    d->sq_head[q] = first;
  d->sq_tail[q] = last;
  d->sq_n[q] += n;
  parc_bar_check_locked(d, &wake);
  if (!parc_rt.single)
    parc_spin_unlock(&d->lock);
  if (wake)
    parc_ready_list(wake);
}

/* The frames suspended in batch b arrive at the barrier at once. */
void parc_frames_publish(parc_batch *b) {
  publish_frames(b->d, b->sq_first, b->sq_last, b->sq_n);
  b->sq_first = b->sq_last = NULL;
  b->sq_n = 0;
}

/* The frames suspended in b, a resumed activity's batch on context c,
 * arrive with the context's next ones of the same construct (flushed as
 * c->rpend_n is: parc_resumed_flush).  Each resumed activity is a batch of
 * its own, and publishing each took d->lock once per activity and phase:
 * at P = 2, 341 activities with a sync in each of 300 steps spent most of
 * their time on that lock, twice as long as at P = 1. */
void parc_frames_defer(parc_ctx *c, parc_batch *b) {
  if (c->rpend_d != b->d)
    parc_resumed_flush(c);
  c->rpend_d = b->d;
  if (c->apend_last)
    c->apend_last->next = b->sq_first;
  else
    c->apend_first = b->sq_first;
  c->apend_last = b->sq_last;
  c->apend_n += b->sq_n;
  b->sq_first = b->sq_last = NULL;
  b->sq_n = 0;
}

/* Arrivals, then terminations, of the resumed activities of c->rpend_d
 * that c ran and has not accounted yet (parc_run_batch, frame.c).  The
 * arrivals first: d may be gone once its last termination is accounted. */
void parc_resumed_flush(parc_ctx *c) {
  parc_drt *d = c->rpend_d;
  if (c->apend_n) {
    parc_susp *first = c->apend_first, *last = c->apend_last;
    uint32_t n = c->apend_n;
    c->apend_first = c->apend_last = NULL;
    c->apend_n = 0;
    publish_frames(d, first, last, n);
  }
  uint64_t n = c->rpend_n;
  c->rpend_d = NULL;
  c->rpend_n = 0;
  if (n)
    parc_finish(d, n, 0);
}

/* Precondition: d->lock held (or P == 1), generation complete.  Move the
 * stackless waiters of every queue onto the resume list of the processor
 * they suspended on (barrier.c, at a release). */
void parc_bar_release_frames_locked(parc_drt *d) {
  int top = parc_rt.P < PARC_BAR_QUEUES ? parc_rt.P : PARC_BAR_QUEUES;
  for (int k = 0; k < top; k++) {
    parc_susp *first = d->sq_head[k];
    if (!first)
      continue;
    parc_resume_chain(&parc_rt.procs[k], first, d->sq_tail[k], d->sq_n[k]);
    d->sq_head[k] = d->sq_tail[k] = NULL;
    d->sq_n[k] = 0;
  }
  parc_susp *r = d->sq_head[PARC_BAR_QUEUES];
  d->sq_head[PARC_BAR_QUEUES] = d->sq_tail[PARC_BAR_QUEUES] = NULL;
  d->sq_n[PARC_BAR_QUEUES] = 0;
  while (r) { /* processors beyond the per-processor queues: one by one */
    parc_susp *nx = r->next;
    parc_resume_chain(&parc_rt.procs[r->proc], r, r, 1);
    r = nx;
  }
}

/* An envelope in resume mode (parc_job.d == NULL): run the resumed
 * activities of the processor it runs on until its list is empty. */
void parc_run_resumed(parc_ctx *c) {
  for (;;) {
    if (!c->rtake && !(c->rtake = parc_take_resume(parc_self(), PARC_RESUME_TAKE)))
      break;
    parc_susp *r = c->rtake;
    c->rtake = r->next;
    PARC_STAT_ADD(parc_self(), resumed, 1);
    parc_batch b;
    parc_batch_init(&b, r->d, NULL, 0, r->k, r->k + 1);
    frames_begin(&b, r, 1);
    c->cur_act = &b;
    parc_run_batch(c, &b);
    c->cur_act = NULL;
  }
  parc_resumed_flush(c);
}
