/* init.c - start-up (constructor and lazy start of the processors), the two
 * failure paths, and the small public queries (parc_nprocs, parc_procid).
 *
 * The constructor runs before main (priority 101, ahead of user
 * constructors): it parses the environment, so a bad PARC_NPROCS stops the
 * program before main, and allocates the processors, making the main thread
 * processor 0 (or leaving that to the main thread's first construct, when
 * a library that carries the runtime is loaded on another thread:
 * processor.c, "The main thread").  No thread is created there: parc_start,
 * called by the first construct (or the first parc_P that must block),
 * creates the workers.
 */
#define _GNU_SOURCE /* pthread_getname_np */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

parc_runtime parc_rt;

/* exit() while activities on other processors may still be writing stdout or
 * stderr.  glibc's exit flushes and unbuffers the streams after the atexit
 * handlers without taking their locks (_IO_cleanup), so a printf in progress
 * on another processor tears lines, writes buffered text twice, or loses it.
 * exit_end, the program's last destructor, runs just ahead of that flush and
 * takes the locks on the exiting thread: a call in progress completes first,
 * and later ones wait until the process is gone.  The wait for a lock is
 * bounded (a killed activity may hold one for ever, after an explicit
 * flockfile): after a second the exit goes on without it.  Not earlier, in
 * an atexit handler run before the destructors (as it was): a destructor
 * whose construct's activities printed then waited for ever on the held
 * stdout, on the other processors, and its epar for them (4 runs in 5 of
 * `parfor 8 { printf }` in a destructor at P = 4 hung). */
static void hold_stream(FILE *f) {
  struct timespec nap = {0, 50 * 1000};
  for (int i = 0; i < 20000; i++) {
    if (ftrylockfile(f) == 0)
      return;
    nanosleep(&nap, NULL);
  }
}

static void exit_hold_stdio(void) {
  if (!__atomic_load_n(&parc_rt.started, __ATOMIC_ACQUIRE))
    return; /* no other processor has run anything */
  hold_stream(stdout);
  hold_stream(stderr);
}

/* Several activities calling exit() at once.  glibc runs each atexit handler
 * once, in whichever exiting thread pops it, and a thread that finds the list
 * empty goes straight on to flush stdio and _exit: while the first exit() is
 * still in a handler (writing a results file, say), a second one ended the
 * process, cutting the handler short and losing its output, and flushed
 * stdout alongside the first.  As in C, where exit() ends the program once,
 * only the first exit() goes on: every later one waits here for the process
 * to end.  exit() calls the calling thread's thread_local destructors first,
 * so this gate is one, registered on the main thread and on each processor's
 * thread (which never end otherwise).  Without __cxa_thread_atexit_impl (not
 * glibc) there is no gate. */
static int exit_begun; /* atomic */

static void exit_gate(void *arg) {
  (void)arg;
  parc_proc *p = parc_tls_proc;
  if (p && p->quit) /* a worker leaving during the exit (parc_procs_join_at_exit) */
    return;
  if (!__atomic_exchange_n(&exit_begun, 1, __ATOMIC_ACQ_REL))
    return;
  for (;;)
    pause();
}

extern int __cxa_thread_atexit_impl(void (*)(void *), void *, void *) __attribute__((weak));
/* LeakSanitizer's interface (sanitizer/lsan_interface.h), present when the
 * program is linked with it (-fsanitize=address or =leak). */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

/* glibc keeps the gate in a 32-byte record that only the thread's own
 * thread-local storage points to.  A child that fork() made has none of
 * the processors' threads, so the leak checker run at its exit found each
 * processor's record unreachable: every forked child of a program built
 * with -fsanitize=address ended with "detected memory leaks" and status 1
 * at P >= 2 (tester).  The records live as long as the process and are
 * not leaks: LeakSanitizer ignores what is allocated between
 * __lsan_disable and __lsan_enable.  (Valgrind, which has no such call,
 * reports them in such a child: runtime/valgrind.supp.) */
__attribute__((noinline)) /* runtime/valgrind.supp names it */
void parc_exit_gate_thread(void) {
  if (!__cxa_thread_atexit_impl)
    return;
  if (__lsan_disable)
    __lsan_disable();
  __cxa_thread_atexit_impl(exit_gate, NULL, &exit_begun);
  if (__lsan_enable)
    __lsan_enable();
}

void parc_init(void) {
  if (parc_rt.inited)
    return;
  parc_rt.inited = 1;
  parc_poll_hook_install();
  parc_env_parse();
  parc_procs_init();
  parc_sched_init();
  parc_stats_init();
}

/* A program can hold several copies of the runtime: each shared library
 * that `parcc -shared` links carries one (libparc-pic.a), and so may the
 * program itself.  The dynamic linker binds every call of the runtime's
 * functions to one copy, the first in its lookup order (the program's, or
 * the first library's), so only that one may start.  The others' constructors
 * ran too: each parsed the environment and, at exit, printed a second,
 * empty PARC_STATS report and rewrote the PARC_TRACE file that the first
 * had written (two libraries built by parcc, one program).  A copy that
 * dlsym does not find (a library dlopen'ed with RTLD_LOCAL, a static
 * program) or finds itself starts as before. */
static int interposed(void);

__attribute__((constructor(101))) static void parc_constructor(void) {
  if (!interposed())
    parc_init();
}

/* The program's last destructor (priority 101: after every other one of the
 * executable, all of which run after the atexit handlers).  A destructor
 * also runs when a shared library is unloaded (dlclose): only an exit, which
 * exit_gate has seen begin, holds the streams. */
__attribute__((destructor(101))) static void exit_end(void) {
  if (__cxa_thread_atexit_impl && !__atomic_load_n(&exit_begun, __ATOMIC_ACQUIRE))
    return;
  parc_procs_join_at_exit();
  exit_hold_stdio();
}

void parc_start(void) {
  parc_init();
  parc_spin_lock(&parc_rt.start_lock);
  if (!__atomic_load_n(&parc_rt.started, __ATOMIC_RELAXED)) {
    int saved_errno = errno; /* the first construct's parent's: a failed pin is silent */
    parc_rt.fpctl_base = parc_fpctl_get();
    parc_procs_start();
    errno = saved_errno;
    /* release: pairs with the acquire in parc_ensure_started. */
    __atomic_store_n(&parc_rt.started, 1, __ATOMIC_RELEASE);
  }
  parc_spin_unlock(&parc_rt.start_lock);
}

/* Only the first fatal error is reported: several processors can meet the
 * same condition at once (out of memory for activity stacks), and one
 * message is what the user needs.  A later caller waits for the first to
 * end the process; should that take more than a second (its flush of a
 * stdout that nobody reads, say), it ends the process itself, silently. */
static void fatal_enter(int status) {
  static int entered;
  if (!__atomic_exchange_n(&entered, 1, __ATOMIC_ACQ_REL))
    return;
  struct timespec second = {1, 0};
  nanosleep(&second, NULL);
  _Exit(status);
}

/* 1 if stdout and stderr are one file (`2>&1`) and what the program wrote
 * to stdout ends in an unterminated line: a `parc: error:` message would
 * then go on that line, where a grep for `^parc: error:` misses it.  The
 * last character is the last one in stdout's buffer when it holds any
 * (glibc's FILE fields: buffer), else the file's last one (a regular file,
 * read again through /proc).  A pipe or terminal whose buffer the program
 * flushed is not known: 0.  Async-signal-safe without `buffer`. */
int parc_out_unterminated(int buffer) {
  struct stat o, e;
  if (fstat(1, &o) != 0 || fstat(2, &e) != 0 || o.st_dev != e.st_dev || o.st_ino != e.st_ino)
    return 0;
#ifdef __GLIBC__
  if (buffer && stdout->_IO_write_ptr > stdout->_IO_write_base)
    return stdout->_IO_write_ptr[-1] != '\n';
#else
  (void)buffer;
#endif
  if (!S_ISREG(o.st_mode))
    return 0;
  off_t end = lseek(1, 0, SEEK_CUR);
  if (end <= 0)
    return 0;
  int fd = open("/proc/self/fd/1", O_RDONLY | O_CLOEXEC); /* stdout may be write-only */
  if (fd < 0)
    return 0;
  char c = '\n';
  if (pread(fd, &c, 1, end - 1) != 1)
    c = '\n';
  close(fd);
  return c != '\n';
}

/* Flush stdout, and start stderr on a new line if need be (above). */
void parc_error_flush(void) {
  int nl = parc_out_unterminated(1);
  fflush(stdout);
  if (nl)
    fputc('\n', stderr);
}

void parc_fatal(int status, const char *fmt, ...) {
  fatal_enter(status);
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  /* What the program printed before the error is kept, and comes first
   * when both streams go to one file or pipe (it came after the error). */
  parc_error_flush();
  fprintf(stderr, "parc: error: %s\n", buf);
  fflush(stderr);
  if (parc_rt.trace)
    parc_trace_flush(); /* the run up to the error */
  _Exit(status);
}

const char *parc_kind_word(unsigned k) {
  switch (k & PARC_KIND_MASK) {
  case PARC_KIND_PARBLOCK: return "parblock";
  case PARC_KIND_LPARFOR: return "lparfor";
  case PARC_KIND_MAPPED_LPARFOR: return "mapped lparfor";
  default: return "parfor";
  }
}

/* "parc: error: FILE:LINE:COL: MESSAGE (in FUNC)" */
void parc_fatal_site(const parc_site *site, const char *fmt, ...) {
  fatal_enter(1);
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  parc_error_flush(); /* as parc_fatal */
  if (site)
    fprintf(stderr, "parc: error: %s:%u:%u: %s (in %s)\n", site->file ? site->file : "?",
            site->line, site->col, buf, site->func ? site->func : "?");
  else
    fprintf(stderr, "parc: error: %s\n", buf);
  fflush(stderr);
  if (parc_rt.trace)
    parc_trace_flush();
  _Exit(1);
}

void parc_assert_fail(const char *cond, const char *file, int line, const char *func) {
  parc_proc *p = parc_self();
  fprintf(stderr, "parc: internal error on processor %d: %s:%d: %s: assertion '%s' failed\n",
          p ? p->id : -1, file, line, func, cond);
  fflush(stderr);
  abort();
}

/* A construct (site), or a parc_P that has to wait (site NULL; wsite its
 * call, NULL when parcc passed none), on a thread that the program created
 * itself: the runtime has no processor there to park it on. */
void parc_fatal_foreign(const parc_site *site, const parc_wait_site *wsite) {
  /* What ran there, and where: the construct, or the parc_P call as written
   * at its own place ("parc_P" and no place without one).  parcc cuts the
   * argument's text at 60 characters (parc_abi.h). */
  char what[96];
  parc_site at = PARC_SITE_INIT(NULL, NULL, 0, 0, 0);
  if (site) {
    snprintf(what, sizeof what, "%s", parc_kind_word(site->kind));
  } else if (wsite) {
    snprintf(what, sizeof what, "parc_P(%s)", wsite->arg);
    at = (parc_site)PARC_SITE_INIT(wsite->file, wsite->func, wsite->line, wsite->col, 0);
    site = &at;
  } else {
    snprintf(what, sizeof what, "parc_P");
  }
  /* A processor of another copy of the runtime: each library that
   * `parcc -shared` built and the program loaded with dlopen(RTLD_LOCAL),
   * or that hides the runtime's symbols (a version script, which keeps
   * only the library's interface global, or --exclude-libs), starts its
   * own, which the others cannot see. */
  char name[16];
  if (pthread_getname_np(pthread_self(), name, sizeof name) == 0 &&
      strncmp(name, PARC_THREAD_NAME, strlen(PARC_THREAD_NAME)) == 0)
    parc_fatal_site(site, "%s ran in an activity of another copy of the runtime: a library "
                          "built by parcc -shared runs its own when the program loads it "
                          "with dlopen(RTLD_LOCAL) or when it hides the runtime's parc_* "
                          "symbols (a version script's 'local: *', -Wl,--exclude-libs), "
                          "and constructs of one cannot run in activities of another; "
                          "load such libraries with RTLD_GLOBAL, and keep parc_* global "
                          "in their version scripts",
                    what);
  if (site != &at && site)
    parc_fatal_site(site, "%s ran on a thread that libparc did not create (the program's own "
                          "pthread_create or thrd_create, or an OpenMP parallel region's): "
                          "constructs run only in main and in "
                          "the activities of its constructs", what);
  parc_fatal_site(site, "%s had to wait on a thread that libparc did not create (the program's "
                        "own pthread_create or thrd_create, or an OpenMP parallel region's): "
                        "only main and the activities of "
                        "its constructs may wait on a semaphore; such a thread may call parc_V",
                  what);
}

void parc_error_step0(const parc_site *site) {
  parc_fatal_site(site, "%s step is zero", site ? parc_kind_word(site->kind) : "parfor");
}

void parc_error_count(const parc_site *site) {
  /* Whole 64-bit ranges are written by mistake, as a rule: an unsigned
   * bound computed below zero wraps to the type's maximum (an OpenMP
   * port's `0; n - 1; 1;` with a size_t n == 0). */
  parc_fatal_site(site, "%s has too many iterations (the count overflows 64 bits; is an "
                        "unsigned bound such as n - 1 with n == 0 wrapping around?)",
                  site ? parc_kind_word(site->kind) : "parfor");
}

int parc_nprocs(void) {
  parc_init();
  return parc_rt.P;
}

/* This copy's parc_nprocs, whichever copy the dynamic linker binds. */
extern int parc_nprocs_here(void) __attribute__((alias("parc_nprocs"), visibility("hidden")));

static int interposed(void) {
  int (*first)(void);
  *(void **)&first = dlsym(RTLD_DEFAULT, "parc_nprocs"); /* POSIX's way to a function */
  return first && first != parc_nprocs_here;
}

int parc_procid(void) {
  parc_proc *p = parc_self();
  return p ? p->id : 0;
}
