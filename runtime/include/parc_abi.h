/* parc_abi.h - the one interface between C emitted by parcc and libparc.
 *
 * Every entry below says where parcc emits it and shows the emitted shape.
 * The runtime tests in test/runtime call these entries by hand ("hand-lowered
 * C"), so a runtime bug shows up without the front end, and the compiler's
 * lowering tests check that the emitted C calls them as documented here.
 *
 * Model.  A construct execution (one parblock, parfor or lparfor being
 * executed) is one spawn descriptor, parc_desc, which lives in the parent's
 * stack frame: the parent cannot leave the construct before every activity of
 * it has terminated, so the descriptor outlives all of them and no allocation
 * is made per construct or per activity.  All activities of a construct run
 * one outlined function, the "body function", which receives a batch record
 * (parc_act) and loops over the activity indices the runtime handed it:
 *
 *     static void f_parfor_L12(parc_act *parc_self_, void *parc_envp_) {
 *       struct parc_env_f_L12 *parc_env_ = (struct parc_env_f_L12 *)parc_envp_;
 *       int *const parc_p_x_ = parc_env_->x; (void)parc_p_x_;
 *       const int *const parc_p_k_ = parc_env_->k; (void)parc_p_k_;
 *       (void)parc_env_;
 *       (void)parc_self_;
 *       const unsigned long long parc_from_ = parc_env_->parc_from_;
 *       const unsigned long long parc_step_ = parc_env_->parc_step_;
 *       __UINT64_TYPE__ parc_k_;
 *       while (parc_next(parc_self_, &parc_k_)) {
 *         int i = (int)parc_iter(parc_from_, parc_step_, parc_k_);
 *         (void)i;
 *         { ...user body, shared variables as (*parc_p_x_)... }
 *       }
 *     }
 *
 * The environment (struct parc_env_f_L12) holds a pointer to each variable
 * of the parent that the body uses (a const one as a pointer to const) and,
 * for a parfor or lparfor, the converted FROM and STEP.  A scalar that only
 * the parent can change, which waits meanwhile, is read once into
 * parc_c_x_, which parc_p_x_ then points to (compiler/lib/Captures.cpp,
 * ReadOnlyCaptures).  A STEP that is the
 * constant 1 is not loaded: the index is parc_iter(parc_from_, 1ULL,
 * parc_k_).  A parblock has one function per section (f_parblock_L12_s0,
 * ...) with the same prologue, and its body function switches on parc_k_.
 *
 * Looping inside the body function makes a tiny activity cost a loop
 * iteration plus one poll, not an indirect call.  When an activity blocks
 * (sync, semaphore, waiting at epar for its own children) the runtime cuts the
 * batch after the blocked index and hands the rest to another envelope, so the
 * loop above never holds back activities that are not blocked.
 *
 * Identifiers: everything the compiler emits is spelled parc_* (runtime
 * entries) or parc_..._ with a trailing underscore (compiler temporaries).
 * A user's declaration of an entry's name below is an error at the user's
 * line (docs/reference.md, "Reserved names"); a user's identifier that
 * looks like a temporary is fine: parcc then renames its own
 * (TokenPassResult::Renamed in compiler/include/parcc/TokenPass.h).
 */
#ifndef PARC_PARC_ABI_H
#define PARC_PARC_ABI_H

/* No libc header here: the lowered file includes this header before the
 * user's first line, and a libc header would fix the feature-test macros
 * (_XOPEN_SOURCE, _GNU_SOURCE, ...) before the user's own #defines, and
 * declare names such as uint64_t that plain C may declare itself.  The
 * compiler's predefined __UINT64_TYPE__ and __UINT64_MAX__ stand in. */
#include "parc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the layout or meaning of anything below changes.  parcc
 * emits `__extension__ _Static_assert(PARC_ABI_VERSION == N, ...)` at the
 * top of each lowered file so that a stale runtime header is caught at
 * compile time.  The header and that line are C99 to the back end's
 * -std=c99 -pedantic-errors: attributes, not _Noreturn and _Alignas. */
#define PARC_ABI_VERSION 9

/* The runtime's code in this header (the poll's stand-in and the
 * inline entries below) is not the program's: coverage and profiling
 * (--coverage, -fprofile-generate, -fprofile-instr-generate) do not count
 * it.  Counted, it listed this header among the program's files, with
 * lines never run, and made every poll an increment of one counter that
 * all processors share, atomic (parcc asks for atomic counters, since
 * activities run on several processors at once).                         */
#if defined(__has_attribute)
#if __has_attribute(__no_profile_instrument_function__)
#define PARC_NO_PROFILE __attribute__((__no_profile_instrument_function__))
#endif
#endif
#ifndef PARC_NO_PROFILE
#define PARC_NO_PROFILE
#endif

/* ---- Construct sites ------------------------------------------------------
 * One static parc_site per construct in the source, emitted at file scope
 * before the function that contains the construct:
 *
 *     static parc_site parc_site_f_L12_ =
 *         PARC_SITE_INIT("prog.pc", "f", 12, 5, PARC_KIND_PARFOR);
 *
 * or, for a parfor whose body syncs in frames, with the places of its syncs
 * (see "Wait sites"), in the order of their frame states 1, 2, ...:
 *
 *     static const parc_wait_site *const parc_syncs_L12_[] =
 *         { &parc_wsite_2_, &parc_wsite_3_, 0 };
 *     static parc_site parc_site_f_L12_ = PARC_SITE_INIT_SYNCS("prog.pc", "f",
 *         12, 5, PARC_KIND_PARFOR, parc_syncs_L12_);
 *
 * The runtime names the construct by it in errors, statistics and traces, and
 * keeps per-construct counters in the runtime-owned tail.  parcc emits the
 * longest form, PARC_SITE_INIT_NAMES, after the environment's struct, with
 * what the runtime's reports say of each activity (see "Names of
 * activities"); the shorter forms are for hand-lowered code.                */
enum parc_kind {
  PARC_KIND_PARBLOCK = 1,
  PARC_KIND_PARFOR = 2,
  PARC_KIND_LPARFOR = 3,
  PARC_KIND_MAPPED_LPARFOR = 4,
  PARC_KIND_ROOT = 5, /* main, the root activity: used by the runtime only */
  /* Or'ed into the kind of a construct written where FENV_ACCESS is on
   * (`#pragma STDC FENV_ACCESS ON`, -frounding-math): its activities start
   * with the floating-point control modes (rounding direction, exception
   * masks, flush-to-zero) that its parent has at the construct. */
  PARC_KIND_FENV = 0x100
};

typedef struct parc_site {
  const char *file; /* the user's source file, as given to parcc */
  const char *func; /* the function in which the construct appears */
  unsigned line;    /* line and column of the construct's keyword */
  unsigned col;
  unsigned kind; /* enum parc_kind */
  /* A body with stackless syncs (see "Stackless sync"): its syncs' places,
   * by the frame's state less 1, then NULL; NULL for any other body. */
  const struct parc_wait_site *const *syncs;
  /* The semaphores among the construct's captured variables, by name
   * (see "Names of semaphores"), and how many; NULL and 0 for none.    */
  const struct parc_sem_name *sems;
  unsigned nsems;
  /* What the runtime's reports say of an activity besides its number (see
   * "Names of activities"); NULL for nothing.                            */
  const struct parc_act_names *names;
  /* Owned by the runtime; zero in the static initialiser. */
  int registered_;
  struct parc_site *next_;
  unsigned long long executions_;
  unsigned long long created_;
  unsigned long long killed_;
} parc_site;

#define PARC_SITE_INIT(file, func, line, col, kind)                            \
  PARC_SITE_INIT_SYNCS(file, func, line, col, kind, 0)
#define PARC_SITE_INIT_SYNCS(file, func, line, col, kind, syncs)               \
  PARC_SITE_INIT_SEMS(file, func, line, col, kind, syncs, 0, 0)
#define PARC_SITE_INIT_SEMS(file, func, line, col, kind, syncs, sems, nsems)   \
  PARC_SITE_INIT_NAMES(file, func, line, col, kind, syncs, sems, nsems, 0)
#define PARC_SITE_INIT_NAMES(file, func, line, col, kind, syncs, sems, nsems,  \
                             names)                                            \
  { (file), (func), (line), (col), (kind), (syncs), (sems), (nsems), (names),  \
    0, 0, 0, 0, 0 }

/* ---- Names of activities ----------------------------------------------------
 * The runtime's reports (a deadlock's notes, run-time errors) name an
 * activity by its number in its construct and by what the user wrote: a
 * parfor's index value, the index values of an lparfor chunk, a parblock
 * section's line ("activity 3 (i = 16) of prog.pc:12:5 (parfor in f)",
 * "activity 1 (i = 250 to 499) of ...", "(i = 501, 504, ..., 999)" for a
 * chunk whose step is not 1 or -1, "activity 1 (the section at line
 * 14) of ...", or "(the section at line 14, column 22)" where sections
 * share a line).  For a parfor or lparfor, the index as written, the size
 * of its type (1 to 16 bytes) and whether that type is signed, and where
 * the environment keeps FROM, STEP and (lparfor) the number of iterations,
 * emitted after the environment's struct:
 *
 *     static const parc_act_names parc_names_main_L12_ = PARC_INDEX_NAMES_INIT("i",
 *         4, 1, __builtin_offsetof(struct parc_env_main_L12, parc_from_),
 *         __builtin_offsetof(struct parc_env_main_L12, parc_step_));
 *     static const parc_act_names parc_names_main_L20_ = PARC_LPARFOR_NAMES_INIT("j",
 *         8, 0, __builtin_offsetof(struct parc_env_main_L20, parc_from_),
 *         __builtin_offsetof(struct parc_env_main_L20, parc_step_),
 *         __builtin_offsetof(struct parc_env_main_L20, parc_niter_));
 *
 * (the offsets written out, where parcc renames its own names apart from
 * the user's: parc_from_g0_ where a program has a parc_from_ of its own;
 * FROM and STEP are the environment's parc_from_ and parc_step_ words:
 * activity k's index is FROM + k x STEP modulo 2^64, or 2^128 for a
 * 16-byte index, in the index's type); for a parblock, the line (in the
 * site's file) and column of each section's `{`:
 *
 *     static const unsigned parc_lines_main_L30_[] = { 31, 7, 33, 7, 35, 7 };
 *     static const parc_act_names parc_names_main_L30_ =
 *         PARC_SECTION_NAMES_INIT(parc_lines_main_L30_);                    */
typedef struct parc_act_names {
  const char *index;
  unsigned size, is_signed;
  __SIZE_TYPE__ from_at, step_at, niter_at; /* niter_at: 0 but for lparfor */
  const unsigned *sections; /* line, column, line, column, ... */
} parc_act_names;

#define PARC_INDEX_NAMES_INIT(index, size, is_signed, from_at, step_at)        \
  { (index), (size), (is_signed), (from_at), (step_at), 0, 0 }
#define PARC_LPARFOR_NAMES_INIT(index, size, is_signed, from_at, step_at,      \
                                niter_at)                                      \
  { (index), (size), (is_signed), (from_at), (step_at), (niter_at), 0 }
#define PARC_SECTION_NAMES_INIT(lines) { 0, 0, 0, 0, 0, 0, (lines) }

/* ---- Descriptors ----------------------------------------------------------
 * Storage for one construct execution.  Opaque to emitted code; the runtime
 * checks with _Static_assert that its descriptor fits.  Emitted as a local of
 * the parent, right before the spawn call:
 *
 *     parc_desc parc_d_L12_;
 */
#define PARC_DESC_BYTES 448
typedef struct parc_desc {
  __attribute__((__aligned__(16))) unsigned char opaque_[PARC_DESC_BYTES]; /* C99 has no _Alignas */
} parc_desc;

/* ---- Batches: the activity being run ----------------------------------------
 * The runtime passes the body function a batch: the indices next .. end-1 of
 * one construct's activities, all to be run by this call.  `cur` is the index
 * of the activity now running; `total` the number of activities of the
 * construct (for lparfor: the number of chunks).  The runtime's own record
 * starts with this struct; emitted code only reads and advances it through
 * parc_next and passes the pointer back to parc_sync, parc_pbreak and
 * parc_preturn*.  Only the context running the batch touches these fields.  */
typedef struct parc_act {
  __UINT64_TYPE__ next;
  __UINT64_TYPE__ end;
  __UINT64_TYPE__ cur;
  __UINT64_TYPE__ total;
} parc_act;

/* The body function of a construct: one per construct, static, named after
 * the function, construct and line (e.g. main_parfor_L12).                  */
typedef void (*parc_body_fn)(parc_act *self, void *env);

/* ---- Polling ----------------------------------------------------------------
 * Killed activities stop at their next poll point (contract, pbreak).  The
 * fast path is one relaxed load of a global that is non-zero only while some
 * kill is being carried out or an idle processor asks running ones to share
 * their work (the top bit); everything else is in parc_poll_slow, which is
 * out of line so that emitted code never caches thread-local addresses across
 * a context switch.
 *
 * Emitted (compiler/lib/Polls.cpp has the rules) in a function defined in a
 * file that uses PARC, where the function is not brief, before its first
 * statement that is not brief (none when that statement polls first thing:
 * a loop that polls, a parblock):
 *     parc_poll();
 * or, when that statement is a parfor or lparfor with brief bounds, in its
 * spawn code right before the spawn call (`parc_poll(); parc_spawn(...)`);
 * and in the condition of every loop (the back-edge),
 *     while ((parc_poll(), cond)) ...     for (init; (parc_poll(), cond); inc)
 * a loop without a condition getting `for (init; (parc_poll(), 1); inc)`.
 * Brief code (bounded straight-line code: no call but to brief or const
 * functions, no volatile or atomic access) and counted for loops with a
 * brief body get none.  A loop that is not counted but is brief, and that
 * touches memory at a fixed address, runs in blocks of PARC_BLOCK rounds
 * with a poll between them:
 *     { unsigned parc_left_K = PARC_BLOCK; if (C) for (;; parc_poll_block(),
 *       parc_left_K = PARC_BLOCK) { do { BODY } while ((C) &&
 *       --parc_left_K); if (parc_left_K) break; } }  Construct exit (epar) and the blocking operations
 * poll inside the runtime, and parc_next polls before each activity.        */
extern unsigned parc_kill_pending_;
void parc_poll_slow(void);
/* The slow path of the copy of the runtime that started (kill.c); the
 * stand-in below calls it.                                                  */
extern void (*parc_poll_hook_)(void);

/* Every file that parcc compiles polls, plain C too (its functions may run in
 * activities of other files), so its object refers to the two entries above.
 * Weak stand-ins let such an object link without libparc, as an object of
 * cc's does: a makefile that links with `cc` or another compiler (8cc's
 * links with cc, tinycc's dlltest with tcc), a static library that a cc
 * program links.  A program that uses nothing else of the runtime then gets
 * none of it either: no constructor reading PARC_NPROCS before main.  The
 * count stays 0, so the stand-in is never called.  Where libparc is linked,
 * kill.c's definitions replace them (a strong definition wins over weak
 * ones), and kill.c is in every link that uses the runtime: libparc.a holds
 * the runtime as one object (but for its printf family), which every
 * construct and blocking operation needs.
 *
 * Where the runtime is in a shared library (`parcc -shared`), the stand-ins
 * of an executable that holds an object of parcc's win instead: the dynamic
 * linker binds the library's references to the executable's definitions,
 * weak or not.  The count is then the executable's, which the runtime
 * updates too, and the stand-in calls the slow path through
 * parc_poll_hook_, which the runtime that started set (a stand-in that did
 * nothing let killed activities run on: a pbreak waited for an endless
 * loop, and a killed activity's effects were seen after its epar).       */
#ifndef PARC_RUNTIME_SOURCE
__attribute__((__weak__)) unsigned parc_kill_pending_;
__attribute__((__weak__)) void (*parc_poll_hook_)(void);
__attribute__((__weak__)) PARC_NO_PROFILE void parc_poll_slow(void) {
  void (*slow)(void) = __atomic_load_n(&parc_poll_hook_, __ATOMIC_ACQUIRE);
  if (slow)
    slow();
}
#endif

/* faa on a _Bool object (contract, section 3: faa works for every integer
 * type).  GCC's __atomic_fetch_add refuses a _Bool, and Clang's adds to its
 * byte (true + 1 made 2).  parcc writes parc_faa_bool_ in place of the
 * user's `faa` where *p is a _Bool (Checks.cpp, FaaChecker):
 *     faa(&done, 1)   ->   parc_faa_bool_(&done, 1)
 * *p becomes *p + v converted to _Bool, as `*p += v` makes it, atomically;
 * the value is the old one.  p and v are evaluated once.                   */
#define parc_faa_bool_(p, v)                                                   \
  __extension__({                                                              \
    volatile _Bool *parc_fb_p_ = (p);                                          \
    __typeof__((v) + 0) parc_fb_v_ = (v);                                      \
    _Bool parc_fb_o_ = __atomic_load_n(parc_fb_p_, __ATOMIC_RELAXED);         \
    while (!__atomic_compare_exchange_n(parc_fb_p_, &parc_fb_o_,               \
                                        (_Bool)(parc_fb_o_ + parc_fb_v_), 0,   \
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))   \
      ;                                                                        \
    parc_fb_o_;                                                                \
  })

/* faa on an integer wider than 64 bits (__int128): no add of that width
 * is atomic without libatomic, which a PARC link does not use.  parcc
 * writes parc_faa_wide_ in place of the user's `faa` where *p is one
 * (Checks.cpp, FaaChecker):
 *     faa(&total, x)   ->   parc_faa_wide_(&total, x)
 * The add is made under one of libparc's locks, chosen by the object's
 * address (parc_faa_lock / parc_faa_unlock, semaphore.c): atomic with
 * respect to every other faa on that object, which is what faa promises.
 * The sum wraps as the 64-bit faa's does; the value is the old one.      */
void parc_faa_lock(const volatile void *p);
void parc_faa_unlock(const volatile void *p);
#define parc_faa_wide_(p, v)                                                   \
  __extension__({                                                              \
    __typeof__(*(p)) *parc_fw_p_ = (p);                                        \
    __typeof__(*(p) + 0) parc_fw_v_ = (__typeof__(*(p) + 0))(v), parc_fw_o_;  \
    parc_faa_lock(parc_fw_p_);                                                 \
    parc_fw_o_ = *parc_fw_p_;                                                  \
    *parc_fw_p_ = (__typeof__(*(p) + 0))((unsigned __int128)parc_fw_o_ +       \
                                         (unsigned __int128)parc_fw_v_);       \
    parc_faa_unlock(parc_fw_p_);                                               \
    parc_fw_o_;                                                                \
  })

static __inline__ PARC_NO_PROFILE void parc_poll(void) {
  if (__builtin_expect(__atomic_load_n(&parc_kill_pending_, __ATOMIC_RELAXED) != 0, 0))
    parc_poll_slow();
}

/* The poll between two blocks of a loop that runs in blocks (above, and
 * Polls.cpp, blockUncounted), and a compiler barrier: what the loop keeps
 * in registers within a block is stored and read again at least once per
 * block.  A spin on a plain flag that another activity sets (a race, the
 * program's own risk) read it once when the poll's fast path let the back
 * end keep its value, and hung at P = 2 where it had ended (tester J). */
static __inline__ PARC_NO_PROFILE void parc_poll_block(void) {
  __asm__ __volatile__("" ::: "memory");
  parc_poll();
}

/* Emitted as the loop head of every body function (see the top of this file).
 * Returns 0 when the batch is done.                                         */
static __inline__ PARC_NO_PROFILE int parc_next(parc_act *self, __UINT64_TYPE__ *k) {
  if (self->next >= self->end)
    return 0;
  *k = self->cur = self->next++;
  parc_poll();
  return 1;
}

/* ---- Blocks of activities -----------------------------------------------------
 * Activities of a brief body (the rule of compiler/lib/Polls.cpp: bounded
 * straight-line code, no call but to brief or const functions, no volatile
 * or atomic access) run in blocks of up to PARC_BLOCK between two polls, and
 * a full block is a loop of the constant trip count PARC_BLOCK, which the
 * back end vectorises without a scalar epilogue or a runtime check (gcc -O2
 * vectorises only such loops); the last, partial block runs the same body
 * in a loop of its own.  With a STEP of 1 or -1 and a signed index at least
 * as wide as int, a full block counts the index in its own type from the
 * block's first value (parc_i0_): from a 64-bit count narrowed to int, gcc
 * could not see that the index steps by one, and vectorised nothing.  An
 * lparfor chunk with a brief body runs its iterations so:
 *
 *     while (parc_next(parc_self_, &parc_k_)) {
 *       parc_j_ = parc_chunk_lo(parc_env_->parc_niter_, parc_self_->total, parc_k_);
 *       parc_hi_ = parc_chunk_lo(parc_env_->parc_niter_, parc_self_->total, parc_k_ + 1);
 *       for (;;) {
 *         if (parc_hi_ - parc_j_ >= PARC_BLOCK) {
 *           unsigned parc_b_;
 *           int parc_i0_ = (int)parc_iter(parc_from_, 1ULL, parc_j_);
 *           PARC_FULL_BLOCK_BEGIN
 *           for (parc_b_ = 0; parc_b_ < PARC_BLOCK; parc_b_++, parc_j_++) {
 *             int j = (int)(parc_i0_ + (int)parc_b_);
 *             (void)j;
 *             { ...user body... }
 *           }
 *           PARC_FULL_BLOCK_END
 *         } else {
 *           for (; parc_j_ < parc_hi_; parc_j_++) {
 *             int j = (int)parc_iter(parc_from_, 1ULL, parc_j_);
 *             (void)j;
 *             { ...user body... }
 *           }
 *         }
 *         if (parc_j_ == parc_hi_)
 *           break;
 *         parc_poll();
 *       }
 *     }
 *
 * and a parfor whose activities are brief (and do not pbreak or preturn)
 * runs its batch a block of activities at a time:
 *
 *     __UINT64_TYPE__ parc_k_, parc_stop_;
 *     while (parc_next_block(parc_self_, &parc_k_, &parc_stop_)) {
 *       if (parc_stop_ - parc_k_ == PARC_BLOCK) {
 *         unsigned parc_b_;
 *         PARC_FULL_BLOCK_BEGIN
 *         for (parc_b_ = 0; parc_b_ < PARC_BLOCK; parc_b_++, parc_k_++) {
 *           int i = (int)parc_iter(parc_from_, 1ULL, parc_k_); (void)i;
 *           { ...user body... }
 *         }
 *         PARC_FULL_BLOCK_END
 *       } else {
 *         for (; parc_k_ < parc_stop_; parc_k_++) { ...the same... }
 *       }
 *     }
 *
 * The body is written twice, so parcc uses these forms only when the two
 * copies mean the same as one: no label, no static or _Thread_local
 * declaration, no variably modified type, and a body of a few hundred
 * tokens at most; any other body keeps the per-iteration (per-activity)
 * loop.
 *
 * Why a block of activities needs no per-activity bookkeeping.  parc_next
 * keeps `next` and `cur` exact for the runtime, which reads them at poll
 * points and when an activity blocks: parc_detach_chain (an activity
 * blocks: the terminated prefix [start, cur) is accounted and the unstarted
 * [next, end) goes to a representative), the share requested by an idle
 * processor at a poll (parc_help), the kill landing (the activities [cur,
 * end) were killed) and activities that spawn (cur names the parent of a
 * nested construct for kill ranges).  A brief activity does none of this: it
 * cannot block, spawn, sync, pbreak or preturn, and it polls nowhere, so
 * between the poll of parc_next_block and the next call nothing in the
 * runtime looks at the batch.  parc_next_block takes the whole block out of
 * [next, end) before it polls, with cur = the block's first activity: a
 * kill or a cut at that poll sees the block's activities as the current
 * activity and its unstarted successors (killed, or left in the batch);
 * once the poll returns, the block runs to its end like straight-line code,
 * and the next call starts the next block.  A kill posted while a block
 * runs is noticed at the next call, after the block, which is an execution
 * the program could have had anyway: the activities of the block take
 * bounded time and do not synchronise, so no race-free program can tell
 * whether they ran before the kill arrived (the same argument as for the
 * polls that Polls.cpp leaves out of counted loops).  Stepping (PARC_TRACE,
 * PARC_SCHED=random: runtime/src/sched.c) calls the body with end = next + 1,
 * so a block there is one activity and traces and random schedules are
 * unchanged.  A poll per 4096 iterations costs nothing measurable, and a
 * kill waits for at most one block of bounded straight-line code.           */
#define PARC_BLOCK 4096

/* Around the loop of a full block.  gcc knows that it runs PARC_BLOCK times
 * and, when the body indexes an array of fewer elements with the index
 * (`a[i]`, int a[16]), warns "iteration 16 invokes undefined behavior"
 * (-Waggressive-loop-optimizations, in -Wall) about a loop that then never
 * runs: the emitted C must compile without warnings.                      */
#if defined(__GNUC__) && !defined(__clang__)
#define PARC_FULL_BLOCK_BEGIN                                                  \
  _Pragma("GCC diagnostic push")                                               \
  _Pragma("GCC diagnostic ignored \"-Waggressive-loop-optimizations\"")
#define PARC_FULL_BLOCK_END _Pragma("GCC diagnostic pop")
#else
#define PARC_FULL_BLOCK_BEGIN
#define PARC_FULL_BLOCK_END
#endif

/* Takes the next block of at most PARC_BLOCK activities of the batch,
 * [*k, *stop), advancing next past it, and polls once.  Returns 0 when the
 * batch is done.                                                            */
static __inline__ PARC_NO_PROFILE int parc_next_block(parc_act *self, __UINT64_TYPE__ *k, __UINT64_TYPE__ *stop) {
  __UINT64_TYPE__ n = self->next, e = self->end;
  if (n >= e)
    return 0;
  *k = self->cur = n;
  *stop = self->next = e - n > PARC_BLOCK ? n + PARC_BLOCK : e;
  parc_poll();
  return 1;
}

/* ---- Spawning ---------------------------------------------------------------
 * parblock with n sections, and parfor with `count` activities.  Returns once
 * every activity has terminated or been killed.  With count == 0 it returns
 * at once, without a poll.  Emitted in place of the construct, on one line,
 * as a block of its own:
 *
 *     { long long parc_f_L12_ = (long long)(int)(FROM),
 *                 parc_t_L12_ = (long long)(int)(TO),
 *                 parc_s_L12_ = (long long)(int)(STEP);
 *       __UINT64_TYPE__ parc_n_L12_ = parc_count_s(parc_f_L12_, parc_t_L12_, parc_s_L12_,
 *                                           &parc_site_f_L12_);
 *       struct parc_env_f_L12 parc_e_L12_ = { &x, &k, (unsigned long long)parc_f_L12_,
 *                                             (unsigned long long)parc_s_L12_ };
 *       parc_desc parc_d_L12_;
 *       parc_spawn(&parc_d_L12_, &parc_site_f_L12_, f_parfor_L12, &parc_e_L12_,
 *                  parc_n_L12_); }
 *
 * For a parblock, count is the number of sections (a constant) and the
 * environment holds only the shared variables' addresses.                   */
void parc_spawn(parc_desc *d, parc_site *site, parc_body_fn fn, void *env,
                __UINT64_TYPE__ count);

/* lparfor and mapped lparfor over `niter` iterations: the runtime makes
 * min(P, niter) chunk activities (parc_act.total), chunk k holding iterations
 * parc_chunk_lo(niter, total, k) .. parc_chunk_lo(niter, total, k+1) - 1.
 * With mapped != 0, chunk k runs on processor k every time.  Emitted as
 *
 *     parc_spawn_lparfor(&parc_d_L20_, &parc_site_f_L20_, f_lparfor_L20,
 *                        &parc_e_L20_, parc_n_L20_, 0);
 *
 * (the environment also holds parc_niter_ = parc_n_L20_; niter == 0 returns
 * at once, without a poll).  The body function runs the chunk's iterations:
 *
 *     while (parc_next(parc_self_, &parc_k_)) {
 *       parc_j_ = parc_chunk_lo(parc_env_->parc_niter_, parc_self_->total, parc_k_);
 *       parc_hi_ = parc_chunk_lo(parc_env_->parc_niter_, parc_self_->total, parc_k_ + 1);
 *       for (; parc_j_ < parc_hi_; parc_j_++) {
 *         int j = (int)parc_iter(parc_from_, 1ULL, parc_j_);
 *         (void)j;
 *         parc_poll();
 *         { ...user body... }
 *       }
 *     }
 *
 * polling before each iteration; when the body is brief, the iterations run
 * in blocks of PARC_BLOCK with one parc_poll() after each block but the
 * last ("Blocks of activities" above).                                      */
void parc_spawn_lparfor(parc_desc *d, parc_site *site, parc_body_fn fn, void *env,
                        __UINT64_TYPE__ niter, int mapped);

static __inline__ PARC_NO_PROFILE __UINT64_TYPE__ parc_chunk_lo(__UINT64_TYPE__ niter, __UINT64_TYPE__ nchunks, __UINT64_TYPE__ k) {
  __UINT64_TYPE__ q = niter / nchunks, r = niter % nchunks;
  return k * q + (k < r ? k : r);
}

/* ---- Iteration spaces -------------------------------------------------------
 * FROM, TO and STEP are evaluated once by the parent and converted to the
 * index TYPE (contract, parfor); parcc then widens them to long long (signed
 * TYPE) or unsigned long long (unsigned TYPE) and emits
 *
 *     parc_count_s(parc_f_L12_, parc_t_L12_, parc_s_L12_, &parc_site_f_L12_)
 *
 * on locals initialised to (long long)(T)(FROM), (long long)(T)(TO) and
 * (long long)(T)(STEP) (parc_count_u and unsigned long long for an unsigned
 * T), which returns the number of values, never wrapping past TO.  STEP == 0
 * stops the program with a message naming the construct.  Activity k's
 * index is
 *
 *     T i = (T)parc_iter(parc_from_, parc_step_, parc_k_);
 *
 * (parc_iter(parc_from_, 1ULL, parc_k_) when STEP is the constant 1),
 * computed modulo 2^64, which is exact because the value lies between FROM
 * and TO.                                                                   */
__attribute__((__noreturn__)) void parc_error_step0(const parc_site *site);
__attribute__((__noreturn__)) void parc_error_count(const parc_site *site);

static __inline__ PARC_NO_PROFILE __UINT64_TYPE__ parc_count_s(long long from, long long to, long long step,
                                    const parc_site *site) {
  __UINT64_TYPE__ span, n;
  if (step == 0)
    parc_error_step0(site);
  if (step > 0) {
    if (from > to)
      return 0;
    span = (__UINT64_TYPE__)to - (__UINT64_TYPE__)from;
    n = span / (__UINT64_TYPE__)step;
  } else {
    if (from < to)
      return 0;
    span = (__UINT64_TYPE__)from - (__UINT64_TYPE__)to;
    n = span / (0 - (__UINT64_TYPE__)step);
  }
  if (n == __UINT64_MAX__)
    parc_error_count(site);
  return n + 1;
}

static __inline__ PARC_NO_PROFILE __UINT64_TYPE__ parc_count_u(unsigned long long from, unsigned long long to,
                                    unsigned long long step, const parc_site *site) {
  __UINT64_TYPE__ n;
  if (step == 0)
    parc_error_step0(site);
  if (from > to)
    return 0;
  n = (to - from) / step;
  if (n == __UINT64_MAX__)
    parc_error_count(site);
  return n + 1;
}

static __inline__ PARC_NO_PROFILE unsigned long long parc_iter(unsigned long long from,
                                           unsigned long long step, __UINT64_TYPE__ k) {
  return from + k * step;
}

/* ---- Wait sites ---------------------------------------------------------------
 * The place of a wait that parcc rewrote, a `sync` or a parc_P call, or of
 * a parc_V call (see "Semaphore calls").  One static parc_wait_site per
 * call, emitted at the top of the lowered file, numbered in the file:
 *
 *     static const parc_wait_site parc_wsite_0_ =
 *         PARC_WAIT_SITE_INIT("prog.pc", "f", 14, 9, "&s[1]");
 *     static const parc_wait_site parc_wsite_1_ =
 *         PARC_WAIT_SITE_INIT("prog.pc", "f", 17, 7, "");
 *
 * `arg` is a parc_P's or parc_V's argument as the user wrote it (white
 * space runs made one space, at most 60 characters, longer ones cut with
 * "..."), "" for a sync.  The deadlock report names the place of each wait
 * it lists; a semaphore error names the call's.                           */
typedef struct parc_wait_site {
  const char *file; /* the user's source file, as given to parcc */
  const char *func; /* the function in which the call appears */
  unsigned line;    /* line and column of its parc_P, parc_V or sync */
  unsigned col;
  const char *arg;  /* parc_P's or parc_V's argument as written; "" for a sync */
} parc_wait_site;

#define PARC_WAIT_SITE_INIT(file, func, line, col, arg)                        \
  { (file), (func), (line), (col), (arg) }

/* ---- sync ---------------------------------------------------------------------
 * `sync;` inside an activity of a parfor or parblock (never directly in an
 * lparfor body: parcc rejects that).  Emitted as
 *
 *     parc_sync(parc_self_, &parc_wsite_1_);
 *
 * where parc_self_ is the batch of the innermost construct and the site is
 * the sync's (NULL: no place known).  A terminated or killed sibling counts
 * as arrived.                                                               */
void parc_sync(parc_act *self, const parc_wait_site *site);

/* ---- Stackless sync -----------------------------------------------------------
 * A parfor whose body syncs suspends its activities at sync without keeping
 * a stack for each (Filaments' stateless threads): the locals that live
 * across a sync are hoisted into a frame, and `sync;` becomes a return to
 * the runtime that the barrier's release undoes by calling the body
 * function again at the saved state.  The body function then loops so:
 *
 *     struct parc_fr_f_L12 { unsigned parc_st_; int t; } *parc_fr_;
 *     __UINT64_TYPE__ parc_k_;
 *     while ((parc_fr_ = (struct parc_fr_f_L12 *)parc_next_frame(parc_self_, &parc_k_,
 *                                                                sizeof *parc_fr_))) {
 *       int i = (int)parc_iter(parc_from_, 1ULL, parc_k_);
 *       (void)i;
 *       switch (parc_fr_->parc_st_) {
 *       case 0:;
 *         { ...user body, each hoisted local as parc_fr_->t...
 *           parc_fr_->parc_st_ = 1;
 *           if (parc_sync_frame(parc_self_)) goto parc_susp_L12_;
 *           __attribute__((fallthrough)); case 1:;
 *           ... }
 *       }
 *     parc_susp_L12_:;
 *     }
 *
 * parc_next_frame returns NULL when the batch is done; otherwise it sets *k
 * to the next activity and returns its frame: a fresh one (state 0, the
 * other members indeterminate) for an activity that starts, or, when the
 * runtime resumes a suspended activity, the frame it suspended with, at the
 * same address (so pointers into it stay valid).  A frame is `size` bytes,
 * aligned to 16, and starts with the unsigned state.
 *
 * parc_sync_frame is sync for such a body: it returns 0 when the activity
 * may go on at once (it was the last to arrive, it has no sibling, or the
 * runtime chose to block it on its stack, as it does under PARC_TRACE and
 * PARC_SCHED=random), and 1 when the activity is suspended: its frame
 * now belongs to the barrier, and the body function goes on with the next
 * activity of its batch.  When the barrier releases, the runtime runs the
 * activity again through the body function (a batch of that one activity)
 * with the frame, whose state selects the code after the sync.
 *
 * parcc uses this form only where it is exact (compiler/lib/LowerSync.cpp):
 * a parfor whose syncs are in its body (not in a switch), whose index is
 * never assigned, and whose locals that live across a sync can move into a
 * frame.  Any other body calls parc_sync on its stack.                      */
void *parc_next_frame(parc_act *self, __UINT64_TYPE__ *k, __SIZE_TYPE__ size);
int parc_sync_frame(parc_act *self);

/* ---- Semaphore calls ---------------------------------------------------------
 * A direct call of parc_P or parc_V written in a file that parcc compiles
 * (the callee and the closing parenthesis spelled there, not by a macro)
 * names its place (see "Wait sites"):
 *
 *     parc_P_at(&s[1], &parc_wsite_0_);
 *     parc_V_at(&s[1], &parc_wsite_1_);
 *
 * parc_P_at is parc_P; the runtime only stores the site in the waiting
 * context when the call blocks, and the deadlock report names it ("waits in
 * parc_P(&s[1]) at prog.pc:14:9").  parc_V_at is parc_V.  Errors name the
 * call of either ("parc_V(&s) at prog.pc:9:5 on the semaphore at 0x...,
 * which parc_sem_init has not initialised").  A call made any other way
 * (plain C compiled by the back end, a function pointer, a macro's call) is
 * reported by the semaphore's address.                                      */
void parc_P_at(parc_sem_t *s, const parc_wait_site *site);
void parc_V_at(parc_sem_t *s, const parc_wait_site *site);

/* ---- Names of semaphores ------------------------------------------------------
 * The semaphores that a file compiled by parcc defines at file scope, by
 * name, so that a deadlock report or a semaphore error says `fork[3]` where
 * it had only an address (a parc_P made through a course's macro or
 * wrapper function has no place of its own).  A semaphore, an array of them
 * (up to 3 dimensions), and a struct's member that is one or an array of
 * them, or a semaphore member of an array of structs; not a thread-local
 * one, whose address is no constant.  The cast takes a `volatile` off.  Emitted at the end of
 * the lowered file, where the variables are declared, when it defines any:
 *
 *     static const parc_sem_name parc_sem_name_v_[] = {
 *         PARC_SEM_NAME_INIT("fork", "", (const void *)&fork[0], sizeof(fork[0]), 5, 0, 0),
 *         PARC_SEM_NAME_INIT("buf.mutex", "", (const void *)&buf.mutex, sizeof(buf.mutex),
 *                            0, 0, 0),
 *         PARC_SEM_NAME_INIT("phil", ".left", (const void *)&phil[0].left, sizeof(phil[0]),
 *                            5, 0, 0),
 *     };
 *     static parc_sem_names parc_sem_names_ = PARC_SEM_NAMES_INIT(parc_sem_name_v_);
 *     __attribute__((__constructor__)) static void parc_sem_names_in_(void) {
 *       parc_sem_names_add_(&parc_sem_names_);
 *     }
 *     __attribute__((__destructor__)) static void parc_sem_names_out_(void) {
 *       parc_sem_names_remove_(&parc_sem_names_);
 *     }
 *
 * The name is `name`, then an index per dimension of `dims` (0: none),
 * then `member`; the semaphores lie `stride` bytes apart from `base`.
 *
 * A construct's captured variables that are such semaphores (a local
 * `parc_sem_t fork[5]` of main's) are named by a table of its site
 * (PARC_SITE_INIT_SEMS's or PARC_SITE_INIT_NAMES's sems and nsems),
 * emitted after its environment's struct, whose rows give the variable's
 * pointer in the environment instead:
 *
 *     static const parc_sem_name parc_semn_main_L9_[] = {
 *         PARC_SEM_ENV_NAME_INIT("fork", "", __builtin_offsetof(struct
 *             parc_env_main_L9, fork), 0, sizeof((*((struct parc_env_main_L9
 *             *)0)->fork)[0]), 5, 0, 0),
 *     };
 *     static const parc_act_names parc_names_main_L9_ = ...;
 *     static parc_site parc_site_main_L9_ = PARC_SITE_INIT_NAMES("prog.pc",
 *         "main", 9, 5, PARC_KIND_PARFOR, 0, parc_semn_main_L9_, 1,
 *         &parc_names_main_L9_);
 *
 * A report looks in the sites of the constructs around the activity it
 * names, whose environments are alive, then in the files' tables.  The
 * destructor takes the table out when a shared library is unloaded.  The
 * references to the runtime are weak: an object that defines semaphores
 * links without libparc, as one of cc's does.                              */
typedef struct parc_sem_name {
  const char *name;
  const char *member;
  const void *base;     /* file scope: the first semaphore; else 0 */
  __SIZE_TYPE__ env;    /* a site's: 1 + the offset of the variable's pointer
                           in the construct's environment; else 0 */
  __SIZE_TYPE__ offset; /* a site's: the first semaphore's offset in the
                           variable */
  __SIZE_TYPE__ stride;
  unsigned dims[3];
} parc_sem_name;

typedef struct parc_sem_names {
  const parc_sem_name *v;
  unsigned n;
  struct parc_sem_names *next; /* the runtime's list */
} parc_sem_names;

#define PARC_SEM_NAME_INIT(name, member, base, stride, d0, d1, d2)             \
  { (name), (member), (base), 0, 0, (stride), { (d0), (d1), (d2) } }
#define PARC_SEM_ENV_NAME_INIT(name, member, env, offset, stride, d0, d1, d2)  \
  { (name), (member), 0, (env) + 1, (offset), (stride), { (d0), (d1), (d2) } }
#define PARC_SEM_NAMES_INIT(v) { (v), sizeof(v) / sizeof((v)[0]), 0 }

void parc_sem_names_add(parc_sem_names *t);
void parc_sem_names_remove(parc_sem_names *t);

#ifndef PARC_RUNTIME_SOURCE
__attribute__((__weak__)) void parc_sem_names_add(parc_sem_names *t);
__attribute__((__weak__)) void parc_sem_names_remove(parc_sem_names *t);

static __inline__ PARC_NO_PROFILE void parc_sem_names_add_(parc_sem_names *t) {
  if (parc_sem_names_add)
    parc_sem_names_add(t);
}

static __inline__ PARC_NO_PROFILE void parc_sem_names_remove_(parc_sem_names *t) {
  if (parc_sem_names_remove)
    parc_sem_names_remove(t);
}
#endif

/* ---- pbreak and preturn -------------------------------------------------------
 * `pbreak;` kills every other activity of the innermost construct and their
 * descendants and ends the calling activity:
 *
 *     parc_pbreak(parc_self_);
 *
 * `preturn EXPR;` in an activity kills every activity the function invocation
 * created and makes the function return EXPR.  `depth` counts the constructs
 * from the innermost one out to the function's outermost one (1 when the
 * preturn is directly in an activity of the outermost construct).  Emitted as
 *
 *     { __typeof__(*parc_env_->parc_rv_) parc_v_ = (EXPR);
 *       if (parc_preturn_claim(parc_self_, 2)) *parc_env_->parc_rv_ = parc_v_;
 *       parc_preturn(parc_self_, 2); }
 *
 * parc_preturn_claim returns 1 for exactly one preturning activity, whose
 * value the function returns.  After the outermost construct of a function
 * that contains a preturn, parcc emits
 *
 *     if (parc_preturned(&parc_d_L12_)) return parc_rv_;
 */
__attribute__((__noreturn__)) void parc_pbreak(parc_act *self);
int parc_preturn_claim(parc_act *self, unsigned depth);
__attribute__((__noreturn__)) void parc_preturn(parc_act *self, unsigned depth);
int parc_preturned(const parc_desc *d);

#ifdef __cplusplus
}
#endif

#endif /* PARC_PARC_ABI_H */
