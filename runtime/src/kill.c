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
 * ranges compared, descriptors spawned without a range, and delivery index
 * nodes visited by kills.
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
 *   6. deliver: wake the blocked victims (D's subtree in the delivery index).
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
 * poll), and, from the program's first kill on, in the delivery index,
 * which a kill walks instead of every processor's whole list: a kill of D
 * visits only D's subtree, so N kills cost N visits, not N times the number
 * of blocked activities (a preturn back up a recursion 8,000 deep with a
 * blocked activity beside every level took 5-14 s at P = 2 when every kill
 * scanned every blocked list, 0.08 s now; test/kill/blocked_chain.pc).
 *
 * The index is a tree of nodes (parc_kidx), one for each construct that has
 * had a context block in its subtree: a node holds the contexts blocked in
 * its construct's own activities (the innermost batch's construct), in one
 * list per processor under that processor's blocked_lock (entered and taken
 * out with the registry, under the same lock), and the nodes of its child
 * constructs (under the node's lock).  A blocker whose construct has no
 * node (kx NULL) makes, under link_lock, the nodes of its construct and of
 * every construct around it that has none, out to the first that has one
 * (or the root), links each into its parent's node, and only then
 * publishes them (kx, release): so a kx that is set says "this construct
 * and every construct around it are in the tree".  Then it enters itself
 * and, as before, checks for a posted kill itself.  A node is freed by its
 * construct's parent when the construct ends (every activity accounted, so
 * nothing below is blocked): it is unlinked under the parent node's lock,
 * then the parent waits until no delivery holds it (`pins`).
 *
 * A program that never kills pays nothing for the index: blockers enter it
 * only once parc_kill_indexing_ is set, which the program's first delivery
 * does (0 -> 1) before it enters, processor by processor under each
 * blocked_lock, every context registered until then (index_all), and then
 * marks done (2; the posters of other kills wait for that).  A blocker reads
 * the flag under its processor's blocked_lock: registered before index_all
 * took that lock, it is entered by index_all; after, it sees the flag and
 * enters itself.  (Entering every blocker from the start cost the semaphore
 * hand-offs of W10 6-9% at P = 2, medians of 11: one more cache line
 * that crosses between processors at every wake-up.)
 *
 * The poster of a kill of D (alive: the poster is in its subtree) visits D's
 * node, then the nodes below, top down.  At a node, for each processor k,
 * under k's blocked_lock, it wakes the node's contexts of list k; then,
 * under the node's lock, it pins the children's nodes (pins += 1 under the
 * lock, so the unlink cannot pass it), unlocks, and unpins the node.  For
 * each context it trylocks the wait object's lock (lock order: the wait
 * object's lock, a blocked_lock, link_lock, a node's lock; so the poster
 * must not wait: on failure it drops the blocked_lock and retries the
 * list), takes it out of the queue (undoing
 * its barrier arrival), out of the registry and the node, marks it
 * wake_killed and readies it; the victim unwinds when it resumes.  Nothing
 * is missed: on the path from D down to a blocked context, take the first
 * place (a node's kids, under its lock; the context's list, under its
 * processor's lock) where the poster's visit came before the blocker's link
 * or entry there; that link or entry happened before the blocker's own
 * check, and the visit after the kill was posted, so the check sees the
 * kill.  If D has no node yet, the poster reads kx again under link_lock: a
 * blocker linking D's chain later finds the kill itself.  A parent waiting
 * at epar is not woken: it keeps waiting until its children (victims too)
 * have stopped, then its epar poll unwinds it.
 *
 * Unwinding.  Each batch has a setjmp landing point (descriptor.c).  The poll
 * slow path finds the innermost batch of the running context and, if its
 * descriptor is a victim, longjmps there; every outer batch on the same
 * context belongs to an ancestor activity, which unwinds at its own epar poll
 * once the inner construct has been accounted.  No runtime lock is ever held
 * across a poll.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- The delivery index (see "Delivery" above) ---------------------------- */

static parc_spin link_lock; /* creating and linking nodes (lock order: the
                               wait object's, a processor's blocked_lock,
                               link_lock, a node's) */

/* Nodes come from and go back to the running processor's free list: a
 * program that kills and blocks in a loop makes and frees one per
 * construct execution, and aligned_alloc plus free were a quarter of such
 * a loop's instructions.  A node is freed empty (every blk[k].c NULL),
 * so a reused one needs no clearing.  The list is bounded like the
 * representatives' (nodes made on one processor may end on another). */
static parc_kidx *node_alloc(void) {
  parc_proc *p = parc_self();
  parc_kidx *n = p ? p->kidx_free : NULL;
  if (n) {
    p->kidx_free = n->next;
    p->kidx_free_n--;
    return n;
  }
  size_t heads = (size_t)parc_rt.P * sizeof(n->blk[0]);
  n = aligned_alloc(_Alignof(parc_kidx), sizeof *n + heads);
  if (!n)
    parc_fatal_oom("the kill delivery index");
  memset(n->blk, 0, heads);
  return n;
}

static void node_free(parc_kidx *n) {
  parc_proc *p = parc_self();
  if (!p || p->kidx_free_n >= PARC_KIDX_KEEP) {
    free(n);
    return;
  }
  n->next = p->kidx_free;
  p->kidx_free = n;
  p->kidx_free_n++;
}

/* x's node (the slow path of node_of, x->kx not set yet): made
 * under link_lock with the nodes of every construct around x that has none
 * yet, each linked into its parent construct's node; then published,
 * x->kx and the others (release), so that a construct's kx, once set,
 * says that it and every construct around it are in the index. */
static parc_kidx *node_make(parc_drt *x) {
  lock_if(&link_lock);
  /* relaxed: set only under link_lock (or read again under it). */
  parc_kidx *made = NULL, *below = NULL;
  parc_drt *top = x; /* the first construct, going out, that has a node */
  for (; top && !__atomic_load_n(&top->kx, __ATOMIC_RELAXED); top = parent_desc(top)) {
    parc_kidx *n = node_alloc();
    n->lock.v = 0;
    n->pins = 0;
    n->kids = NULL;
    n->prev = NULL;
    n->up = NULL;
    if (below)
      below->up = n;
    else
      made = n;
    below = n;
  }
  parc_kidx *above = top ? top->kx : NULL; /* the node the new ones hang from */
  if (below)
    below->up = above;
  /* made is NULL when another blocker gave x its node meanwhile. */
  for (parc_kidx *n = made; n && n != above; n = n->up) {
    if (n->up) {
      lock_if(&n->up->lock);
      n->next = n->up->kids;
      if (n->next)
        n->next->prev = n;
      n->up->kids = n;
      unlock_if(&n->up->lock);
    }
  }
  /* release: a reader of kx sees the node and every link above it. */
  parc_kidx *n = made;
  for (parc_drt *y = x; y != top; y = parent_desc(y), n = n->up)
    __atomic_store_n(&y->kx, n, __ATOMIC_RELEASE);
  unlock_if(&link_lock);
  return x->kx;
}

static inline parc_kidx *node_of(parc_drt *d) {
  /* acquire: pairs with the release that publishes the node and its links. */
  parc_kidx *n = __atomic_load_n(&d->kx, __ATOMIC_ACQUIRE);
  return n ? n : node_make(d);
}

int parc_kill_indexing_; /* 0: no kill yet; 1: the first kill indexes; 2: indexed */

void parc_kill_enter(parc_proc *p, parc_ctx *c) {
  parc_kidx *n = node_of(c->cur_act->d);
  c->kprev = NULL;
  c->knext = n->blk[p->id].c;
  if (c->knext)
    c->knext->kprev = c;
  n->blk[p->id].c = c;
  c->kreg = n;
}

void parc_kill_leave(parc_proc *p, parc_ctx *c) {
  parc_kidx *n = c->kreg;
  if (c->kprev)
    c->kprev->knext = c->knext;
  else
    n->blk[p->id].c = c->knext;
  if (c->knext)
    c->knext->kprev = c->kprev;
  c->knext = c->kprev = NULL;
  c->kreg = NULL;
}

/* Before the program's first delivery: enter in the index every context
 * that registered before blockers started entering themselves. */
static void index_all(void) {
  int zero = 0;
  /* acq_rel: one poster indexes; the others wait for it (acquire of 2). */
  if (!__atomic_compare_exchange_n(&parc_kill_indexing_, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    while (__atomic_load_n(&parc_kill_indexing_, __ATOMIC_ACQUIRE) != 2)
      sched_yield();
    return;
  }
  for (int k = 0; k < parc_rt.P; k++) {
    parc_proc *q = &parc_rt.procs[k];
    lock_if(&q->blocked_lock);
    for (parc_ctx *c = q->blocked; c; c = c->bnext)
      if (c->cur_act && !c->kreg)
        parc_kill_enter(q, c);
    unlock_if(&q->blocked_lock);
  }
  /* release: the entries above are seen by the posters waiting for 2. */
  __atomic_store_n(&parc_kill_indexing_, 2, __ATOMIC_RELEASE);
}

void parc_kill_unindex(parc_drt *d) {
  parc_kidx *n = d->kx;
  if (n->up) {
    lock_if(&n->up->lock);
    if (n->prev)
      n->prev->next = n->next;
    else
      n->up->kids = n->next;
    if (n->next)
      n->next->prev = n->prev;
    unlock_if(&n->up->lock);
  }
  /* acquire: a delivery that pinned n before the unlink has left it. */
  while (__atomic_load_n(&n->pins, __ATOMIC_ACQUIRE))
    sched_yield();
  PARC_ASSERT(!n->kids);
  for (int k = 0; k < parc_rt.P; k++)
    PARC_ASSERT(!n->blk[k].c);
  node_free(n);
}

/* Wake every blocked victim of the kill of d (step 6): the contexts of
 * d's node and of every node below it, top down.  See "Delivery" above. */
static void deliver(parc_drt *d) {
  /* acquire: pairs with index_all's release. */
  if (PARC_UNLIKELY(__atomic_load_n(&parc_kill_indexing_, __ATOMIC_ACQUIRE) != 2))
    index_all();
  /* acquire: as in node_of. */
  parc_kidx *top = __atomic_load_n(&d->kx, __ATOMIC_ACQUIRE);
  if (!top) {
    /* Nothing has blocked below d yet, or a blocker is linking d's chain
     * now: then it publishes after this section, and finds the kill
     * itself. */
    lock_if(&link_lock);
    top = __atomic_load_n(&d->kx, __ATOMIC_RELAXED);
    unlock_if(&link_lock);
    if (!top)
      return;
  }
  parc_kidx *local[32], **todo = local;
  size_t n = 0, cap = sizeof local / sizeof local[0];
  todo[n++] = top; /* d lives: the poster is in its subtree */
  uint64_t visits = 0;
  while (n) {
    parc_kidx *x = todo[--n];
    visits++;
    for (int k = 0; k < parc_rt.P; k++) {
      parc_proc *q = &parc_rt.procs[k];
      parc_ctx *wake = NULL;
    retry:
      lock_if(&q->blocked_lock);
      for (parc_ctx *c = x->blk[k].c, *nx; c; c = nx) {
        nx = c->knext;
        if (!parc_spin_trylock(c->wait_lock)) {
          unlock_if(&q->blocked_lock);
          sched_yield();
          goto retry;
        }
        if (c->wait_kind == PARC_WAIT_SYNC && !parc_bar_queued(c)) {
          /* Released by its barrier, not yet run: it takes itself out of
           * the registry when it runs, and unwinds at its next poll. */
          parc_spin_unlock(c->wait_lock);
          continue;
        }
        /* (Not asked under PARC_STATS, whose checks count the program's.) */
        PARC_ASSERT(c->cur_act && (parc_rt.stats || parc_victim(c->cur_act->d)));
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
      unlock_if(&q->blocked_lock);
      if (wake)
        parc_ready_list(wake);
    }
    lock_if(&x->lock);
    for (parc_kidx *k = x->kids; k; k = k->next) {
      if (n == cap) {
        parc_kidx **t = malloc(2 * cap * sizeof *t);
        if (!t)
          parc_fatal_oom("the kill delivery list");
        memcpy(t, todo, n * sizeof *t);
        if (todo != local)
          free(todo);
        todo = t;
        cap *= 2;
      }
      /* relaxed: x's lock orders it before the unlink in parc_kill_unindex. */
      __atomic_add_fetch(&k->pins, 1, __ATOMIC_RELAXED);
      todo[n++] = k;
    }
    unlock_if(&x->lock);
    if (x != top) /* release: this visit is over before x is freed */
      __atomic_sub_fetch(&x->pins, 1, __ATOMIC_RELEASE);
  }
  if (todo != local)
    free(todo);
  parc_proc *self = parc_rt.stats ? parc_self() : NULL;
  if (PARC_UNLIKELY(self != NULL))
    PARC_STAT_ADD(self, kill_visits, visits);
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
  deliver(d);
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
