// Plain C whose loops carry pragmas: nothing may come between a pragma and
// the statement it governs, and an OpenMP loop keeps its canonical form.
// parcc put the entry poll between them (`#pragma omp parallel for` then
// `parc_poll(); for ...`: gcc's "for statement expected"; `parc_poll();
// #pragma GCC unroll 4`: a stray '#', since Clang starts that loop at its
// pragma) and polled in the conditions of the loops that an omp directive
// governs ("invalid controlling predicate").  Now the entry poll goes to
// the function's entry, and those loops keep their form.
// RUN: %parcc %cflags-strict -Wno-unknown-pragmas -O2 %s -o %t
// RUN: %run %t | %FileCheck %s
// (One OpenMP thread: libgomp is not built for ThreadSanitizer.)
// RUN: %parcc %cflags-strict -O2 -fopenmp %s -o %t.omp
// RUN: env OMP_NUM_THREADS=1 %run %t.omp | %FileCheck %s
// RUN: %parcc-clang %cflags-strict -Wno-unknown-pragmas -O2 %s -o %t.clang
// RUN: %run %t.clang | %FileCheck %s
// RUN: %parcc -emit-c %s | %FileCheck %s --check-prefix=EMIT
// CHECK: 387072.0 21 4950 1008.0 3.5
#include <stdio.h>
#include <string.h>

static double grid[64][64];

static double cell(int i, int j) { return (double)strlen("ab") * i + j; }

// EMIT-LABEL: double fill(int n)
// EMIT-NEXT: { parc_poll();
// EMIT: #pragma omp parallel for collapse(2) \
// EMIT-NEXT: reduction(+:s)
// EMIT-NEXT: for (int i = 0; i < n; i++)
// EMIT-NEXT: for (int j = 0; j < n; j++) {
double fill(int n)
{
    double s = 0;
#pragma omp parallel for collapse(2) \
    reduction(+:s)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            grid[i][j] = cell(i, j);
            s += grid[i][j];
        }
    return s;
}

// EMIT-LABEL: long unrolled(const char *w)
// EMIT-NEXT: { parc_poll();
// EMIT: {{^}}#pragma GCC unroll 4
// EMIT-NEXT: for (int i = 0; (parc_poll(), w[i]); i++)
long unrolled(const char *w)
{
    long n = 0;
#pragma GCC unroll 4
    for (int i = 0; w[i]; i++)
        n += (long)strlen(w + i);
    return n;
}

// A pragma that a macro writes (_Pragma) is found by what comes before
// the loop: a macro name, which the statement continues, and no `;`.
// EMIT-LABEL: double halves(int n)
// EMIT-NEXT: { parc_poll();
// EMIT: PFOR
// EMIT-NEXT: for (int i = 0; i < n; i++)
#define PFOR _Pragma("omp parallel for reduction(+:h)")
static double half(int i) { return i * 0.5; }
double halves(int n)
{
    double h = 0;
    PFOR
    for (int i = 0; i < n; i++)
        h += half(i);
    return h;
}

// The directive under `#ifdef _OPENMP`, which the front end does not
// define: the loop polled, and gcc -fopenmp stopped at the poll.
// EMIT-LABEL: double squares(int n)
// EMIT: #pragma omp parallel for reduction(+:q)
// EMIT-NEXT: #endif
// EMIT-NEXT: for (int i = 0; i < n; i++)
double squares(int n)
{
    double q = 0;
#ifdef _OPENMP
#pragma omp parallel for reduction(+:q)
#endif
    for (int i = 0; i < n; i++)
        q += half(i) * half(i);
    return q;
}

// A loop in an omp parallel region that is no loop directive polls.
// EMIT-LABEL: int main(void)
// EMIT: while ((parc_poll(), k < 0))
// EMIT: #pragma omp simd reduction(+:t)
// EMIT-NEXT: for (int i = 0; i < 100; i++)
int main(void)
{
    long t = 0;
    int k = 0;
#pragma omp parallel
    {
        while (k < 0)
            k++;
    }
#pragma omp simd reduction(+:t)
    for (int i = 0; i < 100; i++)
        t += i;
    printf("%.1f %ld %ld %.1f %.1f\n", fill(64), unrolled("abcdef"), t, halves(64), squares(4));
    return 0;
}
