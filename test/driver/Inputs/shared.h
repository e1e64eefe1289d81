#ifndef SHARED_H
#define SHARED_H
#ifndef N
#define N 4
#endif
int square(int x);
int plain_sum(int n);
#endif
