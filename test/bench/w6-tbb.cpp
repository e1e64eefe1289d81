// test/bench/w6-tbb.cpp: W6 key search, TBB parallel_for with static_partitioner
// (P equal shares); the finder cancels the task group and every iteration
// polls the cancellation flag (`cancel`), or nobody polls (`nocancel`).
#include <tbb/blocked_range.h>
#include <tbb/task_group.h>

#include "bench_tbb.h"
#include "w6.h"

static long search_cancel(const int *a, long n, int key) {
  long found = -1;
  tbb::task_group_context ctx;
  tbb::parallel_for(
      tbb::blocked_range<long>(0, n),
      [&](const tbb::blocked_range<long> &r) {
        for (long i = r.begin(); i < r.end(); i++) {
          if (a[i] == key) {
            found = i;
            ctx.cancel_group_execution();
            return;
          }
          if (ctx.is_group_execution_cancelled())
            return;
        }
      },
      tbb::static_partitioner(), ctx);
  return found;
}

static long search_nocancel(const int *a, long n, int key) {
  long found = -1;
  tbb::parallel_for(
      tbb::blocked_range<long>(0, n),
      [&](const tbb::blocked_range<long> &r) {
        for (long i = r.begin(); i < r.end(); i++)
          if (a[i] == key)
            found = i;
      },
      tbb::static_partitioner());
  return found;
}

int main(int argc, char **argv) {
  const char *v = bench_variant(argc, argv, "cancel nocancel");
  long n = bench_arg(argc, argv, 2, W6_DEFAULT_N);
  long pct = bench_arg(argc, argv, 3, W6_DEFAULT_PCT);
  long pos = w6_key_pos(n, pct, bench_threads());
  int *a = w6_input(n, pos);
  bench_tbb_setup setup;
  double t0 = bench_now();
  long found = strcmp(v, "nocancel") == 0 ? search_nocancel(a, n, W6_KEY) : search_cancel(a, n, W6_KEY);
  double t = bench_now() - t0;
  return w6_report(a, found, pos, t, setup.threads);
}
