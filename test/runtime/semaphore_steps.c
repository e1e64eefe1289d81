// semaphore.c's protocol, step by step: the waiters are coroutines that
// this test switches between at the points where the runtime may switch
// them (parc_park, and parc_sem_spin: the wait of a parc_P that found no
// unit, during which other processors go on), so that it can replay
// interleavings that real schedules reach only rarely (P > 1, a processor
// preempted or slow in that wait).  It compiles semaphore.c itself, with
// the scheduler's entries stubbed, at P = 1 (rt.single: no locks).
//
// lost: waiter 0 is overtaken twice by newcomers, waiter 1 once, their
// waits overlap (each still counted among the woken while it waits, so a
// unit given meanwhile wakes nobody), and they go back to the queue head
// in the order 1, 0 (0 hungry, behind 1); then four units are added: 1 is
// woken, hungry 0 is handed one, 2 and 3 are woken, and each must get its
// unit.  With one "woken" flag (e3803b8) a unit stayed free, with waiters
// parked and nobody on the way: a lost wake-up.
// kill: the same start, then waiter 1 is killed while queued, exposing
// hungry 0 at the head, and units are added: each survivor gets one.
// burst: 4 parc_V on 4 parked waiters ready all 4 at once.
// lock: a unit that a newcomer took from a woken waiter is given back;
// the woken waiter is still on its way, so nobody else is woken.
// watch (P > 1): what a spinning parc_P reads of the semaphore besides its
// value: the units taken, and whether the last parc_V came from the
// activity that took the last unit (a lock's holder, which it leaves the
// lock to when it takes it back at once; processor.c, watch_holder).  A
// unit given back by another context, by a context that already gave its
// unit back, or by a thread outside the runtime is not a holder's.
// batch: a context runs many activities one after the other (an envelope's
// batch), and inline the activities of a construct that one of them
// starts: a unit that one activity takes and another gives back, on the
// same context, is a signal, not a holder's (before: holder=1 for the
// first three, and their waiters spun instead of parking).
// UNSUPPORTED: asan, tsan
// RUN: %cc-runtime -I%srcroot/runtime
// RUN: %run %t | %FileCheck %s
// CHECK: lost: value=0 queue=0 done=0,1,2,3,4,5,6,7
// CHECK: kill: value=0 queue=0 done=0,2,3,4,5,6,7 killed=1
// CHECK: burst: 4 ready after 4 parc_V
// CHECK: burst: value=0 queue=0 done=0,1,2,3
// CHECK: lock: 1 ready after 2 parc_V
// CHECK: lock: value=0 queue=0 done=0,1,2
// CHECK: watch: taken=1 holder=1
// CHECK: watch: taken=2 holder=0
// CHECK: watch: taken=2 holder=0
// CHECK: watch: taken=4 holder=1
// CHECK: watch: taken=4 holder=0
// CHECK: watch: taken=5 holder=0
// CHECK: batch: taken=1 holder=0
// CHECK: batch: taken=2 holder=0
// CHECK: batch: taken=3 holder=0
// CHECK: batch: taken=4 holder=1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "src/semaphore.c" /* the runtime's, through -I.../runtime */

/* ---- The scheduler's entries that semaphore.c calls ---- */

parc_runtime parc_rt;
__thread parc_proc *parc_tls_proc;
unsigned parc_kill_pending_;
void parc_poll_slow(void) {}
#if !defined(__x86_64__)
parc_proc *parc_self(void) { return parc_tls_proc; }
#endif

enum { NW = 8, STACK = 256 * 1024 };
enum st { IDLE, SPIN, PARKED, DONE, KILLED, ANY };
static const char *st_name[] = {"idle", "spin", "parked", "done", "killed"};

static struct waiter {
  parc_ctx ctx;
  ucontext_t uc;
  enum st st;
  int ready; /* readied by parc_V or a kill, not run yet */
  int victim;
} w[NW];
static ucontext_t main_uc;
static parc_proc proc;
static parc_sem_t sem;
static int running = -1;

static void fail(const char *what, int i) {
  printf("FAIL: %s (waiter %d: %s)\n", what, i, i >= 0 ? st_name[w[i].st] : "-");
  exit(1);
}

static void to_main(enum st st) {
  struct waiter *me = &w[running];
  me->st = st;
  swapcontext(&me->uc, &main_uc);
}

int parc_sem_spin(parc_proc *p, const int *value, const unsigned *watch, uint64_t *since) {
  (void)p, (void)watch, (void)since;
  to_main(SPIN);
  return *value > 0;
}
void parc_park(parc_proc *p, parc_spin *unlock) {
  (void)p, (void)unlock;
  to_main(PARKED);
}
void parc_ready(parc_ctx *c) {
  for (int i = 0; i < NW; i++)
    if (&w[i].ctx == c)
      w[i].ready = 1;
}
int parc_victim(parc_drt *d) { (void)d; return w[running].victim; }
_Noreturn void parc_unwind(parc_batch *b) {
  (void)b;
  to_main(KILLED);
  abort(); /* never resumed */
}
void parc_yield_to_pinned(void) {}
void parc_random_yield(void) {}
void parc_start(void) { parc_rt.started = 1; }
void parc_detach_chain(parc_proc *p, parc_ctx *c) { (void)p, (void)c; }
void parc_register_blocked(parc_proc *p, parc_ctx *c, int kind, void *obj, parc_spin *lock) {
  (void)p;
  c->wait_kind = kind;
  c->wait_obj = obj;
  c->wait_lock = lock;
  c->wake_killed = 0;
}
void parc_unregister_blocked(parc_ctx *c) { c->wait_kind = PARC_WAIT_NONE; }
void parc_spin_lock_slow(parc_spin *l) { (void)l; }
_Noreturn void parc_fatal_uninit_sem(const char *op, const void *sem, const parc_wait_site *site) {
  (void)op, (void)sem, (void)site;
  fail("a semaphore parc_sem_init did not set up", running);
  abort();
}
_Noreturn void parc_fatal_sem_overflow(const void *sem, const parc_wait_site *site) {
  (void)sem, (void)site;
  fail("a semaphore's value past INT_MAX", running);
  abort();
}
_Noreturn void parc_fatal_oom(const char *what) {
  (void)what;
  fail("out of memory", running);
  abort();
}
parc_proc *parc_main_proc(void) { return parc_tls_proc; }
void parc_sem_posted_wake(void) {}
_Noreturn void parc_fatal(int status, const char *fmt, ...) {
  (void)fmt;
  exit(status);
}
_Noreturn void parc_fatal_foreign(const parc_site *site, const parc_wait_site *wsite) {
  (void)site, (void)wsite;
  fail("parc_P outside the runtime", running);
  abort();
}

/* ---- Driving the waiters ---- */

static void body(int i) {
  parc_P(&sem);
  w[i].st = DONE;
  running = -1;
  setcontext(&main_uc);
}

/* Run waiter i until it parks, waits (spins) or returns; `want` is where
 * the scenario expects it to stop. */
static void run(int i, enum st want) {
  if (w[i].st == IDLE) {
    getcontext(&w[i].uc);
    w[i].uc.uc_stack.ss_sp = malloc(STACK);
    w[i].uc.uc_stack.ss_size = STACK;
    w[i].uc.uc_link = NULL;
    makecontext(&w[i].uc, (void (*)(void))body, 1, i);
  } else if (w[i].st == PARKED && !w[i].ready) {
    fail("resumed without a wake-up", i);
  } else if (w[i].st == DONE || w[i].st == KILLED) {
    fail("ran after its end", i);
  }
  w[i].ready = 0;
  running = i;
  proc.cur = &w[i].ctx;
  swapcontext(&main_uc, &w[i].uc);
  running = -1;
  if (want != ANY && w[i].st != want) {
    printf("FAIL: waiter %d expected to stop %s\n", i, st_name[want]);
    fail("stopped elsewhere", i);
  }
}

/* Run every readied waiter, lowest index first, each until it parks or
 * ends, until none is ready. */
static void drain(void) {
  for (int i = 0; i < NW; i++)
    if (w[i].ready) {
      do
        run(i, ANY);
      while (w[i].st == SPIN);
      i = -1;
    }
}

/* What a kill delivery does to a queued victim (kill.c, deliver). */
static void kill_queued(int i) {
  parc_ctx *c = sem_of(&sem)->head;
  while (c && c != &w[i].ctx)
    c = c->next;
  if (!c)
    fail("expected to be queued", i);
  parc_sem_cancel_locked(sem_of(&sem), &w[i].ctx);
  w[i].ctx.wake_killed = 1;
  w[i].victim = 1;
  parc_unregister_blocked(&w[i].ctx);
  parc_ready(&w[i].ctx);
}

static void reset(void) {
  for (int i = 0; i < NW; i++) {
    free(w[i].uc.uc_stack.ss_sp);
    memset(&w[i], 0, sizeof w[i]);
  }
  parc_sem_init(&sem, 0);
}

static int nready(void) {
  int n = 0;
  for (int i = 0; i < NW; i++)
    n += w[i].ready;
  return n;
}

static void report(const char *name) {
  parc_sem_rt *r = sem_of(&sem);
  int queued = 0;
  for (parc_ctx *c = r->head; c; c = c->next)
    queued++;
  printf("%s: value=%d queue=%d done=", name, units(r), queued);
  const char *sep = "";
  for (int i = 0; i < NW; i++)
    if (w[i].st == DONE) {
      printf("%s%d", sep, i);
      sep = ",";
    }
  for (int i = 0; i < NW; i++)
    if (w[i].st == KILLED)
      printf(" killed=%d", i);
  printf("\n");
}

static void watch(const char *name) {
  unsigned v = sem_of(&sem)->watch;
  printf("%s: taken=%u holder=%u\n", name, v >> 1, v & 1);
}

/* Waiters 0..3 park in that order.  0 is woken and overtaken (by
 * newcomer 4) and goes back to the head of the queue; then 0 and 1 are
 * woken by two units, both units go to newcomers 5 and 6, and 0 (now
 * overtaken twice) and 1 wait (spin), still counted among the woken: a
 * unit given meanwhile wakes nobody, and newcomer 7 takes it.  Then 0 and
 * 1 go back to the head of the queue, 1 in front of 0: queue 1, 0
 * (hungry), 2, 3. */
static void overtake(void) {
  for (int i = 0; i < 4; i++) {
    run(i, SPIN);
    run(i, PARKED);
  }
  parc_V(&sem); /* wakes 0 */
  run(4, DONE);
  run(0, SPIN); /* overtaken once */
  run(0, PARKED);
  parc_V(&sem); /* wakes 0 */
  parc_V(&sem); /* wakes 1 */
  if (nready() != 2)
    fail("two units should wake two waiters", 1);
  run(5, DONE);
  run(6, DONE);
  run(0, SPIN); /* overtaken twice: waits */
  run(1, SPIN); /* overtaken: waits */
  parc_V(&sem); /* 0 and 1 are on their way */
  if (nready() != 0)
    fail("woken while two woken waiters spin for one unit", 2);
  run(7, DONE);
  run(0, PARKED);
  run(1, PARKED);
}

int main(void) {
  parc_rt.single = 1;
  parc_rt.P = 1;
  parc_tls_proc = &proc;

  reset();
  overtake();
  for (int k = 0; k < 4; k++)
    parc_V(&sem);
  run(2, DONE); /* woken by the third unit */
  drain();
  report("lost");

  reset();
  overtake();
  kill_queued(1);
  run(1, KILLED);
  for (int k = 0; k < 3; k++)
    parc_V(&sem);
  drain();
  report("kill");

  reset();
  for (int i = 0; i < 4; i++) {
    run(i, SPIN);
    run(i, PARKED);
  }
  for (int k = 0; k < 4; k++)
    parc_V(&sem);
  printf("burst: %d ready after 4 parc_V\n", nready());
  drain();
  report("burst");

  reset();
  for (int i = 0; i < 2; i++) {
    run(i, SPIN);
    run(i, PARKED);
  }
  parc_V(&sem); /* wakes 0 */
  run(2, DONE);
  parc_V(&sem); /* 0 is still on its way */
  printf("lock: %d ready after 2 parc_V\n", nready());
  drain();
  if (w[1].st != DONE)
    parc_V(&sem);
  drain();
  report("lock");

  /* watch: at P > 1 (locks taken), from the driver's own stack. */
  reset();
  parc_rt.single = 0;
  parc_rt.P = 2;
  parc_sem_init(&sem, 1);
  proc.cur = &w[0].ctx;
  parc_P(&sem);
  parc_V(&sem); /* by the context that took it */
  watch("watch");
  proc.cur = &w[1].ctx;
  parc_P(&sem);
  proc.cur = &w[0].ctx;
  parc_V(&sem); /* by another context: w[1] holds the lock */
  watch("watch");
  parc_V(&sem); /* again by w[0], whose own unit went back before */
  watch("watch");
  proc.cur = &w[1].ctx;
  parc_P(&sem);
  parc_P(&sem); /* two units, the second one remembered */
  parc_V(&sem);
  watch("watch");
  parc_tls_proc = NULL; /* a thread outside the runtime */
  parc_V(&sem);
  watch("watch");
  parc_P(&sem);
  parc_tls_proc = &proc;
  parc_V(&sem); /* w[1] took no unit since its last parc_V */
  watch("watch");

  /* batch: activities 0 and 1 of a batch on w[0], and activity 1 of a
   * construct that activity 1 runs inline (a batch inside it). */
  reset();
  parc_sem_init(&sem, 1);
  parc_batch outer, inner;
  memset(&outer, 0, sizeof outer);
  memset(&inner, 0, sizeof inner);
  inner.outer = &outer;
  inner.act.cur = 1;
  proc.cur = &w[0].ctx;
  w[0].ctx.cur_act = &outer;
  parc_P(&sem); /* activity 0 */
  outer.act.cur = 1;
  parc_V(&sem); /* activity 1 */
  watch("batch");
  parc_P(&sem);
  w[0].ctx.cur_act = &inner;
  parc_V(&sem); /* the inner construct's activity 1 */
  watch("batch");
  parc_P(&sem);
  w[0].ctx.cur_act = &outer;
  parc_V(&sem); /* taken inside, given back by the outer activity */
  watch("batch");
  parc_P(&sem);
  parc_V(&sem); /* activity 1 again: a lock's holder */
  watch("batch");
  return 0;
}
