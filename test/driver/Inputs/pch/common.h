#ifndef COMMON_H
#define COMMON_H
#include <stdio.h>
static inline long square(long x) { return x * x; }
#endif
