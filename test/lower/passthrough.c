// A file without constructs keeps its text; it only gains the ABI header
// and the poll points.
// RUN: %parcc -emit-c %s -o %t.c
// RUN: grep -v CHECK %t.c | %FileCheck %s --check-prefix=CHECK-LOWER
// RUN: %gcc %cflags-strict -fsyntax-only -I%runtime-include %t.c
// RUN: %clang19 %cflags-strict -fsyntax-only -I%runtime-include %t.c
#include <stdio.h>

static inline int twice(int x) { return 2 * x; }
int mapped = 1;

int main(void)
{
    printf("%d\n", twice(mapped));
    return 0;
}

// CHECK-LOWER:      #include <parc_abi.h>
// CHECK-LOWER-NEXT: _Static_assert
// CHECK-LOWER-NEXT: #define __PARCC__ 1
// CHECK-LOWER-NEXT: #line 1 "{{.*}}passthrough.c"
// CHECK-LOWER-NEXT: // A file without constructs keeps its text
// A brief function (no call, no loop) needs no poll; main calls printf first.
// CHECK-LOWER:      static inline int twice(int x) { return 2 * x; }
// CHECK-LOWER-NEXT: int mapped = 1;
// CHECK-LOWER:      int main(void)
// CHECK-LOWER-NEXT: { parc_poll();
// CHECK-LOWER-NOT:  parc_mark
