/* internal.h - libparc's private structures and the helpers every file shares.
 *
 * Nothing here is visible outside the library: every non-static symbol is
 * declared PARC_INTERNAL (hidden visibility, as cheetah's CHEETAH_INTERNAL),
 * so only the entries of parc.h and parc_abi.h are exported, and the build
 * makes the hidden symbols local in the archives (runtime/CMakeLists.txt),
 * so that a program's globals of the same names are its own.  The nm check
 * test/runtime/global_names.test finds a name left unmarked.  The concepts
 * (processor, descriptor, batch, representative, envelope) are explained in
 * the essay at the top of processor.c.
 */
#ifndef PARC_INTERNAL_H
#define PARC_INTERNAL_H

#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "config.h"
/* The runtime defines parc_kill_pending_, parc_poll_hook_ and parc_poll_slow
 * (kill.c), in place of parc_abi.h's weak stand-ins for objects linked
 * without it. */
#define PARC_RUNTIME_SOURCE 1
#include "parc_abi.h"

#define PARC_INTERNAL __attribute__((visibility("hidden")))
#define PARC_LIKELY(x) __builtin_expect(!!(x), 1)
#define PARC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PARC_CACHELINE 64

/* ---- Sanitizers ---------------------------------------------------------- */
#if defined(__SANITIZE_THREAD__)
#define PARC_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PARC_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PARC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARC_ASAN 1
#endif
#endif
#ifndef PARC_TSAN
#define PARC_TSAN 0
#endif
#ifndef PARC_ASAN
#define PARC_ASAN 0
#endif

/* Valgrind's client requests (valgrind.h: macros only, no library; each is
 * a few no-op instructions when the program does not run under Valgrind).
 * Used where the runtime does what Memcheck cannot guess: switching stacks
 * (context.c) and leaving threads running at exit (processor.c).  Built
 * without them when the header is missing (Debian package valgrind). */
#if !PARC_TSAN && !PARC_ASAN && defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define PARC_VALGRIND 1
#endif
#endif
#ifndef PARC_VALGRIND
#define PARC_VALGRIND 0
#define RUNNING_ON_VALGRIND 0
#endif

/* Context switching: the assembly routines on x86-64 and AArch64
 * (context_x86_64.S, context_aarch64.S), ucontext elsewhere (or when forced
 * with -DPARC_CTX_UCONTEXT=1, which tests the fallback). */
#ifndef PARC_CTX_UCONTEXT
#if defined(__x86_64__) || defined(__aarch64__)
#define PARC_CTX_UCONTEXT 0
#else
#define PARC_CTX_UCONTEXT 1
#endif
#endif
#if PARC_CTX_UCONTEXT
#include <ucontext.h>
#endif

/* The kill landing point of a batch (kill.c): a minimal assembly
 * setjmp/longjmp on x86-64 and AArch64 (callee-saved registers only; fib with a
 * 2-section parblock per call: 8.4 instead of 9.4 ns per activity at P = 1
 * with glibc's _setjmp, best of 6), libc's _setjmp/_longjmp under
 * sanitizers (they intercept them to keep their shadow stacks right) and on
 * other architectures.  ThreadSanitizer intercepts _setjmp but, in gcc 12's
 * libtsan, not _longjmp: its shadow stack kept the frames of every killed
 * activity (three for a pbreak) and the program failed a CHECK after 21,845
 * kills (tester M, s47).  There, longjmp: glibc's restores no signal mask
 * that _setjmp did not save, so it does what _longjmp does. */
#if !PARC_CTX_UCONTEXT && !PARC_ASAN && !PARC_TSAN
#define PARC_ASM_JMP 1
#if defined(__aarch64__)
typedef uint64_t parc_jmp_buf[21]; /* x19-x30, sp, d8-d15 */
#else
typedef uint64_t parc_jmp_buf[8]; /* return address, rsp, rbp, rbx, r12-r15 */
#endif
PARC_INTERNAL int parc_setjmp_(uint64_t *buf) __attribute__((returns_twice));
PARC_INTERNAL _Noreturn void parc_longjmp_(uint64_t *buf, int v);
#define parc_setjmp(b) parc_setjmp_(b)
#define parc_longjmp(b, v) parc_longjmp_((b), (v))
#else
#define PARC_ASM_JMP 0
typedef jmp_buf parc_jmp_buf;
#define parc_setjmp(b) _setjmp(b)
#if PARC_TSAN
#define parc_longjmp(b, v) longjmp((b), (v))
#else
#define parc_longjmp(b, v) _longjmp((b), (v))
#endif
#endif

/* ---- Failure paths --------------------------------------------------------
 * parc_fatal: a user or environment error; prints "parc: error: ..." and
 * exits with `status`.  PARC_ASSERT: a broken invariant of the runtime;
 * names the processor and aborts. */
PARC_INTERNAL _Noreturn void parc_fatal(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
PARC_INTERNAL _Noreturn void parc_fatal_site(const parc_site *site, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
PARC_INTERNAL _Noreturn void parc_fatal_foreign(const parc_site *site,
                                                const parc_wait_site *wsite);

/* Before a `parc: error:` message: flush stdout, and start a new line when
 * stdout and stderr are one file and stdout's last line is unterminated
 * (init.c); parc_out_unterminated(0) tells that for a signal handler. */
PARC_INTERNAL void parc_error_flush(void);
PARC_INTERNAL int parc_out_unterminated(int buffer);

/* "parblock", "parfor", "lparfor" or "mapped lparfor" (enum parc_kind). */
PARC_INTERNAL const char *parc_kind_word(unsigned kind);
PARC_INTERNAL _Noreturn void parc_fatal_uninit_sem(const char *op, const void *sem,
                                                  const parc_wait_site *site);
/* malloc failed for the runtime's own record WHAT ("the list of idle
 * envelopes"): says so, where (the running activity), and the
 * address-space limit when one is reached (processor.c). */
PARC_INTERNAL _Noreturn void parc_fatal_oom(const char *what);
/* parc_V on semaphore `sem` whose value is already INT_MAX (processor.c). */
PARC_INTERNAL _Noreturn void parc_fatal_sem_overflow(const void *sem, const parc_wait_site *site);
/* Was the semaphore at sem adopted at value 0, never given to parc_sem_init? */
PARC_INTERNAL int parc_sem_adopted(const void *sem);
/* The semaphore at sem by the name the program gave it ("fork[3]"): a
 * variable captured by a construct around activity b (NULL: none), or one
 * of the tables of parc_sem_names_add; else "the semaphore at 0x..."
 * (semaphore.c). */
struct parc_batch;
PARC_INTERNAL void parc_sem_describe(char *buf, size_t n, const void *sem,
                                     const struct parc_batch *b);
/* "activity K (i = 3) of FILE:LINE:COL (KIND in FUNC)" and the activities
 * it runs within, as the deadlock report names them; "main" where b is
 * NULL.  Reads only what b's constructs hold (a stack-overflow report
 * calls it from its signal handler) (processor.c). */
PARC_INTERNAL void parc_describe_activity(char *buf, size_t n, const struct parc_batch *b);
PARC_INTERNAL _Noreturn void parc_assert_fail(const char *cond, const char *file, int line,
                                              const char *func);
#define PARC_ASSERT(c)                                                         \
  do {                                                                         \
    if (PARC_UNLIKELY(!(c)))                                                   \
      parc_assert_fail(#c, __FILE__, __LINE__, __func__);                      \
  } while (0)

/* ---- Spinlocks ------------------------------------------------------------
 * Short critical sections only.  A plain test-and-test-and-set lock on
 * __atomic builtins (TSan sees acquire/release).  Pthread mutexes cannot be
 * used where a lock is released by the scheduler after a context switch
 * (parking, see processor.c): TSan would see a "thread" (fiber) unlock a mutex
 * another one locked.  When P == 1 every caller skips locking (rt.single). */
typedef struct parc_spin {
  int v;
} parc_spin;

PARC_INTERNAL void parc_spin_lock_slow(parc_spin *l);

static inline void parc_spin_lock(parc_spin *l) {
  /* acquire: everything written under the lock by the previous holder is
   * visible to us (pairs with the release in parc_spin_unlock). */
  if (PARC_LIKELY(__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE) == 0))
    return;
  parc_spin_lock_slow(l);
}
static inline int parc_spin_trylock(parc_spin *l) {
  /* acquire, as in parc_spin_lock; the relaxed peek avoids bouncing the line. */
  return __atomic_load_n(&l->v, __ATOMIC_RELAXED) == 0 &&
         __atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE) == 0;
}
static inline void parc_spin_unlock(parc_spin *l) {
  /* release: publishes the critical section to the next holder. */
  __atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

/* CLOCK_MONOTONIC in nanoseconds: the spin budgets, the turns, the trace. */
static inline uint64_t parc_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- Forward declarations ------------------------------------------------ */
struct parc_proc;
struct parc_ctx;
struct parc_drt;

/* ---- Batches --------------------------------------------------------------
 * The runtime record of a running batch: the public parc_act first (the body
 * function sees only that), then what the runtime needs to account for it and
 * to unwind a killed activity.  Lives in the frame of whoever runs it: the
 * parent's parc_spawn (inline children) or an envelope's main loop. */
typedef struct parc_batch {
  parc_act act;
  struct parc_drt *d;         /* the construct the activities belong to */
  struct parc_batch *outer;   /* batch this context ran before (inline nesting) */
  uint64_t start;             /* first index not yet accounted as terminated */
  uint64_t first;             /* first index of the batch (statistics) */
  uint64_t deferred;          /* parent only: terminated, not yet subtracted */
  int is_parent;              /* run inline by the construct's parent */
  unsigned char self_ended;   /* the current activity ended itself (pbreak/preturn) */
  unsigned char framed;       /* frame fields below set (frame.c) */
  /* split_running found nothing to cut in this batch and every batch
   * outside it (no unstarted activity, or a mapped chunk's, which stays on
   * its processor).  It stays true while the batch is not the innermost:
   * only the innermost batch of a context starts activities or is given new
   * ones (parc_batch_init, spawn_body's next share), and cuts only shrink
   * the others.  Cleared where a batch gets activities. */
  unsigned char dry;
  parc_jmp_buf jb;            /* kill landing point (see kill.c) */
  /* Stepping (parc_rt.step: PARC_TRACE or PARC_SCHED=random, sched.c): the
   * body function is called for one activity at a time, act.end = next + 1;
   * step_end is then the batch's real end.  Set by parc_step_run; read
   * only when parc_rt.step is set. */
  uint64_t step_end;
  uint64_t seg_start;         /* trace: start of the current activity's segment */
  uint32_t seg;               /* trace: its segment number */
  /* Stackless sync (frame.c), after the fields that every batch touches,
   * so that a batch that uses no frame touches no more cache lines than
   * before (fib: 10% at P = 2 when they sat before jb).  `framed` above:
   * the body runs its activities in frames (parc_next_frame ran, or a
   * resumed activity); only then are these set, so that other batches pay
   * one store and one test.  fr: the frame the current activity uses (owned by the batch until a
   * suspension hands it on); susp: the activities of [start, cur) that
   * suspended rather than terminated; susp_prior: those of [first,
   * start), which the statistics count when they end; resume: the next
   * parc_next_frame resumes `fr` instead of starting an activity. */
  struct parc_susp *fr;
  uint64_t susp, susp_prior;
  int resume;
  int resumed;                /* runs a resumed activity (not counted as started) */
  /* Frames suspended in this batch whose arrival is not counted yet: the
   * barrier cannot complete before the batch's other activities arrive or
   * end, so they arrive together, with one lock, when the batch ends or
   * blocks (frame.c, parc_frames_publish). */
  struct parc_susp *sq_first, *sq_last;
  uint32_t sq_n;
} parc_batch;

/* ---- Suspended activities (frame.c) ----------------------------------------
 * The frame of an activity of a stackless-sync body (parc_abi.h): the
 * emitted frame follows this header.  While the activity runs, the batch
 * owns it (parc_batch.fr); while it waits at sync, the barrier's queue does
 * (parc_drt.sq_*); once released, a processor's resume list. */
typedef struct parc_susp {
  struct parc_susp *next;
  union {
    struct parc_drt *d;
    struct parc_susp *chain; /* free, in the shared pool: the next chain */
  };
  uint64_t k;                 /* the activity */
  uint32_t cls;               /* size class (frame.c), PARC_FRAME_BIG: malloc'd */
  int32_t proc;               /* where it suspended */
  _Alignas(16) unsigned char frame[];
} parc_susp;

/* ---- Floating-point control modes -----------------------------------------
 * The rounding direction, exception masks and flush-to-zero of the current
 * context, as one word; not the status flags, which stay each context's.
 * parc_fpctl_set keeps the context's flags.  Where no architecture code
 * is here, both do nothing (PARC_FPCTL 0). */
#define PARC_KIND_MASK 0xFFu
#if defined(__x86_64__)
#define PARC_FPCTL 1
static inline uint64_t parc_fpctl_get(void) {
  uint32_t m;
  uint16_t cw;
  __asm__ volatile("stmxcsr %0" : "=m"(m));
  __asm__ volatile("fnstcw %0" : "=m"(cw));
  return (uint64_t)cw << 32 | (m & ~0x3Fu) | 1u << 31 /* never 0 */;
}
static inline void parc_fpctl_set(uint64_t v) {
  uint32_t m;
  uint16_t cw = (uint16_t)(v >> 32);
  __asm__ volatile("stmxcsr %0" : "=m"(m));
  m = (m & 0x3Fu) | ((uint32_t)v & ~(0x3Fu | 1u << 31));
  __asm__ volatile("ldmxcsr %0" : : "m"(m));
  __asm__ volatile("fldcw %0" : : "m"(cw));
}
#elif defined(__aarch64__)
#define PARC_FPCTL 1
static inline uint64_t parc_fpctl_get(void) {
  uint64_t v;
  __asm__ volatile("mrs %0, fpcr" : "=r"(v));
  return v | (uint64_t)1 << 63; /* never 0 */
}
static inline void parc_fpctl_set(uint64_t v) {
  uint64_t r = v & ~((uint64_t)1 << 63);
  __asm__ volatile("msr fpcr, %0" : : "r"(r));
}
#else
#define PARC_FPCTL 0
static inline uint64_t parc_fpctl_get(void) { return 0; }
static inline void parc_fpctl_set(uint64_t v) { (void)v; }
#endif

/* ---- Kill delivery index (kill.c, "Delivery") ------------------------------
 * The node of a construct that has had a context blocked in its subtree: the
 * contexts blocked in one of its own activities (sync or parc_P, innermost
 * batch), one list per processor under that processor's blocked_lock (so
 * that blocking takes no lock more than the processor's registry did), and
 * the nodes of its child constructs.  Made when the first context blocks
 * below the construct (from the program's first kill on), freed when the
 * construct ends; a kill walks only the killed construct's nodes. */
typedef struct parc_kidx {
  parc_spin lock;             /* kids and the children's next/prev */
  int pins;                   /* atomic: deliveries about to visit this node */
  struct parc_kidx *kids;     /* child constructs' nodes */
  struct parc_kidx *next, *prev; /* in the parent construct's node's kids */
  struct parc_kidx *up;       /* the parent construct's node (NULL: a root) */
  /* [k]: contexts blocked on processor k (under its blocked_lock;
   * parc_ctx.knext/kprev), a line each: processors block and wake in the
   * same construct at once. */
  struct {
    _Alignas(PARC_CACHELINE) struct parc_ctx *c;
  } blk[];
} parc_kidx;

/* ---- Descriptors ----------------------------------------------------------
 * The runtime view of parc_desc: one construct execution.  Fields are grouped
 * by who writes them; the comments say which lock or atomic protects each. */
typedef struct parc_drt {
  /* Written once by the parent before the descriptor is published. */
  parc_body_fn fn;
  void *env;
  parc_site *site;
  uint64_t count;             /* activities (chunks for lparfor) */
  struct parc_batch *parent;  /* parent activity's batch; NULL for the root */
  struct parc_proc *home;     /* processor whose list holds it */
  uint64_t lo;                /* coded: parent activity's range is [lo, hi]; */
  uint64_t w;                 /*   child k owns [lo+1+k*w, lo+(k+1)*w]      */
  unsigned char coded;        /* 0: uncoded (bottom-up kill checks)        */
  unsigned char mapped;       /* mapped lparfor: chunk k on processor k   */
  unsigned char preturned;    /* a preturn targeted this construct (read by parc_preturned) */
  unsigned char listed;       /* on home's descriptor list (P > 1, not mapped) */
  unsigned char priv;         /* P > 1: unclaimed activities, not published yet
                                 (lazy publication; owner context only) */
  unsigned char stackless;    /* an activity suspended at a stackless sync
                                 (relaxed; a hint for envelope creation) */
  unsigned char fenv;         /* PARC_KIND_FENV: batches run under fpctl */
  unsigned char affine;       /* lparfor of <= 64 chunks, P > 1: chunk k is
                                 claimed first by processor k (affine_claim) */
  uint64_t fpctl;             /* the parent's floating-point control modes */

  /* Claiming (under home->lock at P > 1, descriptor.c "Claim"). */
  uint64_t claimed;           /* how many are claimed: the next unclaimed
                                 index, but for an affine lparfor */
  uint64_t taken;             /* affine: bit k set when chunk k is claimed */

  /* Termination: `unfinished` counts activities not yet accounted as
   * terminated.  Decremented with atomics; non-parent finishers do it under
   * `lock` so that the parent never frees the descriptor under them. */
  uint64_t unfinished;
  parc_spin lock;             /* waiter hand-off and barrier */
  struct parc_ctx *waiter;    /* parked parent (under lock) */

  /* Descriptor list links (under home->lock). */
  struct parc_drt *lnext, *lprev;

  /* Barrier (under lock; bar_used also read with seq_cst, see barrier.c). */
  int bar_used;
  uint64_t bar_gen;
  uint64_t arrived[2];
  /* The waiters, one FIFO per processor 0 .. PARC_BAR_QUEUES-1 (where
   * they blocked, which is where they are readied) and one for the rest;
   * set up by the first arrival (bar_used 0 -> 1). */
  struct parc_ctx *bq_head[PARC_BAR_QUEUES + 1], *bq_tail[PARC_BAR_QUEUES + 1];
  uint32_t bq_n[PARC_BAR_QUEUES + 1], bq_unpinned[PARC_BAR_QUEUES + 1];

  /* Kill state (kill.c). */
  int killflag;               /* CAS 0 -> 1 by the one poster of this kill */
  int preturn_claimed;        /* CAS 0 -> 1 by the one preturn whose value wins */
  int dead;                   /* cache: known victim (monotonic while alive) */
  int range_slot;             /* posted range record index, or -1 */
  uint64_t checked_epoch;     /* cache: not a victim as of this epoch (+1) */
  /* The delivery index node (kill.c, "Delivery"), or NULL.  Set (release)
   * only once this construct and every construct around it are in the
   * index. */
  struct parc_kidx *kx;

  uint64_t exec;              /* execution number of the site (PARC_STATS/PARC_TRACE) */

  /* Stackless waiters (frame.c; under lock), one FIFO per processor as the
   * barrier's context queues; last, away from what every spawn writes. */
  struct parc_susp *sq_head[PARC_BAR_QUEUES + 1], *sq_tail[PARC_BAR_QUEUES + 1];
  uint32_t sq_n[PARC_BAR_QUEUES + 1];
} parc_drt;

_Static_assert(sizeof(parc_drt) <= sizeof(parc_desc), "parc_drt must fit in parc_desc");
_Static_assert(_Alignof(parc_drt) <= _Alignof(parc_desc), "parc_drt alignment");

static inline parc_drt *parc_drt_of(parc_desc *d) { return (parc_drt *)(void *)d; }

/* ---- Representatives ------------------------------------------------------
 * A share of a construct's activities held by one processor and not running
 * yet: the remainder of a batch whose activity blocked.  Per-processor list
 * under proc->lock; thieves may take half of one. */
typedef struct parc_rep {
  parc_drt *d;
  uint64_t lo, hi;
  struct parc_rep *next, *prev;
} parc_rep;

/* ---- Contexts (envelopes) -------------------------------------------------
 * A user-level execution context.  Envelopes own an mmap'd stack with a guard
 * page; the root context (main's native stack) and the schedulers do not. */
enum parc_wait { PARC_WAIT_NONE = 0, PARC_WAIT_SYNC, PARC_WAIT_SEM };
/* semaphore.c: a waiter that parc_V takes out of the queue is either
 * woken to try again (a parc_P arriving meanwhile may take the unit first)
 * or handed the unit (it was overtaken PARC_SEM_HUNGRY times). */
enum parc_sem_wake { PARC_SEM_RETRY = 0, PARC_SEM_HANDED };

/* What an envelope is asked to run when it is (re)entered. */
typedef struct parc_job {
  parc_drt *d;
  uint64_t lo, hi;
  int pin;                    /* mapped chunk: processor to stay on, else -1 */
} parc_job;

typedef struct parc_ctx {
  void *sp;                   /* saved stack pointer (context_<arch>.S) */
#if PARC_CTX_UCONTEXT
  ucontext_t uc;
#endif
  struct parc_batch *cur_act; /* innermost batch running on this context */
  int npriv;                  /* descriptors of its chain with d->priv set */
  struct parc_proc *last;     /* processor it runs on / last ran on */
  int pin;                    /* processor it must stay on, or -1 */
  int is_env;                 /* an envelope (pooled), not root/scheduler */
  struct parc_ctx *next;      /* ready list, pool, barrier or semaphore queue */
  struct parc_ctx *wprev;     /* barrier or semaphore queue: previous waiter, so
                                 that kill delivery unlinks a victim in O(1) */

  /* Blocked registry (under reg->blocked_lock), for kill delivery.  A
   * context released by a barrier stays registered until it runs again and
   * takes itself out (parc_sync): the release does not touch it. */
  struct parc_proc *reg;      /* the registry holding it, or NULL */
  struct parc_ctx *bnext, *bprev;
  int wait_kind;              /* enum parc_wait, under the wait object's lock
                                 (and, when it is cleared by a context released
                                 by a barrier, under reg->blocked_lock) */
  uint64_t wait_gen;          /* sync: the barrier generation waited for */
  void *wait_obj;             /* parc_drt* (sync) or semaphore (sem) */
  const parc_wait_site *wait_site; /* the sync's or parc_P_at's place, or NULL */
  parc_spin *wait_lock;       /* the lock protecting wait_obj's queue */
  int wake_killed;            /* woken by a kill, not by V/barrier release */
  int sem_wake;               /* enum parc_sem_wake: why V readied it */
  int sem_fails;              /* semaphore: times it was woken and overtaken */
  unsigned spins;             /* parc_sem_spin: spins since it last parked */
  /* semaphore.c: the last semaphore it took and the activity that took
   * it (batch and index; a batch of NULL: main's code), until that
   * activity gives it back; parc_run_batch forgets it with the batch. */
  const void *sem_held;
  struct parc_batch *sem_held_b;
  uint64_t sem_held_k;
  const void *alt_sem;        /* watch_holder: a lock whose holder is slow to take it back */
  unsigned alt_takes;         /* watch_holder: its units to take at once before watching again */

  /* Resume mode (frame.c): resumed activities of rpend_d that terminated
   * on this context and are not accounted yet, and the frames of those
   * that suspended at its sync again and have not arrived (both accounted
   * together when the next one belongs to another construct, the context
   * blocks, or the resume list is empty). */
  struct parc_drt *rpend_d;
  uint64_t rpend_n;
  struct parc_susp *apend_first, *apend_last;
  uint32_t apend_n;
  struct parc_susp *rtake;    /* records taken from a resume list, not started */

  /* Envelope stack. */
  char *map;
  size_t map_size;
  char *stack_lo, *stack_hi;  /* usable stack, guard page just below stack_lo */
  parc_job job;
  void (*entry)(struct parc_ctx *); /* first function run on a new context */
  int trace_id;               /* trace envelope id: 0 main's stack, 1.. envelopes */
  /* The kill delivery index node it is entered in (kill.c; under
   * reg->blocked_lock, as the registry), or NULL: not blocked, blocked
   * outside any activity, or before the program's first kill.  Last: only
   * programs that kill touch them. */
  struct parc_kidx *kreg;
  struct parc_ctx *knext, *kprev;

#if PARC_TSAN
  void *tsan_fiber;
#endif
#if PARC_ASAN
  const void *asan_bottom;
  size_t asan_size;
  void *asan_fake;
#endif
} parc_ctx;

/* ---- Processors ----------------------------------------------------------- */
typedef struct parc_stats {
  uint64_t activities;        /* activities run (started) */
  uint64_t env_created;
  uint64_t env_reused;
  uint64_t shares;            /* representatives taken (shares claimed) */
  uint64_t blocked;
  uint64_t resumed;
  uint64_t killed;
  uint64_t steals;
  uint64_t mapped;            /* mapped chunks run */
  uint64_t sleeps;
  uint64_t splits;            /* running batches split for a hungry processor */
  uint64_t yields;            /* running activities that gave way to a pinned one */
  uint64_t turns;             /* turns that ran waiting work out of order (get_work) */
  /* Kill (kill.c), counted only with PARC_STATS: the "kill" record. */
  uint64_t kill_posts;        /* kills posted (constructs killed) */
  uint64_t kill_checks;       /* victim checks (parc_victim calls) */
  uint64_t kill_cached;       /*   answered by the descriptor's own cache */
  uint64_t kill_steps;        /* descriptors visited by walks up the parent links */
  uint64_t kill_tests;        /* posted ranges compared */
  uint64_t kill_uncoded;      /* descriptors spawned without a range (auto) */
  uint64_t kill_visits;       /* delivery index nodes visited by kills */
} parc_stats;

/* Actions the scheduler performs right after a context switched to it (the
 * context's registers are saved by then), in the manner of Go's park_m. */
enum parc_after { PARC_AFTER_NONE = 0, PARC_AFTER_UNLOCK, PARC_AFTER_POOL, PARC_AFTER_READY };

typedef struct parc_proc {
  int id;
  int cpu;                    /* CPU it is pinned to (or started on), -1 unknown;
                                 atomic: the exit report may race a late start */
  parc_ctx *cur;              /* context running on this processor */
  parc_ctx *sched;            /* its get_work context */
  parc_ctx sched_ctx;
  int after;                  /* enum parc_after */
  void *after_arg;
  parc_ctx *switch_from;      /* ASan: the context we switched away from */
  pthread_t thread;

  /* Hint for thieves: 1 while the work lists below are non-empty.  On a line
   * of its own and written only on empty <-> non-empty transitions, so idle
   * processors spinning on it do not pull the list lock's line away from
   * its owner on every spawn. */
  _Alignas(PARC_CACHELINE) int nwork;
  /* Hint (atomic): records on the resume list below.  Here, not beside
   * the list under ready_lock: idle processors read it while they spin,
   * and a read of the ready lock's line would pull it from its owner. */
  int nres;

  /* Work lists: descriptors (newest at head) and representatives. */
  _Alignas(PARC_CACHELINE) parc_spin lock;
  parc_drt *dhead, *dtail;
  parc_rep *rhead, *rtail;
  int nlisted;                /* listed descs + reps (under lock) */

  /* Ready lists (FIFO; multi-producer, under ready_lock): the contexts
   * any processor may take, and those pinned here (mapped chunks), apart,
   * so that a thief finds the first kind without walking past the second
   * (processor.c, "Ready lists"). */
  _Alignas(PARC_CACHELINE) parc_spin ready_lock;
  parc_ctx *rdy_head, *rdy_tail;
  parc_ctx *pin_head, *pin_tail;
  int pin_turn;               /* the owner takes the pinned list next (under ready_lock) */
  int nready;                 /* hint (atomic): on both lists */
  int nstealable;             /* hint (atomic): on rdy (unpinned ones) */
  int idle;                   /* hint (atomic): in idle(), looking for work;
                                 here, where parc_ready has just written */

  /* Resumed activities of stackless syncs (frame.c), under ready_lock like
   * the ready contexts they rank with, in two lists (processor.c, "Resume
   * lists"): the chains barriers released, newest chain first (rn_*), and
   * older records (ro_*): those a context took and gave back, and at a
   * turn the new ones.  nres counts both. */
  struct parc_susp *rn_head, *rn_tail, *ro_head, *ro_tail;
  int rn_n, ro_n;
  /* Turns (processor.c): looks since the last turn, the first look's
   * time (0: none yet), a turn that parc_take_resume left to get_work, and
   * which work the next turn serves first. */
  unsigned turn_looks;
  uint64_t turn_since;
  int turn_pending, turn_phase;

  /* Mapped-lparfor inbox: descriptors whose chunk `id` is to run here,
   * inbox[inbox_head .. inbox_n), oldest first (take_mapped). */
  parc_spin inbox_lock;
  parc_drt **inbox;
  int inbox_head, inbox_n, inbox_cap;
  unsigned inbox_takes;       /* chunks taken, for the oldest-first turn */
  unsigned local_takes;       /* takes of own work while chunks waited (take_own) */
  int ninbox;                 /* hint (atomic) */

  /* Blocked contexts (sync, semaphore), for kill delivery. */
  parc_spin blocked_lock;
  parc_ctx *blocked;

  /* Overflow of the envelope pool (context.c): free envelopes beyond
   * PARC_POOL_LOCAL, taken back by this processor first, by others when
   * theirs are empty.  A stack of pointers, grown by doubling. */
  parc_spin spill_lock;
  parc_ctx **spill;
  int spill_n, spill_cap;     /* spill_n: under spill_lock, read as a hint */

  /* Owner-only.  Free envelopes as an array of pointers, not a chain
   * through the envelopes: taking, returning and moving them to or from
   * an overflow touch no envelope's memory (each sits on a page of
   * its own, cold by the time it is moved; context.c). */
  parc_ctx *pool[PARC_POOL_LOCAL + PARC_ENV_BATCH_MAX];
  int pool_n;
  int parked; /* parc_park ran since get_work last looked (its own context) */
  parc_rep *rep_free;         /* free representative records */
  int rep_free_n;
  struct parc_kidx *kidx_free; /* free kill delivery index nodes (kill.c) */
  int kidx_free_n;
  /* Free frames by size class, the block frames are carved from, and the
   * newest block (frame.c: blocks are chained through their first line). */
  struct {
    struct parc_susp *free, *full; /* the list being filled; full chains */
    uint32_t nfree, nfull;
  } fr[PARC_FRAME_CLASSES];
  char *fr_bump, *fr_end, *fr_blocks;

  /* Sleeping (pthread primitives: TSan models them). */
  _Alignas(PARC_CACHELINE) pthread_mutex_t idle_mu;
  pthread_cond_t idle_cv;
  int sleeping;               /* atomic; written under idle_mu */
  int asleep;                 /* in the condvar wait after a failed re-check
                                 (deadlock detection); under idle_mu */
  int quit;                   /* leave at once (exit under Valgrind); under idle_mu */

  parc_stats st;              /* written by the owner only, relaxed atomics */
  /* Owner-only: when the running context first saw a pinned one ready
   * (give_way), and the count of switches it saw then, plus one. */
  uint64_t gw_since, gw_mark;
  int gw_inbox; /* give_way yielded for a mapped chunk in the inbox: get_work takes it first */
  /* Counted in parc_hunger_ since start_workers created it, until it first
   * runs work or enters idle(), which takes the count over (processor.c). */
  int born_hungry;
  /* Owner-only: how long it spins when next idle, in ns (0: parc_rt.spin_ns
   * still); adapted by the length of its sleeps (processor.c, spin_adapt). */
  uint64_t spin_ns;
  /* The signal mask of this processor's thread (processor.c, "Signal
   * masks"): sig_gen, owner-only, is the generation of the published mask
   * it has, or PARC_SIG_IDLE (every signal blocked but the runtime's);
   * sig_state (atomic) tells main's thread the same, PARC_SIG_CHANGING
   * while it changes.  Processor 0's stay PARC_SIG_IDLE: its mask is
   * main's own, which the runtime never sets. */
  unsigned sig_gen, sig_state;

  /* Owner-only: PARC_SCHED=random generator, PARC_TRACE buffer (trace.c). */
  uint64_t rng;
  struct parc_tbuf *tbuf;
  int trace_last;             /* envelope id it ran last, -1 none */
} parc_proc;

/* ---- The runtime ---------------------------------------------------------- */
enum parc_kill_mode { PARC_KILL_AUTO = 0, PARC_KILL_RANGE, PARC_KILL_BOTTOMUP };

typedef struct parc_runtime {
  int P;                      /* PARC_NPROCS */
  /* The floating-point control modes of the first construct's parent (a
   * rounding direction set before it, -ffast-math's flush-to-zero): every
   * envelope starts with them (context.c), as a thread starts with those
   * of the thread that creates it.  0: not yet known. */
  uint64_t fpctl_base;
  int single;                 /* P == 1: no locks, no atomics on the inline path */
  int stats;                  /* PARC_STATS */
  int pin;                    /* PARC_PIN: 0 or 1; -1 (auto) until parc_pin_init */
  int kill_mode;              /* PARC_KILL */
  int trace;                  /* PARC_TRACE set */
  int sched_random;           /* PARC_SCHED=random */
  int step;                   /* trace || sched_random: one activity per body call */
  int observe;                /* stats || trace: number the executions of sites */
  uint64_t seed;              /* PARC_SEED */
  uint64_t spin_ns;           /* PARC_SPIN_US, in ns (default PARC_SPIN_NS) */
  int spin_fixed;             /* PARC_SPIN_US set: no adapting (spin_adapt) */
  size_t stack_size;          /* PARC_STACK_SIZE, page-rounded */
  size_t page;
  int inited;
  int started;                /* atomic: workers created */
  int running;                /* atomic: workers that reached get_work */
  int cpus;                   /* CPUs the process may run on: online (env.c),
                               * then its affinity mask's (parc_pin_init, at
                               * the first construct); at most PARC_MAX_PROCS,
                               * 0 unknown */
  parc_proc *procs;
  int nsleeping;              /* atomic */
  int nasleep;                /* atomic: processors in the condvar wait (deadlock) */
  parc_spin start_lock;
  parc_spin site_lock;
  parc_site *sites;
  /* Constructs of main's own code under way (atomic; nested in a signal
   * handler's, more than one).  While none is, no owner has private work
   * to publish, and sleepers stop renewing their help request (processor.c,
   * idle_wait). */
  int root_busy;
  /* Free frames that processors gave back, by size class: chains of
   * PARC_FRAME_MOVE linked through their first frame's `chain` (frame.c). */
  parc_spin fr_pool_lock;
  struct parc_susp *fr_pool[PARC_FRAME_CLASSES];
} parc_runtime;

PARC_INTERNAL extern parc_runtime parc_rt;

/* A lock of the runtime's shared structures: P == 1 skips it (rt.single). */
static inline void lock_if(parc_spin *l) {
  if (!parc_rt.single)
    parc_spin_lock(l);
}
static inline void unlock_if(parc_spin *l) {
  if (!parc_rt.single)
    parc_spin_unlock(l);
}

/* More processors than CPUs to run them: spins yield the CPU, sleepers nap
 * longer, and a processor short of envelopes yields after a park
 * (processor.c). */
static inline int parc_oversubscribed(void) { return parc_rt.cpus && parc_rt.P > parc_rt.cpus; }

/* The guided share of rem >= 1 unclaimed activities, ceil(rem / P) (MAXI
 * 5.2), with no division when rem <= P (the small constructs of recursive
 * programs). */
static inline uint64_t parc_guided_share(uint64_t rem) {
  uint64_t P = (uint64_t)parc_rt.P;
  return rem <= P ? 1 : rem / P + (rem % P != 0);
}

/* The share of d's rem >= 1 unclaimed activities that a claimer takes:
 * guided, except that a parblock's sections are taken one at a time.
 * They are few, written out one by one and unlike each other, and a share
 * of several runs them in turn: at P = 2 the parent of a three-section
 * parblock took a long computation and a consumer, and the consumer could
 * not start until the computation ended, while its producer, which filled
 * the buffer and blocked, left its own processor idle. */
static inline uint64_t parc_share(const parc_drt *d, uint64_t rem) {
  if (d->site && d->site->kind == PARC_KIND_PARBLOCK)
    return 1;
  return parc_guided_share(rem);
}

/* The processor running the calling thread.  initial-exec TLS: one %fs-relative
 * load, re-done after every call (a context switch may move the caller to
 * another thread, so never cache its address across one). */
PARC_INTERNAL extern __thread parc_proc *parc_tls_proc __attribute__((tls_model("initial-exec")));

#if defined(__x86_64__)
static inline parc_proc *parc_self(void) { return parc_tls_proc; }
#else
/* Elsewhere the compiler may keep the thread pointer in a register across a
 * call, which a context switch invalidates: read it out of line. */
PARC_INTERNAL parc_proc *parc_self(void);
#endif

static inline uint64_t parc_ld(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/* Per-processor statistics: written only by the owner (relaxed load + store,
 * no RMW needed), read by the exit report. */
#define PARC_STAT_ADD(p, field, n)                                             \
  __atomic_store_n(&(p)->st.field, __atomic_load_n(&(p)->st.field, __ATOMIC_RELAXED) + (n), \
                   __ATOMIC_RELAXED)

/* ---- init.c / env.c ---- */
PARC_INTERNAL void parc_init(void);
PARC_INTERNAL void parc_exit_gate_thread(void);
PARC_INTERNAL void parc_start(void);
static inline void parc_ensure_started(void) {
  /* acquire: pairs with the release in parc_start, so a thread that sees
   * started == 1 sees the initialised processors. */
  if (PARC_UNLIKELY(!__atomic_load_n(&parc_rt.started, __ATOMIC_ACQUIRE)))
    parc_start();
}
PARC_INTERNAL void parc_env_parse(void);
PARC_INTERNAL _Noreturn void parc_deadlock(void);

/* ---- processor.c ---- */
PARC_INTERNAL void parc_procs_init(void);
/* Where parc_self() is NULL: processor 0, bound now, on the process's main
 * thread; NULL on any other (processor.c, "The main thread"). */
PARC_INTERNAL parc_proc *parc_main_proc(void);
PARC_INTERNAL void parc_procs_start(void);
PARC_INTERNAL void parc_procs_join_at_exit(void);
PARC_INTERNAL void parc_ready(parc_ctx *c);
PARC_INTERNAL void parc_ready_list(parc_ctx *head);
PARC_INTERNAL void parc_ready_chain(parc_proc *q, parc_ctx *first, parc_ctx *last, uint32_t n,
                                   uint32_t unpinned);
PARC_INTERNAL void parc_park(parc_proc *p, parc_spin *unlock);
PARC_INTERNAL void parc_wake_any(void);
PARC_INTERNAL void parc_wake_proc(parc_proc *q);
PARC_INTERNAL void parc_push_desc(parc_proc *p, parc_drt *d);
PARC_INTERNAL void parc_publish_chain(parc_proc *p, parc_ctx *c, int blocking);
/* The help request: the top bit of parc_kill_pending_ (the word every
 * parc_poll already loads; kills count in the low bits).  A hungry processor
 * sets it; a polling owner then publishes its private descriptors
 * (parc_help), or clears it when it has none. */
#define PARC_HELP_BIT 0x80000000u
PARC_INTERNAL void parc_help(parc_proc *p);
PARC_INTERNAL void parc_yield_to_pinned(void);
PARC_INTERNAL void parc_yield_in_kill(void);
/* PARC_SCHED=random (sched.c): at a parc_P, after a parc_V and after the
 * last arrival at a sync, the running activity gives way one time in two. */
PARC_INTERNAL void parc_random_yield(void);
/* Processors in idle() (looking for work): spawns publish eagerly while it is
 * non-zero (lazy publication, descriptor.c).  Own cache line; changed only
 * by processors entering and leaving idle(). */
typedef struct parc_hunger {
  _Alignas(PARC_CACHELINE) int n;
  char pad_[PARC_CACHELINE - sizeof(int)];
} parc_hunger;
PARC_INTERNAL extern parc_hunger parc_hunger_;
static inline int parc_hungry(void) { return __atomic_load_n(&parc_hunger_.n, __ATOMIC_RELAXED) != 0; }
PARC_INTERNAL void parc_unlink_desc(parc_drt *d, int locked);
PARC_INTERNAL void parc_detach_chain(parc_proc *p, parc_ctx *c);
PARC_INTERNAL void parc_post_mapped(parc_drt *d, int except);
PARC_INTERNAL void parc_register_blocked(parc_proc *p, parc_ctx *c, int kind, void *obj,
                                         parc_spin *lock);
PARC_INTERNAL void parc_unregister_blocked(parc_ctx *c);
PARC_INTERNAL void parc_unregister_blocked_locked(parc_ctx *c);
PARC_INTERNAL int parc_bar_queued(const parc_ctx *c);
PARC_INTERNAL void parc_defer(parc_proc *p, parc_drt *d, uint64_t lo, uint64_t hi);
PARC_INTERNAL parc_ctx *parc_root_ctx(void);
enum { PARC_SIG_IDLE = 0, PARC_SIG_CHANGING = 1 };
/* main's thread starts a construct of its own (P > 1): publish its signal
 * mask for the activities (processor.c, "Signal masks"). */
PARC_INTERNAL void parc_sigmask_publish(void);
PARC_INTERNAL void parc_resume_chain(parc_proc *q, parc_susp *first, parc_susp *last, uint32_t n);
PARC_INTERNAL parc_susp *parc_take_resume(parc_proc *p, int max);
PARC_INTERNAL void parc_return_resume(parc_proc *p, parc_susp *first, parc_susp *last, int n);

/* ---- frame.c (stackless sync) ---- */
PARC_INTERNAL void parc_frame_free(parc_proc *p, parc_susp *r);
/* The place of the sync at which the activity of frame record r, of d,
 * waits: its state indexes d's site's table (parc_abi.h); NULL without. */
PARC_INTERNAL const parc_wait_site *parc_frame_sync_site(const parc_drt *d,
                                                         const parc_susp *r);
PARC_INTERNAL void parc_frames_publish(parc_batch *b);
PARC_INTERNAL void parc_frames_defer(parc_ctx *c, parc_batch *b);
PARC_INTERNAL void parc_resumed_flush(parc_ctx *c);
PARC_INTERNAL void parc_bar_release_frames_locked(parc_drt *d);
PARC_INTERNAL void parc_run_resumed(parc_ctx *c);

/* ---- sched.c (PARC_SCHED, stepping) ---- */
PARC_INTERNAL void parc_sched_init(void);
PARC_INTERNAL uint64_t parc_rand(parc_proc *p, uint64_t n); /* uniform in [0, n) */
PARC_INTERNAL void parc_step_run(parc_batch *b);
PARC_INTERNAL void parc_step_landing(parc_batch *b);

/* ---- trace.c (PARC_TRACE) ---- */
PARC_INTERNAL void parc_trace_open(const char *path);
PARC_INTERNAL void parc_trace_flush(void);
PARC_INTERNAL uint64_t parc_trace_now(void);
PARC_INTERNAL void parc_trace_slice(parc_proc *p, parc_batch *b, uint64_t end, int flags);
PARC_INTERNAL void parc_trace_park(parc_proc *p, parc_ctx *c, int reason);
PARC_INTERNAL void parc_trace_resume(parc_proc *p, parc_ctx *c, int reason);
PARC_INTERNAL void parc_trace_switch(parc_proc *p, parc_ctx *to);
PARC_INTERNAL void parc_trace_kill(parc_drt *d);
/* Why a context stopped running: the name of its block and resume events. */
enum parc_trace_reason { PARC_TRACE_SYNC = 0, PARC_TRACE_SEM, PARC_TRACE_CHILDREN, PARC_TRACE_YIELD };
PARC_INTERNAL int parc_trace_reason(parc_ctx *c);
enum { PARC_TRACE_KILLED = 1, PARC_TRACE_UNFINISHED = 2 };

/* ---- context.c ---- */
PARC_INTERNAL void parc_ctx_switch(parc_proc *p, parc_ctx *from, parc_ctx *to);
PARC_INTERNAL parc_ctx *parc_env_get(parc_proc *p, int sync_hint, uint64_t batch,
                                     const parc_site *site);
PARC_INTERNAL void parc_env_put(parc_proc *p, parc_ctx *c);
PARC_INTERNAL void parc_ctx_init_native(parc_ctx *c);
PARC_INTERNAL void parc_sched_ctx_make(parc_proc *p, void (*entry)(parc_ctx *));
PARC_INTERNAL void parc_sigsegv_init_thread(int keep);
PARC_INTERNAL void parc_sigsegv_install(void);
/* Envelope body: defined in descriptor.c. */
PARC_INTERNAL void parc_env_main(parc_ctx *self);

/* ---- descriptor.c ---- */
PARC_INTERNAL uint64_t parc_claim(parc_drt *d, uint64_t *lo);
PARC_INTERNAL void parc_finish(parc_drt *d, uint64_t n, int is_parent);
PARC_INTERNAL void parc_batch_init(parc_batch *b, parc_drt *d, parc_batch *outer, int is_parent,
                                   uint64_t lo, uint64_t hi);
PARC_INTERNAL void parc_run_batch(parc_ctx *c, parc_batch *b);
PARC_INTERNAL void parc_account_prefix(parc_batch *b);

/* ---- barrier.c ---- */
PARC_INTERNAL void parc_bar_check_locked(parc_drt *d, parc_ctx **wake);
PARC_INTERNAL int parc_bar_arrive(parc_drt *d);
PARC_INTERNAL void parc_bar_use_locked(parc_drt *d);
PARC_INTERNAL void parc_bar_cancel_locked(parc_drt *d, parc_ctx *c);

/* ---- semaphore.c ---- */
PARC_INTERNAL void parc_sem_cancel_locked(void *sem, parc_ctx *c);
/* P = 1: parc_V calls of threads of the program's own, posted for
 * processor 0: are there any (a hint), and do them now (processor 0 only;
 * returns how many).  processor.c: wake processor 0 for them. */
PARC_INTERNAL int parc_sem_posted(void);
PARC_INTERNAL int parc_sem_take_posted(void);
PARC_INTERNAL void parc_sem_posted_wake(void);
/* processor.c: parc_P's wait before it blocks: spin while *value <= 0, up
 * to PARC_SEM_SPIN_NS after *since (set on the first call, when 0), only
 * while nothing else is ready on p and at most PARC_SEM_SPINS times between
 * two parks of the running context; 1 if it saw a unit to take.  *watch is
 * the semaphore's (units taken << 1) | (given back by the activity that took
 * it). */
PARC_INTERNAL int parc_sem_spin(parc_proc *p, const int *value, const unsigned *watch,
                                uint64_t *since);

/* ---- kill.c ---- */
PARC_INTERNAL int parc_victim(parc_drt *d);
static inline int parc_kill_active(void) {
  return (__atomic_load_n(&parc_kill_pending_, __ATOMIC_RELAXED) & ~PARC_HELP_BIT) != 0;
}
PARC_INTERNAL void parc_kill_done(parc_drt *d);
/* The delivery index (kill.c, "Delivery"), kept from the program's first
 * kill on (parc_kill_indexing_ != 0): enter c, registered on p as blocked
 * in an activity (p->blocked_lock held), in its construct's node; take it
 * out again (the same lock held, c->kreg set); drop
 * d's node when d ends (its parent, once every activity is accounted; only
 * when d->kx is set). */
PARC_INTERNAL extern int parc_kill_indexing_;
PARC_INTERNAL void parc_kill_enter(struct parc_proc *p, struct parc_ctx *c);
PARC_INTERNAL void parc_kill_leave(struct parc_proc *p, struct parc_ctx *c);
PARC_INTERNAL void parc_kill_unindex(parc_drt *d);
/* The name of processor k's thread is PARC_THREAD_NAME "k". */
#define PARC_THREAD_NAME "parc-proc-"
/* Points parc_poll_hook_ at this copy's slow path (parc_init). */
PARC_INTERNAL void parc_poll_hook_install(void);
PARC_INTERNAL _Noreturn void parc_unwind(parc_batch *b);
PARC_INTERNAL void parc_poll_ctx(parc_ctx *c);
PARC_INTERNAL void parc_spawn_range(parc_drt *d, parc_batch *parent, uint64_t count);

/* ---- stats.c ---- */
PARC_INTERNAL void parc_stats_init(void);
PARC_INTERNAL uint64_t parc_stats_site(parc_site *site, uint64_t created);
PARC_INTERNAL void parc_stats_killed(parc_site *site, uint64_t n);

/* ---- aspace.c ---- */
/* Reading /proc/self files without allocating (aspace.c; also from the
 * SIGSEGV handler, context.c): each line to fn, 0 if the file cannot be
 * read; a maps line's "lo-hi" range, and the index after it. */
PARC_INTERNAL int parc_each_line(const char *path, void (*fn)(const char *, size_t, void *), void *arg);
PARC_INTERNAL size_t parc_maps_range(const char *s, size_t len, uintptr_t *lo, uintptr_t *hi);

/* 1 if RLIMIT_AS is finite and `need` more bytes of address space do not
 * fit under it; then *limit_kib is the limit and *arenas the number of
 * malloc arena heaps (PARC_ARENA_MIB each) in the process. */
PARC_INTERNAL int parc_aspace_full(size_t need, uint64_t *limit_kib, int *arenas);
#define PARC_ARENA_MIB 64

/* ---- numa.c ---- */
PARC_INTERNAL void parc_pin_init(void);
PARC_INTERNAL int parc_pin_self(int k);
PARC_INTERNAL int parc_pin_cpu(int k);
PARC_INTERNAL void parc_pin_attr(pthread_attr_t *a, int k);
PARC_INTERNAL int parc_node_of_cpu(int cpu);

#endif /* PARC_INTERNAL_H */
