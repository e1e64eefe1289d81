// Plain C through parcc behaves as through cc: K&R definitions, gotos,
// switch, loops of every kind, varargs, the words mapped and sync as
// ordinary identifiers (sync() from <unistd.h> included).
// RUN: %parcc %s -o %t
// RUN: %run-1 %t | %FileCheck %s
// RUN: %run-4 %t | %FileCheck %s
// RUN: %parcc-clang %s -o %t.clang
// RUN: %run-4 %t.clang | %FileCheck %s
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static int mapped = 3;

static int sum(int n, ...)
{
    va_list ap;
    int s = 0;
    va_start(ap, n);
    while (n-- > 0)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

int kr(a, b)
int a;
char b;
{
    return a + b;
}

int main(void)
{
    int i = 0, total = 0;
    int (*sync_fn)(void) = 0;
    void (*s)(void) = sync;
    (void)sync_fn;

    do { total += i; } while (++i < 5);
    for (;;) { if (++i > 8) break; total++; }
again:
    if (total < 20) { total++; goto again; }
    switch (total) {
    case 20: total += mapped; break;
    default: total = -1;
    }
    sync();
    s();
    printf("plain %d %d %d\n", total, sum(3, 1, 2, 3), kr(1, 2));
    // CHECK: plain 23 6 3
    return 0;
}
