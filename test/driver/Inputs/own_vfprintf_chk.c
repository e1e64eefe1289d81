/* A program that defines glibc's __vfprintf_chk itself and calls vfprintf
 * from it, as gcc's torture test vfprintf-chk-1.c does: libparc's vfprintf
 * must reach libc's formatting, not come back into this function. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int depth, calls;

int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) {
  (void)flag;
  if (depth++ > 0) {
    fputs("recursed\n", stdout);
    abort();
  }
  calls++;
  int r = vfprintf(f, fmt, ap);
  depth--;
  return r;
}

static int via_chk(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vfprintf_chk(stdout, 1, fmt, ap);
  va_end(ap);
  return r;
}

int main(void) {
  int n = via_chk("chk %d %s\n", 5, "five");
  printf("returned %d, calls %d\n", n, calls);
  return 0;
}
