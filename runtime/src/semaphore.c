/* semaphore.c - counting semaphores (parc_P / parc_V) that park the waiting
 * context instead of its processor.
 *
 * Under the semaphore's spinlock: the value (the units free), a FIFO of
 * parked contexts and `nwoken`, the waiters that parc_V took out of the
 * queue and that are on their way to try again.  parc_V adds its unit to
 * the value and wakes the oldest waiter, unless as many are already on
 * their way as there are units (so a lock has at most one, and a burst of
 * n parc_V wakes n waiters at once).  A parc_P that arrives meanwhile may
 * take the unit first (it "barges", as in Go's sync.Mutex), and the
 * waiter, overtaken, goes back to the head of the queue.  After
 * PARC_SEM_HUNGRY such defeats the next parc_V hands it the unit directly,
 * so no waiter waits forever behind newcomers.
 *
 * Why not always hand the unit to the oldest waiter: then once one parc_P
 * has parked, every later one must park too, however short the critical
 * section.  A parfor of a million activities that each take one lock got
 * a convoy: at P = 2, 999,552 of them parked, 339,000 envelopes existed at
 * once (1.3 GB) and the program took 3.7 s, where P = 1 takes a few ms.
 * With barging, and a parc_P that spins up to PARC_SEM_SPIN_NS before it
 * parks (parc_sem_spin: only at P > 1 and while nothing else is ready on
 * its processor), a short critical section on another processor ends
 * before the newcomer gives up, and nothing parks.  On a lock only one
 * context spins at a time, and a woken waiter that was overtaken stays
 * counted as woken while it spins (spin_take): with many processors, each
 * overtaken waiter otherwise let the next parc_V wake another, and a dozen
 * spinners took the lock's cache line from its holder.  (Taking a unit with a
 * compare-and-swap, without the lock, was tried: newcomers then won so
 * often that a few thousand waiters were parked at once, not a handful,
 * and the million locks took longer.)
 *
 * A spinner that sees a unit given back by the activity that took it (a
 * lock released by its holder: `watch`) does not always take it at once.
 * When the holder takes the lock back at once, a spinner that takes it in
 * between moves the lock, and what it guards, from one CPU to the other at
 * every second parc_P: a loop of { parc_P; n++; parc_V } on two
 * processors took 3-5 times as long as pthread_mutex_lock's (whose loser
 * sleeps, and the holder runs on alone).  The spinner watches the holder
 * for a microsecond without touching the semaphore (processor.c,
 * watch_holder): a holder that took the lock back more often than once per
 * PARC_SEM_ALT_NS keeps it, and the spinner takes only a unit still free
 * after the watch; a slower holder, which works outside the lock long
 * enough for the two to overlap, is alternated with at once.
 *
 * A blocked parc_P first cuts its batch chain (processor.c), so its
 * batch-mates run in other envelopes: at P = 1 a producer/consumer pair
 * cannot deadlock.  parc_P is a poll point on entry only: once it has a
 * unit it returns, so a kill never loses one.  A waiter woken after its
 * activity was killed still takes the unit that parc_V freed for it (if no
 * newcomer took it first) and returns, as a waiter handed a unit does; the
 * activity unwinds at its next poll.  So a parc_V that comes before a
 * pbreak in program order lets the waiter's parc_P complete, as if the
 * waiter had run before the kill.  A woken waiter that finds no unit and
 * is a victim unwinds at once, passing its wake-up on.  Both give way to a
 * context pinned to their processor that is ready (parc_P on entry,
 * parc_V on exit: processor.c, "Giving way to pinned contexts").
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>

#include "internal.h"

typedef struct parc_sem_rt {
  /* What parc_P and parc_V touch comes first, in as few bytes as before
   * `watch` came: the semaphores of an array lie 48 bytes apart, and each
   * byte more that every operation touches is one more chance to share a
   * cache line with a neighbour (an 8-stage pipeline over an array of
   * semaphores took 1.5 times as long with a 16-byte field more). */
  parc_spin lock;
  int value; /* written under the lock; read by spinners without it */
  unsigned watch; /* written under the lock; read by spinners without it:
                     (units taken << 1) | 1 if the last parc_V was by the
                     activity that took the last unit (parc_sem_spin) */
  unsigned magic; /* PARC_SEM_MAGIC once parc_sem_init has run */
  parc_ctx *head;
  int nwoken; /* waiters woken to try again that have not tried yet */
  int spinning; /* contexts in spin_take now (atomic, relaxed: a hint) */
  parc_ctx *tail;
  unsigned posted; /* P = 1: parc_V's of the program's own threads that
                      processor 0 has not done yet (atomic; post_V) */
} parc_sem_rt;

/* A semaphore parc_sem_init has not set up: parc_P and parc_V took its
 * lock word and queue pointers from whatever the memory held (a local
 * array, a malloc'd struct), and the program crashed at P = 1 and spun for
 * ever on the "lock" at P = 4, without a word.  They stop it with a message
 * instead.  All zero bytes pass: a static semaphore that was never
 * initialised is one of value 0, as it always was.  The first parc_P or
 * parc_V on such a one adopts it (adopt_zero), under its lock, after
 * checking that every field is still zero; so garbage whose magic word
 * happens to be 0 (stack residue: a tester's uninitialised local
 * semaphore crashed in sem_P_slow in half of its runs, through a queue
 * pointer read from the leftovers) is stopped too, unless it is all zero
 * where a semaphore has fields.  Not a proof (garbage whose magic word is
 * the magic goes through), but one compare per call. */
#define PARC_SEM_MAGIC 0x5e3a4f0bu
/* The magic of an all-zero semaphore adopted without parc_sem_init: it
 * works as one initialised to 0, and a deadlock report says that it was
 * never initialised (parc_sem_adopted), where a forgotten parc_sem_init
 * of a static semaphore looks like a forgotten parc_V otherwise.  It
 * differs from PARC_SEM_MAGIC in the low bit alone, so that check_init
 * passes both with one compare. */
#define PARC_SEM_ADOPTED (PARC_SEM_MAGIC & ~1u)
_Static_assert(PARC_SEM_ADOPTED != PARC_SEM_MAGIC && (PARC_SEM_ADOPTED | 1u) == PARC_SEM_MAGIC,
               "the two magics differ in the low bit");

static __attribute__((noinline, cold)) void adopt_zero(parc_sem_rt *r, const char *op,
                                                       const parc_wait_site *site) {
  /* A lock word other than 0 or 1 is no lock's: garbage, which the lock
   * below would spin on for ever. */
  int held = __atomic_load_n(&r->lock.v, __ATOMIC_RELAXED);
  if (held != 0 && held != 1)
    parc_fatal_uninit_sem(op, r, site);
  /* Nothing but an adoption touches the fields of a semaphore whose magic
   * is 0, and adoptions take the lock: under it, the first finds them as
   * they were, the others find the magic.  An adoption holds it for a few
   * stores, so a lock word that stays 1 for a second is garbage too (all
   * zero but a 1 there: parc_spin_lock spun on it for ever at P = 1). */
  if (!parc_spin_trylock(&r->lock)) {
    uint64_t t0 = parc_now_ns();
    do {
      sched_yield();
      if (parc_now_ns() - t0 >= 1000000000u)
        parc_fatal_uninit_sem(op, r, site);
    } while (!parc_spin_trylock(&r->lock));
  }
  if (__atomic_load_n(&r->magic, __ATOMIC_RELAXED) == 0) {
    if (__atomic_load_n(&r->value, __ATOMIC_RELAXED) != 0 || r->watch != 0 || r->head || r->tail ||
        r->nwoken || r->spinning) {
      parc_spin_unlock(&r->lock);
      parc_fatal_uninit_sem(op, r, site);
    }
    __atomic_store_n(&r->magic, PARC_SEM_ADOPTED, __ATOMIC_RELAXED);
  }
  parc_spin_unlock(&r->lock);
}

int parc_sem_adopted(const void *sem) {
  const parc_sem_rt *r = (const parc_sem_rt *)sem;
  return __atomic_load_n(&r->magic, __ATOMIC_RELAXED) == PARC_SEM_ADOPTED;
}

/* ---- Names (parc_abi.h, "Names of semaphores") ----------------------------
 * The tables of the files that parcc compiled, added by their constructors
 * (before main, or at a dlopen) and read only by reports: a list under a
 * lock of its own. */
static parc_spin names_lock;
static parc_sem_names *names;

void parc_sem_names_add(parc_sem_names *t) {
  parc_spin_lock(&names_lock);
  t->next = names;
  names = t;
  parc_spin_unlock(&names_lock);
}

void parc_sem_names_remove(parc_sem_names *t) {
  parc_spin_lock(&names_lock);
  for (parc_sem_names **at = &names; *at; at = &(*at)->next)
    if (*at == t) {
      *at = t->next;
      break;
    }
  parc_spin_unlock(&names_lock);
}

/* Writes e's name of the semaphore at a into buf, if e's semaphores,
 * from base on, include it. */
static int name_in(char *buf, size_t n, const parc_sem_name *e, uintptr_t base, uintptr_t a) {
  uint64_t count = 1;
  for (int d = 0; d < 3 && e->dims[d]; d++)
    count *= e->dims[d];
  if (a < base || !e->stride || (a - base) % e->stride || (a - base) / e->stride >= count)
    return 0;
  uint64_t k = (a - base) / e->stride;
  int len = snprintf(buf, n, "%s", e->name);
  uint64_t inner = count;
  for (int d = 0; d < 3 && e->dims[d] && len >= 0 && (size_t)len < n; d++) {
    inner /= e->dims[d];
    len += snprintf(buf + len, n - (size_t)len, "[%llu]", (unsigned long long)(k / inner));
    k %= inner;
  }
  if (len >= 0 && (size_t)len < n)
    snprintf(buf + len, n - (size_t)len, "%s", e->member);
  return 1;
}

/* The semaphore at sem by the name the program gave it ("fork[3]",
 * "buf.mutex"): a variable that a construct around activity b captured
 * (its site's table and its environment, alive while b is), else one a
 * file defines at file scope; "the semaphore at 0x..." when none has it. */
void parc_sem_describe(char *buf, size_t n, const void *sem, const parc_batch *b) {
  uintptr_t a = (uintptr_t)sem;
  for (const parc_drt *d = b ? b->d : NULL; d; d = d->parent ? d->parent->d : NULL) {
    const parc_site *site = d->site;
    if (!site || !d->env)
      continue;
    for (unsigned i = 0; i < site->nsems; i++) {
      const parc_sem_name *e = &site->sems[i];
      const char *var = *(const char *const *)(const void *)((const char *)d->env + e->env - 1);
      if (var && name_in(buf, n, e, (uintptr_t)var + e->offset, a))
        return;
    }
  }
  parc_spin_lock(&names_lock);
  for (const parc_sem_names *t = names; t; t = t->next)
    for (unsigned i = 0; i < t->n; i++)
      if (name_in(buf, n, &t->v[i], (uintptr_t)t->v[i].base, a)) {
        parc_spin_unlock(&names_lock);
        return;
      }
  parc_spin_unlock(&names_lock);
  snprintf(buf, n, "the semaphore at %p", sem);
}

static inline void check_init(parc_sem_rt *r, const char *op, const parc_wait_site *site) {
  /* Atomic only because an adoption may write it meanwhile; relaxed, since
   * whoever then reads the fields takes the lock first. */
  unsigned m = __atomic_load_n(&r->magic, __ATOMIC_RELAXED);
  if (PARC_UNLIKELY((m | 1u) != PARC_SEM_MAGIC)) { /* set up, or adopted */
    if (m != 0)
      parc_fatal_uninit_sem(op, r, site);
    adopt_zero(r, op, site);
  }
}

_Static_assert(sizeof(parc_sem_rt) <= sizeof(parc_sem_t), "parc_sem_rt must fit in parc_sem_t");
_Static_assert(_Alignof(parc_sem_rt) <= _Alignof(parc_sem_t), "parc_sem_rt alignment");

static inline parc_sem_rt *sem_of(parc_sem_t *s) { return (parc_sem_rt *)(void *)s; }

/* The value is atomic (relaxed) only because parc_sem_spin reads it
 * without the lock; the lock orders everything else. */
static inline int units(parc_sem_rt *r) { return __atomic_load_n(&r->value, __ATOMIC_RELAXED); }
static inline void set_units(parc_sem_rt *r, int v) {
  __atomic_store_n(&r->value, v, __ATOMIC_RELAXED);
}

/* Reads nothing of *s: before it, a local semaphore's bytes are whatever
 * the stack held.  A check for activities still waiting on it (they would
 * be lost) was tried, and spun for ever at P = 1 on a lock word of 1 that
 * an earlier frame had left next to a stale magic (parcgen seed 22). */
void parc_sem_init(parc_sem_t *s, int value) {
  parc_sem_rt *r = sem_of(s);
  r->lock.v = 0;
  set_units(r, value);
  r->nwoken = 0;
  r->spinning = 0;
  r->head = r->tail = NULL;
  r->watch = 0;
  r->posted = 0;
  r->magic = PARC_SEM_MAGIC;
}

/* The running context, or NULL on one of the program's own threads. */
static inline parc_ctx *this_ctx(void) {
  parc_proc *p = parc_self();
  return p ? p->cur : NULL;
}

/* Under the lock: one of the v > 0 free units goes to c (NULL: a thread
 * outside the runtime, or any taker at P = 1, where nobody watches),
 * counted in the watch word and remembered by c until its parc_V; which
 * of c's activities took it, c notes after the unlock (note_taker). */
static void give_unit(parc_sem_rt *r, int v, parc_ctx *c) {
  set_units(r, v - 1);
  __atomic_store_n(&r->watch, r->watch + 2, __ATOMIC_RELAXED);
  if (c)
    c->sem_held = r;
}

/* c's running activity is the one that took c->sem_held.  Outside the
 * lock: with these two stores and their loads inside it, a lock that two
 * processors pass to and fro (W9 at P = 2, a million parc_P) took 7-10%
 * longer than with the context alone; after the unlock, about 3%. */
static inline void note_taker(parc_ctx *c) {
  parc_batch *b = c->cur_act;
  c->sem_held_b = b;
  c->sem_held_k = b ? b->act.cur : 0;
}

/* c's running activity took r last and has not given it back: it holds r
 * as a lock.  An envelope runs many activities one after the other, so the
 * context alone does not say who took it: with a signal semaphore that one
 * activity of a batch takes and a later one gives back, the later one was
 * taken for a holder, and the waiters spun instead of parking (audit: four
 * activities passing a unit, 0.14 s at P = 4 on two loaded CPUs against
 * 0.01 s at P = 2). */
static inline int holds(const parc_ctx *c, const parc_sem_rt *r) {
  const parc_batch *b = c->cur_act;
  return c->sem_held == r && c->sem_held_b == b && (!b || b->act.cur == c->sem_held_k);
}

/* Under the lock. */
static int try_take(parc_sem_rt *r, parc_ctx *c) {
  int v = units(r);
  if (v <= 0)
    return 0;
  give_unit(r, v, c);
  return 1;
}

/* Take a free unit (1: taken); `woken`: the taker is counted in nwoken
 * (spin_take), which it leaves with the unit.  Inlined in parc_P's fast
 * path (sem_P): left to itself, gcc made it a call once it held the
 * watch's bookkeeping (callgrind, uncontended parc_P and parc_V at P = 1:
 * 93 instructions a pair against 76). */
static inline __attribute__((always_inline)) int take(parc_sem_rt *r, int single, int woken) {
  int ok;
  parc_ctx *c = NULL;
  if (single) {
    ok = try_take(r, NULL);
  } else {
    c = this_ctx();
    parc_spin_lock(&r->lock);
    ok = try_take(r, c);
  }
  if (ok && woken)
    r->nwoken--;
  if (!single) {
    parc_spin_unlock(&r->lock);
    if (ok && c)
      note_taker(c);
  }
  return ok;
}

/* Under the lock: the waiter that a free unit now goes to, out of the
 * queue and of the blocked registry (the caller readies it after the
 * unlock), or NULL: no unit, nobody waiting, or as many woken waiters on
 * their way as there are units (each passes on a unit it does not take). */
static parc_ctx *pass_locked(parc_sem_rt *r) {
  parc_ctx *w = r->head;
  if (!w || units(r) <= 0)
    return NULL;
  if (w->sem_fails >= PARC_SEM_HUNGRY) {
    give_unit(r, units(r), w);
    w->sem_wake = PARC_SEM_HANDED;
  } else if (r->nwoken >= units(r)) {
    return NULL;
  } else {
    r->nwoken++;
    w->sem_wake = PARC_SEM_RETRY;
  }
  parc_sem_cancel_locked(r, w); /* out of the queue: w is its head */
  parc_unregister_blocked(w);   /* wait_kind = NONE: kill delivery leaves it alone */
  return w;
}

/* c's activity has been killed (its construct or one around it). */
static int killed(const parc_ctx *c) {
  return c->cur_act && parc_kill_active() && parc_victim(c->cur_act->d);
}

/* Spin for a unit and take it (1: taken).  A unit seen but lost to
 * another taker sends the spin back to wait for the next one, on what is
 * left of the same budget: parking at the first lost race made three parks
 * in four at P = 4 on two CPUs (semaphore_convoy.pc's lock: 9,900 parks,
 * only 2,500 of them after a spin ran out), and up to 7,600 envelopes.
 *
 * At most PARC_SEM_SPINNERS contexts spin on one lock at a time; a
 * parc_P that finds that many spinning parks at once.  `woken`: c is a
 * waiter that parc_V woke (counted in nwoken) and that was overtaken; it
 * spins whatever the count, still counted in nwoken, so that no parc_V
 * wakes another waiter meanwhile, and leaves nwoken when it takes a unit.
 * Without the two, every spinner that lost its wake-up let the next
 * parc_V wake another: a lock taken a million times by 1,000 activities
 * at P = 16 (W9) had a dozen contexts spinning on it, took the holder's
 * cache line at every turn, and ran 13 times slower than a pthread mutex
 * (6.5 times with the two: performance.md, "A larger machine"); at P = 2
 * nothing changes (one processor besides the holder's). */
static int spin_take(parc_proc *p, parc_sem_rt *r, int single, int woken) {
  /* Counted only for a lock (the watch bit: its last unit came back from
   * the activity that took it), where newcomers pile up; a signal has one
   * waiter as a rule, and the count's two atomic operations on the line
   * that its giver writes would only slow the hand-over.  At P = 1
   * parc_sem_spin does not spin (nothing could give a unit back
   * meanwhile). */
  int counted = !single && (__atomic_load_n(&r->watch, __ATOMIC_RELAXED) & 1);
  if (counted) {
    if (!woken && __atomic_load_n(&r->spinning, __ATOMIC_RELAXED) >= PARC_SEM_SPINNERS)
      return 0;
    __atomic_fetch_add(&r->spinning, 1, __ATOMIC_RELAXED);
  }
  uint64_t since = 0;
  int ok = 0;
  while (!ok && parc_sem_spin(p, &r->value, &r->watch, &since))
    ok = take(r, single, woken);
  if (counted)
    __atomic_fetch_sub(&r->spinning, 1, __ATOMIC_RELAXED);
  return ok;
}

/* ---- parc_V from a thread of the program's own at P = 1 ---------------------
 * The guide lets a thread that the program created itself call parc_V.  At
 * P > 1 it takes the semaphore's lock as a processor does.  At P = 1 nothing
 * takes that lock (rt.single): processor 0's thread is the only one that
 * touches a semaphore, and another thread's parc_V would race with it on
 * the value and the queue.  So such a parc_V posts the semaphore on a list
 * instead, and processor 0 does the parc_V itself: when it has nothing
 * else to run (processor.c, idle_single, which also waits for posts while
 * such threads exist instead of reporting a deadlock), and before a
 * parc_P of its own parks (sem_P_slow).  At P = 1 only one activity runs
 * at a time, so the unit arrives no later than anyone could have used
 * it, except by a parc_P that finds it free without waiting.
 *
 * A post is counted in the semaphore (`posted`); only the post that finds
 * the count at 0 pushes a record of the semaphore and wakes processor 0.
 * While a record is listed the count stays above 0 (processor 0 swaps it
 * out only after taking the record off the list), so a later post only
 * counts, and every counted post is done by the record's taker.  A thread
 * that signals while processor 0 computes holds one record per semaphore,
 * not one per parc_V: 10 million parc_V of a timer thread held 32 bytes
 * each (314 MB) until processor 0 got to them, and a mutex and a condition
 * signal each. */
typedef struct posted_v {
  parc_sem_rt *r;
  struct posted_v *next;
} posted_v;

static posted_v *posted; /* atomic: a stack; any thread pushes, processor 0 empties it */

int parc_sem_posted(void) { return __atomic_load_n(&posted, __ATOMIC_RELAXED) != NULL; }

static __attribute__((noinline, cold)) void post_V(parc_sem_rt *r, const parc_wait_site *site) {
  /* release: what the thread wrote before its parc_V is seen by the
   * activity the unit wakes (processor 0 swaps the count with acquire). */
  unsigned before = __atomic_fetch_add(&r->posted, 1, __ATOMIC_RELEASE);
  if (before >= INT_MAX) /* more units than the semaphore can hold */
    parc_fatal_sem_overflow(r, site);
  if (before)
    return; /* listed already, or being taken: its taker does this one too */
  posted_v *v = malloc(sizeof *v);
  if (!v)
    parc_fatal_oom("the record of a parc_V");
  v->r = r;
  v->next = __atomic_load_n(&posted, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&posted, &v->next, v, 1, __ATOMIC_RELEASE,
                                      __ATOMIC_RELAXED))
    ;
  parc_sem_posted_wake();
}

int parc_sem_take_posted(void) {
  if (!parc_sem_posted())
    return 0;
  posted_v *v = __atomic_exchange_n(&posted, NULL, __ATOMIC_ACQUIRE), *order = NULL;
  while (v) { /* oldest first */
    posted_v *next = v->next;
    v->next = order;
    order = v;
    v = next;
  }
  int n = 0;
  for (; order; n++) {
    posted_v *next = order->next;
    for (unsigned k = __atomic_exchange_n(&order->r->posted, 0, __ATOMIC_ACQUIRE); k; k--)
      parc_V((parc_sem_t *)(void *)order->r);
    free(order);
    order = next;
  }
  return n;
}

/* ---- faa on integers wider than 64 bits (parc_abi.h, parc_faa_wide_) -------
 * One of FAA_LOCKS spin locks, by the object's address (16-byte objects:
 * the low 4 bits say nothing), each on a cache line of its own.  Held for
 * a load, an add and a store, with no poll or switch in between; any
 * thread may take one, at any P (a thread of the program's own too). */
enum { FAA_LOCKS = 64 };
static struct {
  _Alignas(PARC_CACHELINE) parc_spin l;
} faa_locks[FAA_LOCKS];

static parc_spin *faa_lock_of(const volatile void *p) {
  uintptr_t a = (uintptr_t)p >> 4;
  return &faa_locks[(a ^ (a >> 6) ^ (a >> 12)) % FAA_LOCKS].l;
}

void parc_faa_lock(const volatile void *p) { parc_spin_lock(faa_lock_of(p)); }

void parc_faa_unlock(const volatile void *p) { parc_spin_unlock(faa_lock_of(p)); }

/* parc_P past its fast path: no unit was free on entry.  `site` is
 * parc_P_at's call site (parc_abi.h), NULL for parc_P: the context keeps it
 * while it waits, for the deadlock report. */
static __attribute__((noinline)) void sem_P_slow(parc_sem_rt *r, int single,
                                                 const parc_wait_site *site) {
  parc_proc *p = parc_self();
  if (PARC_UNLIKELY(!p) && !(p = parc_main_proc()))
    parc_fatal_foreign(NULL, site);
  parc_ensure_started(); /* after: as descriptor.c's current_ctx */
  if (single && parc_sem_take_posted() && take(r, single, 0))
    return; /* a posted parc_V of a thread of the program's own (above) */
  if (spin_take(p, r, single, 0))
    return;
  parc_ctx *c = p->cur;
  parc_detach_chain(p, c);
  c->sem_fails = 0;
  c->wait_site = site;
  int woken = 0; /* c is counted in nwoken (overtaken, see below) */
  for (;;) {
    if (!single)
      parc_spin_lock(&r->lock);
    r->nwoken -= woken;
    woken = 0;
    if (try_take(r, c)) {
      if (!single)
        parc_spin_unlock(&r->lock);
      note_taker(c);
      return;
    }
    /* Enqueue: at the tail, or back at the head when it was overtaken. */
    if (c->sem_fails == 0 || !r->head) {
      c->next = NULL;
      c->wprev = r->tail;
      if (r->tail)
        r->tail->next = c;
      else
        r->head = c;
      r->tail = c;
    } else {
      c->wprev = NULL;
      c->next = r->head;
      r->head->wprev = c;
      r->head = c;
    }
    parc_register_blocked(p, c, PARC_WAIT_SEM, r, &r->lock);
    if (killed(c)) {
      /* A kill posted before we registered: its delivery may have missed us. */
      parc_sem_cancel_locked(r, c);
      parc_unregister_blocked(c);
      if (!single)
        parc_spin_unlock(&r->lock);
      parc_unwind(c->cur_act);
    }
    parc_park(p, &r->lock);
    if (c->wake_killed)
      parc_unwind(c->cur_act);
    if (c->sem_wake == PARC_SEM_HANDED) {
      note_taker(c); /* the unit was given to c by the parc_V that woke it */
      return;
    }
    /* Woken to try again, possibly on another processor. */
    p = parc_self();
    if (!single)
      parc_spin_lock(&r->lock);
    int ok = try_take(r, c);
    if (!ok && !killed(c)) {
      /* Overtaken by a parc_P that came meanwhile: spin, still one of the
       * woken (spin_take), then back to the head of the queue. */
      if (!single)
        parc_spin_unlock(&r->lock);
      c->sem_fails++;
      if (spin_take(p, r, single, 1))
        return;
      woken = 1;
      continue;
    }
    r->nwoken--;
    parc_ctx *w = pass_locked(r);
    if (!single)
      parc_spin_unlock(&r->lock);
    if (w)
      parc_ready(w);
    if (ok) {
      note_taker(c);
      return;
    }
    parc_unwind(c->cur_act); /* killed: the wake-up was passed on */
  }
}

/* The fast path of parc_P and parc_P_at, inlined in each: the site is
 * only handed on when the call must wait.  It costs parc_P_at the argument
 * and a callee-saved register to keep it in (callgrind, uncontended P+V
 * at P = 1: 81 instructions with parc_P_at, 75 with parc_P). */
static inline __attribute__((always_inline)) void sem_P(parc_sem_t *s,
                                                        const parc_wait_site *site) {
  parc_sem_rt *r = sem_of(s);
  check_init(r, "parc_P", site);
  int single = parc_rt.single;
  if (!single)
    parc_yield_to_pinned();
  if (PARC_UNLIKELY(parc_rt.sched_random))
    parc_random_yield();
  parc_poll();
  if (take(r, single, 0))
    return;
  sem_P_slow(r, single, site);
}

void parc_P(parc_sem_t *s) { sem_P(s, NULL); }

void parc_P_at(parc_sem_t *s, const parc_wait_site *site) { sem_P(s, site); }

/* parc_V and parc_V_at: the site only names the call in an error. */
static inline __attribute__((always_inline)) void sem_V(parc_sem_t *s,
                                                        const parc_wait_site *site) {
  parc_sem_rt *r = sem_of(s);
  check_init(r, "parc_V", site);
  int single = parc_rt.single;
  if (single) {
    if (PARC_UNLIKELY(!parc_self()) && !parc_main_proc()) {
      post_V(r, site); /* a thread of the program's own (above) */
      return;
    }
  } else {
    /* Given back by the activity that took it: a lock's holder, who may
     * take it again at once (parc_sem_spin's watch).  A context remembers
     * only the last semaphore it took, so a holder of two locks that gives
     * the outer one back last is not seen as its holder. */
    parc_ctx *c = this_ctx();
    unsigned held = c && holds(c, r);
    if (held)
      c->sem_held = NULL;
    parc_spin_lock(&r->lock);
    __atomic_store_n(&r->watch, (r->watch & ~1u) | held, __ATOMIC_RELAXED);
  }
  int v = units(r);
  if (PARC_UNLIKELY(v == INT_MAX)) {
    /* The value wrapped to INT_MIN, and the next parc_P was reported as a
     * deadlock (tester: 2^31 parc_V in a row). */
    if (!single)
      parc_spin_unlock(&r->lock);
    parc_fatal_sem_overflow(r, site);
  }
  set_units(r, v + 1);
  parc_ctx *w = pass_locked(r);
  if (!single)
    parc_spin_unlock(&r->lock);
  if (w)
    parc_ready(w);
  if (!single)
    parc_yield_to_pinned(); /* w, say, if it is pinned to this processor */
  if (PARC_UNLIKELY(parc_rt.sched_random))
    parc_random_yield();
}

void parc_V(parc_sem_t *s) { sem_V(s, NULL); }

void parc_V_at(parc_sem_t *s, const parc_wait_site *site) { sem_V(s, site); }

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
