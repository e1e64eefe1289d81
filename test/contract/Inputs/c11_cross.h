/* c11_cross_tu.pc and Inputs/c11_cross_a.pc: a plain-C static inline helper
   that both files call inside activities, and their cross declarations. */
#ifndef SHARED_H
#define SHARED_H
static inline long mix(long x) { return (x * 2654435761L) % 1000003; }
typedef long (*stage_fn)(long);
extern stage_fn stages[4];
long run_a(long x);
long run_b(long x);
long pong(int n);
long ping(int n);
#endif
