/* trace.c - PARC_TRACE=FILE: a Chrome trace-event JSON file of the run, in
 * the format of docs/trace-format.md (version 1): one track per processor,
 * one slice per activity segment, envelope switches, blocks, resumes and
 * kills.
 *
 * Recording.  Every event of track K is recorded by processor K into its
 * own buffer: a list of fixed-size chunks (never moved, so the exit-time
 * writer can read them while other processors still append), appended
 * without locks or atomic read-modify-writes; each chunk's fill count is
 * published with a release store after the records are written, and the
 * writer reads it with an acquire load.  If memory runs out the events are
 * counted as dropped (otherData.dropped).
 *
 * Activity boundaries come from stepping (sched.c): each body-function call
 * runs exactly one activity, so its start and end are the activity's.  A
 * segment is open from its start until its context parks (parc_trace_park
 * closes the segments of every activity on the context's batch chain, and
 * the root's when the context is main's, at one timestamp) or the activity
 * ends; parc_trace_resume opens the next segments on the resuming
 * processor.  The root's segment state lives here (the root context stays
 * on processor 0).
 *
 * Writing.  The file is opened when the environment is read (a bad path
 * fails before main, exit 2) and written by an atexit handler, or by
 * parc_fatal before an error exit.  Segments still open on the exiting
 * context are closed then, marked `unfinished` (the root's is not).  The
 * file covers the run up to that moment: events that other processors
 * record later are left out, and a slice that ends later is cut there and
 * marked `unfinished`.
 * Nothing is written from signal handlers (a stack overflow report).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

enum { EV_SLICE = 1, EV_SWITCH, EV_BLOCK, EV_RESUME, EV_KILL, EV_KILL2 };
static const char *const reason_name[] = {"sync", "semaphore", "children", "yield"}; /* enum parc_trace_reason */

/* One record; a kill takes two (EV_KILL then EV_KILL2). */
typedef struct parc_tev {
  uint8_t type, flags, reason;
  int32_t env;                /* envelope (slice, block, resume); from (switch) */
  uint64_t ts;                /* ns since start-up */
  const parc_site *site;      /* NULL: the root */
  uint64_t exec, index;
  uint64_t dur;               /* slice: duration; switch: to; kill: range lo */
  uint64_t seg;               /* slice: segment; kill: range hi */
} parc_tev;

#define TCHUNK 8192
typedef struct parc_tchunk {
  struct parc_tchunk *next;   /* atomic: release by the owner, acquire by the writer */
  uint32_t n;                 /* atomic: filled records, same pairing */
  parc_tev ev[TCHUNK];
} parc_tchunk;

typedef struct parc_tbuf {
  parc_tchunk *head, *cur;
  uint64_t dropped;           /* atomic (relaxed): records lost to malloc failures */
  uint32_t backoff;           /* records to drop before malloc is tried again */
} parc_tbuf;

/* The file is opened (created or truncated) at start-up, so that a bad
 * path stops the program at once, and closed again: a program that
 * closes the descriptors it did not open (a daemon's loop over them) and
 * opens its own got the trace's descriptor, and the trace was written into
 * its file.  The exit-time writer opens it again, by its absolute path
 * (the program may chdir meanwhile), close-on-exec. */
static char *trace_abspath;
static const char *trace_path;
/* The process that opened the file: a child of fork() shares it, and its
 * exit wrote a second document into it (not valid JSON); only the opener
 * writes. */
static pid_t trace_pid;
static uint64_t t0;
static int written;           /* atomic: the file is written once */

/* The root activity's open segment: written by processor 0 only, read by it
 * and by the exit writer, which may run on another thread while processor 0
 * goes on (exit() or a fatal error in a worker's activity): atomic, relaxed
 * (ThreadSanitizer reported the plain ones; tester).  The writer may then
 * pair one segment's start with the next one's number, for a root slice
 * that is cut short anyway. */
static int root_open;
static uint64_t root_seg, root_start;

uint64_t parc_trace_now(void) { return parc_now_ns() - t0; }

static void trace_atexit(void) { parc_trace_flush(); }

void parc_trace_open(const char *path) {
  if (!*path)
    parc_fatal(2, "PARC_TRACE=: expected a file name");
  FILE *f = fopen(path, "we");
  if (!f)
    parc_fatal(2, "PARC_TRACE=%s: %s", path, strerror(errno));
  fclose(f);
  char cwd[PATH_MAX];
  if (path[0] != '/' && getcwd(cwd, sizeof cwd)) {
    if (asprintf(&trace_abspath, "%s/%s", cwd, path) < 0)
      trace_abspath = NULL;
  } else {
    trace_abspath = strdup(path);
  }
  if (!trace_abspath)
    parc_fatal(2, "PARC_TRACE=%s: %s", path, strerror(ENOMEM));
  trace_path = path;
  trace_pid = getpid();
  t0 = parc_now_ns();
  root_open = 1;
  root_seg = 0;
  root_start = 0;
  atexit(trace_atexit);
}

/* ---- Recording ------------------------------------------------------------ */

/* n (1 or 2) free records in p's current chunk, or NULL (counted dropped). */
static parc_tev *tev_get(parc_proc *p, int n) {
  parc_tbuf *tb = p->tbuf;
  if (PARC_UNLIKELY(!tb)) {
    tb = calloc(1, sizeof *tb);
    if (!tb)
      return NULL;
    /* release: the writer reads the buffer through this pointer. */
    __atomic_store_n(&p->tbuf, tb, __ATOMIC_RELEASE);
  }
  parc_tchunk *c = tb->cur;
  if (PARC_UNLIKELY(!c || c->n + (uint32_t)n > TCHUNK)) {
    /* After a failure, a chunk's worth of records is dropped before the
     * next try: under `ulimit -v` every record tried malloc (and mmap and
     * brk) again, and a run of 10^7 activities took 39 s instead of 16. */
    parc_tchunk *nc = NULL;
    if (tb->backoff >= (uint32_t)n)
      tb->backoff -= (uint32_t)n;
    else if (!(nc = malloc(sizeof *nc)))
      tb->backoff = TCHUNK;
    if (!nc) {
      __atomic_store_n(&tb->dropped, tb->dropped + (uint64_t)n, __ATOMIC_RELAXED);
      return NULL;
    }
    nc->next = NULL;
    nc->n = 0;
    /* release: the chunk's initialised header before the link. */
    if (c)
      __atomic_store_n(&c->next, nc, __ATOMIC_RELEASE);
    else
      __atomic_store_n(&tb->head, nc, __ATOMIC_RELEASE);
    tb->cur = c = nc;
  }
  return &c->ev[c->n];
}

static void tev_commit(parc_proc *p, int n) {
  parc_tchunk *c = p->tbuf->cur;
  /* release: the records before the count that covers them. */
  __atomic_store_n(&c->n, c->n + (uint32_t)n, __ATOMIC_RELEASE);
}

static void put_act(parc_tev *e, const parc_batch *b) {
  if (b) {
    e->site = b->d->site;
    e->exec = b->d->exec;
    e->index = b->act.cur;
  } else {
    e->site = NULL;
    e->exec = 0;
    e->index = 0;
  }
}

static int env_id(parc_proc *p) { return p->cur ? p->cur->trace_id : -1; }

/* Slice of b's current activity (segment b->seg) ending at `end`. */
void parc_trace_slice(parc_proc *p, parc_batch *b, uint64_t end, int flags) {
  parc_tev *e = tev_get(p, 1);
  if (!e)
    return;
  e->type = EV_SLICE;
  e->flags = (uint8_t)flags;
  e->env = env_id(p);
  e->ts = b->seg_start;
  e->dur = end >= b->seg_start ? end - b->seg_start : 0;
  e->seg = b->seg;
  put_act(e, b);
  tev_commit(p, 1);
}

static void root_slice(parc_proc *p, uint64_t end) {
  parc_tev *e = tev_get(p, 1);
  __atomic_store_n(&root_open, 0, __ATOMIC_RELAXED);
  if (!e)
    return;
  e->type = EV_SLICE;
  e->flags = 0;
  e->env = 0;
  uint64_t start = __atomic_load_n(&root_start, __ATOMIC_RELAXED);
  e->ts = start;
  e->dur = end >= start ? end - start : 0;
  e->seg = __atomic_load_n(&root_seg, __ATOMIC_RELAXED);
  put_act(e, NULL);
  tev_commit(p, 1);
}

static void mark(parc_proc *p, int type, int reason, parc_ctx *c, uint64_t t) {
  parc_tev *e = tev_get(p, 1);
  if (!e)
    return;
  e->type = (uint8_t)type;
  e->flags = 0;
  e->reason = (uint8_t)reason;
  e->env = c->trace_id;
  e->ts = t;
  e->dur = e->seg = 0;
  put_act(e, c->cur_act);
  tev_commit(p, 1);
}

int parc_trace_reason(parc_ctx *c) {
  return c->wait_kind == PARC_WAIT_SYNC  ? PARC_TRACE_SYNC
         : c->wait_kind == PARC_WAIT_SEM ? PARC_TRACE_SEM
                                         : PARC_TRACE_CHILDREN;
}

/* Context c parks (or yields) on p: close every open segment on it, then
 * the block mark. */
void parc_trace_park(parc_proc *p, parc_ctx *c, int reason) {
  uint64_t t = parc_trace_now();
  for (parc_batch *b = c->cur_act; b; b = b->outer)
    parc_trace_slice(p, b, t, 0);
  if (c == parc_root_ctx())
    root_slice(p, t);
  mark(p, EV_BLOCK, reason, c, t);
}

/* Context c runs again on p: the resume mark, and the next segments. */
void parc_trace_resume(parc_proc *p, parc_ctx *c, int reason) {
  uint64_t t = parc_trace_now();
  mark(p, EV_RESUME, reason, c, t);
  for (parc_batch *b = c->cur_act; b; b = b->outer) {
    b->seg++;
    b->seg_start = t;
  }
  if (c == parc_root_ctx()) {
    __atomic_store_n(&root_seg, __atomic_load_n(&root_seg, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&root_start, t, __ATOMIC_RELAXED);
    __atomic_store_n(&root_open, 1, __ATOMIC_RELAXED);
  }
}

/* p's scheduler hands the processor to context `to`. */
void parc_trace_switch(parc_proc *p, parc_ctx *to) {
  parc_tev *e = tev_get(p, 1);
  int from = p->trace_last;
  p->trace_last = to->trace_id;
  if (!e)
    return;
  e->type = EV_SWITCH;
  e->flags = 0;
  e->env = from;
  e->dur = (uint64_t)(int64_t)to->trace_id;
  e->ts = parc_trace_now();
  e->seg = 0;
  put_act(e, NULL);
  tev_commit(p, 1);
}

/* A kill of d's activities was just posted by the calling activity. */
void parc_trace_kill(parc_drt *d) {
  parc_proc *p = parc_self();
  if (!p)
    return;
  parc_tev *e = tev_get(p, 2);
  if (!e)
    return;
  int uncoded = !d->coded || parc_rt.kill_mode == PARC_KILL_BOTTOMUP;
  e[0].type = EV_KILL;
  e[0].flags = (uint8_t)(__atomic_load_n(&d->preturned, __ATOMIC_RELAXED) ? 1 : 0);
  e[0].reason = (uint8_t)uncoded;
  e[0].env = 0;
  e[0].ts = parc_trace_now();
  e[0].site = d->site;
  e[0].exec = d->exec;
  e[0].index = 0;
  e[0].dur = d->lo + 1;
  e[0].seg = d->lo + d->count * d->w;
  e[1].type = EV_KILL2;
  e[1].flags = 0;
  put_act(&e[1], p->cur ? p->cur->cur_act : NULL);
  e[1].flags = p->cur && p->cur->cur_act ? 1 : 0;
  tev_commit(p, 2);
}

/* ---- Writing ----------------------------------------------------------------- */

static void put_str(FILE *f, const char *s) {
  const unsigned char *u = (const unsigned char *)(s ? s : "?");
  /* Valid UTF-8 is copied; otherwise bytes >= 0x80 become '?'. */
  int valid = 1;
  for (const unsigned char *q = u; *q && valid;) {
    int n = *q < 0x80 ? 0 : (*q & 0xE0) == 0xC0 ? 1 : (*q & 0xF0) == 0xE0 ? 2
                                                  : (*q & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0 || (n == 1 && *q < 0xC2)) {
      valid = 0;
      break;
    }
    q++;
    for (int i = 0; i < n; i++, q++)
      if ((*q & 0xC0) != 0x80)
        valid = 0;
  }
  fputc('"', f);
  for (; *u; u++) {
    if (*u == '"' || *u == '\\')
      fprintf(f, "\\%c", *u);
    else if (*u < 0x20)
      fprintf(f, "\\u%04x", *u);
    else if (*u >= 0x80 && !valid)
      fputc('?', f);
    else
      fputc(*u, f);
  }
  fputc('"', f);
}

static const char *kind_str(unsigned k) {
  switch (k & PARC_KIND_MASK) {
  case PARC_KIND_PARBLOCK: return "parblock";
  case PARC_KIND_LPARFOR: return "lparfor";
  case PARC_KIND_MAPPED_LPARFOR: return "mapped-lparfor";
  default: return "parfor";
  }
}

static void put_site(FILE *f, const parc_site *s) {
  if (!s) {
    fputs("\"<root>\"", f);
    return;
  }
  char buf[64];
  snprintf(buf, sizeof buf, ":%u:%u", s->line, s->col);
  size_t n = strlen(s->file ? s->file : "?");
  char *full = malloc(n + sizeof buf);
  if (!full) {
    put_str(f, "?");
    return;
  }
  memcpy(full, s->file ? s->file : "?", n);
  strcpy(full + n, buf);
  put_str(f, full);
  free(full);
}

static void put_name(FILE *f, const parc_site *s) {
  if (!s) {
    fputs("\"main root\"", f);
    return;
  }
  char buf[256];
  snprintf(buf, sizeof buf, "%s %s L%u", s->func ? s->func : "?", kind_str(s->kind), s->line);
  put_str(f, buf);
}

static void put_time(FILE *f, const char *key, uint64_t ns) {
  fprintf(f, ", \"%s\": %llu.%03llu", key, (unsigned long long)(ns / 1000),
          (unsigned long long)(ns % 1000));
}

static void put_actargs(FILE *f, const parc_tev *e) {
  fputs("\"site\": ", f);
  put_site(f, e->site);
  fprintf(f, ", \"execution\": %llu, \"index\": %llu", (unsigned long long)e->exec,
          (unsigned long long)e->index);
}

static void write_event(FILE *f, int tid, const parc_tev *e, const parc_tev *e2) {
  switch (e->type) {
  case EV_SLICE:
    fprintf(f, "{\"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"cat\": \"activity\", \"name\": ", tid);
    put_name(f, e->site);
    put_time(f, "ts", e->ts);
    put_time(f, "dur", e->dur);
    fputs(", \"args\": {", f);
    put_actargs(f, e);
    fprintf(f, ", \"envelope\": %d, \"segment\": %llu", e->env, (unsigned long long)e->seg);
    if (e->flags & PARC_TRACE_KILLED)
      fputs(", \"killed\": true", f);
    if (e->flags & PARC_TRACE_UNFINISHED)
      fputs(", \"unfinished\": true", f);
    fputs("}}", f);
    break;
  case EV_SWITCH:
    fprintf(f,
            "{\"ph\": \"i\", \"s\": \"t\", \"pid\": 1, \"tid\": %d, \"cat\": \"envelope\", "
            "\"name\": \"switch\"",
            tid);
    put_time(f, "ts", e->ts);
    fprintf(f, ", \"args\": {\"from\": %d, \"to\": %d}}", e->env, (int)(int64_t)e->dur);
    break;
  case EV_BLOCK:
  case EV_RESUME: {
    const char *cat = e->type == EV_BLOCK ? "block" : "resume";
    fprintf(f,
            "{\"ph\": \"i\", \"s\": \"t\", \"pid\": 1, \"tid\": %d, \"cat\": \"%s\", "
            "\"name\": \"%s: %s\"",
            tid, cat, cat, reason_name[e->reason <= PARC_TRACE_YIELD ? e->reason : PARC_TRACE_CHILDREN]);
    put_time(f, "ts", e->ts);
    fputs(", \"args\": {", f);
    put_actargs(f, e);
    fprintf(f, ", \"envelope\": %d}}", e->env);
    break;
  }
  case EV_KILL:
    fprintf(f,
            "{\"ph\": \"i\", \"s\": \"t\", \"pid\": 1, \"tid\": %d, \"cat\": \"kill\", "
            "\"name\": \"kill\"",
            tid);
    put_time(f, "ts", e->ts);
    fputs(", \"args\": {\"site\": ", f);
    put_site(f, e->site);
    fprintf(f, ", \"execution\": %llu, \"by\": \"%s\", \"range\": ", (unsigned long long)e->exec,
            e->flags ? "preturn" : "pbreak");
    if (e->reason)
      fputs("\"uncoded\"", f);
    else
      fprintf(f, "\"[%llu,%llu]\"", (unsigned long long)e->dur, (unsigned long long)e->seg);
    if (e2 && e2->type == EV_KILL2) {
      fputs(", \"killer_site\": ", f);
      put_site(f, e2->flags ? e2->site : NULL);
      fprintf(f, ", \"killer_execution\": %llu, \"killer_index\": %llu",
              (unsigned long long)e2->exec, (unsigned long long)e2->index);
    }
    fputs("}}", f);
    break;
  default:
    break;
  }
}

/* The warning that the trace file could not be opened or written (errno
 * says why), on a line of its own where nl says the program's output left
 * one unterminated (parc_out_unterminated). */
static void cannot_write(int nl) {
  fprintf(stderr, "%sparc: warning: PARC_TRACE=%s: cannot write the trace: %s\n",
          nl ? "\n" : "", trace_path, strerror(errno));
}

/* Close what is open on the exiting thread's processor, then write the file
 * (once; later calls do nothing). */
void parc_trace_flush(void) {
  if (!trace_abspath || getpid() != trace_pid || __atomic_exchange_n(&written, 1, __ATOMIC_ACQ_REL))
    return;
  uint64_t t = parc_trace_now();
  parc_proc *self = parc_rt.procs ? parc_self() : NULL;
  if (self && self->cur) {
    for (parc_batch *b = self->cur->cur_act; b; b = b->outer)
      parc_trace_slice(self, b, t, PARC_TRACE_UNFINISHED);
  }
  /* The root's last segment, if main's context runs or was running: written
   * directly below (track 0 belongs to processor 0's buffer). */
  int root_last = __atomic_load_n(&root_open, __ATOMIC_RELAXED);
  uint64_t root_t = __atomic_load_n(&root_start, __ATOMIC_RELAXED);
  parc_tev re = {EV_SLICE, 0, 0, 0, root_t, NULL, 0, 0, t >= root_t ? t - root_t : 0,
                 __atomic_load_n(&root_seg, __ATOMIC_RELAXED)};

  /* What the program printed comes first: the trace may be cut short.  A
   * file size limit (ulimit -f) sends SIGXFSZ, which ended the process in
   * the middle of the trace, with the program's last output still in the
   * stdout buffer: ignored while writing, it makes the write fail (EFBIG),
   * which the warning below reports.  The warning starts a line of its
   * own where the program's last line was left unterminated on the same
   * file (parc_out_unterminated). */
  int nl = parc_out_unterminated(1);
  fflush(stdout);
  struct sigaction ign = {.sa_handler = SIG_IGN}, old_xfsz;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGXFSZ, &ign, &old_xfsz);
  FILE *f = fopen(trace_abspath, "we");
  if (!f) {
    cannot_write(nl);
    sigaction(SIGXFSZ, &old_xfsz, NULL);
    return;
  }
  fputs("{\"traceEvents\": [\n{\"ph\": \"M\", \"pid\": 1, \"name\": \"process_name\", "
        "\"args\": {\"name\": ",
        f);
  char pname[512];
  snprintf(pname, sizeof pname, "parc: %s", program_invocation_name);
  put_str(f, pname);
  fputs("}}", f);
  uint64_t dropped = 0;
  for (int k = 0; k < parc_rt.P && parc_rt.procs; k++) {
    parc_proc *p = &parc_rt.procs[k];
    int cpu = __atomic_load_n(&p->cpu, __ATOMIC_RELAXED);
    fprintf(f,
            ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"name\": \"thread_name\", "
            "\"args\": {\"name\": \"processor %d (cpu %d, node %d)\"}}",
            k, k, cpu, parc_node_of_cpu(cpu));
    fprintf(f,
            ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"name\": \"thread_sort_index\", "
            "\"args\": {\"sort_index\": %d}}",
            k, k);
  }
  uint64_t root_written = 0; /* root segments below this are in processor 0's buffer */
  for (int k = 0; k < parc_rt.P && parc_rt.procs; k++) {
    /* acquire: pairs with the owner's release of tbuf, chunk links, counts. */
    parc_tbuf *tb = __atomic_load_n(&parc_rt.procs[k].tbuf, __ATOMIC_ACQUIRE);
    if (!tb)
      continue;
    dropped += __atomic_load_n(&tb->dropped, __ATOMIC_RELAXED);
    for (parc_tchunk *c = __atomic_load_n(&tb->head, __ATOMIC_ACQUIRE); c;
         c = __atomic_load_n(&c->next, __ATOMIC_ACQUIRE)) {
      uint32_t n = __atomic_load_n(&c->n, __ATOMIC_ACQUIRE);
      for (uint32_t i = 0; i < n; i++) {
        /* The trace ends at t, as the root's last segment does: other
         * processors go on running (an exit() from an activity, here on
         * another thread), and what they record after t is left out, a
         * slice that ends after it cut at t and marked unfinished, or it
         * would outlast the root slice that holds it (main's inline
         * activities) and the slices would not nest. */
        parc_tev e = c->ev[i];
        if (e.type == EV_KILL2 || e.ts > t)
          continue;
        if (e.type == EV_SLICE && e.dur > t - e.ts) {
          e.dur = t - e.ts;
          e.flags |= PARC_TRACE_UNFINISHED;
        }
        if (k == 0 && e.type == EV_SLICE && !e.site && e.seg >= root_written)
          root_written = e.seg + 1;
        fputs(",\n", f);
        write_event(f, k, &e, i + 1 < n ? &c->ev[i + 1] : NULL);
      }
    }
  }
  /* Processor 0 may have closed the segment read above meanwhile (it goes
   * on while another thread exits): then its buffer has it, and a second
   * slice of the same segment made the trace invalid (test
   * trace/runtime-exit-root.pc, about 1 run in 100). */
  if (root_last && re.seg >= root_written) {
    fputs(",\n", f);
    write_event(f, 0, &re, NULL);
  }
  fputs("\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"parc_version\": 1, ", f);
  fprintf(f, "\"nprocs\": %d, \"program\": ", parc_rt.P);
  put_str(f, program_invocation_name);
  fprintf(f, ", \"dropped\": %llu}}\n", (unsigned long long)dropped);
  if (fclose(f) != 0)
    cannot_write(nl);
  sigaction(SIGXFSZ, &old_xfsz, NULL);
}
