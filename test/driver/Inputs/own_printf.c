/* A program with a printf of its own (as test suites and debugging shims
 * have), which also calls fprintf: libparc's stdio member, pulled in for
 * fprintf, must not bring a second printf. */
#include <stdarg.h>
#include <stdio.h>

int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("[own] ", stdout);
  int r = vfprintf(stdout, fmt, ap);
  va_end(ap);
  return r;
}

int main(void) {
  printf("hello %d\n", 42);
  fprintf(stdout, "plain %d\n", 7);
  return 0;
}
