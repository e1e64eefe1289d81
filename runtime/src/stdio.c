/* stdio.c - printf and fprintf whole under the stream's lock.
 *
 * The contract: output written with stdio by activities is not torn at the
 * level of a single printf call.  glibc (2.36 here) keeps that for buffered
 * streams, but printf to an unbuffered stream (stderr always, stdout after
 * setvbuf(_IONBF)) formats into an 8 KiB buffer of its own and writes each
 * full one out before it takes the stream's lock, so one printf of more than
 * 8 KiB is interleaved with other threads' output: with 8 threads printing
 * 100 KB lines, every line came out torn.  These definitions, linked into
 * the program ahead of libc's, take the stream's lock (recursive) around
 * the whole call.  They are hidden, so a shared library built by parcc keeps
 * them to itself, and weak, so a program that defines printf itself keeps
 * its own (and links: fprintf pulls this member in all the same).
 *
 * The work is done by libc's __vfprintf_chk (flag 0: exactly vfprintf),
 * found with dlsym(RTLD_NEXT): a program may define __vfprintf_chk itself
 * and call vfprintf from it (gcc's torture test vfprintf-chk-1.c does), and
 * calling the program's from vfprintf made the two recurse (that test
 * aborted).  In a static program, which has no dynamic symbols, it is the
 * one the link found.  Only with glibc.  __vfprintf_chk itself, which the
 * _FORTIFY_SOURCE versions of vprintf and vfprintf call from the program,
 * is not wrapped. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#ifdef __GLIBC__

extern int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);

#define PARC_STDIO_WRAP __attribute__((visibility("hidden"), weak))

typedef int (*vfprintf_chk_fn)(FILE *, int, const char *, va_list);

static vfprintf_chk_fn libc_vfprintf_chk(void) {
  static vfprintf_chk_fn found; /* atomic: racing first calls find the same */
  vfprintf_chk_fn f = __atomic_load_n(&found, __ATOMIC_ACQUIRE);
  if (PARC_UNLIKELY(!f)) {
    void *sym = dlsym(RTLD_NEXT, "__vfprintf_chk");
    if (sym)
      memcpy(&f, &sym, sizeof f); /* object to function pointer, as POSIX allows */
    else
      f = __vfprintf_chk;
    __atomic_store_n(&found, f, __ATOMIC_RELEASE);
  }
  return f;
}

static void unlock_stream(void *f) { funlockfile(f); }

/* A thread cancelled in the call (write is a cancellation point: printf
 * blocks in it on a full pipe) gives the lock back, as glibc's printf does
 * with its own: it stayed held by the dead thread, and the program's next
 * printf to the stream hung.  pthread_cleanup_push, not a cleanup attribute
 * and -fexceptions, whose personality routine would make every program
 * that calls printf need libgcc_s. */
static int locked_vfprintf(FILE *f, int flag, const char *fmt, va_list ap) {
  int r;
  flockfile(f);
  pthread_cleanup_push(unlock_stream, f);
  r = libc_vfprintf_chk()(f, flag, fmt, ap);
  pthread_cleanup_pop(1);
  return r;
}

PARC_STDIO_WRAP int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap) {
  return locked_vfprintf(f, 0, fmt, ap);
}

PARC_STDIO_WRAP int vprintf(const char *restrict fmt, va_list ap) {
  return locked_vfprintf(stdout, 0, fmt, ap);
}

PARC_STDIO_WRAP int fprintf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = locked_vfprintf(f, 0, fmt, ap);
  va_end(ap);
  return r;
}

PARC_STDIO_WRAP int printf(const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = locked_vfprintf(stdout, 0, fmt, ap);
  va_end(ap);
  return r;
}

/* The same for -D_FORTIFY_SOURCE, which calls these instead. */
int __printf_chk(int flag, const char *fmt, ...);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __vprintf_chk(int flag, const char *fmt, va_list ap);

PARC_STDIO_WRAP int __printf_chk(int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = locked_vfprintf(stdout, flag, fmt, ap);
  va_end(ap);
  return r;
}

PARC_STDIO_WRAP int __fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = locked_vfprintf(f, flag, fmt, ap);
  va_end(ap);
  return r;
}

PARC_STDIO_WRAP int __vprintf_chk(int flag, const char *fmt, va_list ap) {
  return locked_vfprintf(stdout, flag, fmt, ap);
}

#endif
