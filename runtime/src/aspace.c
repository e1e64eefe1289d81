/* aspace.c - the address-space limit (ulimit -v): is it what a failed
 * thread or envelope ran into, and what takes the space.
 *
 * Graders run programs under `ulimit -v`, which counts address space, not
 * memory: every processor's thread stack and every envelope (stack and
 * guard region) in full, touched or not, and the 64 MiB heap that glibc's
 * malloc reserves for the arena of each thread that calls malloc (up to
 * 8 per CPU; MALLOC_ARENA_MAX=1 makes every thread share main's).  When a
 * thread or an envelope cannot be had, the messages (processor.c,
 * context.c) say so and name only the ways out that apply.  Error paths
 * only: /proc is read with open and read, no malloc (there may be none
 * left).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

/* glibc's HEAP_MAX_SIZE on 64-bit targets: each arena heap is a mapping of
 * this size, aligned to it (malloc/arena.c). */
#define ARENA_HEAP ((uintptr_t)PARC_ARENA_MIB << 20)

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t parc_maps_range(const char *s, size_t len, uintptr_t *lo, uintptr_t *hi) {
  size_t j = 0;
  int v;
  *lo = *hi = 0;
  for (; j < len && (v = hexval(s[j])) >= 0; j++)
    *lo = *lo * 16 + (uintptr_t)v;
  if (j < len && s[j] == '-')
    for (j++; j < len && (v = hexval(s[j])) >= 0; j++)
      *hi = *hi * 16 + (uintptr_t)v;
  return j;
}

int parc_each_line(const char *path, void (*fn)(const char *, size_t, void *), void *arg) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  char buf[1024]; /* small: this may run on an envelope of 16 KiB */
  size_t have = 0;
  for (;;) {
    ssize_t n = read(fd, buf + have, sizeof buf - have);
    if (n <= 0)
      break;
    have += (size_t)n;
    size_t start = 0;
    for (size_t i = 0; i < have; i++)
      if (buf[i] == '\n') {
        fn(buf + start, i - start, arg);
        start = i + 1;
      }
    if (start == 0 && have == sizeof buf) /* a line longer than buf: skip it */
      start = have;
    for (size_t i = start; i < have; i++)
      buf[i - start] = buf[i];
    have -= start;
  }
  close(fd);
  return 1;
}

/* Arena heaps.  The kernel merges a heap's mappings with their anonymous
 * neighbours (envelopes), so their bounds do not tell them: each is told
 * by its start, on a 64 MiB boundary in a read-write mapping, where the
 * heap_info that glibc puts there holds the address of the arena right
 * after it (its first field; malloc/arena.c, new_heap and _int_new_arena). */
#define HEAP_INFO 48 /* sizeof (heap_info) on 64-bit targets */

/* The word at `at`, or 0: read through the kernel, since a read-write
 * mapping may hold guard regions (envelopes', context.c), which fault. */
static uintptr_t peek(uintptr_t at) {
  uintptr_t v = 0;
  struct iovec here = {&v, sizeof v}, there = {(void *)at, sizeof v};
  if (process_vm_readv(getpid(), &here, 1, &there, 1, 0) != (ssize_t)sizeof v)
    return 0;
  return v;
}

static void heap_line(const char *s, size_t len, void *arg) {
  int *n = arg;
  uintptr_t lo, hi;
  size_t j = parc_maps_range(s, len, &lo, &hi);
  if (j + 3 > len || s[j] != ' ' || s[j + 1] != 'r' || s[j + 2] != 'w')
    return;
  for (uintptr_t at = (lo + ARENA_HEAP - 1) & ~(ARENA_HEAP - 1); at && at + HEAP_INFO <= hi;
       at += ARENA_HEAP)
    if (peek(at) == at + HEAP_INFO)
      ++*n;
}

static void statm_line(const char *s, size_t len, void *arg) {
  uint64_t pages = 0;
  for (size_t j = 0; j < len && s[j] >= '0' && s[j] <= '9'; j++)
    pages = pages * 10 + (uint64_t)(s[j] - '0');
  *(uint64_t *)arg = pages;
}

int parc_aspace_full(size_t need, uint64_t *limit_kib, int *arenas) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return 0;
  uint64_t pages = 0;
  if (!parc_each_line("/proc/self/statm", statm_line, &pages) || !pages)
    return 0;
  if (pages * parc_rt.page + need <= (uint64_t)rl.rlim_cur)
    return 0; /* it fits: something else failed */
  *arenas = 0;
  parc_each_line("/proc/self/maps", heap_line, arenas);
  *limit_kib = (uint64_t)rl.rlim_cur / 1024;
  return 1;
}
