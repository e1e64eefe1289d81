/* context.c - user-level contexts: envelope stacks, the pool, switching, and
 * the stack-overflow report.
 *
 * An envelope is an mmap'd region [guard | stack ... | parc_ctx]: the
 * context record sits at the top of its own stack mapping, so creating an
 * envelope costs a share of one mmap, one guard-page call (guard_page) and
 * no malloc.  Envelopes are pooled per processor and never unmapped (a
 * program that once needed N blocked activities at a time will likely need
 * them again; the pages it touched stay resident, which is the price).
 *
 * Sanitizers must be told about every switch: TSan through its fiber API,
 * ASan through start/finish_switch_fiber, or they report false races and
 * false stack-buffer overflows.  Valgrind is told where each stack is
 * (ctx_prepare): Memcheck takes a move of the stack pointer by less than
 * 2 MiB for a frame pushed or popped, and a switch between two envelopes
 * close in memory marked the stacks between them, other processors' frames
 * included, unaddressable (thousands of false "Invalid read" reports).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "internal.h"

#if PARC_TSAN
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#endif
#if PARC_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
#endif

#if !PARC_CTX_UCONTEXT
void parc_ctx_swap_(void **save_sp, void *new_sp) PARC_INTERNAL;
void parc_ctx_start_(void) PARC_INTERNAL;
#endif

/* Describe a context that runs on a native thread stack (main, workers). */
void parc_ctx_init_native(parc_ctx *c) {
  c->pin = -1;
#if PARC_TSAN
  c->tsan_fiber = __tsan_get_current_fiber();
#endif
#if PARC_ASAN
  pthread_attr_t a;
  if (pthread_getattr_np(pthread_self(), &a) == 0) {
    void *addr;
    size_t size;
    pthread_attr_getstack(&a, &addr, &size);
    c->asan_bottom = addr;
    c->asan_size = size;
    pthread_attr_destroy(&a);
  }
#endif
}

/* The first code run on a new context. */
static void ctx_entry(parc_ctx *c, void (*fn)(parc_ctx *)) {
#if PARC_ASAN
  /* A fresh fiber has no fake stack to restore (NULL). */
  __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
  fn(c);
  PARC_ASSERT(!"context entry function returned");
}

#if PARC_CTX_UCONTEXT
/* makecontext passes only int arguments portably: find the context through
 * the processor, whose `cur` the switch has just set. */
static void uc_trampoline(void) {
  parc_ctx *c = parc_self()->cur;
  ctx_entry(c, c->entry);
}
#else
static void asm_trampoline_target(parc_ctx *c) { ctx_entry(c, c->entry); }
#endif

/* Prepare context c (stack [lo, hi)) to start in fn(c) when first switched to. */
static void ctx_prepare(parc_ctx *c, char *lo, char *hi, void (*fn)(parc_ctx *)) {
  c->stack_lo = lo;
  c->stack_hi = hi;
  c->pin = -1;
  c->entry = fn;
#if PARC_CTX_UCONTEXT
  getcontext(&c->uc);
  c->uc.uc_stack.ss_sp = lo;
  c->uc.uc_stack.ss_size = (size_t)(hi - lo);
  c->uc.uc_link = NULL;
  makecontext(&c->uc, uc_trampoline, 0);
#elif defined(__aarch64__)
  uint64_t *sp = (uint64_t *)(void *)((uintptr_t)hi & ~(uintptr_t)15) - 22;
  /* Frame popped by parc_ctx_swap_ (context_aarch64.S): x19-x28, x29, x30,
   * d8-d15, FPCR.  The FPCR: the program's at its first construct
   * (parc_runtime.fpctl_base), else as at reset (0). */
  memset(sp, 0, 22 * sizeof *sp);
  sp[0] = (uint64_t)(uintptr_t)asm_trampoline_target; /* x19: entry */
  sp[1] = (uint64_t)(uintptr_t)c;                     /* x20: argument */
  sp[11] = (uint64_t)(uintptr_t)parc_ctx_start_;      /* x30: return address */
  sp[20] = parc_rt.fpctl_base & ~((uint64_t)1 << 63);
  c->sp = sp;
#else
  uint64_t *sp = (uint64_t *)(void *)((uintptr_t)hi & ~(uintptr_t)15) - 10;
  /* Frame popped by parc_ctx_swap_: csr, r15, r14, r13, r12, rbx, rbp, ret. */
  /* MXCSR and the x87 control word: the program's at its first construct
   * (parc_runtime.fpctl_base), else as at reset. */
  uint64_t base = parc_rt.fpctl_base;
  uint32_t csr[2] = {0x1F80u, 0x037Fu};
  if (base) {
    csr[0] = (uint32_t)base & ~(0x3Fu | 1u << 31);
    csr[1] = (uint32_t)(base >> 32);
  }
  memcpy(&sp[0], csr, sizeof csr);
  sp[1] = 0;                                 /* r15 */
  sp[2] = 0;                                 /* r14 */
  sp[3] = (uint64_t)(uintptr_t)c;            /* r13: argument */
  sp[4] = (uint64_t)(uintptr_t)asm_trampoline_target; /* r12: entry */
  sp[5] = 0;                                 /* rbx */
  sp[6] = 0;                                 /* rbp */
  sp[7] = (uint64_t)(uintptr_t)parc_ctx_start_; /* return address */
  sp[8] = 0;
  sp[9] = 0;
  c->sp = sp;
#endif
#if PARC_TSAN
  c->tsan_fiber = __tsan_create_fiber(0);
#endif
#if PARC_VALGRIND
  /* Never deregistered: envelopes and scheduler stacks are never unmapped. */
  (void)VALGRIND_STACK_REGISTER(lo, hi);
#endif
#if PARC_ASAN
  c->asan_bottom = lo;
  c->asan_size = (size_t)(hi - lo);
#endif
}

/* Switch from context `from` (running now on processor p) to `to`. */
void parc_ctx_switch(parc_proc *p, parc_ctx *from, parc_ctx *to) {
  p->cur = to;
  to->last = p;
  p->switch_from = from;
#if PARC_TSAN
  __tsan_switch_to_fiber(to->tsan_fiber, 0);
#endif
#if PARC_ASAN
  __sanitizer_start_switch_fiber(&from->asan_fake, to->asan_bottom, to->asan_size);
#endif
#if PARC_CTX_UCONTEXT
  if (swapcontext(&from->uc, &to->uc) != 0)
    parc_fatal(1, "swapcontext failed: %s", strerror(errno));
#else
  parc_ctx_swap_(&from->sp, to->sp);
#endif
#if PARC_ASAN
  __sanitizer_finish_switch_fiber(from->asan_fake, NULL, NULL);
#endif
}

/* The guard region's size: PARC_ENV_GUARD, in whole pages. */
static size_t env_guard(void) {
  size_t pg = parc_rt.page;
  return PARC_ENV_GUARD < pg ? pg : (PARC_ENV_GUARD + pg - 1) & ~(pg - 1);
}

static size_t env_span(void) { return parc_rt.stack_size + env_guard(); }

/* Cache colouring.  What a blocked activity keeps hot is its record and the
 * frames below it, about 1 KiB at the top of its stack.  With every stack
 * top at the same offset in its page, these lines of all envelopes fall in
 * the same few cache sets: the L1 index is the page offset, and a 2 MiB
 * 16-way L2 holds only 512 lines of one offset, so the envelopes of a
 * barrier with more than a few hundred waiters evicted each other however
 * large the cache (a warm `parfor 800 { sync; }` inside a parfor took 2.4
 * times as long per activity as 400).  Envelope k's record therefore sits
 * (k mod PARC_ENV_COLOURS) cache lines further down its top page, which
 * spreads them over every set and keeps the hot kilobyte in that one page
 * (glibc colours thread stacks the same way). */
#define PARC_ENV_COLOURS 40

/* Carve envelope k out of a mapping holding n of them. */
static parc_ctx *env_carve(char *map, size_t span, int k) {
  char *base = map + (size_t)k * span;
  char *lo = base + env_guard();
  char *top = base + span;
  static int ids; /* trace envelope ids (0 is main's stack): relaxed RMW */
  int id = __atomic_add_fetch(&ids, 1, __ATOMIC_RELAXED);
  size_t colour = (size_t)(id % PARC_ENV_COLOURS) * 64;
  parc_ctx *c = (parc_ctx *)(void *)(((uintptr_t)top - colour - sizeof(parc_ctx)) & ~(uintptr_t)63);
  memset(c, 0, sizeof *c);
  c->map = base;
  c->map_size = span;
  c->is_env = 1;
  c->trace_id = id;
  ctx_prepare(c, lo, (char *)c, parc_env_main);
  return c;
}

/* Envelopes that exist (created so far), for the out-of-memory messages. */
static uint64_t envelopes_existing(void) {
  uint64_t n = 0;
  for (int k = 0; k < parc_rt.P; k++)
    n += __atomic_load_n(&parc_rt.procs[k].st.env_created, __ATOMIC_RELAXED);
  return n;
}

static _Noreturn void env_oom(const parc_site *s, const char *what, int err) {
  char where[320] = "";
  if (s)
    snprintf(where, sizeof where, " for activities of %s:%u:%u in %s", s->file ? s->file : "?",
             s->line, s->col, s->func ? s->func : "?");
  /* A smaller stack is a way out only above the minimum (env.c). */
  int smaller = parc_rt.stack_size > PARC_MIN_STACK;
  uint64_t limit, envs = envelopes_existing();
  const char *envs_s = envs == 1 ? "" : "s", *exist_s = envs == 1 ? "s" : "";
  int arenas;
  if (err == ENOMEM && !strcmp(what, "map") && parc_aspace_full(env_span(), &limit, &arenas)) {
    char heaps[200] = "";
    if (arenas)
      snprintf(heaps, sizeof heaps, "; glibc's malloc arenas of %d thread%s reserve %d MiB of it",
               arenas, arenas == 1 ? "" : "s", arenas * PARC_ARENA_MIB);
    parc_fatal(1,
               "out of memory for activity stacks: cannot map an envelope of %zu KiB%s: the "
               "address-space limit (ulimit -v %llu) is reached: %llu envelope%s exist%s (one for "
               "each activity blocked at once, one for each processor but main's to run "
               "activities in, and free ones kept for reuse, up to %d a processor; %zu KiB "
               "each with its guard region)%s; %s%s"
               "or a larger ulimit -v, may help",
               parc_rt.stack_size / 1024, where, (unsigned long long)limit,
               (unsigned long long)envs, envs_s, exist_s, PARC_POOL_LOCAL + PARC_POOL_MOVE,
               env_span() / 1024, heaps,
               smaller ? "a smaller PARC_STACK_SIZE, " : "fewer activities blocked at once, ",
               arenas ? "MALLOC_ARENA_MAX=1, " : "");
  }
  parc_fatal(1,
             "out of memory for activity stacks: cannot %s an envelope of %zu KiB%s: %s; "
             "%llu envelope%s exist%s (one for each activity blocked at once, one for each "
             "processor but main's to run activities in, and free ones kept for reuse, up to "
             "%d a processor)%s",
             what, parc_rt.stack_size / 1024, where, strerror(err),
             (unsigned long long)envs, envs_s, exist_s, PARC_POOL_LOCAL + PARC_POOL_MOVE,
             err == ENOMEM && !strcmp(what, "protect")
                 ? " (the process has too many memory mappings: see /proc/sys/vm/max_map_count)"
             : smaller ? "; a smaller PARC_STACK_SIZE may help"
                       : "; fewer activities blocked at once may help");
}

/* Linux 6.13's guard regions (MADV_GUARD_INSTALL): the page faults like a
 * PROT_NONE one, but is a marker in the page table instead of a mapping of
 * its own.  mprotect splits the mapping in two, creating a new VMA per
 * envelope, under the process's mmap lock taken for writing: envelope
 * creation on two processors at once then serialised on that lock and its
 * sleeps and wake-ups, the page faults of both (readers of the same lock)
 * included (`parfor 1000 { sync; }` at P = 2 took longer than at P = 1).
 * The guard marker is installed under the lock taken for reading only and
 * leaves one VMA per batch, so page faults stay on the per-VMA locks.  Older
 * kernels answer EINVAL: mprotect then, remembered. */
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
static int guard_by_mprotect; /* relaxed: every thread that finds out stores 1 */
static int guard_verified;    /* relaxed: likewise */

/* Does the guard region just installed at `at` fault?  An emulator may
 * accept advice it does not know and do nothing (qemu-user answers 0 to
 * MADV_GUARD_INSTALL): the stacks then had no guard, and an activity that
 * ran off its stack wrote over the memory below instead of being reported.
 * Asked once per process, without touching the page: the kernel refuses to
 * copy from a guard region (EFAULT), so a one-byte write from it to a pipe
 * tells.  Where no pipe can be made, the advice is trusted. */
static int guard_holds(char *at) {
  if (__atomic_load_n(&guard_verified, __ATOMIC_RELAXED))
    return 1;
  int fd[2];
  if (pipe2(fd, O_CLOEXEC) != 0)
    return 1;
  int faults = write(fd[1], at, 1) < 0 && errno == EFAULT;
  close(fd[0]);
  close(fd[1]);
  if (!faults) {
    __atomic_store_n(&guard_by_mprotect, 1, __ATOMIC_RELAXED);
    return 0;
  }
  __atomic_store_n(&guard_verified, 1, __ATOMIC_RELAXED);
  return 1;
}

/* Make the guard region at `at` (env_guard) faulting; returns 0 or an
 * errno value. */
static int guard_page(char *at) {
  size_t g = env_guard();
  if (!__atomic_load_n(&guard_by_mprotect, __ATOMIC_RELAXED)) {
    if (madvise(at, g, MADV_GUARD_INSTALL) == 0 && guard_holds(at))
      return 0;
    if (!__atomic_load_n(&guard_by_mprotect, __ATOMIC_RELAXED)) {
      if (errno != EINVAL)
        return errno;
      __atomic_store_n(&guard_by_mprotect, 1, __ATOMIC_RELAXED);
    }
  }
  return mprotect(at, g, PROT_NONE) == 0 ? 0 : errno;
}

/* A batch of n envelopes in one call each (Linux 6.13+: process_madvise on
 * the calling process takes any advice, and PIDFD_SELF names it without a
 * file descriptor that a fork would make name the parent): install the n
 * guard pages, then populate the top page of every stack, where the context
 * record and the first frames go, instead of taking one page fault per
 * envelope.  About a third off creating 1,024 envelopes here (1.40 to
 * 0.92 ms), most of `parfor 1000 { sync; }`'s first run.  Returns 1 if the
 * guard pages are in place, 0 to have the caller install them one by one. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define PARC_PIDFD_SELF (-10001) /* PIDFD_SELF_THREAD_GROUP, Linux 6.15 */
static int batch_unsupported; /* relaxed: every thread that finds out stores 1 */

static int batch_guard(char *map, size_t span, int n) {
#if defined(SYS_process_madvise)
  if (__atomic_load_n(&batch_unsupported, __ATOMIC_RELAXED) ||
      __atomic_load_n(&guard_by_mprotect, __ATOMIC_RELAXED))
    return 0;
  struct iovec v[PARC_ENV_BATCH_MAX];
  if (n > PARC_ENV_BATCH_MAX)
    return 0;
  size_t pg = parc_rt.page, g = env_guard();
  for (int k = 0; k < n; k++)
    v[k] = (struct iovec){map + (size_t)k * span, g};
  long r = syscall(SYS_process_madvise, PARC_PIDFD_SELF, v, (size_t)n, MADV_GUARD_INSTALL, 0u);
  if (r != (long)(g * (size_t)n)) {
    if (r < 0)
      __atomic_store_n(&batch_unsupported, 1, __ATOMIC_RELAXED);
    return 0; /* guard_page installs them (installing one twice is harmless) */
  }
  if (!guard_holds(map))
    return 0; /* advice accepted but not applied: guard_page uses mprotect */
  for (int k = 0; k < n; k++)
    v[k] = (struct iovec){map + (size_t)(k + 1) * span - pg, pg};
  /* Only an optimisation: a failure leaves the pages to fault in. */
  (void)syscall(SYS_process_madvise, PARC_PIDFD_SELF, v, (size_t)n, MADV_POPULATE_WRITE, 0u);
  return 1;
#else
  (void)map;
  (void)span;
  (void)n;
  return 0;
#endif
}

/* Create n envelopes with one mmap (n > 1 is MAXI 5.4's "allocate the
 * envelopes for the whole batch at once"); returns one and puts the others
 * in p's pool, which is empty (the caller found no free envelope).  errno is
 * the running activity's (main's, often): the calls that fail on the way
 * without harm (a kernel before 6.13 has no guard-page advice, a batch may
 * not fit) must not change it. */
static parc_ctx *env_create(parc_proc *p, int n, const parc_site *site) {
  PARC_ASSERT(p->pool_n == 0 && n <= PARC_ENV_BATCH_MAX);
  int saved_errno = errno;
  size_t span = env_span();
  char *map = mmap(NULL, span * (size_t)n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (map == MAP_FAILED && n > 1) { /* the batch may not fit where one does */
    n = 1;
    map = mmap(NULL, span, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  }
  if (map == MAP_FAILED)
    env_oom(site, "map", errno);
  int guarded = n > 1 && batch_guard(map, span, n);
  /* The pool is a stack: envelope 1 is taken next, then 2, ... */
  for (int k = n - 1; k >= 0; k--) {
    int e = guarded ? 0 : guard_page(map + (size_t)k * span);
    if (e)
      env_oom(site, "protect", e);
    if (k > 0)
      p->pool[p->pool_n++] = env_carve(map, span, k);
  }
  PARC_STAT_ADD(p, env_created, (uint64_t)n);
  errno = saved_errno;
  return env_carve(map, span, 0);
}

/* Take up to PARC_POOL_MOVE envelopes from q's overflow into p's empty
 * pool; returns how many. */
static int pool_take(parc_proc *p, parc_proc *q) {
  if (__atomic_load_n(&q->spill_n, __ATOMIC_RELAXED) == 0) /* hint; rechecked below */
    return 0;
  parc_spin_lock(&q->spill_lock);
  int n = q->spill_n < PARC_POOL_MOVE ? q->spill_n : PARC_POOL_MOVE;
  memcpy(p->pool + p->pool_n, q->spill + (q->spill_n - n), sizeof *p->pool * (size_t)n);
  p->pool_n += n;
  __atomic_store_n(&q->spill_n, q->spill_n - n, __ATOMIC_RELAXED); /* under spill_lock */
  parc_spin_unlock(&q->spill_lock);
  return n;
}

/* Refill p's empty pool: from its own overflow first (its envelopes are
 * warm in its cache), then from the others' (so that envelopes freed on
 * one processor serve another before it creates any).  Returns how many. */
static int pool_refill(parc_proc *p) {
  int n = pool_take(p, p);
  for (int k = 1; !n && k < parc_rt.P; k++)
    n = pool_take(p, &parc_rt.procs[(p->id + k) % parc_rt.P]);
  return n;
}

/* Move the PARC_POOL_MOVE envelopes longest in p's pool (the coldest) to its
 * overflow. */
static void pool_spill(parc_proc *p) {
  parc_spin_lock(&p->spill_lock);
  if (p->spill_n + PARC_POOL_MOVE > p->spill_cap) {
    int cap = p->spill_cap ? 2 * p->spill_cap : 4 * PARC_POOL_MOVE;
    parc_ctx **a = realloc(p->spill, sizeof *a * (size_t)cap);
    if (!a) { /* keep them: the pool has room for a batch more (internal.h) */
      parc_spin_unlock(&p->spill_lock);
      return;
    }
    p->spill = a;
    p->spill_cap = cap;
  }
  memcpy(p->spill + p->spill_n, p->pool, sizeof *p->pool * PARC_POOL_MOVE);
  __atomic_store_n(&p->spill_n, p->spill_n + PARC_POOL_MOVE, __ATOMIC_RELAXED); /* under spill_lock */
  parc_spin_unlock(&p->spill_lock);
  p->pool_n -= PARC_POOL_MOVE;
  memmove(p->pool, p->pool + PARC_POOL_MOVE, sizeof *p->pool * (size_t)p->pool_n);
}

/* An envelope for processor p.  sync_hint: the batch about to run comes from
 * a descriptor whose barrier already has arrivals, so its activities will
 * likely all block: create envelopes for the whole batch at once. */
parc_ctx *parc_env_get(parc_proc *p, int sync_hint, uint64_t batch, const parc_site *site) {
  if (p->pool_n || pool_refill(p)) {
    PARC_STAT_ADD(p, env_reused, 1);
    return p->pool[--p->pool_n];
  }
  int n = 1;
  if (sync_hint && batch > 1)
    n = batch > PARC_ENV_BATCH_MAX ? PARC_ENV_BATCH_MAX : (int)batch;
  return env_create(p, n, site);
}

void parc_env_put(parc_proc *p, parc_ctx *c) {
  c->cur_act = NULL;
  c->pin = -1;
  c->next = NULL;
  c->spins = 0;
  if (p->pool_n == PARC_POOL_LOCAL + PARC_ENV_BATCH_MAX) /* spilling failed: out of memory */
    parc_fatal_oom("the list of idle envelopes");
  p->pool[p->pool_n++] = c;
  if (p->pool_n > PARC_POOL_LOCAL)
    pool_spill(p);
}

/* Processor p's scheduler context on a runtime-allocated stack (processor 0:
 * its thread is the main thread, whose native stack runs main()). */
void parc_sched_ctx_make(parc_proc *p, void (*entry)(parc_ctx *)) {
  size_t size = PARC_SCHED_STACK + parc_rt.page;
  char *map = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (map == MAP_FAILED)
    parc_fatal(1, "cannot allocate the scheduler stack: %s", strerror(errno));
  if (mprotect(map, parc_rt.page, PROT_NONE) != 0)
    parc_fatal(1, "cannot protect the scheduler guard page: %s", strerror(errno));
  parc_ctx *c = &p->sched_ctx;
  c->map = map;
  c->map_size = size;
  ctx_prepare(c, map + parc_rt.page, map + size, entry);
  p->sched = c;
}

/* ---- Stack overflow -------------------------------------------------------
 * An activity that runs off its envelope stack hits the PROT_NONE guard page.
 * The SIGSEGV handler runs on an alternate signal stack (the faulting stack
 * is full), recognises the guard page of the context running on this thread
 * and reports the construct; any other fault gets the previous disposition
 * back and is re-raised by returning (the instruction faults again).
 *
 * A SIGSEGV that was sent, not a fault (raise, kill, pthread_kill,
 * sigqueue: si_code <= 0), is none of the handler's business either, but
 * returning does not send it again: the first raise(SIGSEGV) after a
 * construct was lost (the program went on), and a handler of the program's
 * own installed before it was never called for one (pass_sent). */
static struct sigaction old_segv;
static int segv_installed;

/* Under ThreadSanitizer, sigaction is its interceptor: the kernel calls
 * TSan's wrapper, which calls segv_handler.  A fault that is not an
 * overflow then came back, after segv_handler put the old disposition
 * back through the interceptor, to TSan's report by way of the wrapper,
 * which cannot report from there: "nested bug in the same thread", with no
 * stack and no line, for any NULL pointer after the first construct.  So
 * the disposition the kernel had before (TSan's own handler, or its
 * wrapper when the program installed one of its own) is read and put back
 * with the system call itself: the second fault goes straight to it, and
 * TSan reports the line. */
#if PARC_TSAN && defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define PARC_RAW_SEGV 1
struct kernel_sigaction {
  void *handler;
  unsigned long flags;
  void *restorer;
  unsigned long mask;
};
static struct kernel_sigaction kernel_old_segv;
static int kernel_old_known;
#endif

/* Main's stack.  Nothing is computed at start-up but an address in main's
 * frames (main_mark); on a fault, the handler finds the mapping that holds
 * it in /proc/self/maps (open/read only: async-signal-safe) and takes
 * [top - RLIMIT_STACK - margin, top) as where main's stack may grow (the
 * margin covers the kernel's stack guard gap). */
static char *main_mark;
static size_t main_limit;

struct top_of {
  uintptr_t at, top;
};

static void top_line(const char *s, size_t len, void *arg) {
  struct top_of *t = arg;
  uintptr_t lo, hi;
  parc_maps_range(s, len, &lo, &hi);
  if (lo <= t->at && t->at < hi)
    t->top = hi;
}

/* The end of the mapping containing `at`, or 0. */
static uintptr_t mapping_top(uintptr_t at) {
  struct top_of t = {at, 0};
  parc_each_line("/proc/self/maps", top_line, &t);
  return t.top;
}

/* Did a fault at addr, with the stack pointer at sp (or NULL), run off the
 * bottom of main's stack? */
static int main_overflow(char *addr, char *sp) {
  struct rlimit rl;
  if (!main_mark || getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return 0;
  uintptr_t top = mapping_top((uintptr_t)main_mark);
  size_t below = (size_t)rl.rlim_cur + (size_t)4 * 1024 * 1024; /* + guard gap margin */
  if (!top || top <= below)
    return 0;
  char *hi = (char *)top, *lo = (char *)(top - below);
  main_limit = (size_t)rl.rlim_cur;
  if (addr >= hi || addr < lo)
    return 0;
  /* A push or a frame near the stack pointer, not a stray pointer. */
  return !sp || (sp >= lo && sp < hi && addr <= sp + 4096 && addr + 1024 * 1024 >= sp);
}

static char *fault_sp(void *ucv) {
  ucontext_t *uc = ucv;
  (void)uc;
#if defined(__x86_64__)
  return (char *)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  return (char *)uc->uc_mcontext.sp;
#else
  return NULL;
#endif
}

/* The report of a stack overflow is written here, by the first processor
 * that overflows: not on the signal stack, which on main's thread may be a
 * small one of the program's own. */
static char overflow_msg[4096];

/* Only one report: a second processor that overflows at the same time
 * waits here for the first one's _exit, which ends every thread. */
static void overflow_claim(void) {
  static int reporting;
  if (__atomic_exchange_n(&reporting, 1, __ATOMIC_ACQ_REL))
    for (;;)
      pause();
}

/* LEAD and the activity b runs as the deadlock report names it, into
 * overflow_msg: its length so far. */
static int overflow_activity(const char *lead, const parc_batch *b) {
  int n = snprintf(overflow_msg, sizeof overflow_msg, "%s", lead);
  parc_describe_activity(overflow_msg + n, sizeof overflow_msg - (size_t)n, b);
  return n + (int)strlen(overflow_msg + n);
}

/* Write the report in overflow_msg (n bytes), then exit (status 1).  What
 * the program printed before is kept: stdout, when it goes to a file or a
 * pipe, still held it in its buffer, and _exit dropped it.  stdio is not
 * for signal handlers: the message goes out first, with write, and the
 * flush is a best effort after it, only if no other thread holds stdout
 * (the overflowing one may, in the middle of a printf: then its buffer is
 * written as it stands). */
static _Noreturn void overflow_exit(int n) {
  /* On a line of its own (init.c): only what stdout has written so far
   * comes before it. */
  if (parc_out_unterminated(0) && write(2, "\n", 1) < 0) {
    /* nothing more can be done in a signal handler */
  }
  if (n > (int)sizeof overflow_msg - 1)
    n = (int)sizeof overflow_msg - 1;
  if (n > 0 && write(2, overflow_msg, (size_t)n) < 0) {
    /* nothing more can be done in a signal handler */
  }
  if (ftrylockfile(stdout) == 0) {
    fflush_unlocked(stdout);
    funlockfile(stdout);
  }
  _exit(1);
}

/* The disposition the program had before parc_sigsegv_install, back in
 * place: the next SIGSEGV goes where it would have gone without the
 * runtime. */
static void put_back_old(int sig) {
  sigaction(sig, &old_segv, NULL);
#ifdef PARC_RAW_SEGV
  if (kernel_old_known)
    syscall(SYS_rt_sigaction, sig, &kernel_old_segv, NULL, sizeof kernel_old_segv.mask);
#endif
}

/* A sent SIGSEGV, delivered where it would have been without the runtime.
 * Under the default action the process must die by the signal: the old
 * disposition goes back and the signal is sent again, to this thread,
 * where it stays blocked until this handler returns.  Ignored, it is
 * dropped.  A handler of the program's own is called here, as the kernel
 * would have called it: with its sa_mask and the signal (unless
 * SA_NODEFER) added to the interrupted code's mask, its three arguments
 * with SA_SIGINFO, and reset to the default first with SA_RESETHAND.
 * Calling it, rather than putting it back and sending again, keeps this
 * handler, and the stack-overflow reports, in place for what follows.  It
 * runs on this thread's alternate signal stack.  The interrupted code's
 * errno is the handler's to see and change, and only the handler's. */
static void pass_sent(int sig, siginfo_t *si, void *uc) {
  int saved_errno = errno;
  struct sigaction old = old_segv;
  if (old.sa_handler == SIG_DFL) {
    put_back_old(sig);
    raise(sig);
  } else if (old.sa_handler != SIG_IGN) {
    if (old.sa_flags & SA_RESETHAND) {
      old_segv.sa_handler = SIG_DFL;
#ifdef PARC_RAW_SEGV
      kernel_old_segv.handler = (void *)SIG_DFL; /* what the kernel would have reset */
#endif
    }
    sigset_t mask = ((ucontext_t *)uc)->uc_sigmask, before;
    sigorset(&mask, &mask, &old.sa_mask);
    if (!(old.sa_flags & SA_NODEFER))
      sigaddset(&mask, sig);
    pthread_sigmask(SIG_SETMASK, &mask, &before);
    errno = saved_errno;
    if (old.sa_flags & SA_SIGINFO)
      old.sa_sigaction(sig, si, uc);
    else
      old.sa_handler(sig);
    saved_errno = errno;
    pthread_sigmask(SIG_SETMASK, &before, NULL);
  }
  errno = saved_errno;
}

static void segv_handler(int sig, siginfo_t *si, void *uc) {
  if (si->si_code <= 0) { /* sent: si_addr is no address (the sender's pid) */
    pass_sent(sig, si, uc);
    return;
  }
  parc_proc *p = parc_self();
  parc_ctx *c = p ? p->cur : NULL;
  char *addr = si->si_addr;
  if ((!c || !c->is_env) && (!p || p->id == 0) && main_overflow(addr, fault_sp(uc))) {
    /* main's own stack: main, or activities main ran inline on it. */
    overflow_claim();
    parc_batch *b = c ? c->cur_act : NULL;
    int n;
    if (b && b->d && b->d->site) {
      n = overflow_activity("parc: error: stack overflow on main's stack, in ", b);
      n += snprintf(overflow_msg + n, sizeof overflow_msg - (size_t)n,
                    ", run inline by main (stack limit %zu KiB; raise it with ulimit -s)\n",
                    main_limit / 1024);
    } else {
      n = snprintf(overflow_msg, sizeof overflow_msg,
                   "parc: error: stack overflow in main (stack limit %zu KiB; raise it with "
                   "ulimit -s)\n",
                   main_limit / 1024);
    }
    overflow_exit(n);
  }
  size_t guard = c && c->is_env ? env_guard() : parc_rt.page;
  if (c && c->stack_lo && addr >= c->stack_lo - guard && addr < c->stack_lo) {
    overflow_claim();
    parc_batch *b = c->cur_act;
    int n;
    if (b && b->d && b->d->site) {
      n = overflow_activity("parc: error: stack overflow in ", b);
      n += snprintf(overflow_msg + n, sizeof overflow_msg - (size_t)n,
                    " (stack size %zu KiB; set PARC_STACK_SIZE)\n", parc_rt.stack_size / 1024);
    } else {
      n = snprintf(overflow_msg, sizeof overflow_msg,
                   "parc: error: stack overflow in the runtime scheduler (processor %d): a "
                   "signal handler that ran there needed more than its %zu KiB, or a runtime "
                   "bug\n",
                   p->id, (size_t)(c->stack_hi - c->stack_lo) / 1024);
    }
    overflow_exit(n);
  }
  put_back_old(sig);
}

/* Give the calling thread an alternate signal stack, with a guard page
 * below it.  On main's thread (`keep`) one that the program set before its
 * first construct stays, and the overflow reports run on it: replacing it
 * left the program's SA_ONSTACK handlers 64 KiB where they had a MiB, and
 * with no guard page a larger frame wrote into the next processor's stack
 * or altstack (tester, "stack smashing detected" at P = 4).  A worker's is
 * always the runtime's: what the thread has at its start is a sanitizer's
 * (ASan's is a few pages), not the program's. */
void parc_sigsegv_init_thread(int keep) {
  stack_t ss;
  if (keep && sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE))
    return;
  size_t page = parc_rt.page;
  char *m = mmap(NULL, page + PARC_ALTSTACK, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return; /* overflow reports degrade to a plain SIGSEGV */
  if (mprotect(m, page, PROT_NONE) != 0) {
    munmap(m, page + PARC_ALTSTACK);
    return;
  }
  ss.ss_sp = m + page;
  ss.ss_size = PARC_ALTSTACK;
  ss.ss_flags = 0;
  sigaltstack(&ss, NULL);
}

void parc_sigsegv_install(void) {
  if (segv_installed)
    return;
  segv_installed = 1;
  char here;
  main_mark = &here; /* called on the main thread (the first construct) */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = segv_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
#ifdef PARC_RAW_SEGV
  kernel_old_known = syscall(SYS_rt_sigaction, SIGSEGV, NULL, &kernel_old_segv,
                             sizeof kernel_old_segv.mask) == 0;
#endif
  sigaction(SIGSEGV, &sa, &old_segv);
}
