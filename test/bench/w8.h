/* test/bench/w8.h: W8, n-queens (n = 12): the board check and the serial
 * solver below depth d that every version shares, and the counts to check.
 *
 * The classic solver of the Cilk and BOTS suites: a board of one column per
 * row, and a new queen checked against every earlier row.  Rows 0 .. d-1 are
 * parallel: one activity per column of the row (n of them; those whose square
 * is attacked finish at once), as a parfor over the columns creates, each
 * with its own copy of the board; from row d on, w8_serial runs in place on
 * the activity's copy.
 */
#ifndef PARCC_BENCH_W8_H
#define PARCC_BENCH_W8_H

#include "common.h"

#define W8_DEFAULT_N 12L
#define W8_DEFAULT_DEPTH 4L
#define W8_MAXN 32

/* May the queen of row `row` (column b[row]) stay, given rows 0 .. row-1? */
static inline int w8_ok(int row, const signed char *b) {
  int c = b[row];
  for (int i = 0; i < row; i++) {
    int d = b[i] - c;
    if (d == 0 || d == row - i || d == i - row)
      return 0;
  }
  return 1;
}

/* Completions of a board whose rows 0 .. row-1 are placed. */
static long w8_serial(int n, int row, signed char *b) {
  if (row == n)
    return 1;
  long count = 0;
  for (int c = 0; c < n; c++) {
    b[row] = (signed char)c;
    if (w8_ok(row, b))
      count += w8_serial(n, row + 1, b);
  }
  return count;
}

/* The activities the parallel versions create: n per placed board in rows
 * below depth. */
static long long w8_activities(int n, int depth, int row, signed char *b) {
  if (row >= depth || row == n)
    return 0;
  long long count = n;
  for (int c = 0; c < n; c++) {
    b[row] = (signed char)c;
    if (w8_ok(row, b))
      count += w8_activities(n, depth, row + 1, b);
  }
  return count;
}

static inline int w8_report(int n, int depth, long count, double t, int parallel, int threads) {
  static const long known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};
  signed char board[W8_MAXN];
  int ok = n < (int)(sizeof known / sizeof known[0]) ? count == known[n] : 1;
  return bench_report(t, (unsigned long long)count, ok,
                      parallel ? w8_activities(n, depth, 0, board) : -1, threads);
}

static inline void w8_args(int argc, char **argv, int *n, int *depth) {
  *n = (int)bench_arg(argc, argv, 2, W8_DEFAULT_N);
  *depth = (int)bench_arg(argc, argv, 3, W8_DEFAULT_DEPTH);
  if (*n > W8_MAXN || *n > 127)
    bench_die("n-queens: n too large", argv[2]);
}

#endif /* PARCC_BENCH_W8_H */
