/* test/bench/w7.h: W7, quicksort of 1e7 ints with a cutoff of 1000: the
 * partition step and the leaf sort that every version shares.
 *
 * Every version runs the same recursion: above the cutoff, partition (Hoare,
 * median-of-three pivot) and sort the two parts (in parallel, or one after the
 * other in the serial version); at or below it, the serial leaf sort below,
 * which is the same partition recursion down to 16 elements and insertion sort.
 * The checksum is a position-weighted hash of the sorted array, the same for
 * every correct sort; the check is order plus two multiset sums of the input.
 */
#ifndef PARCC_BENCH_W7_H
#define PARCC_BENCH_W7_H

#include "common.h"

#define W7_DEFAULT_N 10000000L
#define W7_DEFAULT_CUTOFF 1000L

static inline int w7_med3(int a, int b, int c) {
  if (a < b)
    return b < c ? b : (a < c ? c : a);
  return a < c ? a : (b < c ? c : b);
}

/* Hoare partition around the median of first, middle and last: returns m in
 * [1, n-1] with a[0..m) <= pivot <= a[m..n).  Needs n >= 2. */
static inline long w7_partition(int *a, long n) {
  int p = w7_med3(a[0], a[n / 2], a[n - 1]);
  long i = -1, j = n;
  for (;;) {
    do
      i++;
    while (a[i] < p);
    do
      j--;
    while (a[j] > p);
    if (i >= j)
      return j + 1;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

static inline void w7_insertion(int *a, long n) {
  for (long i = 1; i < n; i++) {
    int v = a[i];
    long j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

/* The leaf code, the same in every version. */
static void w7_leaf_sort(int *a, long n) {
  while (n > 16) {
    long m = w7_partition(a, n);
    /* recurse into the smaller part, loop on the larger: bounded depth */
    if (m < n - m) {
      w7_leaf_sort(a, m);
      a += m;
      n -= m;
    } else {
      w7_leaf_sort(a + m, n - m);
      n = m;
    }
  }
  w7_insertion(a, n);
}

struct w7_sums {
  unsigned long long plain, mixed;
};

static inline struct w7_sums w7_multiset(const int *a, long n) {
  struct w7_sums s = {0, 0};
  for (long i = 0; i < n; i++) {
    s.plain += (unsigned long long)(unsigned)a[i];
    s.mixed += bench_mix((uint64_t)(unsigned)a[i]);
  }
  return s;
}

static inline int *w7_input(long n, struct w7_sums *before) {
  int *a = (int *)bench_alloc((size_t)n * sizeof(int));
  for (long i = 0; i < n; i++)
    a[i] = (int)(bench_mix((uint64_t)i ^ 0x7777) & 0x7fffffff);
  *before = w7_multiset(a, n);
  return a;
}

static inline int w7_report(int *a, long n, struct w7_sums before, double t, int threads) {
  int ok = 1;
  unsigned long long h = 0;
  for (long i = 0; i < n; i++) {
    if (i > 0 && a[i - 1] > a[i])
      ok = 0;
    h = h * 1000003ULL + (unsigned)a[i];
  }
  struct w7_sums after = w7_multiset(a, n);
  if (after.plain != before.plain || after.mixed != before.mixed)
    ok = 0;
  free(a);
  return bench_report(t, h, ok, -1, threads);
}

#endif /* PARCC_BENCH_W7_H */
