/* processor.c - processors: worker threads, the get_work scheduler loop,
 * ready lists, parking, and idle/sleep.
 *
 * ==== How libparc runs PARC programs (design essay) =========================
 *
 * Concepts (MAXI sections 3-5; see also docs/design.md section 2).
 *
 *   Processor   One pthread per processor, P = PARC_NPROCS.  Processor 0 is
 *               the main thread.  Threads are created at the first construct
 *               (lazy start), so a program that never spawns runs none.
 *   Descriptor  One construct execution (parc_drt, in the parent's frame):
 *               count, claim counter, termination counter, barrier, kill
 *               state, range.  Listed on the spawning processor's descriptor
 *               list while it has unclaimed activities (P > 1 only).
 *   Batch       A contiguous run [next, end) of one descriptor's activities,
 *               executed by one call of the body function on one context.
 *   Rep         "Representative" (MAXI 5.2): a share claimed from a descriptor
 *               but not running yet; here, the remainder of a batch whose
 *               current activity blocked.  Per-processor list.
 *   Envelope    A user-level context (mmap'd stack + saved registers) that
 *               runs batches one after another (MAXI 5.1).  Pooled per
 *               processor; bounded pools spill to an overflow that
 *               other processors take from (context.c).
 *   Context     Envelopes plus the root context (main on its native stack)
 *               and the per-processor scheduler contexts running get_work.
 *
 * The parent is an envelope for its own children.  parc_spawn claims
 * ceil(remaining/P) activities at a time from the descriptor (guided
 * self-scheduling, MAXI 5.2; a parblock's sections one at a time,
 * parc_share; the first share before publishing the
 * descriptor to thieves) and runs them inline, on its own stack,
 * inside a setjmp-protected batch, until nothing is left to claim.  Only
 * activities an idle processor actually took run elsewhere (the lazy-help of
 * WorkCrews and PACLIB's virtual tasks).  At P = 1 the parent claims all at
 * once, the descriptor is never listed, and the construct costs a few stores,
 * a setjmp and the body call: no lock, no atomic RMW, no allocation.  At
 * P > 1 the same holds while no processor is idle: the descriptor stays
 * private to its parent's context, which claims all of it at once too, and
 * is listed, less the parent's first share, only when a processor turns
 * hungry (it is then seen at the parent's next spawn or poll point:
 * the help request rides on the word parc_poll loads) or before the parent
 * blocks (parc_publish_chain; docs/design.md "Fine-grain fast path").  A
 * listed 2-section parblock costs two atomic RMWs (descriptor.c, Spawn).
 *
 * The parent runs ONLY its own descriptor's activities inline.  Running
 * unrelated work on a waiting parent's stack (Cilk-style "leapfrogging" done
 * naively) deadlocks: the unrelated activity may block on something the
 * parent's continuation must produce, and the parent cannot resume until the
 * activity above it on its stack returns.
 *
 * get_work, per processor, in order (MAXI 4.1 + 4.2):
 *   1. its ready list (contexts resumed by a V, a barrier release, or the
 *      last child of a parent waiting at epar: MAXI's termination lists),
 *      then the activities barriers released from a stackless sync (run
 *      by an envelope in resume mode: frame.c; "Resume lists" below);
 *   2. its own reps (innermost first; but a descriptor nested in the head
 *      rep's construct comes before that rep), then the newest descriptor
 *      of its own list with unclaimed activities (depth first, cache warm);
 *   3. its mapped-lparfor inbox (chunk `id` of a posted mapped lparfor),
 *      newest first, the oldest at every PARC_INBOX_FAIR-th take; while
 *      chunks wait, every PARC_INBOX_TURN-th take of 2-3 is a chunk
 *      (take_own); then the released activities that a context took and
 *      gave back because it blocked before running them;
 *   4. steal: the OLDEST descriptor with unclaimed activities of another
 *      processor (breadth first, MAXI 4.1), claiming a share (parc_share);
 *      failing that, half of another processor's oldest rep;
 *   5. steal half of another processor's resume list, or a ready context
 *      of another processor unless it is pinned (the root context stays
 *      on processor 0; mapped chunks on their processor);
 *   6. idle: spin about PARC_SPIN_NS with `pause`, then sleep on a condvar.
 * About once a millisecond while 1 keeps it from the rest, the processor's
 * own work and its oldest resumed activities get a turn ("Turns").
 * Work found in 2-4 runs in an envelope taken from the pool (created if the
 * pool is empty).  One envelope per processor suffices while nothing blocks,
 * so `parfor` of 10,000 independent activities creates at most P envelopes.
 *
 * Blocking.  An activity blocks in sync, in parc_P, or as a parent at epar
 * waiting for children other processors took.  First the context's batch
 * chain is cut (parc_detach_chain): for each batch from the innermost out, the
 * activities already terminated are accounted, and the not-yet-started
 * remainder becomes a rep of the current processor, so that a blocked
 * activity never holds back its siblings (and `parfor N { sync; }` works at
 * P = 1).  Then the context parks.  An activity of a parfor body that
 * waits at sync usually does not block at all: it leaves its locals in a
 * frame and returns to its body function's loop, and the barrier's release
 * puts the frame on a resume list that get_work serves right after the
 * ready list (frame.c, "stackless sync").
 *
 * Parking protocol (as Go's gopark/park_m: the unlock happens on the
 * scheduler's stack, after the parked context's registers are saved):
 *   a. the blocker takes the lock L of the object it waits on (semaphore,
 *      descriptor), enqueues its context there, and registers it in its
 *      processor's blocked list (kill delivery, kill.c);
 *   b. it sets p->after = UNLOCK(L) and switches to p's scheduler;
 *   c. the scheduler, now running, releases L (release store).
 * A waker needs L to dequeue the context (acquire), so it can only find the
 * context after step c, when its saved state is complete: a wake-up is never
 * lost (the waiter is enqueued before L is released) and a context is never
 * resumed half-saved.  The waker then calls parc_ready, which appends the
 * context to a ready list under that list's lock; whoever pops it under the
 * same lock sees everything the context wrote before parking.
 *
 * Parent resumption at epar (descriptor.c) follows the same pattern with the
 * descriptor lock: non-parent finishers decrement `unfinished` under d->lock
 * and, on reaching zero, take the parked parent out of d->waiter and ready it
 * after unlocking; the parent checks `unfinished` under d->lock before
 * parking.  A finisher touches nothing in d after its unlock, and the parent
 * leaves only after taking d->lock itself whenever any activity ran
 * elsewhere, so the descriptor (on the parent's stack) is never freed under a
 * finisher.
 *
 * Sleeping without lost wake-ups (ordered by the list locks, which TSan
 * sees; no bare fences, and no RMW on the pusher's side, which is the spawn
 * path):
 *   sleeper: store sleeping = 1; nsleeping += 1; then re-check every list it
 *            could take work from, each under its own lock (work_recheck);
 *            sleep on its condvar only if all are empty.
 *   pusher:  publish the work under the list's lock, unlock; then load
 *            nsleeping / the target's sleeping flag; if set, clear it under
 *            the target's idle mutex and signal.
 * Either the sleeper's locked re-check of that list comes after the pusher's
 * unlock (it sees the work), or it comes before the pusher's lock, and then
 * the sleeper's store of `sleeping`, sequenced before its lock, happens
 * before the pusher's load (it wakes the sleeper).  The work hints (nwork,
 * nready, ninbox) only steer the spinning phase.
 *
 * Rejected approaches.
 *   - One global work queue (MAXI 4.1 as published): every spawn and claim
 *     would contend on one lock; per-processor lists keep the owner's path
 *     local and let thieves take breadth-first from the oldest end.
 *   - A thread (or envelope) per activity: an mmap + switch per activity,
 *     thousands of stacks for `parfor 10000`.  Envelopes multiply only when
 *     activities block.
 *   - Busy-waiting barriers with yield (MAXI 4.2/5.4): O(N^2/P^2) for
 *     `parfor N { sync; }`; here waiters park and the last arrival readies
 *     them all at once, O(N).
 *   - Work-stealing deques of single activities (Cilk/Chase-Lev): PARC spawns
 *     groups, and one descriptor with a claim counter represents any number
 *     of activities in O(1) space; GSS claims give logarithmically many
 *     steals per construct.
 *   - Pthread mutexes for the short locks: they cannot be released by the
 *     scheduler on behalf of a parked fiber (TSan checks the owner), and a
 *     futex syscall is never needed for sections this short.
 *   - Interrupts for kill (MAXI 6.1 used inter-processor interrupts): signals
 *     cannot stop code at a safe point; polling at back-edges can (kill.c).
 *   - Strictly per-processor envelope pools: a context ends on whichever
 *     processor resumed it last, so envelopes drifted to some processors
 *     while others kept creating (7,000 envelopes after 300 rounds of
 *     `parfor 1000 { sync; }` at P = 4; with the overflows, 1,230 after 100).
 * =============================================================================
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

__thread parc_proc *parc_tls_proc __attribute__((tls_model("initial-exec")));

#if !defined(__x86_64__)
parc_proc *parc_self(void) { return parc_tls_proc; }
#endif

static parc_ctx root_ctx; /* main(), on the main thread's native stack */

parc_hunger parc_hunger_;

parc_ctx *parc_root_ctx(void) { return &root_ctx; }

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

static int fork_lost; /* a child of fork() that lost processors with work (see "fork()") */
static _Noreturn void fork_lost_fatal(void);

void parc_spin_lock_slow(parc_spin *l) {
  for (unsigned i = 0;; i++) {
    if (__atomic_load_n(&l->v, __ATOMIC_RELAXED) == 0 &&
        __atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE) == 0) /* acquire: see parc_spin_lock */
      return;
    if (i < PARC_LOCK_SPINS) {
      cpu_relax();
    } else {
      sched_yield(); /* the holder may be descheduled (more processors than cores) */
      if (PARC_UNLIKELY(fork_lost) && i > PARC_LOCK_SPINS + (1u << 20))
        fork_lost_fatal(); /* held by a thread that the fork left behind */
    }
  }
}

/* Work hints (nwork, nready, ninbox): changed only under the lock of the
 * list they describe, so a relaxed load + store is enough (no RMW: this is
 * on the spawn path); read without the lock by idle processors, for whom a
 * stale hint only costs a spin.  Sleeping never relies on them (idle()). */
static inline void hint_add(int *h, int v) {
  __atomic_store_n(h, __atomic_load_n(h, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}
static inline int hint_get(int *h) { return __atomic_load_n(h, __ATOMIC_RELAXED); }

/* p->lock held: count a listed descriptor or rep in or out, and publish the
 * nwork hint only when the lists become empty or non-empty. */
static inline void work_add(parc_proc *p, int v) {
  int was = p->nlisted;
  p->nlisted = was + v;
  if ((was == 0) != (was + v == 0))
    __atomic_store_n(&p->nwork, was + v != 0, __ATOMIC_RELAXED); /* hint only */
}

/* ---- The main thread ---------------------------------------------------------
 * Processor 0 is the process's main thread, the one that runs main(): the
 * thread whose id is the process id.  It was the thread that ran the
 * runtime's constructor, which is main's only when the program itself
 * carries the runtime, or loads the library that does before it creates
 * threads: a library built by `parcc -shared` that a helper thread loaded
 * with dlopen made that helper processor 0, so main's own call of the
 * library's constructs stopped as one from a thread libparc did not
 * create, and the helper's succeeded (docs/guide.md, "Threads of your
 * own", says the opposite).  So the constructor binds processor 0 only
 * on the main thread, and the main thread binds it otherwise at its first
 * construct or parc_P that must wait (parc_main_proc, on the path where
 * parc_self() is NULL, which costs the others nothing).  The binding is
 * the thread's parc_tls_proc, which a fork keeps for the thread that
 * called it: in the child that thread is the main one, and runs
 * constructs if it was main in the parent, or if the runtime had not
 * started there.  A child forked by another thread after the first
 * construct has no processor 0: its state is that of the parent's main
 * thread, which the fork did not copy (fork_child sets main_lost). */
static int main_lost;

static int is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

static void bind_main(void) {
  parc_tls_proc = &parc_rt.procs[0];
  parc_exit_gate_thread();
}

/* A thread found not to be main's remembers it, with the fork generation
 * of the time: is_main_thread's two system calls were most of the cost of
 * a parc_V from a thread of the program's own at P = 1 (10 million took
 * 3.4 s, 0.07 s at P = 2).  A fork's child starts a new generation (the
 * thread that forked is its main one); the handler is registered by the
 * first thread that remembers, before it remembers. */
static __thread unsigned not_main_gen __attribute__((tls_model("initial-exec")));
static unsigned fork_gen = 1; /* atomic: written only in a child, alone */
static pthread_once_t fork_gen_once = PTHREAD_ONCE_INIT;

static void fork_gen_bump(void) {
  __atomic_store_n(&fork_gen, __atomic_load_n(&fork_gen, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
}

static void fork_gen_register(void) { pthread_atfork(NULL, NULL, fork_gen_bump); }

parc_proc *parc_main_proc(void) {
  parc_init();
  if (!parc_tls_proc && !main_lost) {
    unsigned gen = __atomic_load_n(&fork_gen, __ATOMIC_RELAXED);
    if (not_main_gen != gen) {
      if (is_main_thread()) {
        bind_main();
      } else {
        pthread_once(&fork_gen_once, fork_gen_register);
        not_main_gen = gen; /* only a child changes it, where this thread is alone */
      }
    }
  }
  return parc_tls_proc;
}

/* ---- Set-up --------------------------------------------------------------- */

void parc_procs_init(void) {
  int P = parc_rt.P;
  parc_proc *procs = aligned_alloc(PARC_CACHELINE, sizeof(parc_proc) * (size_t)P);
  if (!procs)
    parc_fatal(1, "cannot allocate %d processors", P);
  memset(procs, 0, sizeof(parc_proc) * (size_t)P);
  for (int k = 0; k < P; k++) {
    parc_proc *p = &procs[k];
    p->id = k;
    p->cpu = -1;
    p->trace_last = k == 0 ? 0 : -1; /* processor 0 runs main's context first */
    pthread_mutex_init(&p->idle_mu, NULL);
    pthread_cond_init(&p->idle_cv, NULL);
  }
  parc_rt.procs = procs;
  root_ctx.last = &procs[0];
  procs[0].cur = &root_ctx;
  if (is_main_thread())
    bind_main();
}

static void get_work(parc_proc *p);

static void sched_entry(parc_ctx *c) {
  (void)c;
  get_work(parc_self());
}

static void *worker_main(void *arg) {
  parc_proc *p = arg;
  parc_tls_proc = p;
  /* For the user's tools (gdb's info threads, top -H) and for
   * parc_fatal_foreign, which tells another copy's processors by it. */
  char name[16];
  snprintf(name, sizeof name, PARC_THREAD_NAME "%d", p->id);
  pthread_setname_np(pthread_self(), name);
  int cpu = parc_rt.pin ? parc_pin_self(p->id) : -1;
  if (cpu < 0)
    cpu = sched_getcpu(); /* unpinned: where it started */
  /* relaxed: a report only */
  __atomic_store_n(&p->cpu, cpu, __ATOMIC_RELAXED);
  parc_sigsegv_init_thread(0);
  parc_exit_gate_thread();
  p->sched = &p->sched_ctx;
  parc_ctx_init_native(p->sched);
  p->cur = p->sched;
  __atomic_add_fetch(&parc_rt.running, 1, __ATOMIC_RELEASE); /* parc_procs_start waits */
  get_work(p); /* returns only when told to quit (parc_procs_join_at_exit) */
  return NULL;
}

static void fork_prepare(void);
static void fork_parent(void);
static void fork_child(void);
static void start_workers(void);
static void stop_workers(void);
static void watch_main_thread(void);

/* Called under parc_rt.start_lock by the first construct, and by the first
 * one in a child process that fork() left without its workers (fork_child). */
void parc_procs_start(void) {
  parc_proc *p0 = &parc_rt.procs[0];
  if (p0->sched) { /* set up before a fork: only the workers are gone */
    start_workers();
    return;
  }
  parc_pin_init();
  parc_ctx_init_native(&root_ctx);
  /* After parc_ctx_init_native, which leaves a context unpinned: main's
   * context stays on processor 0 (the main thread), so an idle processor
   * never steals it from processor 0's ready list (steal_ready). */
  root_ctx.pin = 0;
  parc_sched_ctx_make(p0, sched_entry);
  parc_sigsegv_install();
  parc_sigsegv_init_thread(1); /* main's: the program's own stays */
  int cpu = parc_rt.P > 1 && parc_rt.pin ? parc_pin_self(0) : -1;
  /* relaxed: a report only (stats.c) */
  __atomic_store_n(&p0->cpu, cpu >= 0 ? cpu : sched_getcpu(), __ATOMIC_RELAXED);
  /* At any P: a child forked by a thread other than main's loses
   * processor 0 too ("The main thread"). */
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  if (parc_rt.P > 1)
    watch_main_thread();
  start_workers();
}

/* Create processors 1..P-1's threads and wait until they run.
 *
 * Each counts as hungry from here on (born_hungry), until it first runs
 * work or enters idle(), which keeps the count: the construct that started
 * the runtime, and any spawned before a worker reaches idle(), then
 * publishes its descriptor at once (descriptor.c, lazy_ok) rather than
 * keeping it private until a poll answers a help request.  Without it, a
 * first activity that runs long without a poll (a counted loop over an
 * array) kept its siblings: the classic two-halves sum, `parblock { for
 * (i = 0; i < N/2; i++) s1 += a[i]; } : { ...second half... } epar`, as
 * the program's first construct ran both halves on processor 0 at P = 3
 * and 4 on 2 CPUs (where the wait below is skipped), and at P = 2 when
 * the worker lost the race to idle(). */
/* The stack size of a worker's thread: PARC_WORKER_STACK (config.h) plus
 * what glibc takes out of a thread's stack for the program's static TLS
 * and its own descriptor, which __pthread_get_minstack tells (Rust's
 * standard library asks it too): a program with a large __thread array
 * would have no stack left, or pthread_create would refuse (EINVAL). */
static size_t worker_stack(const pthread_attr_t *a) {
  static size_t (*minstack)(const pthread_attr_t *);
  static int looked;
  if (!looked) { /* main's thread only (start_workers) */
    *(void **)&minstack = dlsym(RTLD_DEFAULT, "__pthread_get_minstack");
    looked = 1;
  }
  size_t base = (PARC_ASAN || PARC_TSAN ? 4 : 1) * (size_t)PARC_WORKER_STACK;
  return base + (minstack ? minstack(a) : (size_t)PTHREAD_STACK_MIN);
}

/* Is RLIMIT_AS finite?  Read once. */
static int aspace_limited(void) {
  static int limited = -1;
  if (limited < 0) {
    struct rlimit rl;
    limited = getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
  }
  return limited;
}

/* The address space a worker takes: its stack, glibc's guard page and its
 * signal stack with its guard page (context.c). */
static size_t worker_cost(void) {
  pthread_attr_t a;
  pthread_attr_init(&a);
  size_t cost = worker_stack(&a) + 2 * parc_rt.page + PARC_ALTSTACK;
  pthread_attr_destroy(&a);
  return cost;
}

/* The room a worker needs to start: its cost and 2 MiB to spare (for its
 * first malloc, create_worker). */
static size_t worker_room(void) { return worker_cost() + ((size_t)2 << 20); }

static void idle_set(sigset_t *s);

/* Create processor k's thread, with the stack of worker_stack, pinned with
 * PARC_PIN; returns 0 or an errno value. */
static int create_worker(parc_proc *p, int k) {
  /* Under a finite ulimit -v, a thread must fit with room to spare: its
   * first malloc (the exit gate's, init.c) that cannot be had is glibc's
   * fatal error ("failed to register TLS destructor"), not ours.  And the
   * threads start one at a time (start_workers): each one's malloc arena,
   * reserved as 128 MiB and then trimmed to 64, left none at that instant
   * for another's first malloc (that error, 3 runs in 5 of 1024 processors
   * under ulimit -v 300000). */
  uint64_t limit;
  int arenas;
  if (aspace_limited() && parc_aspace_full(worker_room(), &limit, &arenas))
    return EAGAIN;
  int e = EINVAL;
  /* The thread starts with every signal blocked but the runtime's, and
   * takes the published mask with its first work ("Signal masks"). */
  sigset_t idle, own;
  idle_set(&idle);
  pthread_sigmask(SIG_SETMASK, &idle, &own);
  /* Pinned first; then (the CPU went away) anywhere, pinned later; then
   * with glibc's default stack, should the size be refused. */
  for (int tries = parc_rt.pin ? 0 : 1; e == EINVAL && tries < 3; tries++) {
    pthread_attr_t a;
    pthread_attr_init(&a);
    if (tries == 0)
      parc_pin_attr(&a, k);
    if (tries < 2)
      pthread_attr_setstacksize(&a, worker_stack(&a));
    e = pthread_create(&p->thread, &a, worker_main, p);
    pthread_attr_destroy(&a);
  }
  pthread_sigmask(SIG_SETMASK, &own, NULL);
  return e;
}

/* Processor k's thread could not be created (errno value e).  Under a
 * finite `ulimit -v` that it no longer fits under, say what a processor
 * costs and what to change (aspace.c). */
static _Noreturn void worker_failed(int k, int e) {
  size_t cost = worker_cost();
  uint64_t limit;
  int arenas;
  if ((e == EAGAIN || e == ENOMEM) && parc_aspace_full(worker_room(), &limit, &arenas)) {
    char heaps[200] = "";
    if (arenas)
      snprintf(heaps, sizeof heaps, ", and glibc's malloc reserves %d MiB more for each "
               "thread's arena (%d reserved now)", PARC_ARENA_MIB, arenas);
    parc_fatal(1, "cannot create processor %d's thread (of PARC_NPROCS=%d): the address-space "
               "limit (ulimit -v %llu) is reached: each processor takes %zu KiB for its "
               "thread's stacks%s; a smaller PARC_NPROCS%s, or a larger ulimit -v, may help",
               k, parc_rt.P, (unsigned long long)limit, cost / 1024, heaps,
               arenas ? ", MALLOC_ARENA_MAX=1" : "");
  }
  parc_fatal(1, "cannot create processor %d's thread (of PARC_NPROCS=%d): %s; "
             "a smaller PARC_NPROCS, or a larger address-space or thread limit, may help",
             k, parc_rt.P, strerror(e));
}

static void start_workers(void) {
  __atomic_fetch_add(&parc_hunger_.n, parc_rt.P - 1, __ATOMIC_RELAXED);
  for (int k = 1; k < parc_rt.P; k++) {
    parc_proc *p = &parc_rt.procs[k];
    p->born_hungry = 1; /* before its thread exists: it reads this */
    /* Joinable (parc_procs_join_at_exit), though they never end otherwise. */
    int e = create_worker(p, k);
    if (e != 0)
      worker_failed(k, e);
    if (aspace_limited()) /* one at a time (create_worker) */
      while (__atomic_load_n(&parc_rt.running, __ATOMIC_ACQUIRE) < k)
        sched_yield();
  }
  /* Wait until every worker runs its scheduler, as OpenMP's first parallel
   * region waits for its team: pthread_create returns long before the new
   * thread has been scheduled, pinned itself and set up its signal stack
   * (30-70 us here), and a first construct that returned sooner left its
   * activities, and the constructs right after it, to processor 0 alone
   * for that long (the second chunk of an lparfor of 5 ms started 30-70 us
   * late).  Not with more processors than CPUs: they cannot all run at
   * once anyway, and main would wait for a thousand threads to be
   * scheduled in turn (PARC_NPROCS=1024 on 2 CPUs: 0.9 s to start became
   * 2-4 s). */
  if (parc_rt.cpus >= parc_rt.P)
    while (__atomic_load_n(&parc_rt.running, __ATOMIC_ACQUIRE) < parc_rt.P - 1)
      sched_yield();
}

/* ---- fork() ------------------------------------------------------------------
 *
 * The child of a fork has one thread, the one that called fork: processors
 * 1..P-1 have no thread there, and a construct that needed one (the chunk k
 * of a mapped lparfor, an activity left on another processor's lists while
 * main waits) hung for ever.  Two cases:
 *
 * main's own code, outside every construct (main's context running on
 * processor 0): no activity exists anywhere, so every worker goes to sleep
 * within PARC_SPIN_NS.  fork_prepare waits for that and keeps each one in
 * its condvar wait by holding its idle mutex, so that none holds a list
 * lock or is half-way through an update when the process is copied.  In
 * the child, fork_child resets their idle state and marks the runtime not
 * started: the child's first construct creates new workers (parc_start), as
 * the program's first one did, and a child that only calls exec creates
 * none.  OpenMP's libomp does the same; gcc's libgomp hangs there.
 *
 * Inside an activity (or a worker that did not fall asleep within ten
 * seconds, which should not happen): the activities of the other processors are lost
 * with their threads, and POSIX allows the child of a multithreaded process
 * only async-signal-safe calls until it calls exec.  The child may still run
 * what its thread can run alone; when it would wait for what is lost, it
 * stops with an error (idle_wait) instead of hanging. */
static int fork_quiet; /* fork_prepare holds every worker's idle mutex */

/* If the caller is main's own code outside every construct, wait until
 * every worker sleeps (within PARC_SPIN_NS: no activity exists), and return
 * 1 holding each one's idle mutex, which keeps it in its condvar wait.
 * Otherwise (inside an activity, not a thread of the runtime's, or a worker
 * still awake after ten seconds, which should not happen) return 0. */
static int hold_workers_asleep(void) {
  if (!__atomic_load_n(&parc_rt.started, __ATOMIC_ACQUIRE))
    return 0;
  parc_proc *self = parc_tls_proc;
  if (self != &parc_rt.procs[0] || self->cur != &root_ctx || root_ctx.cur_act)
    return 0;
  uint64_t t0 = parc_now_ns();
  for (int k = 1; k < parc_rt.P; k++) {
    parc_proc *p = &parc_rt.procs[k];
    for (;;) {
      pthread_mutex_lock(&p->idle_mu);
      if (p->asleep)
        break; /* in its condvar wait, which it cannot leave while we hold idle_mu */
      pthread_mutex_unlock(&p->idle_mu);
      if (parc_now_ns() - t0 > 10000000000u) {
        while (--k >= 1)
          pthread_mutex_unlock(&parc_rt.procs[k].idle_mu);
        return 0;
      }
      sched_yield();
    }
  }
  return 1;
}

/* The workers are gone (joined, or not copied by fork): forget their idle
 * state, and if `restart`, mark the runtime not started, so that the next
 * construct creates new ones (parc_start). */
static void forget_workers(int restart) {
  for (int k = 0; k < parc_rt.P; k++) {
    parc_proc *p = &parc_rt.procs[k];
    if (p == parc_tls_proc)
      continue;
    /* Their idle mutexes may be held (by this thread, after fork_prepare;
     * by a lost one, otherwise), so a wake-up would block. */
    pthread_mutex_init(&p->idle_mu, NULL);
    pthread_cond_init(&p->idle_cv, NULL);
    p->sleeping = p->asleep = p->quit = p->born_hungry = 0;
    p->sig_gen = p->sig_state = PARC_SIG_IDLE; /* new threads start so (create_worker) */
  }
  parc_rt.nsleeping = parc_rt.nasleep = 0;
  parc_hunger_.n = 0; /* the sleepers counted themselves hungry */
  if (!restart)
    return;
  parc_rt.running = 0;
  parc_rt.start_lock.v = 0;
  parc_rt.started = 0;
}

static void fork_prepare(void) { fork_quiet = hold_workers_asleep(); }

static void fork_parent(void) {
  if (fork_quiet)
    for (int k = 1; k < parc_rt.P; k++)
      pthread_mutex_unlock(&parc_rt.procs[k].idle_mu);
  fork_quiet = 0;
}

static void fork_child(void) {
  if (!__atomic_load_n(&parc_rt.started, __ATOMIC_ACQUIRE))
    return;
  if (parc_tls_proc != &parc_rt.procs[0])
    main_lost = 1; /* see "The main thread" */
  /* The other processors have no thread here: nobody sleeps on their idle
   * condvars. */
  forget_workers(fork_quiet);
  if (!fork_quiet)
    fork_lost = 1;
  fork_quiet = 0;
}

/* ---- Signal masks -----------------------------------------------------------
 * A thread starts with the signal mask of the thread that creates it, and
 * the processors' threads are created by main's thread at the first
 * construct: they kept main's mask of that moment for ever.  A signal that
 * main blocked then (or the one whose handler, run by raise, started the
 * first construct) stayed blocked in every activity on processors 1..P-1,
 * where a raise() stayed pending (a tester's count of handler entries for
 * 8 raises: 3 to 5 at P = 2), and a signal that main blocked later could
 * be delivered to a processor's thread, which did not block it.
 *
 * An activity runs with the mask that main's thread had when it started
 * the construct at the root of the activity's tree (main's latest
 * construct of its own code: no batch on main's context), as at P = 1,
 * where main's thread runs everything.  At such a construct (P > 1 only)
 * main reads its mask, one rt_sigprocmask call (nested constructs, the
 * millions of a recursion, pay nothing), and if it differs from the one
 * published it publishes it: the copy under sigmask_lock and a new
 * generation (parc_sigmask_publish).  A processor whose generation differs
 * takes the published mask (pthread_sigmask) before it runs work
 * (first_work: a relaxed load and a compare) and while it spins for work.
 * Before it sleeps it blocks every signal instead (sigmask_idle, one call
 * beside the futex wait it is about to make), and a new thread starts so
 * (create_worker): a signal sent to the process goes to a thread that
 * does not block it, main's or one running activities, as it goes to
 * main's alone at P = 1.
 *
 * So that no activity of the new construct runs while a processor still
 * leaves unblocked a signal that main now blocks (a kill() sent from the
 * activity would go to that thread), main waits after publishing until
 * every processor has taken the new mask or blocks everything.  Nothing
 * of the program runs on them while main is in its own code (every
 * activity has ended at the epar of its root), so they answer within
 * microseconds: the spin looks at the generation, the sleepers block
 * everything already, the others are on their way to one or the other.
 * The wait is bounded (PARC_SIGMASK_WAIT_NS) for what the contract does
 * not cover, a construct in a signal handler that interrupted main's.
 * The handshake is sig_state, sequentially consistent as in Dekker's: a
 * processor announces PARC_SIG_CHANGING before it reads the generation to
 * leave PARC_SIG_IDLE, and main stores the generation before it reads
 * sig_state, so either main sees the announcement (and waits) or the
 * processor reads the new generation.
 *
 * The runtime's own needs come first: SIGSEGV stays unblocked on the
 * processors' threads whatever main's mask (the stack-overflow report,
 * context.c; a fault with it blocked kills the process anyway).  No other
 * signal is the runtime's.  Processor 0 is main's thread: its mask is
 * main's own, never set here, and the envelopes it runs while main's
 * context is parked run with it.  An activity that changes its mask
 * changes its processor thread's, until that processor next takes a
 * published one or sleeps: like the floating-point modes, it should put
 * it back before it blocks or ends.  In a child of fork the new
 * processors start blocked, as at the first construct, and take the
 * published mask (the parent's, copied) with their first work.
 *
 * Left open: a processor keeps the mask of the activities it ran while it
 * spins for new work, up to PARC_SPIN_NS after its last one; a signal
 * that main's own code blocks right after a construct and that is sent to
 * the process within that time may reach it.  Blocking everything at each
 * idle() and taking the mask back at each take would narrow that to the
 * few microseconds between an activity's end and its processor's idle(),
 * for two system calls per idle spell on the path to new work. */

/* The published mask (main's at its latest construct of its own), written
 * by main's thread only, read under the lock; the generation (atomic): 0
 * until the first publication, then 2, 3, ... (PARC_SIG_IDLE and
 * PARC_SIG_CHANGING are never generations).  On a line of their own: the
 * generation is read at every take of work. */
static struct {
  _Alignas(PARC_CACHELINE) unsigned gen;
  parc_spin lock;
} sigmask_pub;
static sigset_t sigmask_set;

/* The part of a sigset_t that the kernel reads and writes (the rest of
 * glibc's 1024 bits is never touched by rt_sigprocmask). */
#define SIGSET_BYTES ((size_t)(_NSIG - 1 + 7) / 8)

/* What a processor's thread never blocks (see above). */
static void runtime_signals(sigset_t *s) { sigdelset(s, SIGSEGV); }

/* The mask of an idle processor: everything blocked but the runtime's. */
static void idle_set(sigset_t *s) {
  sigfillset(s);
  runtime_signals(s);
}

/* p (not processor 0) takes the published mask. */
static __attribute__((noinline)) void sigmask_take(parc_proc *p) {
  /* seq_cst: ordered before the generation's read (see above) */
  __atomic_store_n(&p->sig_state, PARC_SIG_CHANGING, __ATOMIC_SEQ_CST);
  parc_spin_lock(&sigmask_pub.lock);
  sigset_t s = sigmask_set;
  unsigned g = __atomic_load_n(&sigmask_pub.gen, __ATOMIC_SEQ_CST);
  parc_spin_unlock(&sigmask_pub.lock);
  if (g == PARC_SIG_IDLE)
    idle_set(&s); /* nothing published yet */
  else
    runtime_signals(&s);
  pthread_sigmask(SIG_SETMASK, &s, NULL);
  p->sig_gen = g;
  __atomic_store_n(&p->sig_state, g, __ATOMIC_SEQ_CST);
}

/* Before p runs work: the published mask, unless p has it (or is main's
 * thread). */
static inline void sigmask_check(parc_proc *p) {
  if (PARC_UNLIKELY(__atomic_load_n(&sigmask_pub.gen, __ATOMIC_RELAXED) != p->sig_gen) && p->id)
    sigmask_take(p);
}

/* In idle's spin: a processor that runs with a mask (not asleep's, not
 * main's thread) takes a newer one, which main may be waiting for. */
static inline void sigmask_spin(parc_proc *p) {
  if (p->sig_gen != PARC_SIG_IDLE &&
      PARC_UNLIKELY(__atomic_load_n(&sigmask_pub.gen, __ATOMIC_RELAXED) != p->sig_gen))
    sigmask_take(p);
}

/* p is about to sleep: block everything but the runtime's signals. */
static void sigmask_idle(parc_proc *p) {
  if (p->sig_gen == PARC_SIG_IDLE) /* and processor 0's, always */
    return;
  sigset_t s;
  idle_set(&s);
  pthread_sigmask(SIG_SETMASK, &s, NULL);
  p->sig_gen = PARC_SIG_IDLE;
  __atomic_store_n(&p->sig_state, PARC_SIG_IDLE, __ATOMIC_SEQ_CST);
}

/* main's thread, at a construct of its own code, P > 1. */
void parc_sigmask_publish(void) {
  sigset_t cur;
  sigemptyset(&cur);
  pthread_sigmask(SIG_SETMASK, NULL, &cur);
  /* Only main's thread writes the copy: it may read it unlocked. */
  unsigned g = __atomic_load_n(&sigmask_pub.gen, __ATOMIC_RELAXED);
  if (PARC_LIKELY(g != PARC_SIG_IDLE) && memcmp(&cur, &sigmask_set, SIGSET_BYTES) == 0)
    return;
  parc_spin_lock(&sigmask_pub.lock);
  sigmask_set = cur;
  g = g + 1 > PARC_SIG_CHANGING ? g + 1 : PARC_SIG_CHANGING + 1;
  __atomic_store_n(&sigmask_pub.gen, g, __ATOMIC_SEQ_CST);
  parc_spin_unlock(&sigmask_pub.lock);
  if (!__atomic_load_n(&parc_rt.started, __ATOMIC_ACQUIRE))
    return; /* no processor yet: each will take it with its first work */
  int oversubscribed = parc_oversubscribed();
  uint64_t t0 = 0;
  for (int k = 1; k < parc_rt.P; k++) {
    parc_proc *q = &parc_rt.procs[k];
    for (unsigned i = 1;; i++) {
      unsigned st = __atomic_load_n(&q->sig_state, __ATOMIC_SEQ_CST);
      if (st == PARC_SIG_IDLE || st == g)
        break;
      if (oversubscribed)
        sched_yield();
      else
        cpu_relax();
      if ((i & 63) == 0 || oversubscribed) {
        uint64_t t = parc_now_ns();
        if (!t0)
          t0 = t;
        else if (t - t0 > PARC_SIGMASK_WAIT_NS)
          return;
      }
    }
  }
}

/* ---- Exit under Valgrind ------------------------------------------------------
 * Memcheck's leak check at exit reported each worker thread, still running,
 * as a "possibly lost" block (the thread-local storage vector that
 * pthread_create allocates is known only by an interior pointer): a clean
 * program got P - 1 errors under `valgrind --leak-check=full`.  Under
 * Valgrind only, an exit from main's own code outside every construct (a
 * return from main, the usual case) stops the workers, held as fork_prepare
 * holds them, and joins them.  Called by exit_end (init.c), after the atexit
 * handlers and the program's destructors, whose constructs still had the
 * workers.  Outside Valgrind the process ends with its workers asleep, as
 * it always did: an exit waits for nothing. */
void parc_procs_join_at_exit(void) {
  if (RUNNING_ON_VALGRIND)
    stop_workers();
}

/* Stop and join the workers, if the calling thread is main's, outside every
 * construct, and all of them are asleep. */
static void stop_workers(void) {
  if (parc_rt.P == 1 || !hold_workers_asleep())
    return;
  for (int k = 1; k < parc_rt.P; k++) {
    parc_proc *p = &parc_rt.procs[k];
    p->quit = 1;
    pthread_cond_signal(&p->idle_cv);
    pthread_mutex_unlock(&p->idle_mu);
  }
  for (int k = 1; k < parc_rt.P; k++)
    pthread_join(parc_rt.procs[k].thread, NULL);
  forget_workers(1);
}

/* ---- pthread_exit() in main ---------------------------------------------------
 * In C, main's pthread_exit() ends the main thread and the process ends
 * when its last thread does.  The workers never end, so the process waited
 * for them forever.  Once main's thread is gone, no construct can start
 * (every one needs an activity, and main was the root): this destructor of
 * a key that only main's thread holds (pthread_exit runs key destructors,
 * exit() does not) stops them, and the program's own threads decide when
 * the process ends.  pthread_exit() inside an activity is an error
 * (descriptor.c, parc_run_batch). */
static pthread_key_t main_key;

static void main_thread_gone(void *v) {
  (void)v;
  stop_workers();
}

static void watch_main_thread(void) {
  static int made;
  if (made || pthread_key_create(&main_key, main_thread_gone) != 0)
    return;
  made = 1;
  pthread_setspecific(main_key, &root_ctx);
}

static _Noreturn void fork_lost_fatal(void) {
  parc_fatal(1, "this process was forked inside an activity, and now waits for activities "
                "of processors that did not survive the fork (a child forked there may only "
                "exec or _exit; fork outside every construct to use PARC in the child)");
}

/* ---- Sleeping and waking --------------------------------------------------- */

/* How many times a processor counted in nasleep was woken (see "Deadlock"
 * at idle(): look_all_asleep). */
static uint64_t asleep_wakes;

void parc_wake_proc(parc_proc *q) {
  /* The caller published its work under a list lock that the sleeper's
   * re-check also takes, which orders this load after the sleeper's store
   * whenever the re-check missed the work (see the essay). */
  if (!__atomic_load_n(&q->sleeping, __ATOMIC_SEQ_CST))
    return;
  pthread_mutex_lock(&q->idle_mu);
  if (q->sleeping) {
    /* Changed under idle_mu only; atomic because wakers peek without it. */
    __atomic_store_n(&q->sleeping, 0, __ATOMIC_SEQ_CST);
    __atomic_fetch_sub(&parc_rt.nsleeping, 1, __ATOMIC_SEQ_CST);
    if (q->asleep) { /* see "Deadlock" at idle() */
      q->asleep = 0;
      __atomic_fetch_add(&asleep_wakes, 1, __ATOMIC_SEQ_CST);
      __atomic_fetch_sub(&parc_rt.nasleep, 1, __ATOMIC_SEQ_CST);
    }
    pthread_cond_signal(&q->idle_cv);
  }
  pthread_mutex_unlock(&q->idle_mu);
}

/* Wake one sleeping processor, if any (new stealable work was published). */
void parc_wake_any(void) {
  if (parc_rt.single || __atomic_load_n(&parc_rt.nsleeping, __ATOMIC_SEQ_CST) == 0)
    return;
  static unsigned rot; /* rotate the search start: relaxed, only a hint */
  unsigned start = __atomic_fetch_add(&rot, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < parc_rt.P; i++) {
    parc_proc *q = &parc_rt.procs[(start + (unsigned)i) % (unsigned)parc_rt.P];
    if (__atomic_load_n(&q->sleeping, __ATOMIC_SEQ_CST)) {
      parc_wake_proc(q);
      return;
    }
  }
}

/* Is there anything processor p could do now?  Reads only the hints. */
static int work_visible(parc_proc *p) {
  if (hint_get(&p->nready) || hint_get(&p->nres) || hint_get(&p->ninbox) || hint_get(&p->nwork))
    return 1;
  for (int k = 0; k < parc_rt.P; k++) {
    parc_proc *q = &parc_rt.procs[k];
    if (q != p && (hint_get(&q->nwork) || hint_get(&q->nres)))
      return 1;
  }
  return 0;
}

/* parc_sem_spin saw a unit free that the activity which took the last one
 * gave back: a lock released by its holder.  Taking it moves the lock, and
 * the data it guards, to this CPU; that pays when the holder then works
 * outside the lock a while, in parallel with this taker's critical section,
 * and is lost when the holder takes the lock back at once, as in
 * `for (...) { parc_P(&m); n++; parc_V(&m); }`: then the lock moves at
 * every second parc_P and the pair runs slower than one processor alone.
 * So watch the holder for PARC_SEM_WATCH_NS, without touching the lock:
 * if it took the lock back less often than once per PARC_SEM_ALT_NS, take
 * this unit and the next PARC_SEM_ALT_TAKES such units at once; otherwise
 * take only a unit still free after the watch.  1: take it now. */
static int watch_holder(parc_ctx *c, const int *value, const unsigned *watch) {
  if (c->alt_sem == (const void *)value && c->alt_takes > 0) {
    c->alt_takes--;
    return 1;
  }
  unsigned before = __atomic_load_n(watch, __ATOMIC_RELAXED) >> 1;
  uint64_t start = parc_now_ns(), watched;
  do {
    for (int k = 0; k < 4; k++)
      cpu_relax();
  } while ((watched = parc_now_ns() - start) < PARC_SEM_WATCH_NS);
  unsigned retaken = ((__atomic_load_n(watch, __ATOMIC_RELAXED) >> 1) - before) & (~0u >> 1);
  if ((uint64_t)retaken * PARC_SEM_ALT_NS <= watched) {
    c->alt_sem = value;
    c->alt_takes = PARC_SEM_ALT_TAKES;
  } else {
    c->alt_sem = NULL;
  }
  return __atomic_load_n(value, __ATOMIC_RELAXED) > 0;
}

/* Has p work that it has not started: an activity of c's batches, or a
 * descriptor, representative or released activity on p's lists?  (Hints:
 * c's batches are its own; the lists' counts are read without the locks.) */
static int unstarted_work(parc_proc *p, parc_ctx *c) {
  for (parc_batch *b = c->cur_act; b; b = b->outer)
    if (b->act.next < b->act.end)
      return 1;
  return hint_get(&p->nwork) || hint_get(&p->nres);
}

/* parc_P's spin before it blocks (semaphore.c).  Not at P = 1 (nothing
 * else could give the unit back meanwhile), not under PARC_SCHED=random
 * (whose point is to take the blocking paths), and not while a context is
 * ready on p: it may be the waiter the unit was handed to, or the holder
 * itself, readied after a block inside its critical section.  With more
 * processors than CPUs the holder may be a thread the kernel has taken off
 * its CPU: the spin yields the CPU instead of pausing, so that it can run.
 * (semaphore_convoy.pc at P = 4 and 8 on 2 CPUs, 8 runs each: envelopes
 * 4,000-5,000 -> 14-36 by median, 0.14 -> 0.11 s.  At P <= CPUs a yield
 * hands the CPU to another program's thread as likely as to the holder:
 * 3x slower beside two CPU-bound programs at P = 2.)  But only for a lock:
 * a semaphore whose last unit came back from the context that had taken
 * the one before (the watch bit).  A signal (a unit another activity
 * gives: a ping-pong, a pipeline's stages, a buffer's slots and items) is
 * awaited parked: each yield was a kernel switch to the CPU's other
 * processor thread, spinning or running other stages, before the spinner
 * looked again, and the contexts that waited parked instead gather on
 * fewer processors, where a hand-over is a context switch in user space
 * (2 activities' ping-pong at P = 4 on 2 CPUs: 213 -> 21 ms, as at P = 1;
 * W10, a 9-stage pipeline, at P = 8: 640 -> 101 ms; performance.md,
 * "Oversubscribed semaphores").  Nor for a signal while p has work it has
 * not started (unstarted_work): the spin kept the processor from it, and
 * a signal may be long in coming.  A parfor of 100 activities, each
 * waiting for the next one's signal, spun 4 us at each of its 99 parc_P
 * at P = 2, and took 15 times its P = 1 time; parked, each lets the
 * processor start the next activity, as at P = 1 (W11; performance.md,
 * "Signals beside unstarted work").  *since is 0 on a
 * parc_P's first call and the spin's start after it: a caller that saw a
 * unit but lost it to another taker spins again on what is left of the
 * same budget.  A context that has spun PARC_SEM_SPINS times since it last
 * parked spins no more until it parks (design.md, "Why the spins are
 * counted"): while it spins its processor runs nothing else.  A unit that
 * a lock's holder gave back is taken at once only if the holder is slow to
 * take it back (watch_holder). */
int parc_sem_spin(parc_proc *p, const int *value, const unsigned *watch, uint64_t *since) {
  if (PARC_SEM_SPIN_NS == 0 || parc_rt.single || parc_rt.sched_random)
    return 0;
  int oversubscribed = parc_oversubscribed();
  if (!(__atomic_load_n(watch, __ATOMIC_RELAXED) & 1) &&
      (oversubscribed || unstarted_work(p, p->cur)))
    return 0; /* a signal: wait parked */
  parc_ctx *c = p->cur;
  if (c->spins >= PARC_SEM_SPINS)
    return 0;
  c->spins++;
  if (!*since)
    *since = parc_now_ns();
  else if (parc_now_ns() - *since > PARC_SEM_SPIN_NS)
    return 0; /* lost races alone must not keep it spinning past the budget */
  for (unsigned i = 1;; i++) {
    int check = (i & 15) == 0;
    if (__atomic_load_n(value, __ATOMIC_RELAXED) > 0) {
      if (!(__atomic_load_n(watch, __ATOMIC_RELAXED) & 1) || watch_holder(c, value, watch))
        return 1;
      check = 1; /* the watch took time */
    }
    if (hint_get(&p->nready) || hint_get(&p->ninbox))
      return 0;
    if (oversubscribed)
      sched_yield();
    else
      cpu_relax();
    /* After a yield the clock every round: a yield may take a kernel time
     * slice, and sixteen of them between two looks at the clock kept a
     * waiter spinning for up to 80 ms past its 4 us at P = 4 on 2 loaded
     * CPUs, while the holder took the lock back 100,000 times
     * (semaphore_convoy.pc's starvation check: 12 runs in 450). */
    if ((check || oversubscribed) && parc_now_ns() - *since > PARC_SEM_SPIN_NS)
      return 0;
  }
}

/* The sleeper's re-check: like work_visible, but under each list's lock, so
 * that it is ordered against every push (see the essay: a pusher publishes
 * under the lock, then reads `sleeping`). */
static int work_recheck(parc_proc *p) {
  int found = 0;
  parc_spin_lock(&p->ready_lock);
  found |= p->rdy_head != NULL || p->pin_head != NULL || p->rn_head != NULL ||
           p->ro_head != NULL;
  parc_spin_unlock(&p->ready_lock);
  parc_spin_lock(&p->inbox_lock);
  found |= p->inbox_n != p->inbox_head;
  parc_spin_unlock(&p->inbox_lock);
  for (int k = 0; k < parc_rt.P && !found; k++) {
    parc_proc *q = &parc_rt.procs[k];
    parc_spin_lock(&q->lock);
    found |= q->rhead != NULL;
    for (parc_drt *d = q->dhead; d && !found; d = d->lnext)
      found |= __atomic_load_n(&d->claimed, __ATOMIC_RELAXED) < d->count; /* under q->lock */
    parc_spin_unlock(&q->lock);
    if (q != p && !found) {
      parc_spin_lock(&q->ready_lock);
      found |= q->rn_head != NULL || q->ro_head != NULL || q->rdy_head != NULL;
      parc_spin_unlock(&q->ready_lock);
    }
  }
  return found;
}

static int steal_ready_possible(parc_proc *p) {
  for (int k = 0; k < parc_rt.P; k++) {
    parc_proc *q = &parc_rt.procs[k];
    if (q != p && hint_get(&q->nstealable))
      return 1;
  }
  return 0;
}

/* Ask running owners to publish their private descriptors at their next
 * poll (parc_help).  relaxed: the bit carries no data; the work itself is
 * published under a list lock.  Set by hungry processors when they enter
 * idle(), every PARC_HELP_SPINS rounds of spinning, and every
 * PARC_HELP_SLEEP_NS while asleep, because an owner with nothing private
 * clears it and another owner may not have seen it yet. */
static void help_request(void) {
  if (!(__atomic_load_n(&parc_kill_pending_, __ATOMIC_RELAXED) & PARC_HELP_BIT))
    __atomic_fetch_or(&parc_kill_pending_, PARC_HELP_BIT, __ATOMIC_RELAXED);
}

static void split_running(parc_proc *p, parc_ctx *c);
static int give_way(parc_proc *p, int any_ready);

/* A poll saw the help request: publish the running context's private
 * descriptors; if there are none, withdraw the request (so that the polls of
 * a busy processor with nothing to share take the fast path again) and, if a
 * processor is still hungry, give it half of what the running batches have
 * not started (split_running).  One split per request: the hungry processor
 * raises the bit again while it stays hungry. */
void parc_help(parc_proc *p) {
  parc_ctx *c = p->cur;
  if (!parc_rt.single) {
    if (give_way(p, 0))
      return; /* the hungry processor may take c, or what it detached */
    /* Contexts that the running activity readied on its own processor
     * (parc_ready wakes nobody for those: the readier is expected to
     * block soon and run them itself) wait for it to block or end; a
     * hungry processor is asking, so wake one to steal them. */
    if (hint_get(&p->nstealable))
      parc_wake_any();
  }
  if (c && c->npriv) {
    parc_publish_chain(p, c, 0);
    return;
  }
  __atomic_fetch_and(&parc_kill_pending_, ~PARC_HELP_BIT, __ATOMIC_RELAXED);
  if (c && parc_hungry() && !parc_rt.step && !parc_kill_active())
    split_running(p, c);
}

/* ---- Threads of the program's own -------------------------------------------
 * The threads of the process that are not the runtime's, which may call
 * parc_V: /proc/self/task lists every thread; main's (its id is the
 * process id) and those named PARC_THREAD_NAME are not counted.  The
 * latter are this runtime's workers and those of other copies of it (a
 * library built by parcc -shared and loaded with RTLD_LOCAL): those never
 * end, and their activities' parc_V goes to their own copy.  Under TSan
 * neither is its background thread, which would keep every deadlock
 * waiting: it is told by its signal mask, every asynchronous signal
 * blocked (sanitizer_common starts its threads so), which a thread of the
 * program's own that waits in sigwait may have too; such a program
 * reported early under TSan is the price.  A report only, at a deadlock:
 * the cost does not matter, except while it waits, when watch_foreign
 * looks again only after 100 times as long as the last look took (1,024
 * processors' names to read). */
struct task_look {
  int skip;
};

static void task_name(const char *s, size_t len, void *arg) {
  size_t n = strlen(PARC_THREAD_NAME);
  if (len >= n && memcmp(s, PARC_THREAD_NAME, n) == 0)
    ((struct task_look *)arg)->skip = 1;
}

#if PARC_TSAN
static void task_sigblk(const char *s, size_t len, void *arg) {
  if (len < 8 || memcmp(s, "SigBlk:", 7) != 0)
    return;
  unsigned long long m = strtoull(s + 7, NULL, 16);
  unsigned long long async = 1ull << (SIGHUP - 1) | 1ull << (SIGINT - 1) |
                             1ull << (SIGUSR1 - 1) | 1ull << (SIGTERM - 1) |
                             1ull << (SIGCHLD - 1);
  if ((m & async) == async)
    ((struct task_look *)arg)->skip = 1;
}
#endif

/* How long the last look took, and when a look last found such threads
 * (0: it found none).  Atomic: several sleepers may look. */
static uint64_t foreign_look_ns, foreign_seen_at;

/* How many such threads there are (0: none).  Threads found less than a
 * poll period ago are taken to be there still: at P = 1 each parc_V that
 * such a thread posts is followed by a look when processor 0 runs out of
 * work again, which read every thread's name each time. */
static int foreign_threads(void) {
  uint64_t t0 = parc_now_ns(), seen = __atomic_load_n(&foreign_seen_at, __ATOMIC_RELAXED);
  if (seen && t0 - seen < PARC_FOREIGN_POLL_NS)
    return 1;
  DIR *dir = opendir("/proc/self/task");
  if (!dir)
    return 0; /* cannot tell: report, as before */
  pid_t pid = getpid();
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dir))) {
    char *end;
    long tid = strtol(e->d_name, &end, 10);
    if (*end || tid <= 0 || tid == pid)
      continue;
    char path[64];
    struct task_look look = {0};
    snprintf(path, sizeof path, "/proc/self/task/%ld/comm", tid);
    parc_each_line(path, task_name, &look);
#if PARC_TSAN
    snprintf(path, sizeof path, "/proc/self/task/%ld/status", tid);
    if (!look.skip)
      parc_each_line(path, task_sigblk, &look);
#endif
    n += !look.skip;
  }
  closedir(dir);
  uint64_t t1 = parc_now_ns();
  __atomic_store_n(&foreign_look_ns, t1 - t0, __ATOMIC_RELAXED);
  __atomic_store_n(&foreign_seen_at, n ? t1 : 0, __ATOMIC_RELAXED);
  return n;
}

/* Wait on p's condvar (idle_mu held) until woken or for nap nanoseconds;
 * ETIMEDOUT when the time ran out. */
static int idle_nap(parc_proc *p, uint64_t nap) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t ns = (uint64_t)ts.tv_nsec + nap;
  ts.tv_sec += (time_t)(ns / 1000000000);
  ts.tv_nsec = (long)(ns % 1000000000);
  return pthread_cond_timedwait(&p->idle_cv, &p->idle_mu, &ts);
}

/* idle_nap for the poll period of "Deadlock", at least 100 times the last
 * look at the threads. */
static void foreign_nap(parc_proc *p) {
  uint64_t nap = PARC_FOREIGN_POLL_NS, look = __atomic_load_n(&foreign_look_ns, __ATOMIC_RELAXED);
  idle_nap(p, look > nap / 100 ? look * 100 : nap);
}

/* A look made while every processor was asleep found threads of the
 * program's own: a deadlock reported later says that they have ended.
 * Set where a look finds them, not where the last look finds none: that
 * one may be another processor's, in idle_wait, after a wake-up during
 * the wait (a watcher whose look saw a wake-up leaves the next look to the
 * processor whose count next reaches P: look_all_asleep).  Atomic:
 * several processors may look. */
static int foreign_waited;
static void foreign_seen_waiting(void) {
  __atomic_store_n(&foreign_waited, 1, __ATOMIC_RELAXED);
}

/* A wait for the program's own threads that lasts PARC_FOREIGN_WARN_NS
 * is said on stderr, once per run: a program whose thread will never call
 * parc_V (a thread pool idling beside a real deadlock) would otherwise
 * wait for ever without a word.  The wait goes on: the thread may yet
 * call it.  foreign_wait_begin starts a wait, foreign_wait_on (threads:
 * how many) goes on with it. */
static uint64_t foreign_wait_from;
static int foreign_warned;
static void foreign_wait_begin(void) {
  __atomic_store_n(&foreign_wait_from, parc_now_ns(), __ATOMIC_RELAXED);
}
static void foreign_wait_on(int threads) {
  uint64_t t = parc_now_ns(), from = __atomic_load_n(&foreign_wait_from, __ATOMIC_RELAXED);
  if (t - from < PARC_FOREIGN_WARN_NS || __atomic_exchange_n(&foreign_warned, 1, __ATOMIC_RELAXED))
    return;
  parc_error_flush();
  fprintf(stderr, "parc: warning: every activity has been blocked for %llu s, waiting for a "
          "parc_V from the program's own threads (%d running); if none of them will call "
          "it, the program is deadlocked\n",
          (unsigned long long)((t - from) / 1000000000), threads);
}

/* P > 1: look at the program's own threads while every processor is
 * asleep: how many there are, or -1 if a processor was woken before or
 * during the look, which then decides nothing.  The look reads a file per
 * thread, and a thread may call parc_V meanwhile, waking a processor, and
 * end before the look reaches it: the look then finds no such thread while
 * the program runs on.  The deadlock was reported from the count read
 * before the look, in the middle of a run that went on (about one run in
 * 500 of a program whose thread gives a unit after each of ten rounds,
 * under PARC_SCHED=random at P = 8; the report named activities that were
 * running, or none).  So the look counts only if, after it, nasleep is
 * still P and no processor counted in it was woken (asleep_wakes). */
static int look_all_asleep(void) {
  uint64_t wakes = __atomic_load_n(&asleep_wakes, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&parc_rt.nasleep, __ATOMIC_SEQ_CST) != parc_rt.P)
    return -1;
  int n = foreign_threads();
  if (__atomic_load_n(&parc_rt.nasleep, __ATOMIC_SEQ_CST) != parc_rt.P ||
      __atomic_load_n(&asleep_wakes, __ATOMIC_SEQ_CST) != wakes)
    return -1;
  if (n)
    foreign_seen_waiting();
  return n;
}

/* P > 1: p's count made nasleep P while threads of the program's own ran
 * (idle_wait, idle_mu held, p asleep).  Sleep a poll period; then, still
 * asleep, report if the count is still P and those threads have ended.
 * 0: stop watching (p was woken, or another processor ran since: the one
 * whose count reaches P again watches). */
static int watch_foreign(parc_proc *p) {
  foreign_nap(p);
  if (!p->sleeping || p->quit)
    return 0;
  int n = look_all_asleep();
  if (n < 0)
    return 0;
  if (n) {
    foreign_wait_on(n);
    return 1;
  }
  pthread_mutex_unlock(&p->idle_mu);
  parc_deadlock();
}

/* P = 1: nothing is left to run (get_work found nothing, and no other
 * thread of the runtime's can add anything).  A deadlock, unless a thread
 * of the program's own may yet call parc_V: at P = 1 its parc_V is posted
 * to processor 0 (semaphore.c, parc_sem_take_posted), which takes it here
 * and returns to get_work; otherwise it sleeps until one is posted or, a
 * poll period later, looks again whether those threads have ended. */
static void idle_single(parc_proc *p) {
  for (int waited = 0;; waited = 1) {
    if (parc_sem_take_posted())
      return;
    int n = foreign_threads();
    if (!n) {
      /* A thread that posted a parc_V after the check above and ended
       * before the look is not a deadlock (look_all_asleep). */
      if (parc_sem_posted())
        continue;
      parc_deadlock();
    }
    foreign_seen_waiting();
    if (waited)
      foreign_wait_on(n);
    else
      foreign_wait_begin();
    pthread_mutex_lock(&p->idle_mu);
    if (!parc_sem_posted())
      foreign_nap(p);
    pthread_mutex_unlock(&p->idle_mu);
  }
}

/* semaphore.c posted a parc_V of a thread of the program's own, at P = 1:
 * wake processor 0 if it waits for one (idle_single).  It checks the
 * posts under idle_mu before it sleeps, so this signal is never lost. */
void parc_sem_posted_wake(void) {
  parc_proc *p = &parc_rt.procs[0];
  pthread_mutex_lock(&p->idle_mu);
  pthread_cond_signal(&p->idle_cv);
  pthread_mutex_unlock(&p->idle_mu);
}

/* Deadlock.  A processor that found nothing in its locked re-check and is
 * still announced as sleeping marks itself `asleep` under its idle mutex and
 * counts itself in nasleep before it waits; a waker clears both under the
 * same mutex before the sleeper can run again.  When the count reaches P,
 * every processor has re-checked every list it could take work from (after
 * announcing itself, so a later push would have woken it) and none is
 * running anything: no activity can ever run again, and at least main's is
 * parked (processor 0 is in get_work only while main's context is parked).
 * A processor running a long activity is not counted; a readied context is
 * on a ready list, which its processor's re-check sees; a sleeping
 * processor is counted without having to wake.  The only thing that can
 * still wake the program is a thread libparc did not create (or a signal
 * handler) calling parc_V.  The guide lets such a thread call parc_V, so
 * while the process has one (foreign_threads), the processor whose count
 * reached P does not report: it stays asleep, looking every
 * PARC_FOREIGN_POLL_NS whether the count is still P and whether those
 * threads have ended, and reports only then (watch_foreign).  A parc_V
 * from one of them readies a context as any parc_V does, which wakes its
 * processor and takes that one out of the count.  Without such threads,
 * the report comes at once, as before; but only if no processor was woken
 * while it looked for them (look_all_asleep): a thread may give its unit
 * and end during the look.  (Signal handlers remain outside
 * the model.)
 *
 * Spinning.  An idle processor spins PARC_SPIN_US before it sleeps, so
 * that work that comes soon finds it awake.  With more processors than
 * CPUs the spin yields the CPU in each round: it held one of the CPUs
 * that the busy processors needed, and every context readied
 * (parc_wake_any) woke an idle processor to spin again.  A semaphore
 * ping-pong of two activities at P = 3 on 2 CPUs took 5 us a round
 * against 0.15 us at P = 2, and the idle spins were half of its CPU time.
 *
 * How long it spins adapts (spin_adapt): a sleep that ends within
 * PARC_SPIN_MAX_NS doubles the next spin, up to that; a longer one halves
 * it, down to PARC_SPIN_US.  A sleep costs more than its wake-up: on a
 * 2-CPU VM a conjugate gradient at P = 2, whose constructs come every
 * 200-400 us with uneven chunks, ran its SpMV chunks at half speed for
 * long stretches after sleeps (0.29 s with 60 us spins, 0.21-0.22 s
 * spinning 250 us-1 ms; libgomp spins about 300,000 rounds).  A processor
 * whose waits are long sleeps after 60 us as before; one whose waits are
 * short spins them out, as OpenMP's threads do.  Not with more
 * processors than CPUs (the spin then yields, and sleeping gives the CPU
 * back), nor when PARC_SPIN_US is set. */
static void spin_adapt(parc_proc *p, uint64_t slept) {
  if (parc_rt.spin_fixed || parc_oversubscribed())
    return;
  uint64_t base = parc_rt.spin_ns, cur = p->spin_ns ? p->spin_ns : base;
  if (slept < PARC_SPIN_MAX_NS)
    cur = cur * 2 < PARC_SPIN_MAX_NS ? cur * 2 : PARC_SPIN_MAX_NS;
  else
    cur = cur / 2 > base ? cur / 2 : base;
  p->spin_ns = cur ? cur : base;
}

static void idle_wait(parc_proc *p) {
  uint64_t t0 = parc_now_ns(), spin = p->spin_ns ? p->spin_ns : parc_rt.spin_ns;
  int oversubscribed = parc_oversubscribed();
  for (unsigned i = 1;; i++) {
    sigmask_spin(p);
    if (work_visible(p))
      return;
    /* Ready contexts of others may be pinned: steal attempts are made by the
     * caller, spinning only while the budget lasts. */
    if ((i & 15) == 0 && steal_ready_possible(p))
      return;
    if (oversubscribed)
      sched_yield();
    else
      cpu_relax();
    if ((i & (PARC_HELP_SPINS - 1)) == 0)
      help_request();
    if (((i & 63) == 0 || oversubscribed) && parc_now_ns() - t0 > spin)
      break; /* a yield may take long: the clock every round then */
  }
  if (fork_lost) /* nobody else is left to bring work */
    fork_lost_fatal();
  pthread_mutex_lock(&p->idle_mu);
  /* Announce, then re-check under the list locks (see the essay). */
  __atomic_store_n(&p->sleeping, 1, __ATOMIC_SEQ_CST);
  __atomic_fetch_add(&parc_rt.nsleeping, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&p->idle_mu);
  if (!work_recheck(p)) {
    sigmask_idle(p);
    PARC_STAT_ADD(p, sleeps, 1);
    pthread_mutex_lock(&p->idle_mu);
    int watch = 0;
    if (p->sleeping) {
      p->asleep = 1;
      if (__atomic_add_fetch(&parc_rt.nasleep, 1, __ATOMIC_SEQ_CST) == parc_rt.P) {
        int threads = look_all_asleep();
        if (threads == 0) {
          pthread_mutex_unlock(&p->idle_mu);
          parc_deadlock();
        }
        if (threads > 0) {
          watch = 1; /* see "Deadlock" */
          foreign_wait_begin();
        }
      }
    }
    /* With more processors than CPUs, each sleeper renews less often, so
     * that all of them together wake about as often as one sleeper per CPU
     * would: at PARC_NPROCS=1024 on 2 CPUs a renewal every millisecond per
     * sleeper was a million futex wake-ups a second, which left the CPUs
     * to them (a one-section parblock took 13 s). */
    long long nap = PARC_HELP_SLEEP_NS;
    if (parc_oversubscribed())
      nap = nap * ((parc_rt.P + parc_rt.cpus - 1) / parc_rt.cpus);
    /* A request still standing when the nap ends was seen by no poll: the
     * running processors are all in code without poll points (a system
     * call, a library's loop), and each will see it at its next poll.  A
     * renewal would change nothing, so the next nap is twice as long, up
     * to PARC_HELP_SLEEP_MAX_NS: a program whose one activity waited in
     * usleep woke about 900 times a second at P = 2 and 1,400 at P = 4.
     * Once an owner clears the request (it had nothing private), the naps
     * are short again.  The cost: an owner with private work that polls
     * only after another cleared the request waits for the renewal up to
     * the longer nap (it needs three processors, and every poll missing
     * for the last nap). */
    long long cur = nap, most = nap > PARC_HELP_SLEEP_MAX_NS ? nap : PARC_HELP_SLEEP_MAX_NS;
    uint64_t slept_from = parc_now_ns();
    while (p->sleeping && !p->quit) {
      if (PARC_UNLIKELY(watch)) {
        watch = watch_foreign(p);
        continue;
      }
      if (!__atomic_load_n(&parc_rt.root_busy, __ATOMIC_RELAXED)) {
        /* No construct under way: no owner has private work, and main's
         * next construct publishes at once (sleepers count as hungry),
         * which wakes one.  A renewal every millisecond was a thousand
         * wake-ups a second per sleeper while main ran alone or slept. */
        pthread_cond_wait(&p->idle_cv, &p->idle_mu);
        continue;
      }
      if (idle_nap(p, (uint64_t)cur) != ETIMEDOUT)
        continue;
      if (__atomic_load_n(&parc_kill_pending_, __ATOMIC_RELAXED) & PARC_HELP_BIT) {
        cur = cur * 2 < most ? cur * 2 : most;
        continue;
      }
      cur = nap;
      help_request(); /* still hungry: renew the request, sleep on */
    }
    pthread_mutex_unlock(&p->idle_mu);
    spin_adapt(p, parc_now_ns() - slept_from);
    return;
  }
  pthread_mutex_lock(&p->idle_mu);
  if (p->sleeping) { /* not woken by anyone: withdraw the announcement */
    __atomic_store_n(&p->sleeping, 0, __ATOMIC_SEQ_CST);
    __atomic_fetch_sub(&parc_rt.nsleeping, 1, __ATOMIC_SEQ_CST);
  }
  pthread_mutex_unlock(&p->idle_mu);
}

/* While p looks for work it counts as hungry: spawning owners then publish
 * their private descriptors (lazy publication, descriptor.c). */
static void idle(parc_proc *p) {
  if (parc_rt.single) {
    idle_single(p);
    return;
  }
  if (p->born_hungry)
    p->born_hungry = 0; /* counted since start_workers */
  else
    __atomic_fetch_add(&parc_hunger_.n, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&p->idle, 1, __ATOMIC_RELAXED);
  help_request();
  idle_wait(p);
  __atomic_store_n(&p->idle, 0, __ATOMIC_RELAXED);
  __atomic_fetch_sub(&parc_hunger_.n, 1, __ATOMIC_RELAXED);
}

/* ---- Ready lists ------------------------------------------------------------ */

static parc_proc *ready_target(parc_ctx *c) {
  if (c->pin >= 0)
    return &parc_rt.procs[c->pin];
  return c->last ? c->last : &parc_rt.procs[0];
}

/* Append first..last to one of q's ready lists.  Caller holds
 * q->ready_lock. */
static inline void ready_append_locked(parc_ctx **head, parc_ctx **tail, parc_ctx *first,
                                       parc_ctx *last) {
  last->next = NULL;
  if (*tail)
    (*tail)->next = first;
  else
    *head = first;
  *tail = last;
}

/* Ready the chain first..last of n contexts, `unpinned` of them not
 * pinned, on q: in O(1) where they are all of one kind, as a barrier's
 * release usually is; else one pass to sort them onto the two lists. */
static void ready_push(parc_proc *q, parc_ctx *first, parc_ctx *last, int n, int unpinned) {
  last->next = NULL;
  lock_if(&q->ready_lock);
  if (unpinned == n) {
    ready_append_locked(&q->rdy_head, &q->rdy_tail, first, last);
  } else if (unpinned == 0) {
    ready_append_locked(&q->pin_head, &q->pin_tail, first, last);
  } else {
    for (parc_ctx *c = first, *nx; c; c = nx) {
      nx = c->next;
      if (c->pin < 0)
        ready_append_locked(&q->rdy_head, &q->rdy_tail, c, c);
      else
        ready_append_locked(&q->pin_head, &q->pin_tail, c, c);
    }
  }
  hint_add(&q->nready, n);
  hint_add(&q->nstealable, unpinned);
  unlock_if(&q->ready_lock);
}

/* Make a parked context runnable again on its processor (or, if it is not
 * pinned, on whichever processor gets to it first).  Another processor is
 * woken to take it only if q is busy (not in idle(), where it spins until
 * it sees c or sleeps until woken): waking one beside an idle q made every
 * parc_V a futex call and a thread that found nothing to do, and with more
 * processors than CPUs the woken threads took the CPUs from the busy ones
 * (a semaphore barrier of 4 activities at P = 16 on 2 CPUs: 0.40 s, 0.05
 * at P = 4).  q seen idle just as it leaves idle() is harmless: its
 * processor's next poll that sees a help request wakes a thief for it
 * (parc_help). */
void parc_ready(parc_ctx *c) {
  parc_proc *q = ready_target(c);
  int unpinned = c->pin < 0; /* read before publishing: c may run at once */
  ready_push(q, c, c, 1, unpinned);
  if (parc_rt.single)
    return;
  int busy = !__atomic_load_n(&q->idle, __ATOMIC_RELAXED);
  parc_wake_proc(q);
  if (unpinned && busy && parc_self() != q)
    parc_wake_any(); /* q may be busy for long; an idle processor may take it */
}

/* Ready the chain first..last of n contexts (linked by ->next, `unpinned`
 * of them not pinned), all of which belong on q, in O(1): a barrier
 * release (barrier.c), which holds the descriptor's lock (ready_lock and
 * idle_mu are never held while a descriptor lock is taken). */
void parc_ready_chain(parc_proc *q, parc_ctx *first, parc_ctx *last, uint32_t n,
                      uint32_t unpinned) {
  ready_push(q, first, last, (int)n, (int)unpinned);
  if (!parc_rt.single) {
    parc_wake_proc(q);
    if (unpinned > 1)
      parc_wake_any();
  }
}

enum { READY_GROUPS = 8 };

/* Ready a chain (linked by ->next) of contexts, batching per processor: in
 * one pass over the chain when P <= READY_GROUPS (a barrier release walks a
 * thousand waiters, each on a stack page of its own), else one pass per
 * target processor. */
void parc_ready_list(parc_ctx *head) {
  if (parc_rt.P <= READY_GROUPS) {
    parc_ctx *first[READY_GROUPS], *last[READY_GROUPS];
    int n[READY_GROUPS], unpinned[READY_GROUPS];
    for (int k = 0; k < parc_rt.P; k++)
      first[k] = NULL;
    for (parc_ctx *c = head, *nx; c; c = nx) {
      nx = c->next;
      int k = ready_target(c)->id;
      if (first[k]) {
        last[k]->next = c;
      } else {
        first[k] = c;
        n[k] = unpinned[k] = 0;
      }
      last[k] = c;
      n[k]++;
      unpinned[k] += c->pin < 0;
    }
    for (int k = 0; k < parc_rt.P; k++)
      if (first[k])
        parc_ready_chain(&parc_rt.procs[k], first[k], last[k], (uint32_t)n[k],
                         (uint32_t)unpinned[k]);
    return;
  }
  while (head) {
    parc_proc *q = ready_target(head);
    parc_ctx *first = NULL, *last = NULL, *rest = NULL, **rt = &rest;
    int n = 0, unpinned = 0;
    for (parc_ctx *c = head, *nx; c; c = nx) {
      nx = c->next;
      if (ready_target(c) == q) {
        c->next = NULL;
        if (last)
          last->next = c;
        else
          first = c;
        last = c;
        n++;
        unpinned += c->pin < 0;
      } else {
        *rt = c;
        rt = &c->next;
      }
    }
    *rt = NULL;
    parc_ready_chain(q, first, last, (uint32_t)n, (uint32_t)unpinned);
    head = rest;
  }
}

static inline parc_proc *victim(parc_proc *p, int i, int off);
static inline int victim_offset(parc_proc *p);

/* ---- Resume lists ---------------------------------------------------------------
 * Activities released from a stackless sync (frame.c) wait on the resume
 * lists of the processor they suspended on until an envelope in resume mode
 * takes them, PARC_RESUME_TAKE at a time.  A resumed activity that blocks
 * (it waits at epar for a construct of its own, say) keeps that envelope,
 * so the order of the takes decides how many envelopes wait at once.  The
 * owner takes the chain a barrier released most recently first, as it
 * takes its own descriptors and reps (depth first): in a recursion whose
 * parfor bodies sync before they recurse, the activities of the newest
 * construct then run, end, and let their parent go on, before the next
 * sibling of that parent starts and blocks in turn.  Taken oldest first,
 * every parent of a level blocked in an envelope of its own before any
 * activity of the next level ran: 2^17 leaves took 131,071 envelopes and
 * 675 MB at P = 1 (17 with -fno-parc-stackless-sync).
 *
 * Two lists keep that order cheap and fair.  rn_* holds the released
 * chains, newest first (each chain in its own order); ro_* the older
 * records: those a context took but gave back because it blocked first
 * (parc_return_resume; they go behind the released work that context
 * waits for), and, at a turn ("Turns" below), all of rn_*, moved behind
 * them in O(1) before the take starts from ro_*'s head.  Every record so
 * reaches the head of ro_* in bounded time however many chains keep
 * arriving.  Thieves take the older half from the far end (ro_*'s tail half,
 * or rn_*'s when ro_* is empty): breadth first, as they steal descriptors.
 *
 * The given-back records also come after the processor's own reps and
 * descriptors (get_work; parc_take_resume), but for the turns: their
 * context ran them as the outermost work of its stack, and the reps its
 * block made, innermost first, are what it waits for.  Taken before the
 * reps, each given-back record started a new subtree while the sibling
 * its parblock section waited for sat in a rep: one envelope per parblock
 * in a recursion through a parblock whose first section runs a syncing
 * parfor and then syncs with the second (16,383 for 2^14 leaves at P = 1;
 * now 490, docs/design.md "Stackless sync").
 *
 * Callers of the list helpers below hold the processor's ready_lock (or
 * P == 1). */

/* Push the chain first..last of n records at the front of the list
 * *head..*tail (*cnt records).  The list helpers leave the nres hint to
 * their callers. */
static void res_push_front(parc_susp **head, parc_susp **tail, int *cnt, parc_susp *first,
                           parc_susp *last, int n) {
  last->next = *head;
  *head = first;
  if (!*tail)
    *tail = last;
  *cnt += n;
}

/* Unlink the first records of the list *head..*tail (*cnt records), at
 * most max >= 1 of them, as a NULL-terminated chain; its last record in
 * *last, its length in *n. */
static parc_susp *res_unlink_front(parc_susp **head, parc_susp **tail, int *cnt, int max,
                                   parc_susp **last, int *n) {
  parc_susp *first = *head, *l = first;
  int k = 1;
  for (; k < max && l->next; k++)
    l = l->next;
  *head = l->next;
  if (!*head)
    *tail = NULL;
  l->next = NULL;
  *cnt -= k;
  *last = l;
  *n = k;
  return first;
}

/* Unlink the last k (1 <= k <= *cnt) records of the list *head..*tail (*cnt
 * records) as a NULL-terminated chain; its last record in *last. */
static parc_susp *res_unlink_back(parc_susp **head, parc_susp **tail, int *cnt, int k,
                                  parc_susp **last) {
  parc_susp *first = *head;
  *last = *tail;
  if (k >= *cnt) {
    *head = *tail = NULL;
    k = *cnt;
  } else {
    parc_susp *before = *head;
    for (int i = 1; i < *cnt - k; i++)
      before = before->next;
    first = before->next;
    before->next = NULL;
    *tail = before;
  }
  *cnt -= k;
  return first;
}

/* Put the chain first..last of n records released from a stackless sync on
 * q's resume list, ahead of those released before (see above).  Called
 * under the descriptor's lock, like parc_ready_chain. */
void parc_resume_chain(parc_proc *q, parc_susp *first, parc_susp *last, uint32_t n) {
  lock_if(&q->ready_lock);
  res_push_front(&q->rn_head, &q->rn_tail, &q->rn_n, first, last, (int)n);
  hint_add(&q->nres, (int)n);
  unlock_if(&q->ready_lock);
  if (!parc_rt.single) {
    parc_wake_proc(q);
    if (n > 1)
      parc_wake_any();
  }
}

/* ---- Turns ---------------------------------------------------------------------
 * get_work serves the first kind of work that has something: ready
 * contexts, released records (rn_*), p's own new work (mapped chunks, reps,
 * descriptors), given-back records (ro_*), then other processors' work.
 * Each kind behind another would wait for ever while that one never runs
 * dry, and a program that is correct under the contract does that: at
 * P = 1, the activities of a parfor that loop `while (!done) sync;`, or two
 * activities that hand each other a semaphore unit until `done`, are ready
 * or released again each time they block, and the parblock section that
 * sets `done`, own work that has not started, never ran (constructs/
 * turns.pc).  Blocking must never tie up a processor, so the waiting work
 * gets a turn: while p has work other than ready contexts waiting,
 * turn_due counts get_work's rounds and parc_take_resume's takes, looks at
 * the clock every PARC_TURN-th, and is due at the first look PARC_TURN_NS
 * (1 ms) after the first.  A turn serves, alternately first, p's own new
 * work and its oldest records (take_resume's RES_TURN: rn_* moved
 * behind ro_*, then ro_*'s head), the other if that one has nothing.
 *
 * Why a clock and not a count alone: every turn serves work out of the
 * depth-first order, and a recursion pays for that in envelopes.  When the
 * released records took such a turn at every 256th take, a parfor-of-2
 * recursion that syncs before it recurses took 769 envelopes for 2^16
 * leaves at P = 1, and one that syncs around its recursion 3,248; the
 * whole recursion takes about 10 ms, so the clock allows some ten turns.
 * Stepping (PARC_TRACE, PARC_SCHED=random) counts only, so that a schedule
 * depends on the seed and not on the clock. */
static int turn_due(parc_proc *p) {
  if (!hint_get(&p->nres) && !hint_get(&p->nwork) && !hint_get(&p->ninbox)) {
    p->turn_since = 0; /* nothing waits: the next wait starts afresh */
    return 0;
  }
  if (++p->turn_looks & (PARC_TURN - 1))
    return 0;
  if (PARC_TURN_NS == 0 || parc_rt.step)
    return 1;
  uint64_t t = parc_now_ns();
  if (!p->turn_since) {
    p->turn_since = t;
    return 0;
  }
  if (t - p->turn_since < PARC_TURN_NS)
    return 0;
  p->turn_since = 0;
  return 1;
}

/* What take_resume may take: the released records only; the older ones
 * too, once no released one is left; or, at a turn, the oldest (rn_* moved
 * behind ro_* first). */
enum { RES_NEW, RES_OLD, RES_TURN };

/* Take at most max records of p's resume lists as a chain (NULL-terminated),
 * as `mode` allows (see above).  NULL if there is nothing to take. */
static parc_susp *take_resume(parc_proc *p, int max, int mode) {
  if (!hint_get(&p->nres))
    return NULL;
  parc_susp *first = NULL, *last;
  int n = 0;
  lock_if(&p->ready_lock);
  if (p->rn_head && mode == RES_TURN) { /* the new behind the old */
    if (p->ro_tail)
      p->ro_tail->next = p->rn_head;
    else
      p->ro_head = p->rn_head;
    p->ro_tail = p->rn_tail;
    p->ro_n += p->rn_n;
    p->rn_head = p->rn_tail = NULL;
    p->rn_n = 0;
  }
  /* At most a 1/P share of the list, as a representative takes of a
   * descriptor's activities: the rest stays for the idle processors that
   * the release woke to steal.  Taking all (up to PARC_RESUME_TAKE) left
   * nothing to them: a parfor of P activities that sync in a loop ran
   * them all on one processor, step after step, while the others slept
   * (2 activities of 140 us per step at P = 2: no faster than at P = 1). */
  int *cnt = p->rn_head ? &p->rn_n : mode != RES_NEW && p->ro_head ? &p->ro_n : NULL;
  if (cnt && !parc_rt.single) {
    int share = (*cnt + parc_rt.P - 1) / parc_rt.P;
    if (share < max)
      max = share;
  }
  if (p->rn_head)
    first = res_unlink_front(&p->rn_head, &p->rn_tail, &p->rn_n, max, &last, &n);
  else if (mode != RES_NEW && p->ro_head)
    first = res_unlink_front(&p->ro_head, &p->ro_tail, &p->ro_n, max, &last, &n);
  if (n)
    hint_add(&p->nres, -n);
  unlock_if(&p->ready_lock);
  return first;
}

/* The next records for an envelope in resume mode (frame.c): the older ones
 * only while p has no local work, which comes first (see above).  NULL
 * also when a turn is due: the envelope leaves resume mode, and get_work
 * serves the turn. */
parc_susp *parc_take_resume(parc_proc *p, int max) {
  if (PARC_UNLIKELY(turn_due(p))) {
    p->turn_pending = 1;
    return NULL;
  }
  return take_resume(p, max, hint_get(&p->nwork) || hint_get(&p->ninbox) ? RES_NEW : RES_OLD);
}

/* Put the chain first..last of n records, which a context took and blocked
 * before running, at the head of p's older list: behind the released work
 * it may wait for, ahead of everything older. */
void parc_return_resume(parc_proc *p, parc_susp *first, parc_susp *last, int n) {
  lock_if(&p->ready_lock);
  res_push_front(&p->ro_head, &p->ro_tail, &p->ro_n, first, last, n);
  hint_add(&p->nres, n);
  unlock_if(&p->ready_lock);
  if (!parc_rt.single)
    parc_wake_any();
}

/* Take the older half (at least one) of another processor's resume records
 * onto p's.  1 if anything was taken. */
static int steal_resume(parc_proc *p) {
  int off = victim_offset(p);
  for (int i = 1; i < parc_rt.P; i++) {
    parc_proc *q = victim(p, i, off);
    if (!hint_get(&q->nres))
      continue;
    parc_susp *first = NULL, *last = NULL;
    int take = 0;
    parc_spin_lock(&q->ready_lock);
    if (q->ro_n) {
      take = (q->ro_n + 1) / 2;
      first = res_unlink_back(&q->ro_head, &q->ro_tail, &q->ro_n, take, &last);
    } else if (q->rn_n) {
      take = (q->rn_n + 1) / 2;
      first = res_unlink_back(&q->rn_head, &q->rn_tail, &q->rn_n, take, &last);
    }
    if (take)
      hint_add(&q->nres, -take);
    parc_spin_unlock(&q->ready_lock);
    if (take) {
      PARC_STAT_ADD(p, steals, 1);
      parc_spin_lock(&p->ready_lock);
      res_push_front(&p->rn_head, &p->rn_tail, &p->rn_n, first, last, take);
      hint_add(&p->nres, take);
      parc_spin_unlock(&p->ready_lock);
      return 1;
    }
  }
  return 0;
}

/* Unlink c, which follows prev (NULL: c is the head), from p's ready list
 * that holds it.  Caller holds p->ready_lock. */
static inline void ready_unlink_locked(parc_proc *p, parc_ctx *prev, parc_ctx *c) {
  int unpinned = c->pin < 0;
  parc_ctx **head = unpinned ? &p->rdy_head : &p->pin_head;
  parc_ctx **tail = unpinned ? &p->rdy_tail : &p->pin_tail;
  if (prev)
    prev->next = c->next;
  else
    *head = c->next;
  if (*tail == c)
    *tail = prev;
  hint_add(&p->nready, -1);
  hint_add(&p->nstealable, -unpinned);
}

/* The owner's next ready context.  Where both lists hold some, it takes
 * from each in turn: neither kind waits behind an endless run of the
 * other (two pinned chunks passing a semaphore back and forth beside an
 * activity they wait for). */
static parc_ctx *pop_ready(parc_proc *p) {
  int n = hint_get(&p->nready);
  if (!n)
    return NULL;
  lock_if(&p->ready_lock);
  int pinned = p->pin_head && (!p->rdy_head || p->pin_turn);
  if (p->pin_head && p->rdy_head)
    p->pin_turn = !pinned;
  parc_ctx *prev = NULL, *c = pinned ? p->pin_head : p->rdy_head;
  if (PARC_UNLIKELY(parc_rt.sched_random) && c) {
    /* Either list, then one of its oldest few ready contexts (a bounded
     * walk: the list may hold thousands after a barrier release). */
    if (p->pin_head && p->rdy_head)
      c = parc_rand(p, 2) ? p->pin_head : p->rdy_head;
    n = hint_get(&p->nready);
    n = n < PARC_RANDOM_WINDOW ? n : PARC_RANDOM_WINDOW;
    for (uint64_t i = parc_rand(p, (uint64_t)(n > 0 ? n : 1)); i > 0 && c->next; i--) {
      prev = c;
      c = c->next;
    }
  }
  if (c)
    ready_unlink_locked(p, prev, c);
  unlock_if(&p->ready_lock);
  return c;
}

/* The i-th processor (1 <= i < P) that p tries to steal from: p+1, p+2, ...
 * or, with PARC_SCHED=random, the same cycle from a random start `off`. */
static inline parc_proc *victim(parc_proc *p, int i, int off) {
  int P = parc_rt.P;
  return &parc_rt.procs[(p->id + 1 + (i - 1 + off) % (P - 1)) % P];
}

static inline int victim_offset(parc_proc *p) {
  return PARC_UNLIKELY(parc_rt.sched_random) ? (int)parc_rand(p, (uint64_t)parc_rt.P - 1) : 0;
}

static parc_ctx *steal_ready(parc_proc *p) {
  int off = victim_offset(p);
  for (int i = 1; i < parc_rt.P; i++) {
    parc_proc *q = victim(p, i, off);
    if (!hint_get(&q->nstealable))
      continue;
    parc_spin_lock(&q->ready_lock);
    parc_ctx *c = q->rdy_head; /* unpinned, all of them */
    if (c)
      ready_unlink_locked(q, NULL, c);
    parc_spin_unlock(&q->ready_lock);
    if (c) {
      PARC_STAT_ADD(p, steals, 1);
      return c;
    }
  }
  return NULL;
}

/* ---- Parking ---------------------------------------------------------------- */

/* The yielded context c (give_way, below), whose registers are saved now: to the
 * back of its ready list, where an idle processor may take it unless it is
 * pinned. */
static void ready_yielded(parc_ctx *c) {
  int unpinned = c->pin < 0;
  ready_push(ready_target(c), c, c, 1, unpinned);
  if (unpinned)
    parc_wake_any();
}

static void after_switch(parc_proc *p) {
  int a = p->after;
  p->after = PARC_AFTER_NONE;
  if (a == PARC_AFTER_UNLOCK)
    parc_spin_unlock(p->after_arg);
  else if (a == PARC_AFTER_POOL)
    parc_env_put(p, p->after_arg);
  else if (a == PARC_AFTER_READY)
    ready_yielded(p->after_arg);
}

/* Park the running context of p; `unlock` (held by the caller, or NULL) is
 * released by the scheduler once the context is saved (essay, step c).
 * Returns when the context has been readied and resumed, possibly on
 * another processor. */
/* Switch p's running context c to p's scheduler, which carries out `after`
 * (with arg) once c's registers are saved; returns when c runs again,
 * possibly on another processor.  reason: the block reason a trace records
 * (enum parc_trace_reason). */
static void switch_out(parc_proc *p, parc_ctx *c, int after, void *arg, int reason) {
  if (PARC_UNLIKELY(parc_rt.trace))
    parc_trace_park(p, c, reason);
  p->after = after;
  p->after_arg = arg;
  parc_ctx_switch(p, c, p->sched);
  if (PARC_UNLIKELY(parc_rt.trace))
    parc_trace_resume(parc_self(), c, reason);
}

void parc_park(parc_proc *p, parc_spin *unlock) {
  parc_ctx *c = p->cur;
  PARC_STAT_ADD(p, blocked, 1);
  c->spins = 0; /* its processor now runs other work (parc_sem_spin) */
  p->parked = 1;
  int reason = PARC_UNLIKELY(parc_rt.trace) ? parc_trace_reason(c) : 0;
  int locked = unlock && !parc_rt.single;
  switch_out(p, c, locked ? PARC_AFTER_UNLOCK : PARC_AFTER_NONE, unlock, reason);
}

/* ---- Giving way to pinned contexts ------------------------------------------
 * The scheduler does not preempt: a running activity keeps its processor
 * until it blocks or ends.  A context pinned to a processor (main's, to
 * processor 0; a mapped lparfor chunk, to its own) can run nowhere else, so
 * when it is readied while that processor runs an activity that does not
 * block, it waits for that activity's end, and forever when that end
 * depends on it: an endless producer on processor 0 and, pinned there, the
 * closer that pbreaks it (test/stress/prodcons.pc), with the consumers
 * on other processors, busy or idle.  At P = 1 the producer blocks once
 * the buffer fills and the program completes, so the contract wants it to
 * complete at every P.
 *
 * So the running activity gives way at its next semaphore operation (parc_P
 * on entry, parc_V on exit), when an idle processor asks for help at its next
 * poll (parc_help), and while a kill is under way at its next poll unless it
 * is a victim (parc_poll_slow: the kill's parent may be the pinned context,
 * waiting at epar for its killed activities): it detaches its batch chain as
 * a blocking activity does (its unstarted batch-mates become a rep), parks,
 * and the scheduler, once the registers are saved, appends it to the ready
 * list (PARC_AFTER_READY) and wakes an idle processor to take it over unless
 * it is pinned too.  get_work then pops a ready context: the oldest pinned
 * one, or the oldest unpinned one, the lists taking turns.  An activity
 * that neither polls nor calls the runtime still keeps its processor: that
 * is busy-waiting, the program's own risk (contract).  Unpinned ready
 * contexts need none of this: the first processor to look for work steals
 * them (steal_ready). */

/* Hints, read without the lock: a stale pair costs one needless yield, or
 * one more operation before it. */
static int pinned_ready(parc_proc *p) {
  return hint_get(&p->nready) > hint_get(&p->nstealable);
}

/* Has the running context run PARC_GIVE_WAY_NS since it first saw a
 * pinned context ready?  The first sighting starts the clock; a switch on
 * p (every switch to a context counts in `resumed` or `shares`) restarts
 * it.  Without the wait, two chunks of mapped lparfors pinned to one
 * processor, each taking a lock in every iteration, gave way to each other
 * at every parc_P and parc_V: 6.4 million switches for 3.6 million
 * iterations at P = 2, 30 times P = 1's time.  The contract asks only that
 * the pinned context runs at last, not at once: an activity that keeps
 * calling the runtime still gives way, within PARC_GIVE_WAY_NS.  Stepping
 * (PARC_TRACE, PARC_SCHED=random) gives way at once, so that a schedule
 * depends on the seed, not on the clock. */
static int waited_enough(parc_proc *p) {
  if (PARC_GIVE_WAY_NS == 0 || parc_rt.step)
    return 1;
  uint64_t mark = __atomic_load_n(&p->st.resumed, __ATOMIC_RELAXED) +
                  __atomic_load_n(&p->st.shares, __ATOMIC_RELAXED) + 1;
  uint64_t t = parc_now_ns();
  if (p->gw_mark != mark) {
    p->gw_mark = mark;
    p->gw_since = t;
    return 0;
  }
  return t - p->gw_since >= PARC_GIVE_WAY_NS;
}

/* The running context c gives way: its unstarted batch-mates go to a rep,
 * as when it blocks, and it goes to the ready list once its registers are
 * saved (it is resumed as a parked context is: counted in `blocked`). */
static void yield_ready(parc_proc *p, parc_ctx *c) {
  PARC_STAT_ADD(p, yields, 1);
  PARC_STAT_ADD(p, blocked, 1);
  parc_detach_chain(p, c);
  switch_out(p, c, PARC_AFTER_READY, c, PARC_TRACE_YIELD);
}

/* If a context pinned to p is ready, or a mapped chunk waits unstarted in
 * p's inbox (it too can run nowhere else), the running one gives way
 * (returns 1; it may then run on another processor), once it has seen
 * them waiting for PARC_GIVE_WAY_NS.  For the inbox, get_work then starts
 * the chunk before it resumes ready contexts (the yielded one among
 * them). */
static int give_way(parc_proc *p, int any_ready) {
  int inbox = !(any_ready ? hint_get(&p->nready) > 0 : pinned_ready(p));
  if (inbox && !hint_get(&p->ninbox))
    return 0; /* every parc_P and parc_V at P > 1 comes this far */
  parc_ctx *c = p->cur;
  if (!c || c == p->sched || !waited_enough(p))
    return 0;
  p->gw_inbox = inbox;
  yield_ready(p, c);
  return 1;
}

/* At a semaphore operation (semaphore.c). */
void parc_yield_to_pinned(void) {
  parc_proc *p = parc_self();
  if (p)
    give_way(p, 0);
}

/* PARC_SCHED=random: the running activity gives way one time in two, to
 * whatever get_work picks next (new work, a ready context, or itself
 * again), as if another processor had run that meanwhile (sched.c).  Not
 * while PARC_RANDOM_WINDOW contexts are ready on p: get_work takes new
 * work first one time in two, so every context that gives way may stay
 * behind a new one, and they piled up (a parfor of a million parc_P/parc_V
 * pairs made 78,000 envelopes at P = 1, 314 MB). */
void parc_random_yield(void) {
  parc_proc *p = parc_self();
  if (!p)
    return; /* a thread of the program's own */
  /* acquire: as parc_ensure_started.  Before the first construct main has
   * nothing to give way to, and no scheduler context to switch to (a
   * parc_V in main before any construct crashed for 12 seeds of 20). */
  if (!__atomic_load_n(&parc_rt.started, __ATOMIC_ACQUIRE))
    return;
  parc_ctx *c = p->cur;
  if (!c || c == p->sched || hint_get(&p->nready) >= PARC_RANDOM_WINDOW || !parc_rand(p, 2))
    return;
  yield_ready(p, c);
}

/* At a poll of an activity that a kill under way does not stop (kill.c):
 * any context ready on p, pinned or not, may be a victim of that kill,
 * woken from sync, a semaphore or epar to stop, and the kill's parent waits
 * at epar until it has.  An idle processor would steal it; with none idle
 * it waited for an activity on p to end: 3 s for a worker at P = 2, and
 * for ever where the kill's parent was to stop that worker next (tester;
 * test/kill/victim_behind_busy.pc). */
void parc_yield_in_kill(void) {
  parc_proc *p = parc_self();
  if (p)
    give_way(p, 1);
}

/* A new worker's first work: it is no longer hungry (start_workers). */
static inline void first_work(parc_proc *p) {
  sigmask_check(p);
  if (PARC_UNLIKELY(p->born_hungry)) {
    p->born_hungry = 0;
    __atomic_fetch_sub(&parc_hunger_.n, 1, __ATOMIC_RELAXED);
  }
}

static void resume(parc_proc *p, parc_ctx *c) {
  first_work(p);
  PARC_STAT_ADD(p, resumed, 1);
  if (PARC_UNLIKELY(parc_rt.trace))
    parc_trace_switch(p, c);
  parc_ctx_switch(p, p->sched, c);
  after_switch(parc_self());
}

/* Run job in an envelope of p's pool.  A job with d == NULL puts the
 * envelope in resume mode (frame.c): it starts with the records rtake, if
 * any, and takes more itself. */
static void run_job(parc_proc *p, const parc_job *job, parc_susp *rtake) {
  first_work(p);
  parc_drt *d = job->d;
  uint64_t n = job->hi - job->lo;
  /* MAXI 5.4: if siblings already wait at a barrier, these activities will
   * likely block too; create their envelopes in one go (unless they wait
   * in frames: frame.c). */
  int hint = d && __atomic_load_n(&d->bar_used, __ATOMIC_RELAXED) &&
             !__atomic_load_n(&d->stackless, __ATOMIC_RELAXED);
  parc_ctx *e = parc_env_get(p, hint, n, d ? d->site : NULL);
  e->job = *job;
  e->pin = job->pin;
  e->rtake = rtake;
  PARC_STAT_ADD(p, shares, 1);
  if (PARC_UNLIKELY(parc_rt.trace))
    parc_trace_switch(p, e);
  parc_ctx_switch(p, p->sched, e);
  after_switch(parc_self());
}

/* The job of an envelope in resume mode (frame.c). */
static const parc_job resume_job = {NULL, 0, 0, -1};

/* Run an envelope in resume mode on p, starting with the records r (if
 * any: NULL lets it take them itself). */
static void run_resumed(parc_proc *p, parc_susp *r) { run_job(p, &resume_job, r); }

/* ---- Descriptor lists and reps ---------------------------------------------- */

/* Link d into p's list just after prev (NULL: at the head, the newest end,
 * where the owner takes; p->dtail: at the tail, the oldest end, where
 * thieves take).  Caller holds p->lock. */
static void list_insert_locked(parc_proc *p, parc_drt *prev, parc_drt *d) {
  d->lprev = prev;
  d->lnext = prev ? prev->lnext : p->dhead;
  if (d->lnext)
    d->lnext->lprev = d;
  else
    p->dtail = d;
  if (prev)
    prev->lnext = d;
  else
    p->dhead = d;
  d->listed = 1;
  work_add(p, 1);
}

/* Push d on p's list (newest first).  Caller: the parent, P > 1. */
void parc_push_desc(parc_proc *p, parc_drt *d) {
  parc_spin_lock(&p->lock);
  list_insert_locked(p, NULL, d);
  parc_spin_unlock(&p->lock);
  parc_wake_any();
}

/* Publish every private descriptor of c's batch chain (c runs on p, P > 1):
 * when a processor is hungry, and before c blocks (its unclaimed activities
 * must not wait for it).  Each descriptor is published at most once, and
 * the walk stops at the outermost private one, so the walks cost O(1) per
 * spawn amortized.
 *
 * Where they go on p's list depends on why.  A hungry processor wants the
 * oldest, largest work: they go to the tail, the outermost last, where
 * thieves take first (breadth first, MAXI 4.1).  Before c blocks, they go
 * to the head, the innermost first, as eager publication at the spawn would
 * have put them and as parc_detach_chain puts the reps: the activity that
 * blocks may wait for its unstarted siblings (a parblock whose sections
 * sync, or hand each other semaphore units), and p takes its work from the
 * head.  At the tail they waited for everything else p had: recursion
 * through a parblock whose two sections sync, 2^14 leaves at P = 2, kept
 * 4,000-8,000 sections blocked at once (14 envelopes at P = 1). */
void parc_publish_chain(parc_proc *p, parc_ctx *c, int blocking) {
  int left = c->npriv;
  if (!left)
    return;
  parc_drt *prev = NULL; /* blocking: the last one linked at the head */
  parc_spin_lock(&p->lock);
  for (parc_batch *b = c->cur_act; b && left; b = b->outer) {
    parc_drt *d = b->d;
    if (!b->is_parent || !d->priv)
      continue;
    d->priv = 0;
    left--;
    /* b, the parent's batch of d, holds all of d (spawn_body).  It keeps
     * the first share that an eager spawn claims (parc_share), or what it
     * has started if that is more, and gives back the rest.  Only c runs b,
     * and we run in c. */
    uint64_t keep = parc_share(d, d->count);
    if (keep < b->act.next)
      keep = b->act.next;
    b->act.end = keep;
    __atomic_store_n(&d->claimed, keep, __ATOMIC_RELAXED);
    if (keep == d->count)
      continue; /* nothing left to share */
    d->home = p; /* c has not moved since the spawn: private => never parked */
    list_insert_locked(p, blocking ? prev : p->dtail, d);
    prev = d;
  }
  parc_spin_unlock(&p->lock);
  c->npriv = 0;
  parc_wake_any();
}

/* Unlink d from its home list.  locked: the caller holds d->home->lock. */
void parc_unlink_desc(parc_drt *d, int locked) {
  parc_proc *h = d->home;
  if (!locked)
    parc_spin_lock(&h->lock);
  if (d->listed) {
    if (d->lprev)
      d->lprev->lnext = d->lnext;
    else
      h->dhead = d->lnext;
    if (d->lnext)
      d->lnext->lprev = d->lprev;
    else
      h->dtail = d->lprev;
    d->listed = 0;
    work_add(h, -1);
  }
  if (!locked)
    parc_spin_unlock(&h->lock);
}

static parc_rep *rep_alloc(parc_proc *p) {
  parc_rep *r = p->rep_free;
  if (r) {
    p->rep_free = r->next;
    p->rep_free_n--;
    return r;
  }
  r = malloc(sizeof *r);
  if (!r)
    parc_fatal_oom("the record of a share of a construct's activities that a processor takes");
  return r;
}

/* Records end on the processor that ran them (thieves take whole reps), so
 * a free list is bounded and the rest goes back to malloc. */
static void rep_free(parc_proc *p, parc_rep *r) {
  if (p->rep_free_n >= PARC_REP_KEEP) {
    free(r);
    return;
  }
  r->next = p->rep_free;
  p->rep_free = r;
  p->rep_free_n++;
}

/* Put the chain first..last of n reps (linked by next/prev, first->prev
 * NULL) at the head of p's list, first becoming the head. */
static void reps_push(parc_proc *p, parc_rep *first, parc_rep *last, int n) {
  lock_if(&p->lock);
  last->next = p->rhead;
  if (p->rhead)
    p->rhead->prev = last;
  else
    p->rtail = last;
  p->rhead = first;
  work_add(p, n);
  unlock_if(&p->lock);
}

/* A new rep [lo, hi) of d, not yet linked. */
static parc_rep *rep_new(parc_proc *p, parc_drt *d, uint64_t lo, uint64_t hi) {
  parc_rep *r = rep_alloc(p);
  r->d = d;
  r->lo = lo;
  r->hi = hi;
  r->next = r->prev = NULL;
  return r;
}

/* Append a rep [lo, hi) of d to p's list (newest at head). */
static void rep_push(parc_proc *p, parc_drt *d, uint64_t lo, uint64_t hi) {
  parc_rep *r = rep_new(p, d, lo, hi);
  reps_push(p, r, r, 1);
}

static void rep_unlink_locked(parc_proc *p, parc_rep *r) {
  if (r->prev)
    r->prev->next = r->next;
  else
    p->rhead = r->next;
  if (r->next)
    r->next->prev = r->prev;
  else
    p->rtail = r->prev;
  work_add(p, -1);
}

/* Cut the batch chain of context c (running on p, about to block): account
 * each batch's terminated prefix and hand its unstarted remainder to a rep.
 * Called without any lock held (parc_finish may take descriptor locks).
 * The reps go on p's list innermost first (take_local takes the head): the
 * siblings of the blocking activity, which a barrier may be waiting for, run
 * before the next activities of the constructs around it.  Outermost first,
 * `parfor 100 { parfor 100 { sync; } }` started every outer activity (each
 * inner construct with one activity blocked) before finishing any inner one
 * (200 envelopes at P = 1; 2,500 at P = 2 with take_local's old order). */
void parc_detach_chain(parc_proc *p, parc_ctx *c) {
  parc_rep *first = NULL, *last = NULL;
  int n = 0;
  parc_publish_chain(p, c, 1); /* P > 1 only: private descriptors exist only there */
  parc_resumed_flush(c);
  if (c->rtake) { /* resumed activities it took and has not started */
    parc_susp *last = c->rtake;
    int n = 1;
    for (; last->next; n++)
      last = last->next;
    parc_return_resume(p, c->rtake, last, n);
    c->rtake = NULL;
  }
  for (parc_batch *b = c->cur_act; b; b = b->outer) {
    if (b->framed && b->sq_n)
      parc_frames_publish(b);
    parc_account_prefix(b);
    /* A stepping batch's real end is step_end (sched.c). */
    uint64_t end = parc_rt.step ? b->step_end : b->act.end;
    if (b->act.next < end) {
      parc_rep *r = rep_new(p, b->d, b->act.next, end);
      r->prev = last;
      if (last)
        last->next = r;
      else
        first = r;
      last = r;
      n++;
      b->act.end = b->act.next;
      if (parc_rt.step)
        b->step_end = b->act.next;
    }
  }
  if (!n)
    return;
  reps_push(p, first, last, n);
  parc_wake_any();
}

/* Lazy splitting, the help request of WorkCrews answered from the running
 * batch: a share claimed earlier (1/P of what remained then) may outlast
 * every other processor's work, and without this the last share of a
 * construct of long activities decides its end alone.  Cut the outermost
 * batch of c that has unstarted activities (the oldest work, as thieves
 * prefer it) at the middle of [next, end) and hand the upper half to a rep
 * of p, which the hungry processor steals.  Called by the context running
 * the batch, at a poll: it alone touches act.next/act.end (parc_abi.h), the
 * activities [next, end) have not started, and the batch's accounting at its
 * end (parc_run_batch) counts up to the new end, exactly as when an activity
 * blocks (parc_detach_chain).  Mapped chunks stay on their processor;
 * stepping batches (sched.c) keep their one-activity end. */
static void split_running(parc_proc *p, parc_ctx *c) {
  parc_batch *cut = NULL, *b;
  /* The walk stops at a batch marked dry: it and every batch outside it
   * still have nothing to cut (parc_batch.dry).  The batches outside the
   * outermost cut (all of them, when there is none) are marked here, so
   * that no later walk passes them again until one gets new activities:
   * each batch is walked over about once, not once per help request.
   * Walking the whole chain every time, a recursion 200,000 parblocks deep
   * at P = 2, asked for help at every poll by the idle processor, took 25 s
   * instead of 0.2 s (quadratic in the depth). */
  for (b = c->cur_act; b && !b->dry; b = b->outer)
    if (b->act.next < b->act.end && !b->d->mapped)
      cut = b;
  for (b = cut ? cut->outer : c->cur_act; b && !b->dry; b = b->outer)
    b->dry = 1;
  if (!cut)
    return;
  uint64_t mid = cut->act.next + (cut->act.end - cut->act.next) / 2;
  rep_push(p, cut->d, mid, cut->act.end);
  cut->act.end = mid;
  PARC_STAT_ADD(p, splits, 1);
  parc_wake_any();
}

/* PARC_SCHED=random (sched.c): hand the unstarted activities [lo, hi) of d,
 * skipped by the running batch, to a rep of p. */
void parc_defer(parc_proc *p, parc_drt *d, uint64_t lo, uint64_t hi) {
  rep_push(p, d, lo, hi);
  parc_wake_any();
}

/* Claim a share of listed descriptor d into *job, unlinking d with its last
 * share.  Caller holds d->home->lock.  0: nothing left to claim. */
static int claim_listed(parc_drt *d, parc_job *job) {
  uint64_t lo, n = parc_claim(d, &lo);
  if (!n)
    return 0;
  /* relaxed: under the lock of every claim (descriptor.c, "Claim"). */
  if (__atomic_load_n(&d->claimed, __ATOMIC_RELAXED) == d->count)
    parc_unlink_desc(d, 1);
  *job = (parc_job){d, lo, lo + n, -1};
  return 1;
}

/* Is descriptor d nested (at any depth up to a bound) inside an activity of
 * descriptor a?  p->lock held and d listed on p: d is alive, so are its
 * parent activity's batch and that batch's descriptor, and so on up (a
 * parent waits at epar for its children). */
static int nested_in(parc_drt *d, parc_drt *a) {
  int depth = 0;
  for (parc_batch *b = d->parent; b && depth < 64; b = b->d->parent, depth++)
    if (b->d == a)
      return 1;
  return 0;
}

/* A descriptor of p's list (newest first, a bounded walk) with unclaimed
 * activities, nested in an activity of a; NULL if none is found. */
static parc_drt *deeper_desc(parc_proc *p, parc_drt *a) {
  int k = 0;
  for (parc_drt *d = p->dhead; d && k < 16; d = d->lnext, k++)
    if (__atomic_load_n(&d->claimed, __ATOMIC_RELAXED) < d->count && nested_in(d, a))
      return d;
  return NULL;
}

/* Local work, depth first: own reps first (they are the oldest claimed work
 * of running constructs), innermost first (parc_detach_chain), unless a
 * descriptor nested in the head rep's construct still has unclaimed
 * activities: a barrier may wait for those, and the rep would start new
 * activities around them (at P > 1 a construct's first claim takes only
 * a share (parc_share), so an inner construct whose activity blocked keeps part of
 * its activities on the list).  Then the newest own descriptor with
 * unclaimed activities. */
static int take_local(parc_proc *p, parc_job *job) {
  if (!hint_get(&p->nwork))
    return 0;
  lock_if(&p->lock);
  parc_rep *r = p->rhead;
  if (PARC_UNLIKELY(parc_rt.sched_random)) {
    /* One of the newest few reps and descriptors (nlisted counts both; a
     * bounded walk, the lists may be long). */
    int w = p->nlisted < PARC_RANDOM_WINDOW ? p->nlisted : PARC_RANDOM_WINDOW;
    uint64_t i = parc_rand(p, (uint64_t)(w > 0 ? w : 1));
    for (; r && i > 0; i--)
      r = r->next;
    if (!r) {
      for (parc_drt *d = p->dhead; d; d = d->lnext) {
        if (i > 0 && d->lnext) {
          i--;
          continue;
        }
        if (claim_listed(d, job)) {
          unlock_if(&p->lock);
          return 1;
        }
        break;
      }
      r = p->rhead;
    }
  }
  if (r && !parc_rt.single) {
    parc_drt *d = deeper_desc(p, r->d);
    if (d && claim_listed(d, job)) {
      unlock_if(&p->lock);
      return 1;
    }
  }
  if (r) {
    rep_unlink_locked(p, r);
    unlock_if(&p->lock);
    *job = (parc_job){r->d, r->lo, r->hi, -1};
    rep_free(p, r);
    return 1;
  }
  for (parc_drt *d = p->dhead; d; d = d->lnext) {
    if (claim_listed(d, job)) {
      unlock_if(&p->lock);
      return 1;
    }
  }
  unlock_if(&p->lock);
  return 0;
}

/* Steal from another processor: oldest descriptor first (breadth first),
 * else half of its oldest rep. */
static int steal(parc_proc *p, parc_job *job) {
  int off = victim_offset(p);
  for (int i = 1; i < parc_rt.P; i++) {
    parc_proc *q = victim(p, i, off);
    if (!hint_get(&q->nwork))
      continue;
    parc_spin_lock(&q->lock);
    for (parc_drt *d = q->dtail; d; d = d->lprev) {
      if (claim_listed(d, job)) {
        /* relaxed: under q->lock, as every claim (an affine lparfor's
         * chunks are not claimed in order: job->hi says nothing). */
        int more = __atomic_load_n(&d->claimed, __ATOMIC_RELAXED) != d->count;
        parc_spin_unlock(&q->lock);
        PARC_STAT_ADD(p, steals, 1);
        if (more) /* a push wakes one sleeper; each thief wakes the next */
          parc_wake_any();
        return 1;
      }
    }
    parc_rep *r = q->rtail;
    if (r) {
      uint64_t lo = r->lo, hi = r->hi;
      int whole = hi - lo < 2;
      if (whole) {
        rep_unlink_locked(q, r);
      } else {
        uint64_t mid = lo + (hi - lo) / 2;
        r->hi = mid; /* the owner keeps the lower half */
        lo = mid;
      }
      parc_drt *d = r->d;
      parc_spin_unlock(&q->lock);
      if (whole) /* unlinked: the record is ours to recycle */
        rep_free(p, r);
      *job = (parc_job){d, lo, hi, -1};
      PARC_STAT_ADD(p, steals, 1);
      return 1;
    }
    parc_spin_unlock(&q->lock);
  }
  return 0;
}

/* ---- Mapped lparfor ------------------------------------------------------------ */

/* Post d's chunk k to processor k's inbox for every k < count except
 * `except` (the parent's processor runs its chunk inline). */
void parc_post_mapped(parc_drt *d, int except) {
  for (int k = 0; k < (int)d->count; k++) {
    if (k == except)
      continue;
    parc_proc *q = &parc_rt.procs[k];
    lock_if(&q->inbox_lock);
    if (q->inbox_n == q->inbox_cap && q->inbox_head > 0) { /* reuse taken slots */
      q->inbox_n -= q->inbox_head;
      memmove(q->inbox, q->inbox + q->inbox_head, sizeof *q->inbox * (size_t)q->inbox_n);
      q->inbox_head = 0;
    }
    if (q->inbox_n == q->inbox_cap) {
      int cap = q->inbox_cap ? 2 * q->inbox_cap : PARC_INBOX_INIT;
      parc_drt **a = realloc(q->inbox, sizeof *a * (size_t)cap);
      if (!a)
        parc_fatal_oom("a processor's list of mapped lparfor chunks");
      q->inbox = a;
      q->inbox_cap = cap;
    }
    q->inbox[q->inbox_n++] = d;
    hint_add(&q->ninbox, 1);
    unlock_if(&q->inbox_lock);
    if (!parc_rt.single)
      parc_wake_proc(q);
  }
}

/* Take a chunk of p's inbox: the newest, as a processor takes its own
 * descriptors (depth first), and at every PARC_INBOX_FAIR-th take the oldest.
 * Nobody else may run these chunks, so the order decides how many parents
 * wait at once: in a recursion through mapped lparfor each parent waits at
 * epar for its chunks pinned elsewhere, and a processor that took the oldest
 * chunk first worked on the shallowest calls while every deeper parent
 * waited in an envelope of its own (test/constructs/mapped_recursion.pc:
 * 14,000 envelopes for 131,070 activities at P = 2; newest first, 500-1,800).
 * The oldest-first turn bounds how long a chunk can wait behind newer ones
 * that keep arriving. */
static int take_mapped(parc_proc *p, parc_job *job) {
  if (!hint_get(&p->ninbox))
    return 0;
  lock_if(&p->inbox_lock);
  parc_drt *d = NULL;
  if (p->inbox_n != p->inbox_head) {
    if (++p->inbox_takes % PARC_INBOX_FAIR == 0)
      d = p->inbox[p->inbox_head++];
    else
      d = p->inbox[--p->inbox_n];
    if (p->inbox_head == p->inbox_n)
      p->inbox_head = p->inbox_n = 0;
    hint_add(&p->ninbox, -1);
  }
  unlock_if(&p->inbox_lock);
  if (!d)
    return 0;
  *job = (parc_job){d, (uint64_t)p->id, (uint64_t)p->id + 1, p->id};
  PARC_STAT_ADD(p, mapped, 1);
  return 1;
}

/* New work of p's own: its reps and descriptors, then its mapped chunks;
 * but while chunks wait, every PARC_INBOX_TURN-th take is a chunk.  A rep
 * or descriptor here may be the unstarted sibling that a blocked activity
 * of p waits for (a parblock section that syncs after its mapped lparfor
 * has ended), and chunks taken first started new subtrees while those
 * waited: recursion through a parblock whose first section runs a mapped
 * lparfor and then syncs, 2^14 leaves at P = 2, 8,400 envelopes; now
 * 900-1,300 on the idle machine.  The turn bounds a chunk's wait: nobody
 * else may run it, while idle processors may steal the reps and
 * descriptors. */
static int take_own(parc_proc *p, parc_job *job) {
  if (hint_get(&p->ninbox) && ++p->local_takes >= PARC_INBOX_TURN && take_mapped(p, job)) {
    p->local_takes = 0;
    return 1;
  }
  return take_local(p, job) || take_mapped(p, job);
}

/* A turn ("Turns"): p's own new work or its oldest resume records,
 * alternately first.  1 if it took something: *job to run, with *r the
 * records it took (NULL for own work). */
static int take_turn(parc_proc *p, parc_job *job, parc_susp **r) {
  p->turn_pending = 0;
  int own = (p->turn_phase ^= 1);
  *r = NULL;
  if (own && take_own(p, job))
    return 1;
  if ((*r = take_resume(p, PARC_RESUME_TAKE, RES_TURN))) {
    *job = resume_job;
    return 1;
  }
  return !own && take_own(p, job);
}

/* ---- Blocked registry (kill delivery) ------------------------------------------ */

/* c is about to wait on obj (kind PARC_WAIT_SYNC: a descriptor's barrier;
 * PARC_WAIT_SEM: a semaphore), whose lock the caller holds (lock order:
 * object lock -> blocked_lock): record what it waits on, for kill delivery
 * (kill.c) and the deadlock report, and enter it in p's registry. */
void parc_register_blocked(parc_proc *p, parc_ctx *c, int kind, void *obj, parc_spin *lock) {
  c->wait_kind = kind;
  c->wait_obj = obj;
  c->wait_lock = lock;
  c->wake_killed = 0;
  lock_if(&p->blocked_lock);
  c->bprev = NULL;
  c->bnext = p->blocked;
  if (p->blocked)
    p->blocked->bprev = c;
  p->blocked = c;
  /* relaxed: the first kill sets it before it takes this lock to index
   * the contexts registered before (kill.c, "Delivery"). */
  if (PARC_UNLIKELY(__atomic_load_n(&parc_kill_indexing_, __ATOMIC_RELAXED)) && c->cur_act)
    parc_kill_enter(p, c);
  c->last = p;
  c->reg = p;
  unlock_if(&p->blocked_lock);
}

/* Precondition: as parc_register_blocked (the caller holds the wait
 * object's lock), or c is a context released by a barrier that runs again
 * and takes itself out (parc_sync; kill delivery reads wait_kind under the
 * registry's lock).  c->reg is the registry: c->last moves when c runs. */
void parc_unregister_blocked(parc_ctx *c) {
  parc_proc *p = c->reg;
  lock_if(&p->blocked_lock);
  parc_unregister_blocked_locked(c);
  unlock_if(&p->blocked_lock);
}

/* The same with c->reg's blocked_lock already held (kill delivery). */
void parc_unregister_blocked_locked(parc_ctx *c) {
  parc_proc *p = c->reg;
  /* relaxed: c was entered under this lock after the flag was set. */
  if (PARC_UNLIKELY(__atomic_load_n(&parc_kill_indexing_, __ATOMIC_RELAXED)) && c->kreg)
    parc_kill_leave(p, c);
  if (c->bprev)
    c->bprev->bnext = c->bnext;
  else
    p->blocked = c->bnext;
  if (c->bnext)
    c->bnext->bprev = c->bprev;
  c->bnext = c->bprev = NULL;
  c->reg = NULL;
  c->wait_kind = PARC_WAIT_NONE;
}

/* ---- Deadlock report -------------------------------------------------------------
 * Every processor is idle (see idle()): say what each blocked activity
 * waits for, then exit 1.  Nothing runs any more, so the locks taken here
 * are free; they are taken anyway so that the reads are ordered after the
 * writers' critical sections. */

/* "FILE:LINE:COL (KIND in FUNC)" of a construct site (s may be NULL). */
static void describe_site(char *buf, size_t n, const parc_site *s) {
  snprintf(buf, n, "%s:%u:%u (%s in %s)", s && s->file ? s->file : "?", s ? s->line : 0,
           s ? s->col : 0, s ? parc_kind_word(s->kind) : "parfor", s && s->func ? s->func : "?");
}

/* The value of an index of `size` bytes (1 to 16) and signedness sgn that
 * is FROM + j x STEP modulo 2^(8 size), FROM and STEP being the
 * environment's words at from and step, in decimal. */
static void index_value(char *buf, size_t n, const unsigned char *from,
                        const unsigned char *step, unsigned size, unsigned sgn, uint64_t j) {
#ifdef __SIZEOF_INT128__
  if (size == 16) {
    unsigned __int128 f, s;
    memcpy(&f, from, sizeof f);
    memcpy(&s, step, sizeof s);
    unsigned __int128 v = f + (unsigned __int128)j * s;
    int neg = sgn && (v >> 127);
    if (neg)
      v = -v;
    char digits[48], *p = digits + sizeof digits;
    *--p = '\0';
    do
      *--p = (char)('0' + (int)(v % 10));
    while ((v /= 10) != 0);
    if (neg)
      *--p = '-';
    snprintf(buf, n, "%s", p);
    return;
  }
#endif
  if (size > 8) { /* no 128-bit arithmetic here */
    snprintf(buf, n, "?");
    return;
  }
  uint64_t f, s;
  memcpy(&f, from, sizeof f);
  memcpy(&s, step, sizeof s);
  uint64_t v = f + j * s;
  unsigned bits = 8 * size;
  if (bits < 64) {
    v &= (UINT64_C(1) << bits) - 1;
    if (sgn && (v >> (bits - 1)))
      v |= ~((UINT64_C(1) << bits) - 1);
  }
  if (sgn)
    snprintf(buf, n, "%lld", (long long)v);
  else
    snprintf(buf, n, "%llu", (unsigned long long)v);
}

/* Is STEP, the environment's word at step for an index of `size` bytes,
 * 1 or -1 in the index's width (consecutive values)? */
static int unit_step(const unsigned char *step, unsigned size) {
#ifdef __SIZEOF_INT128__
  if (size == 16) {
    unsigned __int128 s;
    memcpy(&s, step, sizeof s);
    return s == 1 || s == ~(unsigned __int128)0;
  }
#endif
  if (size > 8)
    return 0;
  uint64_t s, mask = size == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * size)) - 1;
  memcpy(&s, step, sizeof s);
  s &= mask;
  return s == 1 || s == mask;
}

/* What the site's names say of activity k of d (parc_abi.h, "Names of
 * activities"): " (i = 16)", " (i = 250 to 499)" for an lparfor chunk,
 * " (the section at line 14)"; "" where the site has none. */
static void activity_names(char *buf, size_t n, const parc_drt *d, uint64_t k) {
  const parc_act_names *nm = d->site->names;
  buf[0] = '\0';
  if (!nm || k >= d->count)
    return;
  if (nm->sections) { /* the column too where another section shares the line */
    const unsigned *at = nm->sections + 2 * k;
    int shared = 0;
    for (uint64_t x = 0; x < d->count && !shared; x++)
      shared = x != k && nm->sections[2 * x] == at[0];
    if (shared)
      snprintf(buf, n, " (the section at line %u, column %u)", at[0], at[1]);
    else
      snprintf(buf, n, " (the section at line %u)", at[0]);
    return;
  }
  if (!nm->index || !d->env)
    return;
  const unsigned char *env = d->env, *from = env + nm->from_at, *step = env + nm->step_at;
  uint64_t lo = k, hi = k;
  if (nm->niter_at) { /* an lparfor's chunk: its iterations (parc_chunk_lo) */
    uint64_t niter;
    memcpy(&niter, env + nm->niter_at, sizeof niter);
    lo = parc_chunk_lo(niter, d->count, k);
    hi = parc_chunk_lo(niter, d->count, k + 1) - 1;
  }
  char a[48], b[48], z[48];
  index_value(a, sizeof a, from, step, nm->size, nm->is_signed, lo);
  if (hi == lo) {
    snprintf(buf, n, " (%s = %s)", nm->index, a);
    return;
  }
  index_value(z, sizeof z, from, step, nm->size, nm->is_signed, hi);
  if (unit_step(step, nm->size)) {
    snprintf(buf, n, " (%s = %s to %s)", nm->index, a, z);
    return;
  }
  /* A chunk with a step of 3 holds every third value: "0 to 999" read as
   * all of them. */
  index_value(b, sizeof b, from, step, nm->size, nm->is_signed, lo + 1);
  snprintf(buf, n, hi == lo + 1 ? " (%s = %s, %s)" : " (%s = %s, %s, ..., %s)", nm->index, a,
           hi == lo + 1 ? z : b, z);
}

/* "activity K (WHAT) of SITE" or "main", then up to `levels` of the activities
 * it was started by ("within activity J (WHAT) of SITE"): six activities of an
 * inner construct that a parfor started once per index are told apart by
 * the index of the one around them.  Where more are around them than
 * `levels` (> 0) tells, their number ends it ("within 3998 more
 * activities"): in a deep recursion, the depth it reached. */
static void describe_activity_in(char *buf, size_t n, const parc_batch *b, int levels) {
  if (!b || !b->d || !b->d->site) {
    snprintf(buf, n, "main");
    return;
  }
  char site[512], names[320];
  describe_site(site, sizeof site, b->d->site);
  activity_names(names, sizeof names, b->d, b->act.cur);
  size_t len = (size_t)snprintf(buf, n, "activity %llu%s of %s", (unsigned long long)b->act.cur,
                                names, site);
  const parc_batch *up = b->d->parent;
  for (int depth = 0; depth < levels && len < n && up && up->d && up->d->site; depth++) {
    describe_site(site, sizeof site, up->d->site);
    activity_names(names, sizeof names, up->d, up->act.cur);
    len += (size_t)snprintf(buf + len, n - len, " within activity %llu%s of %s",
                            (unsigned long long)up->act.cur, names, site);
    up = up->d->parent;
  }
  if (levels > 0 && len < n && up && up->d && up->d->site) {
    uint64_t more = 0;
    for (; up && up->d && up->d->site; up = up->d->parent)
      more++;
    snprintf(buf + len, n - len, " within %llu more %s", (unsigned long long)more,
             more == 1 ? "activity" : "activities");
  }
}

void parc_describe_activity(char *buf, size_t n, const parc_batch *b) {
  describe_activity_in(buf, n, b, 3);
}

/* The batch of the activity the calling thread runs; NULL where it runs
 * none. */
static const parc_batch *running_batch(void) {
  parc_proc *p = parc_self();
  return p && p->cur ? p->cur->cur_act : NULL;
}

/* The activity the calling thread runs ("main" where it runs none). */
static void describe_running(char *buf, size_t n) {
  parc_describe_activity(buf, n, running_batch());
}

/* "OP(ARG) at FILE:LINE:COL": a call as written, from the site parcc
 * passed (parc_P_at, parc_V_at); just "OP" without one.  Room for a path
 * of PATH_MAX and parcc's 60-character argument. */
enum { PARC_CALL_TEXT = 4096 + 128 };
static void describe_call(char *buf, size_t n, const char *op, const parc_wait_site *site) {
  if (site)
    snprintf(buf, n, "%s(%s) at %s:%u:%u", op, site->arg, site->file, site->line, site->col);
  else
    snprintf(buf, n, "%s", op);
}

/* "sync at FILE:LINE:COL", or "sync" where parcc passed no place. */
static void sync_place(char *buf, size_t n, const parc_wait_site *site) {
  if (site)
    snprintf(buf, n, "sync at %s:%u:%u", site->file, site->line, site->col);
  else
    snprintf(buf, n, "sync");
}

/* The activities of d waiting at a stackless sync (d->lock held): their
 * number, and in buf the place of their sync ("sync at prog.pc:9:5"), or
 * of each of theirs with its count ("sync at prog.pc:9:5 (2), sync at
 * prog.pc:12:5 (1)"), the first few. */
static uint64_t framed_places(parc_drt *d, char *buf, size_t n) {
  enum { MAX_PLACES = 4 };
  const parc_wait_site *place[MAX_PLACES];
  uint64_t count[MAX_PLACES], total = 0, others = 0;
  int np = 0;
  for (int j = 0; j <= PARC_BAR_QUEUES; j++)
    for (parc_susp *r = d->sq_head[j]; r; r = r->next) {
      const parc_wait_site *w = parc_frame_sync_site(d, r);
      total++;
      int i = 0;
      while (i < np && place[i] != w)
        i++;
      if (i < np) {
        count[i]++;
      } else if (np < MAX_PLACES) {
        place[np] = w;
        count[np++] = 1;
      } else {
        others++;
      }
    }
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < np && len < n; i++) {
    if (i)
      len += (size_t)snprintf(buf + len, n - len, ", ");
    if (len < n)
      sync_place(buf + len, n - len, place[i]);
    len = strlen(buf);
    if (np > 1 && len < n)
      len += (size_t)snprintf(buf + len, n - len, " (%llu)", (unsigned long long)count[i]);
  }
  if (others && len < n)
    snprintf(buf + len, n - len, ", elsewhere (%llu)", (unsigned long long)others);
  return total;
}

/* parc_P or parc_V (op) on memory that parc_sem_init never set up
 * (semaphore.c): name the calling activity, as the deadlock report does,
 * and the call as written when parcc passed its site (parc_P_at,
 * parc_V_at). */
void parc_fatal_uninit_sem(const char *op, const void *sem, const parc_wait_site *site) {
  char what[2200], call[PARC_CALL_TEXT], name[256];
  describe_running(what, sizeof what);
  describe_call(call, sizeof call, op, site);
  parc_sem_describe(name, sizeof name, sem, running_batch());
  parc_fatal(1, "%s on %s, which parc_sem_init has not initialised (in %s)", call, name, what);
}

void parc_fatal_oom(const char *what) {
  char where[2300] = " on a thread of the program's own", limit[300] = "";
  if (parc_self()) {
    char act[2200];
    describe_running(act, sizeof act);
    snprintf(where, sizeof where, " (in %s)", act);
  }
  uint64_t kib;
  int arenas;
  if (parc_aspace_full(1u << 20, &kib, &arenas))
    snprintf(limit, sizeof limit, ": the address-space limit (ulimit -v %llu) is reached%s",
             (unsigned long long)kib, arenas ? "; MALLOC_ARENA_MAX=1 may help" : "");
  parc_fatal(1, "out of memory: the runtime cannot allocate %s%s%s", what, where, limit);
}

void parc_fatal_sem_overflow(const void *sem, const parc_wait_site *site) {
  char what[2200], call[PARC_CALL_TEXT], name[256];
  describe_running(what, sizeof what);
  describe_call(call, sizeof call, "parc_V", site);
  parc_sem_describe(name, sizeof name, sem, running_batch());
  parc_fatal(1, "%s on %s, whose value is already INT_MAX (%d): a semaphore counts up to "
                "INT_MAX (in %s)",
             call, name, INT_MAX, what);
}

enum { DEADLOCK_NOTES = 16, DEADLOCK_SEEN = 64, DEADLOCK_SORTED = 4096 };

/* The order of activities a and b in the notes: by construct site, then
 * by construct execution, then by activity number (main, with no batch,
 * first).  Two executions of one construct are in the order of the
 * activities they run within (an inner construct's activities by the
 * index of the parfor activity around them), up to `levels` constructs
 * up; beyond, in no particular order.  The registries' order (newest
 * blocked first, processor by processor) read "activity 3, 2, 1, 0, 4, 9,
 * 8" to a tester; the executions' addresses read "k = 1, 5, 4, 3, 2, 0". */
static int batch_order(const parc_batch *a, const parc_batch *b, int levels) {
  const parc_drt *da = a ? a->d : NULL, *db = b ? b->d : NULL;
  if (!da || !db)
    return (da != NULL) - (db != NULL);
  const parc_site *sa = da->site, *sb = db->site;
  if (sa != sb) {
    int c = sa && sb && sa->file && sb->file ? strcmp(sa->file, sb->file) : 0;
    if (c)
      return c;
    unsigned la = sa ? sa->line : 0, lb = sb ? sb->line : 0;
    unsigned ca = sa ? sa->col : 0, cb = sb ? sb->col : 0;
    if (la != lb)
      return la < lb ? -1 : 1;
    if (ca != cb)
      return ca < cb ? -1 : 1;
  }
  if (da != db) {
    int c = levels > 0 ? batch_order(da->parent, db->parent, levels - 1) : 0;
    if (c)
      return c;
    return (uintptr_t)da < (uintptr_t)db ? -1 : 1;
  }
  return a->act.cur < b->act.cur ? -1 : a->act.cur > b->act.cur;
}

static int note_order(const void *x, const void *y) {
  return batch_order((*(parc_ctx *const *)x)->cur_act, (*(parc_ctx *const *)y)->cur_act, 8);
}

/* Does list[0 .. n) hold x? */
static int holds(parc_drt *const *list, int n, const parc_drt *x) {
  for (int i = 0; i < n; i++)
    if (list[i] == x)
      return 1;
  return 0;
}

/* The constructs from b's upwards, added to seen[0 .. *nseen) where it
 * does not hold them yet (for construct_notes). */
static void constructs_of(const parc_batch *b, parc_drt **seen, int *nseen) {
  for (parc_drt *x = b ? b->d : NULL; x; x = x->parent ? x->parent->d : NULL)
    if (!holds(seen, *nseen, x) && *nseen < DEADLOCK_SEEN)
      seen[(*nseen)++] = x;
}

/* parc_deadlock's note on blocked context c, then one on each parent
 * waiting at epar from its construct upwards that seen[0 .. *nseen) does
 * not hold yet (added to it). */
static void deadlock_note(FILE *f, parc_ctx *c, parc_drt **seen, int *nseen) {
  char what[2200];
  parc_batch *b = c->cur_act;
  /* The activity it runs inline in (same context), if any: when that
   * is its parent, the activities around are told after it. */
  int inl = b && (b->outer || c == &root_ctx);
  int by_parent = inl && b->outer && b->d && b->outer == b->d->parent;
  describe_activity_in(what, sizeof what, b, by_parent ? 0 : 3);
  char in[2200] = "";
  if (inl) {
    size_t n = (size_t)snprintf(in, sizeof in, ", run inline by ");
    describe_activity_in(in + n, sizeof in - n, b->outer, by_parent ? 2 : 0);
    n = strlen(in);
    snprintf(in + n, sizeof in - n, ",");
  }
  if (c->wait_kind == PARC_WAIT_SYNC) {
    parc_drt *d = c->wait_obj;
    char at[PARC_CALL_TEXT];
    sync_place(at, sizeof at, c->wait_site);
    fprintf(f, "parc: note: %s%s waits at %s (%llu of %llu unfinished activities arrived)\n",
            what, in, at, (unsigned long long)d->arrived[d->bar_gen & 1],
            (unsigned long long)__atomic_load_n(&d->unfinished, __ATOMIC_RELAXED));
  } else {
    /* A static semaphore never given to parc_sem_init starts at 0: said,
     * since a forgotten parc_sem_init looks like a forgotten parc_V. */
    int never = parc_sem_adopted(c->wait_obj);
    char name[256];
    parc_sem_describe(name, sizeof name, c->wait_obj, b);
    if (c->wait_site) { /* parc_P_at: the call as the user wrote it */
      char call[PARC_CALL_TEXT];
      describe_call(call, sizeof call, "parc_P", c->wait_site);
      fprintf(f, "parc: note: %s%s waits in %s (%s%s)\n", what, in, call, name,
              never ? "; never given to parc_sem_init, it started at 0" : "");
    } else
      fprintf(f, "parc: note: %s%s waits on %s%s\n", what, in, name,
              never ? " (never given to parc_sem_init: it started at 0)" : "");
  }
  constructs_of(b, seen, nseen);
}

/* After the notes on blocked activities (the report's order: parc_P, then
 * sync), one per construct they lead to, in the order first met: its
 * activities waiting in frames at a stackless sync, and its parent waiting
 * at epar.  Told after each activity's note, a "main waits at the epar"
 * came between the parc_P notes (tester H, s45). */
static void construct_notes(FILE *f, parc_drt **seen, int nseen) {
  char what[2200];
  for (int k = 0; k < nseen; k++) {
    parc_drt *x = seen[k];
    lock_if(&x->lock);
    parc_ctx *w = x->waiter;
    uint64_t left = __atomic_load_n(&x->unfinished, __ATOMIC_RELAXED);
    uint64_t framed = 0, arrived = x->arrived[x->bar_gen & 1];
    char at[PARC_CALL_TEXT];
    if (x->bar_used)
      framed = framed_places(x, at, sizeof at);
    unlock_if(&x->lock);
    char site[512];
    describe_site(site, sizeof site, x->site);
    parc_describe_activity(what, sizeof what, x->parent);
    /* The activity the construct runs within tells its executions apart. */
    int in_main = strcmp(what, "main") == 0;
    if (framed) /* activities waiting at a stackless sync (frame.c) */
      fprintf(f,
              "parc: note: %llu %s of %s%s%s %s at %s (%llu of %llu unfinished activities "
              "arrived)\n",
              (unsigned long long)framed, framed == 1 ? "activity" : "activities", site,
              in_main ? "" : " within ", in_main ? "" : what,
              framed == 1 ? "waits" : "wait", at, (unsigned long long)arrived,
              (unsigned long long)left);
    if (!w)
      continue;
    fprintf(f, "parc: note: %s waits at the epar of %s for %llu unfinished %s\n", what, site,
            (unsigned long long)left, left == 1 ? "activity" : "activities");
  }
}

void parc_deadlock(void) {
  FILE *f = stderr;
  /* The constructs of the activities noted, and of those past the note
   * limit: the activities of the latter that wait at a stackless sync get
   * no note of their own and are counted in "and N more" (they were left
   * out of it, tester P, s47). */
  parc_drt *seen[DEADLOCK_SEEN], *unseen[DEADLOCK_SEEN];
  int nseen = 0, nunseen = 0;
  int notes = 0;
  uint64_t more = 0;
  /* Two processors watching the program's own threads may both see them
   * end (watch_foreign): one report. */
  static int reporting;
  if (__atomic_exchange_n(&reporting, 1, __ATOMIC_ACQ_REL))
    for (;;)
      pause();
  parc_error_flush();
  fprintf(f, "parc: error: deadlock: every activity is blocked (PARC_NPROCS=%d)\n", parc_rt.P);
  if (__atomic_load_n(&foreign_waited, __ATOMIC_RELAXED))
    fprintf(f, "parc: note: the program's own threads, which might have called parc_V, have "
               "ended\n");
  /* Activities waiting in parc_P first: those at a sync usually wait for
   * one of them, and under PARC_SCHED=random or PARC_TRACE each waits at a
   * parfor's sync on its own stack, with a note of its own, so that the
   * note limit cut off the parc_P that the report is for (tester: 3 runs
   * of 20 named it at P = 1, none at P = 8). */
  static parc_ctx *sorted[DEADLOCK_SORTED];
  for (int pass = 0; pass < 2; pass++) {
    int n = 0;
    for (int k = 0; k < parc_rt.P; k++) {
      parc_proc *q = &parc_rt.procs[k];
      lock_if(&q->blocked_lock);
      for (parc_ctx *c = q->blocked; c; c = c->bnext) {
        if ((c->wait_kind == PARC_WAIT_SEM) != (pass == 0))
          continue;
        if (n < DEADLOCK_SORTED) {
          sorted[n++] = c;
        } else {
          more++;
          constructs_of(c->cur_act, unseen, &nunseen);
        }
      }
      unlock_if(&q->blocked_lock);
    }
    qsort(sorted, (size_t)n, sizeof sorted[0], note_order);
    for (int i = 0; i < n; i++) {
      if (notes < DEADLOCK_NOTES) {
        notes++;
        deadlock_note(f, sorted[i], seen, &nseen);
      } else {
        more++;
        constructs_of(sorted[i]->cur_act, unseen, &nunseen);
      }
    }
  }
  construct_notes(f, seen, nseen);
  for (int k = 0; k < nunseen; k++) {
    if (holds(seen, nseen, unseen[k]) || !unseen[k]->bar_used)
      continue;
    char at[PARC_CALL_TEXT];
    lock_if(&unseen[k]->lock);
    more += framed_places(unseen[k], at, sizeof at);
    unlock_if(&unseen[k]->lock);
  }
  if (more)
    fprintf(f, "parc: note: and %llu more blocked %s\n", (unsigned long long)more,
            more == 1 ? "activity" : "activities");
  fflush(f);
  if (parc_rt.trace)
    parc_trace_flush();
  _Exit(1);
}

/* ---- get_work ------------------------------------------------------------------- */

static void get_work(parc_proc *p) {
  after_switch(p);
  for (;;) {
    parc_ctx *c;
    parc_job job;
    parc_susp *r;
    /* PARC_SCHED=random: sometimes new work before the ready contexts,
     * while fewer than PARC_RANDOM_WINDOW wait: each holds a stack, and
     * new work that blocks in turn adds one (a parfor whose activities
     * each wait for a mapped chunk on processor 0 piled up 60,000 ready
     * contexts, 500 MB, at P = 4). */
    if (PARC_UNLIKELY(parc_rt.sched_random) && parc_rand(p, 2) &&
        hint_get(&p->nready) < PARC_RANDOM_WINDOW &&
        (take_mapped(p, &job) || take_local(p, &job))) {
      run_job(p, &job, NULL);
      continue;
    }
    /* The running activity gave way to a mapped chunk in the inbox. */
    if (PARC_UNLIKELY(p->gw_inbox)) {
      p->gw_inbox = 0;
      if (take_mapped(p, &job)) {
        run_job(p, &job, NULL);
        continue;
      }
    }
    /* A turn for the work behind the ready and released ("Turns"). */
    if (PARC_UNLIKELY(p->turn_pending || turn_due(p)) && take_turn(p, &job, &r)) {
      PARC_STAT_ADD(p, turns, 1);
      run_job(p, &job, r);
      continue;
    }
    if ((c = pop_ready(p))) {
      resume(p, c);
      continue;
    }
    /* More processors than CPUs: the activity this processor just parked
     * likely waits for one whose thread the kernel has taken off its CPU
     * (a lock holder, a parent's children); every new activity started
     * meanwhile may block on the same thing and hold an envelope of its
     * own (parcgen seed 31481 at P = 8 on 2 CPUs: 6,726 envelopes).  So,
     * once this processor has created PARC_ENV_YIELD_FLOOR envelopes and
     * has no free one in its pool, it yields its CPU once after each park
     * before it takes new work: the awaited thread runs, and whatever it
     * readies is resumed first.  One yield per park, so nothing waits on
     * it; below the floor (W4/W5's two envelopes) it costs nothing. */
    if (p->parked) {
      p->parked = 0;
      if (parc_oversubscribed() && p->pool_n == 0 &&
          p->st.env_created >= PARC_ENV_YIELD_FLOOR) {
        sched_yield();
        continue;
      }
    }
    /* Activities released from stackless syncs; those given back by a
     * context that blocked before running them only after p's own reps
     * and descriptors ("Resume lists"). */
    if ((r = take_resume(p, PARC_RESUME_TAKE, RES_NEW))) {
      run_resumed(p, r);
      continue;
    }
    if (take_own(p, &job)) {
      run_job(p, &job, NULL);
      continue;
    }
    if ((r = take_resume(p, PARC_RESUME_TAKE, RES_OLD))) {
      run_resumed(p, r);
      continue;
    }
    if (!parc_rt.single) {
      if (steal(p, &job)) {
        run_job(p, &job, NULL);
        continue;
      }
      if (steal_resume(p)) {
        run_resumed(p, NULL);
        continue;
      }
      if ((c = steal_ready(p))) {
        resume(p, c);
        continue;
      }
    }
    idle(p);
    if (PARC_UNLIKELY(p->quit)) /* a worker, on its thread's own stack */
      return;
  }
}
