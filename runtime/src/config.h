/* config.h - libparc's tunables: every compile-time knob in one place.
 *
 * Each value but the frame sizes can be overridden with -D at build time;
 * the _Static_asserts below keep overrides inside the range the code was
 * written for.
 */
#ifndef PARC_CONFIG_H
#define PARC_CONFIG_H

/* Upper limit for PARC_NPROCS (contract: rejected above this). */
#ifndef PARC_MAX_PROCS
#define PARC_MAX_PROCS 1024
#endif

/* Default envelope stack size (PARC_STACK_SIZE overrides at run time), and
 * the range accepted for it. */
#ifndef PARC_DEFAULT_STACK
#define PARC_DEFAULT_STACK (1024u * 1024u)
#endif
#ifndef PARC_MIN_STACK
#define PARC_MIN_STACK (16u * 1024u)
#endif
#ifndef PARC_MAX_STACK
#define PARC_MAX_STACK (1024u * 1024u * 1024u)
#endif

/* Stack of processor 0's get_work loop (runtime code only, never user code). */
#ifndef PARC_SCHED_STACK
#define PARC_SCHED_STACK (256u * 1024u)
#endif

/* Stack of processors 1..P-1's threads.  They run only what processor 0
 * runs on its PARC_SCHED_STACK (get_work, idle, a fatal error's report),
 * and the handlers of signals that the program installed without
 * SA_ONSTACK; activities run on envelopes.  The default pthread stack is
 * `ulimit -s` (8 MiB), all of it address space, which `ulimit -v` counts.
 * Twice PARC_SCHED_STACK, four times that under ASan and TSan (their
 * frames and reports are larger); glibc's minimum for the program's static
 * TLS comes on top (processor.c, worker_stack). */
#ifndef PARC_WORKER_STACK
#define PARC_WORKER_STACK (512u * 1024u)
#endif

/* The guard region below each envelope stack.  One page is not enough:
 * code that parcc did not compile has no stack-clash probes, and a frame
 * larger than the guard steps over it, into unmapped memory (a bare
 * SIGSEGV) or into the envelope below it in its batch (its context and
 * stack top, silently).  glibc's printf of a double with a precision of a
 * few thousand did so by 8 KiB.  64 KiB is glibc's own alloca cutoff
 * (__MAX_ALLOCA_CUTOFF).  It costs address space only: the region is a
 * guard marker (Linux 6.13) or one PROT_NONE mapping, never memory. */
#ifndef PARC_ENV_GUARD
#define PARC_ENV_GUARD (64u * 1024u)
#endif

/* Alternate signal stack of each processor's thread (main's too, unless the
 * program gave it one), with a guard page below: the overflow reports run on
 * it, and so do the program's handlers installed with SA_ONSTACK.  As large
 * as PARC_SCHED_STACK, so that a handler has the same room wherever the
 * signal lands (address space only, until a handler touches it). */
#ifndef PARC_ALTSTACK
#define PARC_ALTSTACK (256u * 1024u)
#endif

/* How long an idle processor spins (looking for work, with `pause`) before
 * it goes to sleep, in nanoseconds.  Long enough to bridge the gap between a
 * parent's spawn and its next one; short enough not to burn a shared core. */
#ifndef PARC_SPIN_NS
#define PARC_SPIN_NS 60000
#endif
/* The longest an idle processor's spin grows to, in nanoseconds, while
 * its sleeps keep ending sooner than this (processor.c, spin_adapt). */
#ifndef PARC_SPIN_MAX_NS
#define PARC_SPIN_MAX_NS 1000000
#endif

/* The longest main's thread waits, when it publishes a new signal mask,
 * for the idle processors to take it (processor.c, "Signal masks"), in
 * nanoseconds.  They take it within microseconds; only a processor that
 * still runs an activity of another tree (a construct in a signal handler
 * that interrupted main's own) may take longer, and it takes the mask
 * before its next work anyway. */
#ifndef PARC_SIGMASK_WAIT_NS
#define PARC_SIGMASK_WAIT_NS 1000000000
#endif

/* How long parc_P spins, waiting for a unit, before it parks its context
 * (semaphore.c), in nanoseconds.  Long enough for another processor to
 * finish a short critical section and its parc_V; short enough that a P
 * which must really wait loses little. */
#ifndef PARC_SEM_SPIN_NS
#define PARC_SEM_SPIN_NS 4000
#endif

/* A parc_P spinning for a lock that its holder gives back and takes again
 * (semaphore.c, processor.c's watch_holder) watches the holder this long,
 * in nanoseconds; a holder that takes the lock back less often than once
 * per PARC_SEM_ALT_NS is slow enough to alternate with: the spinner then
 * takes this unit and its next PARC_SEM_ALT_TAKES at once. */
#ifndef PARC_SEM_WATCH_NS
#define PARC_SEM_WATCH_NS 1000
#endif
#ifndef PARC_SEM_ALT_NS
#define PARC_SEM_ALT_NS 150
#endif
#ifndef PARC_SEM_ALT_TAKES
#define PARC_SEM_ALT_TAKES 32
#endif

/* How many contexts may spin in parc_P for one semaphore at a time
 * (semaphore.c, spin_take); a parc_P that finds that many parks at once.
 * A waiter that parc_V woke and that lost the unit to a newcomer spins
 * whatever the count.  Counted for locks only.  One: at P = 16 a lock
 * hammered by 1,000 activities (W9) took 1.12 s with every processor
 * spinning, 0.56 s with one (performance.md, "A larger machine"). */
#ifndef PARC_SEM_SPINNERS
#define PARC_SEM_SPINNERS 1
#endif

/* How many times one context may spin in parc_P between two parks: then
 * its next parc_P that finds no unit parks at once, so that the activities
 * queued behind it on its processor run (semaphore.c).  A count, not a
 * time: a spin that yields its CPU (more processors than CPUs) may be off
 * it for a whole time slice of another thread. */
#ifndef PARC_SEM_SPINS
#define PARC_SEM_SPINS 64
#endif

/* With more processors than CPUs, a processor that has created this many
 * envelopes and has no free one in its pool yields its CPU once after each
 * park before it starts new work (get_work, processor.c). */
#ifndef PARC_ENV_YIELD_FLOOR
#define PARC_ENV_YIELD_FLOOR 64
#endif

/* A waiter woken by parc_V that finds its unit taken by a parc_P arriving
 * meanwhile goes back to the head of the queue; after this many times the
 * next parc_V hands it the unit directly (semaphore.c). */
#ifndef PARC_SEM_HUNGRY
#define PARC_SEM_HUNGRY 2
#endif

/* A running activity gives way to a context pinned to its processor that
 * is ready (processor.c, give_way) only once it has run this long, in
 * nanoseconds, since it first saw one ready: long enough that two pinned
 * chunks taking a lock in every iteration do not switch at every parc_P and
 * parc_V, short enough that the pinned context waits no longer than a
 * scheduling quantum. */
#ifndef PARC_GIVE_WAY_NS
#define PARC_GIVE_WAY_NS 100000
#endif

/* Lazy publication (processor.c, help_request): a spinning idle processor
 * renews its help request every PARC_HELP_SPINS rounds (a power of two), a
 * sleeping one every PARC_HELP_SLEEP_NS; a sleeper that finds its request
 * still standing (nobody polled) doubles its nap, up to
 * PARC_HELP_SLEEP_MAX_NS. */
#ifndef PARC_HELP_SPINS
#define PARC_HELP_SPINS 1024
#endif
#ifndef PARC_HELP_SLEEP_NS
#define PARC_HELP_SLEEP_NS 1000000
#endif
#ifndef PARC_HELP_SLEEP_MAX_NS
#define PARC_HELP_SLEEP_MAX_NS 64000000
#endif

/* Every activity is blocked but threads of the program's own still run,
 * and may yet call parc_V: a sleeping processor looks this often, in
 * nanoseconds, whether they have ended, when the deadlock is reported
 * (processor.c, "Deadlock"). */
#ifndef PARC_FOREIGN_POLL_NS
#define PARC_FOREIGN_POLL_NS 10000000
#endif
/* After this long waiting for the program's own threads with every
 * activity blocked, the runtime says so on stderr (once; processor.c,
 * foreign_wait). */
#ifndef PARC_FOREIGN_WARN_NS
#define PARC_FOREIGN_WARN_NS 10000000000ull
#endif

/* Spin iterations of a contended spinlock before it yields the CPU. */
#ifndef PARC_LOCK_SPINS
#define PARC_LOCK_SPINS 128
#endif

/* Frames of stackless sync (frame.c): size classes PARC_FRAME_MIN << c
 * bytes (header included) for c < PARC_FRAME_CLASSES, carved from blocks
 * of PARC_FRAME_BLOCK bytes; larger frames are malloc'd one by one.  These
 * and PARC_RESUME_TAKE are fixed: no -D overrides them. */
#define PARC_FRAME_MIN 64
#define PARC_FRAME_CLASSES 8
#define PARC_FRAME_BIG 0xffffffffu
#define PARC_FRAME_BLOCK 65536
/* A processor keeps at most PARC_FRAME_KEEP free frames of a class, in
 * chains of PARC_FRAME_MOVE, and gives a chain beyond to the runtime's
 * shared pool, where a processor short of frames takes one before it
 * carves a block:
 * frames start on one processor and end on another, and unbounded lists
 * grew without end on the processors where they ended (frame.c). */
#define PARC_FRAME_KEEP 256
#define PARC_FRAME_MOVE 128
/* An envelope in resume mode takes up to this many records from its
 * processor's resume list with one lock (frame.c); the rest stay there
 * for idle processors to steal. */
#define PARC_RESUME_TAKE 32

/* Turns (processor.c, "Turns"): a processor that keeps finding ready or
 * resumed activities while other work of its own waits looks at the clock
 * every PARC_TURN-th time (a power of two), and once PARC_TURN_NS have
 * passed since the first look serves the waiting work out of order: its
 * new work and its oldest resumed activities, in turn. */
#ifndef PARC_TURN
#define PARC_TURN 256
#endif
#ifndef PARC_TURN_NS
#define PARC_TURN_NS 1000000
#endif

/* A barrier keeps its waiters in one queue per processor for processors
 * 0 .. PARC_BAR_QUEUES-1 (and one for the others), so that its release
 * moves each queue to its processor's ready list without walking it. */
#ifndef PARC_BAR_QUEUES
#define PARC_BAR_QUEUES 4
#endif

/* When a batch is taken from a descriptor whose barrier already has
 * arrivals (MAXI 5.4), create up to this many envelopes in one mmap. */
#ifndef PARC_ENV_BATCH_MAX
#define PARC_ENV_BATCH_MAX 64
#endif

/* Envelope pools: a processor keeps at most PARC_POOL_LOCAL free envelopes
 * in its own array; beyond that it moves PARC_POOL_MOVE of them to its
 * overflow, from which it, and then any processor with an empty pool, takes
 * up to PARC_POOL_MOVE before creating any.  Contexts end on the processor
 * that last resumed them, so without this envelopes pile up on some
 * processors while others keep creating.  What the others cannot see is at
 * most PARC_POOL_LOCAL + PARC_POOL_MOVE per processor: 128 and 64 made 100
 * rounds of parfor 1000 { sync; } create 1,100 envelopes at P = 2 and 1,510
 * at P = 8; 32 and 32 make it 1,030 and 1,150 (design.md, "Runtime details"). */
#ifndef PARC_POOL_LOCAL
#define PARC_POOL_LOCAL 32
#endif
#ifndef PARC_POOL_MOVE
#define PARC_POOL_MOVE 32
#endif

/* Maximum number of kills (pbreak/preturn targets) in flight at once whose
 * ranges are posted; more fall back to per-descriptor flags only, which is
 * still exact (see kill.c). */
#ifndef PARC_MAX_RANGE_KILLS
#define PARC_MAX_RANGE_KILLS 64
#endif

/* Free lists that each processor keeps of two records it allocates and
 * frees often, bounded because records end on other processors than the
 * ones that made them: a processor keeps at most PARC_REP_KEEP records of
 * a share of a construct's activities (processor.c, rep_free) and at most
 * PARC_KIDX_KEEP nodes of the kill delivery index (kill.c, node_free);
 * the rest go back to malloc. */
#ifndef PARC_REP_KEEP
#define PARC_REP_KEEP 256
#endif
#ifndef PARC_KIDX_KEEP
#define PARC_KIDX_KEEP 64
#endif

/* Sizes of the per-processor mapped-lparfor inbox (grows on demand). */
#ifndef PARC_INBOX_INIT
#define PARC_INBOX_INIT 16
#endif

/* A processor takes the newest chunk of its mapped-lparfor inbox first
 * (depth first), and the oldest one at every PARC_INBOX_FAIR-th take, so
 * that no chunk waits behind newer ones forever (processor.c, take_mapped). */
#ifndef PARC_INBOX_FAIR
#define PARC_INBOX_FAIR 256
#endif

/* A processor takes its own reps and descriptors before the chunks of its
 * mapped-lparfor inbox, but while chunks wait, a chunk at every
 * PARC_INBOX_TURN-th take (processor.c, take_own). */
#ifndef PARC_INBOX_TURN
#define PARC_INBOX_TURN 16
#endif

/* PARC_SCHED=random picks the next ready context among the oldest
 * PARC_RANDOM_WINDOW ones, and the next own rep or descriptor among the
 * newest PARC_RANDOM_WINDOW (bounded walks: lists can be long). */
#ifndef PARC_RANDOM_WINDOW
#define PARC_RANDOM_WINDOW 8
#endif

_Static_assert(PARC_RANDOM_WINDOW >= 1, "PARC_RANDOM_WINDOW must be positive");
_Static_assert(PARC_MAX_PROCS >= 1 && PARC_MAX_PROCS <= 65536, "PARC_MAX_PROCS out of range");
_Static_assert(PARC_MIN_STACK >= 8192, "envelope stacks below 8 KiB cannot run C code");
_Static_assert(PARC_DEFAULT_STACK >= PARC_MIN_STACK && PARC_DEFAULT_STACK <= PARC_MAX_STACK,
               "PARC_DEFAULT_STACK out of range");
_Static_assert(PARC_SCHED_STACK >= 64u * 1024u, "the scheduler needs a real stack");
_Static_assert(PARC_WORKER_STACK >= PARC_SCHED_STACK, "workers run what the scheduler stack runs");
_Static_assert(PARC_ALTSTACK >= 16384, "signal handlers need at least SIGSTKSZ");
_Static_assert(PARC_HELP_SPINS > 0 && (PARC_HELP_SPINS & (PARC_HELP_SPINS - 1)) == 0,
               "PARC_HELP_SPINS must be a power of two");
_Static_assert(PARC_HELP_SLEEP_NS > 0 && PARC_HELP_SLEEP_NS < 1000000000, "PARC_HELP_SLEEP_NS out of range");
_Static_assert(PARC_HELP_SLEEP_MAX_NS >= PARC_HELP_SLEEP_NS && PARC_HELP_SLEEP_MAX_NS < 1000000000,
               "PARC_HELP_SLEEP_MAX_NS out of range");
_Static_assert(PARC_SPIN_NS >= 0 && PARC_SPIN_NS <= 10000000, "PARC_SPIN_NS out of range");
_Static_assert(PARC_SPIN_MAX_NS >= PARC_SPIN_NS && PARC_SPIN_MAX_NS <= 10000000,
               "PARC_SPIN_MAX_NS out of range");
_Static_assert(PARC_SIGMASK_WAIT_NS >= 0 && PARC_SIGMASK_WAIT_NS <= 10000000000,
               "PARC_SIGMASK_WAIT_NS out of range");
_Static_assert(PARC_FOREIGN_POLL_NS > 0 && PARC_FOREIGN_POLL_NS < 1000000000,
               "PARC_FOREIGN_POLL_NS out of range");
_Static_assert(PARC_SEM_SPIN_NS >= 0 && PARC_SEM_SPIN_NS <= 10000000, "PARC_SEM_SPIN_NS out of range");
_Static_assert(PARC_SEM_SPINS >= 1, "PARC_SEM_SPINS must be at least 1");
_Static_assert(PARC_SEM_WATCH_NS >= 0 && PARC_SEM_WATCH_NS <= 1000000, "PARC_SEM_WATCH_NS out of range");
_Static_assert(PARC_SEM_ALT_NS >= 1, "PARC_SEM_ALT_NS must be positive");
_Static_assert(PARC_GIVE_WAY_NS >= 0 && PARC_GIVE_WAY_NS <= 100000000, "PARC_GIVE_WAY_NS out of range");
_Static_assert(PARC_SEM_HUNGRY >= 1, "PARC_SEM_HUNGRY must be at least 1");
_Static_assert(PARC_LOCK_SPINS >= 1, "PARC_LOCK_SPINS must be positive");
_Static_assert(PARC_ENV_BATCH_MAX >= 1 && PARC_ENV_BATCH_MAX <= 4096, "PARC_ENV_BATCH_MAX out of range");
_Static_assert(PARC_MAX_RANGE_KILLS >= 1, "PARC_MAX_RANGE_KILLS must be positive");
_Static_assert(PARC_POOL_MOVE >= 1 && PARC_POOL_MOVE <= PARC_POOL_LOCAL, "PARC_POOL_MOVE out of range");
_Static_assert(PARC_POOL_LOCAL <= 4096, "PARC_POOL_LOCAL out of range (an array in each processor)");
_Static_assert(PARC_REP_KEEP >= 0 && PARC_KIDX_KEEP >= 0, "PARC_REP_KEEP and PARC_KIDX_KEEP cannot be negative");
_Static_assert(PARC_INBOX_INIT >= 1, "PARC_INBOX_INIT must be positive");
_Static_assert(PARC_TURN > 0 && (PARC_TURN & (PARC_TURN - 1)) == 0,
               "PARC_TURN must be a power of two");
_Static_assert(PARC_TURN_NS >= 0 && PARC_TURN_NS <= 1000000000, "PARC_TURN_NS out of range");

#endif /* PARC_CONFIG_H */
