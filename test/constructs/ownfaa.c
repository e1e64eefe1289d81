// Plain C with a faa of its own: parc.h's macro does not get in the way.
// RUN: %parcc %s -o %t
// RUN: %run-1 %t | %FileCheck %s
// RUN: %parcc-clang %s -o %t.clang
// RUN: %run-1 %t.clang | %FileCheck %s
#include <stdio.h>

static int faa(int *p, int v)
{
    int old = *p;
    *p += v;
    return old;
}

int main(void)
{
    int x = 1;
    int old = faa(&x, 2);
    printf("faa %d %d\n", old, x);
    // CHECK: faa 1 3
    return 0;
}
